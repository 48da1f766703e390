//! Scratch measurement, not a benchmark: iteration cost per live object at 1M slots with 50%
//! random holes, for every registered design plus a packed `Vec`, and memory per live object at
//! 1M live 32-byte objects (from each design's `memory_bytes`).
//!
//! Run with `cargo run --release -p impls --example iter_holes`. The real numbers come from the
//! criterion benches; this exists to check that `holey_skip`'s bitmask iteration pays off.

use std::hint::black_box;
use std::time::Instant;

use impls::id_table::{DesignVisitor, IdTable, for_each_design};
use impls::xorshift::XorShift;

/// The 32-byte payload the reports use.
type Payload = [u64; 4];

const REPEATS: usize = 30;

/// Fastest of `REPEATS` runs of `sum`, in ns per live object; checks every run's digest.
fn time_per_object(live: usize, expected: u64, mut sum: impl FnMut() -> u64) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..REPEATS {
        let start = Instant::now();
        let digest = black_box(sum());
        let elapsed = start.elapsed().as_nanos() as f64;
        assert_eq!(digest, expected, "iteration summed the wrong objects");
        best = best.min(elapsed / live as f64);
    }
    best
}

/// Iteration timing at `self.0` slots.
struct IterHoles(usize);

impl DesignVisitor<Payload> for IterHoles {
    fn visit<D: IdTable<Payload> + 'static>(&mut self) {
        let slots = self.0;
        if D::INFO.capacity.is_some_and(|c| c < slots) {
            println!(
                "{:<20} skipped: capacity below {slots} slots",
                D::INFO.meta.name
            );
            return;
        }
        let mut table = D::new();
        let mut ids: Vec<D::Id> = (0..slots as u64)
            .map(|i| table.insert([i, 0, 0, 0]).unwrap())
            .collect();
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        // Fisher-Yates, then remove the first half: 50% holes at random positions.
        for i in (1..ids.len()).rev() {
            ids.swap(i, rng.below(i + 1));
        }
        for id in ids.drain(..slots / 2) {
            table.remove(id).unwrap();
        }
        let expected: u64 = ids.iter().map(|&id| table.get(id).unwrap()[0]).sum();
        let fold = time_per_object(table.len(), expected, || {
            table.iter().map(|p| p[0]).fold(0, u64::wrapping_add)
        });
        let next = time_per_object(table.len(), expected, || {
            let mut sum = 0u64;
            // A `for` loop drives `next`, never `fold`.
            for p in table.iter() {
                sum = sum.wrapping_add(p[0]);
            }
            sum
        });
        println!(
            "{:<20} {fold:>6.2} ns/live object (fold), {next:>6.2} (next)",
            D::INFO.meta.name
        );
    }
}

struct MemoryPerObject;

impl DesignVisitor<Payload> for MemoryPerObject {
    fn visit<D: IdTable<Payload> + 'static>(&mut self) {
        // Designs with a smaller fixed capacity are measured full.
        let count = D::INFO.capacity.unwrap_or(usize::MAX).min(1_000_000) as u64;
        let mut table = D::new();
        for i in 0..count {
            table.insert([i, 0, 0, 0]).unwrap();
        }
        let bytes = table.memory_bytes();
        println!(
            "{:<20} id {:>2} B  {:>6.2} B/live object ({} bytes total, {} live)",
            D::INFO.meta.name,
            D::INFO.id_bytes,
            bytes as f64 / table.len() as f64,
            bytes,
            table.len()
        );
    }
}

fn main() {
    // 1M slots (40+ MB, beyond cache) and 16K slots (in L2: instruction and branch cost only).
    for slots in [1 << 20, 1 << 14] {
        println!("iteration, {slots} slots, 50% random holes, 32-byte payload, best of {REPEATS}:");
        let packed: Vec<Payload> = (0..slots as u64 / 2).map(|i| [i, 0, 0, 0]).collect();
        let expected = packed.iter().map(|p| p[0]).sum();
        let ns = time_per_object(packed.len(), expected, || {
            packed.iter().map(|p| p[0]).fold(0, u64::wrapping_add)
        });
        println!("{:<20} {ns:>6.2} ns/live object", "Vec (packed)");
        for_each_design(&mut IterHoles(slots));
        println!();
    }
    println!();
    println!("memory at 1M live objects of 32 bytes:");
    for_each_design(&mut MemoryPerObject);
}
