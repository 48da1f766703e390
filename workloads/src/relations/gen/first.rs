//! `idx-first`: "find the first record for a key", the article's O(1) `A → o1` lookup
//! through the index, on the `idx-notify` relations.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::relations::builder::{RelationTraceBuilder, uniform_sets};
use crate::trace::Trace;

crate::generate::workload! {
    /// n relations over n/4 keys (sets of 1-7); body of FirstByA of uniform keys
    pub struct IdxFirstParams for "idx-first" {
        /// Body ops.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `build_sets(n, uniform-1-7)` over keys `0..k`. Body: `ops` × `FirstByA` of a key
/// uniform in `0..k` (one `below(k)` draw; every key has a record). Read-only.
pub fn generate(n: usize, seed: u64, params: &IdxFirstParams) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let k = u64::from(uniform_sets(b, n, rng));
        b.start_body();
        for _ in 0..params.ops {
            b.query(RelationOp::FirstByA(rng.below(k) as u32));
        }
    })
}
