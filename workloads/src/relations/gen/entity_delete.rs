//! `idx-entity-delete`: "Entity B has been deleted, remove it from the system": every record
//! with `a == B` or `b == B` goes, which needs an index on both sides (one-index designs are
//! unsupported).

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::relations::builder::{RelationTraceBuilder, uniform_sets};
use crate::trace::Trace;

crate::generate::workload! {
    /// n relations over n/4 entities; body of RemoveEntity of distinct random entities (both sides)
    pub struct IdxEntityDeleteParams for "idx-entity-delete" {
        /// Entities deleted: `min(deletes, k/10)` (at least 1), where `k` is the entity count.
        pub deletes: usize = 10_000, in 1..=MAX_OPS,
    }
}

/// Setup: `build_sets(n, uniform-1-7)` over entities `0..k`. Body: the entities `0..k`
/// shuffled, the first `min(deletes, k/10)` (at least 1) each a `RemoveEntity` (about 8
/// records each: 4 observed, 4 observing).
pub fn generate(n: usize, seed: u64, params: &IdxEntityDeleteParams) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let k = uniform_sets(b, n, rng);
        b.start_body();
        let mut entities: Vec<u32> = (0..k).collect();
        rng.shuffle(&mut entities);
        let count = params.deletes.min(k as usize / 10).max(1);
        for &e in &entities[..count] {
            b.remove_entity(e);
        }
    })
}
