//! `tags-build-heavy`: `tags-build` with a heavy-tailed tag count: most entities get 1-4 tags,
//! 1% get 20-100, so designs pay for their long lists (growth, chunk chains) and the
//! fixed-capacity ones cannot run it.

use crate::tags::TagOp;
use crate::tags::builder::TagCounts;
use crate::trace::Trace;

crate::generate::workload! {
    /// body spawns n entities and adds heavy-tailed tag counts (1% with 20-100), interleaved
    pub struct TagsBuildHeavyParams for "tags-build-heavy" {
        /// Tags per entity: `"heavy-tail"` (most entities 1-4 tags, 1% with 20-100; see
        /// `TagCounts`) or `"constant-3"`.
        pub tag_counts: TagCounts = TagCounts::HeavyTail, in TagCounts::ALL,
    }
}

/// As [`tags_build::generate`](super::build::generate), heavy-tailed by default.
pub fn generate(n: usize, seed: u64, params: &TagsBuildHeavyParams) -> Trace<TagOp> {
    super::build::build_body(NAME, n, seed, params, params.tag_counts)
}
