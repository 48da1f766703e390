//! `tags-mutate`: a running game, where systems mostly read tags and sometimes change them:
//! reads (`HasTag`, `VisitEntity`) and writes (`AddTag`, `RemoveTag` of a present tag) on
//! random entities, every entity's tag count staying within one of its built count, so the
//! store neither grows nor shrinks and the fixed-capacity designs can run it.

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::tags::TagOp;
use crate::tags::builder::{TagCounts, TagTraceBuilder, build_store};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with 3 tags each; body of reads (HasTag, VisitEntity) and add/remove writes, 4:1
    pub struct TagsMutateParams for "tags-mutate" {
        /// Tags per entity when built: `"constant-3"` or `"heavy-tail"` (see `TagCounts`).
        pub tag_counts: TagCounts = TagCounts::Constant3, in TagCounts::ALL,
        /// Number of ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Reads per write: each op is a read with probability `r / (r + 1)` (0: all writes).
        pub reads_per_write: u32 = 4, in 0..=1_000,
    }
}

/// Setup: `build_interleaved` (see [`builder`](crate::tags::builder)), entity `e` built with `built[e]` tags. Body: `ops` ops on a
/// uniformly random live entity `e`, each one `below(reads_per_write + 1)` draw, a read when
/// below `reads_per_write`:
/// * read: one `below(2)` draw, 0 a `HasTag` (tag present half the time, as in `tags-has`),
///   1 a `VisitEntity`;
/// * write: `RemoveTag` of one of its tags if it has more than `built[e]`, `AddTag` of a tag
///   it lacks if fewer; if exactly `built[e]`, one `below(2)` draw, 0 adds, 1 removes (adds if
///   it has none). So every entity holds `built[e] ± 1` tags and the mean stays put.
pub fn generate(n: usize, seed: u64, params: &TagsMutateParams) -> Trace<TagOp> {
    TagTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let built = build_store(b, n, params.tag_counts, rng);
        let reads = u64::from(params.reads_per_write);
        for _ in 0..params.ops {
            let e = b.random_live(rng);
            if rng.below(reads + 1) < reads {
                if rng.below(2) == 0 {
                    b.has_tag_half_present(e, rng);
                } else {
                    b.visit_entity(e);
                }
                continue;
            }
            let (have, target) = (b.tags_of(e).len(), built[e as usize].1 as usize);
            let add = match have.cmp(&target) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => rng.below(2) == 0 || have == 0,
            };
            let present = if add {
                None
            } else {
                b.random_present_tag(e, rng)
            };
            match present {
                Some(tag) => {
                    b.remove_tag(e, tag);
                }
                None => {
                    let tag = b.draw_absent_tag(e, rng);
                    b.add_tag(e, tag);
                }
            }
        }
    })
}
