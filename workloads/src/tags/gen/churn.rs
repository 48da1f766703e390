//! `tags-churn`: entities dying and being born with their tags, the population steady: each
//! step despawns a random entity (freeing its list) and spawns one with its tags, so designs
//! reuse entity slots and freed list storage.

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::tags::TagOp;
use crate::tags::builder::{TagCounts, TagTraceBuilder, build_store};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with 3 tags each; body of steps despawning a random entity and spawning one with
    /// 3 tags
    pub struct TagsChurnParams for "tags-churn" {
        /// Tags per entity: `"constant-3"` or `"heavy-tail"` (see `TagCounts`), for the built
        /// entities and the spawned ones.
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Number of steps; each is one `Despawn` of a uniformly random live entity, one
        /// `Spawn`, and the new entity's `AddTag`s (3 with `constant-3`: 5 ops per step).
        pub steps: usize = 50_000, in 1..=(MAX_OPS / 8),
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)). Body: `steps` × (`Despawn` random live, `Spawn`, its tag
/// count drawn by `TagCounts::draw` then that many `AddTag`s of tags it lacks). Live count
/// stays `n`.
pub fn generate(n: usize, seed: u64, params: &TagsChurnParams) -> Trace<TagOp> {
    TagTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        build_store(b, n, params.tag_counts, rng);
        for _ in 0..params.steps {
            let dead = b.random_live(rng);
            b.despawn(dead);
            let count = params.tag_counts.draw(rng);
            let e = b.spawn();
            for _ in 0..count {
                let tag = b.draw_absent_tag(e, rng);
                b.add_tag(e, tag);
            }
        }
    })
}
