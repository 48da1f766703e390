//! `tags-visit-entity`: a system reading the tags of entities it is handed, in no particular
//! order: one random entity's list per op, so the cost is reaching the list (a pointer chase
//! into the heap, a chunk chain, or an offset into one buffer).

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::tags::TagOp;
use crate::tags::builder::{TagCounts, TagTraceBuilder, build_store};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with 3 tags each, built interleaved; body visits the tags of random entities
    pub struct TagsVisitEntityParams for "tags-visit-entity" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Number of `VisitEntity` ops in the body, each of a uniformly random live entity.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)). Body: `ops` × `VisitEntity` of a random live entity
/// (read-only).
pub fn generate(n: usize, seed: u64, params: &TagsVisitEntityParams) -> Trace<TagOp> {
    TagTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        build_store(b, n, params.tag_counts, rng);
        for _ in 0..params.ops {
            let e = b.random_live(rng);
            b.visit_entity(e);
        }
    })
}
