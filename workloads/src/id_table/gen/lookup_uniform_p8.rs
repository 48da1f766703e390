//! `lookup-uniform-p8`: `lookup-uniform` with 8-byte objects ([`crate::PayloadSize`]): the
//! cost of a lookup's cache misses against the object size. `lookup-uniform-p128` is this
//! generator with 128-byte objects (a `preset!` line in the family's `ENTRIES`).

use super::lookup_uniform::shuffled_passes;
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// lookup-uniform with 8-byte objects
    pub struct LookupUniformP8Params for "lookup-uniform-p8" {
        /// Fewest `Get` ops in the body, as `lookup-uniform`'s.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Bytes per stored object: 8, 32 or 128 ([`crate::PayloadSize`]).
        pub payload_bytes: u32 = 8, in 8..=128,
    }
}

/// `lookup-uniform`'s trace, its header naming this workload and its object size.
pub fn generate(n: usize, seed: u64, params: &LookupUniformP8Params) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        shuffled_passes(b, rng, n, params.ops);
    })
}
