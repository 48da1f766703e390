//! `tags-visit-all-heavy`: `tags-visit-all` with heavy-tailed tag counts (most entities 1-4
//! tags, 1% with 20-100): long lists reward chunked and contiguous designs, and the
//! fixed-capacity designs cannot hold them.

use super::visit_all::VisitPasses;
use crate::generate::MAX_OPS;
use crate::tags::TagOp;
use crate::tags::builder::{Preconditioning, TagCounts};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with heavy-tailed tag counts (1% with 20-100); body of VisitAll passes
    pub struct TagsVisitAllHeavyParams for "tags-visit-all-heavy" {
        /// Tags per entity: `"heavy-tail"` or `"constant-3"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::HeavyTail, in TagCounts::ALL,
        /// Tags the body should visit in total: the pass count is `ceil(target_visits /
        /// tags)`, clamped to `1..=max_passes`.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count.
        pub max_passes: usize = 64, in 1..=MAX_OPS,
    }
}

/// As [`tags_visit_all::generate`](super::visit_all::generate), heavy-tailed by default.
pub fn generate(n: usize, seed: u64, params: &TagsVisitAllHeavyParams) -> Trace<TagOp> {
    let passes = VisitPasses {
        name: NAME,
        counts: params.tag_counts,
        preconditioning: Preconditioning::None,
        target_visits: params.target_visits,
        max_passes: params.max_passes,
    };
    passes.record(n, seed, params)
}
