//! `iterate-full-p8`: `iterate-full` with 8-byte objects ([`crate::PayloadSize`]), so the
//! iteration cost per object can be read against the object size ("touches twice as much
//! memory" depends on it). `iterate-full-p128` is this generator with 128-byte objects (a
//! `preset!` line in the family's `ENTRIES`).

use super::iterate_full::iterate_passes;
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// iterate-full with 8-byte objects
    pub struct IterateFullP8Params for "iterate-full-p8" {
        /// Objects the body should visit in total, as `iterate-full`'s.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count, as `iterate-full`'s.
        pub max_passes: usize = 64, in 1..=MAX_OPS,
        /// Bytes per stored object: 8, 32 or 128 ([`crate::PayloadSize`]).
        pub payload_bytes: u32 = 8, in 8..=128,
    }
}

/// `iterate-full`'s trace, its header naming this workload and its object size.
pub fn generate(n: usize, seed: u64, params: &IterateFullP8Params) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        iterate_passes(b, n, params.target_visits, params.max_passes);
    })
}
