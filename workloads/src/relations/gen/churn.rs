//! `idx-churn`: the steady state of an observer system: relations added and removed in
//! turn, the live count constant, so every design's add and remove paths (and its free list)
//! are what is timed.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::relations::builder::{RelationTraceBuilder, uniform_sets};
use crate::trace::Trace;

crate::generate::workload! {
    /// n relations over n/4 keys; body of steps removing a random relation and adding one
    pub struct IdxChurnParams for "idx-churn" {
        /// Steps; each is one `Remove` and one `Add` (2 ops).
        pub steps: usize = 50_000, in 1..=(MAX_OPS / 2),
    }
}

/// Setup: `build_sets(n, uniform-1-7)` over keys `0..k`. Body: `steps` × (`Remove` of a
/// uniformly random live record, `Add` with `a`, `b` uniform in `0..k`). Live count stays `n`.
pub fn generate(n: usize, seed: u64, params: &IdxChurnParams) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let k = u64::from(uniform_sets(b, n, rng));
        b.start_body();
        for _ in 0..params.steps {
            b.remove_random(rng);
            let (a, o) = (rng.below(k) as u32, rng.below(k) as u32);
            b.add(a, o);
        }
    })
}
