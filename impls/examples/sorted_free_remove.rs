//! The sorted free-index vector's remove cost against the free count: `pool_sorted_vec`
//! (binary search + `Vec::insert`, O(free)) beside `pool_lowest` (two-level bitset, O(1)) at
//! 10K, 100K and 500K free slots. The benches cap
//! `pool_sorted_vec` ([`impls::id_table::pool_sorted_vec::REMOVE_SHIFT_CAP`]), so the largest
//! point is measured here.
//!
//! Run with `cargo run --release -p impls --example sorted_free_remove`. Per point: insert
//! `2F` objects, remove `F` random ones (untimed: `F` free slots), then time `TIMED` removes
//! of random live objects (the free count grows by `TIMED`, under 10%).

use std::hint::black_box;
use std::time::Instant;

use impls::id_table::IdTable;
use impls::id_table::pool_lowest::PoolLowest;
use impls::id_table::pool_sorted_vec::PoolSortedVec;
use impls::xorshift::XorShift;

/// Removes timed per point.
const TIMED: usize = 1_000;

/// ns per remove with `free` free slots, best of three tables.
fn remove_ns<D: IdTable<u64>>(free: usize) -> f64 {
    let mut best = f64::INFINITY;
    for round in 0..3 {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ round);
        let mut table = D::new();
        let mut live: Vec<D::Id> = (0..2 * free as u64)
            .map(|v| table.insert(v).expect("growable"))
            .collect();
        for _ in 0..free {
            let id = live.swap_remove(rng.below(live.len()));
            table.remove(id).expect("live");
        }
        let victims: Vec<D::Id> = (0..TIMED)
            .map(|_| live.swap_remove(rng.below(live.len())))
            .collect();
        let start = Instant::now();
        for &id in &victims {
            black_box(table.remove(id));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / TIMED as f64);
    }
    best
}

fn main() {
    println!("free slots | pool_sorted_vec ns/remove | pool_lowest ns/remove");
    for free in [10_000, 100_000, 500_000] {
        println!(
            "{free:>10} | {:>25.1} | {:>21.1}",
            remove_ns::<PoolSortedVec<u64>>(free),
            remove_ns::<PoolLowest<u64>>(free)
        );
    }
}
