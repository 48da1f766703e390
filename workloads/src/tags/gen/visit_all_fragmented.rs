//! `tags-visit-all-fragmented`: `tags-visit-all` on a used heap. The setup interleaves foreign
//! allocations (16-256 bytes) with the tag adds and frees about half of them as it goes, so
//! per-entity heap buffers (`Vec<Vec<u32>>`, small-vector spills) land in holes scattered over
//! the heap, as in a long-running program, instead of one after another in a fresh heap.
//! Designs that keep all tags in their own buffers are unaffected; that is the comparison.

use super::visit_all::VisitPasses;
use crate::generate::MAX_OPS;
use crate::tags::TagOp;
use crate::tags::builder::{Preconditioning, TagCounts};
use crate::trace::Trace;

crate::generate::workload! {
    /// tags-visit-all built amid foreign heap allocations, half freed (a used heap)
    pub struct TagsVisitAllFragmentedParams for "tags-visit-all-fragmented" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Tags the body should visit in total: the pass count is `ceil(target_visits /
        /// tags)`, clamped to `1..=max_passes`.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count.
        pub max_passes: usize = 64, in 1..=MAX_OPS,
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)) with heap
/// preconditioning (after every `AddTag` one `Foreign` of 16..=256 bytes and,
/// half the time, a `ForeignFree` of a random held one). Body: as `tags-visit-all`.
pub fn generate(n: usize, seed: u64, params: &TagsVisitAllFragmentedParams) -> Trace<TagOp> {
    let passes = VisitPasses {
        name: NAME,
        counts: params.tag_counts,
        preconditioning: Preconditioning::Interleaved,
        target_visits: params.target_visits,
        max_passes: params.max_passes,
    };
    passes.record(n, seed, params)
}
