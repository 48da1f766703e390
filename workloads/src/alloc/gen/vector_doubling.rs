//! `alloc-vector-doubling`: "Allocation Adventures 2" (`shared/seeds/002_*`): arrays that grow
//! by doubling their capacity ask for power-of-two blocks, "and there is an allocator that is
//! very good at allocating blocks at sizes that are powers of two". `n` arrays grow, interleaved,
//! by `Realloc` to twice their capacity, from 16 bytes to a per-array target; sometimes one
//! shrinks to half; an array that reaches its target is freed and restarted.
//!
//! Every request is a power of two (16 bytes to `32 << max_doublings` bytes), alignment 8.
//!
//! * **Targets.** An array's target capacity is `32 · 2^g` bytes with `g` geometric:
//!   `P(g) = 2^-(g+1)` for `g < max_doublings`, and the remaining `2^-max_doublings` at
//!   `g = max_doublings` (drawn as the trailing zeros of one 64-bit draw, capped). With the
//!   default `max_doublings = 10`, targets run from 32 B (half the arrays) to 32 KiB, and every
//!   target class holds about the same bytes.
//! * **Setup** (untimed): `n` × `Alloc { 16, 8 }`, each array drawing a target; then each array
//!   grows to a stage drawn uniformly from `0..=d` doublings (`d = g + 1`, the doublings to its
//!   target): all these `Realloc`s doubling, shuffled together so arrays grow interleaved.
//! * **Body** (timed): `steps` steps; each picks an array uniformly and, with probability
//!   `shrink_fraction` and capacity above 16 bytes, `Realloc`s it to half its capacity;
//!   otherwise, below its target, `Realloc`s it to twice its capacity; otherwise (at its target)
//!   `Free`s it and `Alloc`s a new 16-byte array in its place with a new target (2 ops).
//!
//! `n` arrays are live at all times but between a restart's `Free` and `Alloc`. Body ops are
//! `steps` plus the restarts (about 30% more with the defaults: half the arrays restart
//! after a single doubling).

use crate::alloc::builder::AllocTraceBuilder;
use crate::alloc::{AllocOp, BlockHandle};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::rng::TraceRng;
use crate::trace::Trace;

/// The capacity every array starts at.
const START_BYTES: u32 = 16;
/// Alignment of every array (8-byte elements).
const ALIGN: u32 = 8;

crate::generate::workload! {
    /// n arrays growing by doubling (Realloc 2x) from 16 B to geometric targets 32 B..32 KiB, 5%
    /// shrinks, freed and restarted at target
    pub struct VectorDoublingParams for "alloc-vector-doubling" {
        /// Number of body steps; each is one `Realloc` (double or halve) or, for an array at
        /// its target, a `Free` and an `Alloc`.
        pub steps: usize = 100_000, in 1..=(MAX_OPS / 2),
        /// Cap `G` on the geometric doubling count: targets are `32 << g` bytes for
        /// `g` in `0..=G`.
        pub max_doublings: u32 = 10, in 0..=24,
        /// Probability that a step halves the chosen array (if above 16 bytes) instead of
        /// growing it.
        pub shrink_fraction: f64 = 0.05, in 0.0..=0.5,
    }
}

/// One array: its current block and the capacity it grows to.
struct Array {
    handle: BlockHandle,
    target: u32,
}

/// A target capacity: `32 << g`, `g` the trailing zeros of one draw capped at `max_doublings`.
fn draw_target(rng: &mut TraceRng, max_doublings: u32) -> u32 {
    let g = rng.next_u64().trailing_zeros().min(max_doublings);
    (2 * START_BYTES) << g
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &VectorDoublingParams) -> Trace<AllocOp> {
    AllocTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let mut arrays: Vec<Array> = (0..n)
            .map(|_| Array {
                handle: b.alloc(START_BYTES, ALIGN),
                target: draw_target(rng, params.max_doublings),
            })
            .collect();
        // Each array appears once per doubling it makes during the setup.
        let mut growth: Vec<u32> = Vec::new();
        for (i, array) in arrays.iter().enumerate() {
            let doublings = (array.target / START_BYTES).ilog2();
            let stage = rng.below(u64::from(doublings) + 1) as usize;
            growth.extend(std::iter::repeat_n(i as u32, stage));
        }
        rng.shuffle(&mut growth);
        for i in growth {
            let h = arrays[i as usize].handle;
            b.realloc(h, b.size(h) * 2);
        }
        b.start_body();
        if n > 0 {
            for _ in 0..params.steps {
                let array = &mut arrays[rng.index(n)];
                let capacity = b.size(array.handle);
                if rng.unit_f64() < params.shrink_fraction && capacity > START_BYTES {
                    b.realloc(array.handle, capacity / 2);
                } else if capacity < array.target {
                    b.realloc(array.handle, capacity * 2);
                } else {
                    b.free(array.handle);
                    array.handle = b.alloc(START_BYTES, ALIGN);
                    array.target = draw_target(rng, params.max_doublings);
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_powers_of_two_within_the_targets() {
        let t = generate(500, 3, &VectorDoublingParams::default());
        let stats = t.validate().unwrap();
        assert_eq!(stats.live_at_start, 500);
        assert_eq!(stats.peak_live, 500);
        assert!(stats.max_size <= 32 << 10);
        assert_eq!(stats.max_align, 8);
        let sizes = t.setup.iter().chain(&t.body).map(|op| match *op {
            AllocOp::Alloc { size, .. } | AllocOp::Realloc { size, .. } => size,
            AllocOp::Free(_) => 16,
        });
        assert!(sizes.into_iter().all(|s| s.is_power_of_two() && s >= 16));
        let restarts = t
            .body
            .iter()
            .filter(|op| matches!(op, AllocOp::Free(_)))
            .count();
        let steps = VectorDoublingParams::default().steps;
        assert_eq!(t.body.len(), steps + restarts);
        assert!(restarts > steps / 5 && restarts < steps / 2, "{restarts}");
        // Every request's bytes are exactly its power-of-two block.
        assert_eq!(stats.peak_requested_bytes, stats.peak_pow2_bytes);
    }

    #[test]
    fn targets_are_geometric() {
        let mut rng = TraceRng::new(9);
        let mut at_32 = 0;
        for _ in 0..10_000 {
            let t = draw_target(&mut rng, 10);
            assert!((32..=32 << 10).contains(&t) && t.is_power_of_two());
            at_32 += u32::from(t == 32);
        }
        assert!((4_700..5_300).contains(&at_32), "{at_32}");
    }
}
