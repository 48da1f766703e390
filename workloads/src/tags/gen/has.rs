//! `tags-has`: "does this entity have tag X?" on random entities, the tag found about half the
//! time: the cost of reaching an entity's list and scanning it.

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::tags::TagOp;
use crate::tags::builder::{TagCounts, TagTraceBuilder, build_store};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with 3 tags each; body of HasTag on random entities, tag present half the time
    pub struct TagsHasParams for "tags-has" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Number of `HasTag` ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)). Body: `ops` × `HasTag` of a uniformly random live entity,
/// with a tag it has (probability 1/2) or a vocabulary tag it lacks (read-only).
pub fn generate(n: usize, seed: u64, params: &TagsHasParams) -> Trace<TagOp> {
    TagTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        build_store(b, n, params.tag_counts, rng);
        for _ in 0..params.ops {
            let e = b.random_live(rng);
            b.has_tag_half_present(e, rng);
        }
    })
}
