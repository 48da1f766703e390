//! `iterate-holes`: the article's case against the array with holes: "if the array has 50 %
//! objects and 50 % holes, the loop will touch twice as much memory as necessary". Packed
//! designs iterate only the `n` live objects; holey ones walk every slot.
//!
//! Setup: `slots` = `round(n / (1 - hole_fraction))` adds, then `slots - n` removes of random
//! objects, leaving `n` live objects scattered over `slots` slots. The peak live count is
//! `slots` (2n by default), above `n`: a fixed-capacity design needs room for it.

use crate::generate::parts::{Recorder, TracksLive};
use crate::generate::{MAX_OPS, iteration_passes};
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects left after random removes from 2n; body of Iterate passes
    pub struct IterateHolesParams for "iterate-holes" {
        /// Fraction of the slots that are holes when the body starts (0.5: n live in 2n slots).
        pub hole_fraction: f64 = 0.5, in 0.0..=0.95,
        /// Live objects the body should visit in total: the pass count is
        /// `ceil(target_visits / n)`, clamped to `1..=max_passes` (as in `iterate-full`, so the
        /// two are directly comparable).
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count.
        pub max_passes: usize = 64, in 1..=MAX_OPS,
    }
}

/// See the module doc. Body: `Iterate` repeated as the parameters say (read-only).
pub fn generate(n: usize, seed: u64, params: &IterateHolesParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let slots = ((n as f64 / (1.0 - params.hole_fraction)).round() as usize).max(n);
        for _ in 0..slots {
            b.add();
        }
        while b.live_count() > n {
            b.remove_random(rng);
        }
        b.start_body();
        for _ in 0..iteration_passes(n, params.target_visits, params.max_passes) {
            b.push(IdTableOp::Iterate);
        }
    })
}
