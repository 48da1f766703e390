//! `tags-visit-all`: a system walking every (entity, tag) pair, the locality test of the
//! article: contiguous designs stream one buffer, `Vec<Vec<u32>>` and the linked designs
//! chase pointers to lists built interleaved over time. `tags-visit-all-heavy` is this
//! generator with heavy-tailed tag counts (most entities 1-4 tags, 1% with 20-100; a `preset!`
//! line in the family's `ENTRIES`): long lists reward chunked and contiguous designs, and the
//! fixed-capacity designs cannot hold them.

use serde::Serialize;

use crate::generate::parts::Recorder;
use crate::generate::{MAX_OPS, iteration_passes};
use crate::tags::TagOp;
use crate::tags::builder::{Preconditioning, TagCounts, TagTraceBuilder, build_interleaved};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with 3 tags each, built interleaved; body of VisitAll passes (about 1M tags)
    pub struct TagsVisitAllParams for "tags-visit-all" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Tags the body should visit in total: the pass count is `ceil(target_visits /
        /// tags)`, clamped to `1..=max_passes`.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the pass count (keeps tiny stores from producing huge bodies).
        pub max_passes: usize = 64, in 1..=MAX_OPS,
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)). Body: `VisitAll` repeated as the parameters say (read-only).
pub fn generate(n: usize, seed: u64, params: &TagsVisitAllParams) -> Trace<TagOp> {
    let passes = VisitPasses {
        name: NAME,
        counts: params.tag_counts,
        preconditioning: Preconditioning::None,
        target_visits: params.target_visits,
        max_passes: params.max_passes,
    };
    passes.record(n, seed, params)
}

/// What the `tags-visit-all*` workloads share: the build, then the passes.
pub(crate) struct VisitPasses {
    /// The workload's registry name.
    pub(crate) name: &'static str,
    pub(crate) counts: TagCounts,
    pub(crate) preconditioning: Preconditioning,
    pub(crate) target_visits: u64,
    pub(crate) max_passes: usize,
}

impl VisitPasses {
    /// The trace at `n` from `seed`, its header recording `params`.
    pub(crate) fn record(&self, n: usize, seed: u64, params: &impl Serialize) -> Trace<TagOp> {
        TagTraceBuilder::default().record(self.name, n, seed, params, |b, rng| {
            build_interleaved(b, n, self.counts, self.preconditioning, rng);
            b.start_body();
            let tags = usize::try_from(b.total_tags()).unwrap_or(usize::MAX);
            for _ in 0..iteration_passes(tags, self.target_visits, self.max_passes) {
                b.visit_all();
            }
        })
    }
}
