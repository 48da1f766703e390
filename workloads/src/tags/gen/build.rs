//! `tags-build`: a level loading, entities spawning and collecting their tags. The body spawns
//! `n` entities and adds their tags (3 each by default) interleaved over entities, as tags
//! arrive over time in a game: the timed part is the allocation pattern of building the store.

use crate::generate::parts::Recorder;
use crate::tags::TagOp;
use crate::tags::builder::{Preconditioning, TagCounts, TagTraceBuilder, build_interleaved};
use crate::trace::Trace;

crate::generate::workload! {
    /// body spawns n entities and adds their tags (3 each), interleaved over entities
    pub struct TagsBuildParams for "tags-build" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (most entities 1-4 tags, 1% with
        /// 20-100; see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
    }
}

/// Setup: empty. Body: `build_interleaved` (see [`builder`](crate::tags::builder)) of `n` entities with `tag_counts` tags.
pub fn generate(n: usize, seed: u64, params: &TagsBuildParams) -> Trace<TagOp> {
    build_body(NAME, n, seed, params, params.tag_counts)
}

/// The body of `tags-build` and `tags-build-heavy`.
pub(crate) fn build_body(
    name: &str,
    n: usize,
    seed: u64,
    params: &impl serde::Serialize,
    counts: TagCounts,
) -> Trace<TagOp> {
    TagTraceBuilder::default().record(name, n, seed, params, |b, rng| {
        b.start_body();
        build_interleaved(b, n, counts, Preconditioning::None, rng);
    })
}
