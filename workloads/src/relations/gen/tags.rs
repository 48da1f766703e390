//! `idx-tags`: the tag article's question ("find all entities with a particular tag") as an
//! index: relations `tag → entity`, `n/3` entities with 3 distinct tags each, tag popularity
//! Zipf-distributed over a 256-tag vocabulary; the body visits the entities of common tags and
//! of rare ones in turn.

use crate::generate::MAX_OPS;
use crate::relations::builder::RelationTraceBuilder;
// A use of another family's files, on purpose: `idx-tags` asks the tag article's question of an
// index, so its tags are drawn from the tag workloads' own Zipf vocabulary.
use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::rng::Zipf;
use crate::tags::builder::{VOCABULARY, vocabulary_tag};
use crate::trace::Trace;

/// Tags of rank below this are "common"; the others "rare".
pub const COMMON_RANKS: usize = 8;

crate::generate::workload! {
    /// tag → entity relations: n/3 entities × 3 Zipf-popular tags; body visits common and rare tags
    /// alternately (about 1M records)
    pub struct IdxTagsParams for "idx-tags" {
        /// Records the body should visit in total; visits stop once they reach it.
        pub target_visits: u64 = 1_000_000, in 1..=(1 << 40),
        /// Upper bound on the body's visits.
        pub max_ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `ceil(n/3)` entities; entity `e` gets 3 distinct tags, each a Zipf(256, 1.0) rank
/// redrawn while the entity has it, added as `Add {a: vocabulary_tag(rank), b: e}`, the
/// entities in order. Body: `VisitByA` alternating a common tag (rank uniform in `0..8`) and a
/// rare one (rank uniform in `8..256`), until `target_visits` records or `max_ops` visits.
pub fn generate(n: usize, seed: u64, params: &IdxTagsParams) -> Trace<RelationOp> {
    let zipf = Zipf::new(VOCABULARY, 1.0);
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for e in 0..n.div_ceil(3) as u32 {
            let mut mine = [usize::MAX; 3];
            for i in 0..3 {
                let mut rank = zipf.sample(rng);
                while mine[..i].contains(&rank) {
                    rank = zipf.sample(rng);
                }
                mine[i] = rank;
                b.add(vocabulary_tag(rank), e);
            }
        }
        b.start_body();
        let mut visited = 0;
        for op in 0..params.max_ops {
            if visited >= params.target_visits {
                break;
            }
            let rank = if op % 2 == 0 {
                rng.index(COMMON_RANKS)
            } else {
                COMMON_RANKS + rng.index(VOCABULARY - COMMON_RANKS)
            };
            let tag = vocabulary_tag(rank);
            visited += b.count_a(tag).max(1);
            b.query(RelationOp::VisitByA(tag));
        }
    })
}
