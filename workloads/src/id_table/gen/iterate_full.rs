//! `iterate-full`: the system update loop over a table with no holes, the best case for every
//! design ("if the object array is nearly full, no problem").

use crate::generate::parts::Recorder;
use crate::generate::{MAX_OPS, iteration_passes};
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects, no holes; body of Iterate passes
    pub struct IterateFullParams for "iterate-full" {
        /// Objects the body should visit in total: the pass count is
        /// `ceil(target_visits / n)`, clamped to `1..=max_passes`.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count (keeps tiny tables from producing huge bodies).
        pub max_passes: usize = 64, in 1..=MAX_OPS,
        /// Bytes per stored object: 8, 32 or 128 ([`crate::PayloadSize`]).
        pub payload_bytes: u32 = 32, in 8..=128,
    }
}

/// Setup: `n` `Add`s. Body: `Iterate` repeated as the parameters say (read-only).
pub fn generate(n: usize, seed: u64, params: &IterateFullParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        iterate_passes(b, n, params.target_visits, params.max_passes);
    })
}

/// The ops of [`generate`] (its payload-size variants share them): `n` `Add`s, then the body's
/// `Iterate` passes.
pub(crate) fn iterate_passes(
    b: &mut TraceBuilder,
    n: usize,
    target_visits: u64,
    max_passes: usize,
) {
    for _ in 0..n {
        b.add();
    }
    b.start_body();
    for _ in 0..iteration_passes(n, target_visits, max_passes) {
        b.push(IdTableOp::Iterate);
    }
}
