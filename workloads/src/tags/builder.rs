//! What the tag-store generators (`tags-*`) share: `TagTraceBuilder`, which tracks live
//! entities and each one's tag multiset so a generator can say "remove a tag this entity has";
//! the tag vocabulary; the [`TagCounts`] distribution; and `build_interleaved`, the setup
//! (or body) every `tags-*` workload starts from.
//!
//! # Tag values
//! Tags are hashes of names, as in the article (`"player"`, `"enemy"`, ...): the vocabulary is
//! [`VOCABULARY`] = 256 values, value `i` being [`vocabulary_tag(i)`](vocabulary_tag) (a fixed
//! 32-bit hash finaliser of `i`, so values are spread over `u32` and distinct). A tag is drawn
//! as one [`TraceRng::index`]`(256)` into it. One entity's tags are distinct where possible
//! (`TagTraceBuilder::draw_absent_tag`), as an entity's tags are in a game.
//!
//! # Interleaved building
//! Tags arrive over time, not one entity at a time: `build_interleaved` spawns entity `k`
//! and gives it its first tag, for `k` in `0..n`, then adds every entity's second tag in a
//! fresh random entity order, then every third tag, and so on. Consecutive tags of one entity
//! are thus about one round (all other entities still growing) apart in time, which is what
//! scatters the nodes and chunks of the linked designs and makes their visits chase pointers.

use serde::{Deserialize, Serialize};

use crate::rng::TraceRng;
use crate::tags::{EntityHandle, TagOp};

use crate::generate::parts::{LiveHandles, Recorder, TraceParts};

/// Number of distinct tag values a trace draws from.
pub const VOCABULARY: usize = 256;

/// Tag value number `i` of the vocabulary: murmur3's 32-bit finaliser of `i + 1` (a bijection
/// on `u32`, so the 256 values are distinct and none is 0).
pub const fn vocabulary_tag(i: usize) -> u32 {
    let mut h = i as u32 + 1;
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^= h >> 16;
    h
}

/// A uniformly drawn tag of the vocabulary: one [`TraceRng::index`]`(VOCABULARY)` draw.
pub fn random_tag(rng: &mut TraceRng) -> u32 {
    vocabulary_tag(rng.index(VOCABULARY))
}

/// How many tags each entity gets when built: a workload parameter, written in JSON as
/// `"constant-3"` or `"heavy-tail"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TagCounts {
    /// Every entity gets exactly 3 tags (no draw).
    #[serde(rename = "constant-3")]
    Constant3,
    /// Heavy tail: per entity, one [`TraceRng::below`]`(100)` draw; on 0 (1% of entities) a
    /// long list of `20 + below(81)` tags (uniform in 20..=100, above the `fixed` design's
    /// cap of 8), otherwise `1 + below(4)` tags (uniform in 1..=4). Mean 0.99 × 2.5 + 0.01 ×
    /// 60 = 3.075 tags per entity, close to `constant-3`.
    #[serde(rename = "heavy-tail")]
    HeavyTail,
}

impl TagCounts {
    /// Every variant: the allowed values of a `tag_counts` parameter.
    pub const ALL: [TagCounts; 2] = [TagCounts::Constant3, TagCounts::HeavyTail];

    /// One entity's tag count, drawn as the variant's doc says.
    pub fn draw(self, rng: &mut TraceRng) -> u32 {
        match self {
            TagCounts::Constant3 => 3,
            TagCounts::HeavyTail => {
                if rng.below(100) == 0 {
                    20 + rng.below(81) as u32
                } else {
                    1 + rng.below(4) as u32
                }
            }
        }
    }
}

/// Builds a tag trace op by op while tracking which entities are live and each one's tags, so
/// generators say "remove a tag entity `e` has" instead of keeping their own bookkeeping.
///
/// Invariants: `live` holds exactly the entities spawned and not despawned by the ops in
/// `parts`; `tags[h]` is entity `h`'s multiset (empty once despawned) and `total_tags` their
/// total; `foreign_live` holds the indices of the `Foreign` buffers not yet freed.
#[derive(Debug, Default)]
pub(crate) struct TagTraceBuilder {
    parts: TraceParts<TagOp>,
    live: LiveHandles,
    tags: Vec<Vec<u32>>,
    total_tags: u64,
    foreign_made: u32,
    foreign_live: Vec<u32>,
}

crate::generate::parts::recorder!(TagTraceBuilder: TagOp, live: live);

impl TagTraceBuilder {
    /// Tags of all live entities.
    pub(crate) fn total_tags(&self) -> u64 {
        self.total_tags
    }

    /// Live entity `entity`'s tags (empty for a despawned one).
    pub(crate) fn tags_of(&self, entity: EntityHandle) -> &[u32] {
        &self.tags[entity as usize]
    }

    fn assert_live(&self, entity: EntityHandle) {
        assert!(self.live.contains(entity), "entity {entity} is not live");
    }

    /// Appends a `Spawn` and returns the handle it creates.
    pub(crate) fn spawn(&mut self) -> EntityHandle {
        let handle = self.live.insert_next();
        self.tags.push(Vec::new());
        self.parts.push(TagOp::Spawn);
        handle
    }

    /// Appends a `Despawn` of `entity`.
    ///
    /// # Panics
    /// If `entity` is not live.
    pub(crate) fn despawn(&mut self, entity: EntityHandle) {
        self.assert_live(entity);
        self.live.remove(entity);
        let tags = std::mem::take(&mut self.tags[entity as usize]);
        self.total_tags -= tags.len() as u64;
        self.parts.push(TagOp::Despawn(entity));
    }

    /// Appends an `AddTag`.
    ///
    /// # Panics
    /// If `entity` is not live.
    pub(crate) fn add_tag(&mut self, entity: EntityHandle, tag: u32) {
        self.assert_live(entity);
        self.tags[entity as usize].push(tag);
        self.total_tags += 1;
        self.parts.push(TagOp::AddTag(entity, tag));
    }

    /// Appends a `RemoveTag`; returns whether the entity had the tag (and lost one occurrence).
    ///
    /// # Panics
    /// If `entity` is not live.
    pub(crate) fn remove_tag(&mut self, entity: EntityHandle, tag: u32) -> bool {
        self.assert_live(entity);
        let list = &mut self.tags[entity as usize];
        let found = list.iter().position(|&t| t == tag);
        if let Some(i) = found {
            list.swap_remove(i);
            self.total_tags -= 1;
        }
        self.parts.push(TagOp::RemoveTag(entity, tag));
        found.is_some()
    }

    /// One of the entity's tags, uniformly by occurrence (no op appended); `None` if it has
    /// none.
    pub(crate) fn random_present_tag(
        &self,
        entity: EntityHandle,
        rng: &mut TraceRng,
    ) -> Option<u32> {
        let list = &self.tags[entity as usize];
        (!list.is_empty()).then(|| list[rng.index(list.len())])
    }

    /// A vocabulary tag the entity does not have: [`random_tag`] redrawn while the entity has
    /// it, at most 8 draws (so an entity holding most of the vocabulary still ends the loop;
    /// the last draw is then kept even if present).
    pub(crate) fn draw_absent_tag(&self, entity: EntityHandle, rng: &mut TraceRng) -> u32 {
        let list = &self.tags[entity as usize];
        let mut tag = random_tag(rng);
        for _ in 1..8 {
            if !list.contains(&tag) {
                break;
            }
            tag = random_tag(rng);
        }
        tag
    }

    /// Appends a `HasTag` whose tag the entity has with probability 1/2: one
    /// `below(2)` draw; on 0 and if the entity has tags, [`random_present_tag`](Self::random_present_tag),
    /// else [`draw_absent_tag`](Self::draw_absent_tag).
    pub(crate) fn has_tag_half_present(&mut self, entity: EntityHandle, rng: &mut TraceRng) {
        let present = if rng.below(2) == 0 {
            self.random_present_tag(entity, rng)
        } else {
            None
        };
        let tag = present.unwrap_or_else(|| self.draw_absent_tag(entity, rng));
        self.assert_live(entity);
        self.parts.push(TagOp::HasTag(entity, tag));
    }

    /// Appends a `VisitEntity`.
    ///
    /// # Panics
    /// If `entity` is not live.
    pub(crate) fn visit_entity(&mut self, entity: EntityHandle) {
        self.assert_live(entity);
        self.parts.push(TagOp::VisitEntity(entity));
    }

    /// Appends a `VisitAll`.
    pub(crate) fn visit_all(&mut self) {
        self.parts.push(TagOp::VisitAll);
    }

    /// Appends a `Foreign` of `bytes` (setup only) and returns its index.
    ///
    /// # Panics
    /// In the body (heap preconditioning belongs in the setup).
    pub(crate) fn foreign(&mut self, bytes: u32) -> u32 {
        assert!(
            !self.parts.in_body(),
            "foreign allocations belong in the setup"
        );
        let index = self.foreign_made;
        self.foreign_made += 1;
        self.foreign_live.push(index);
        self.parts.push(TagOp::Foreign(bytes));
        index
    }

    /// Appends a `ForeignFree` of a uniformly chosen held foreign buffer (setup only); does
    /// nothing (and draws nothing) when none is held.
    pub(crate) fn foreign_free_random(&mut self, rng: &mut TraceRng) {
        assert!(!self.parts.in_body(), "foreign frees belong in the setup");
        if self.foreign_live.is_empty() {
            return;
        }
        let index = self
            .foreign_live
            .swap_remove(rng.index(self.foreign_live.len()));
        self.parts.push(TagOp::ForeignFree(index));
    }
}

/// Heap preconditioning for [`build_interleaved`]: after every `AddTag`, one `Foreign` of
/// `16 + below(241)` bytes (uniform in 16..=256), then with probability 1/2 (one `below(2)`
/// draw, 0 frees) a `ForeignFree` of a uniformly chosen held foreign buffer. About half the
/// foreign buffers are freed, while the build runs, so the per-entity heap buffers of later
/// adds land in holes all over a used heap rather than one after another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Preconditioning {
    /// No foreign ops.
    None,
    /// Foreign allocations and frees interleaved with the adds, as above.
    Interleaved,
}

/// The setup the `tags-*` reading and churning workloads start from: `n` entities built by
/// [`build_interleaved`] without preconditioning; then the body starts. Returns what
/// `build_interleaved` returns.
pub(crate) fn build_store(
    b: &mut TagTraceBuilder,
    n: usize,
    counts: TagCounts,
    rng: &mut TraceRng,
) -> Vec<(EntityHandle, u32)> {
    let built = build_interleaved(b, n, counts, Preconditioning::None, rng);
    b.start_body();
    built
}

/// Spawns `n` entities with `counts` tags each, interleaved as the [module doc](self) says:
/// entity `k`'s tag count is drawn (by [`TagCounts::draw`]) just before its `Spawn`, then its
/// first tag follows the `Spawn` at once; round `r ≥ 1` adds the `(r + 1)`-th tag of every
/// entity that has more than `r` to get, entities in an order shuffled per round. Each tag is
/// [`TagTraceBuilder::draw_absent_tag`]. Returns the handles and their tag counts, in spawn
/// order.
pub(crate) fn build_interleaved(
    b: &mut TagTraceBuilder,
    n: usize,
    counts: TagCounts,
    preconditioning: Preconditioning,
    rng: &mut TraceRng,
) -> Vec<(EntityHandle, u32)> {
    let add = |b: &mut TagTraceBuilder, e: EntityHandle, rng: &mut TraceRng| {
        let tag = b.draw_absent_tag(e, rng);
        b.add_tag(e, tag);
        if preconditioning == Preconditioning::Interleaved {
            b.foreign(16 + rng.below(241) as u32);
            if rng.below(2) == 0 {
                b.foreign_free_random(rng);
            }
        }
    };
    let mut built = Vec::with_capacity(n);
    for _ in 0..n {
        let count = counts.draw(rng);
        let e = b.spawn();
        if count > 0 {
            add(b, e, rng);
        }
        built.push((e, count));
    }
    let mut round: Vec<(EntityHandle, u32)> = built.clone();
    for r in 1.. {
        round.retain(|&(_, count)| count > r);
        if round.is_empty() {
            break;
        }
        rng.shuffle(&mut round);
        for &(e, _) in &round {
            add(b, e, rng);
        }
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_values_are_distinct_and_nonzero() {
        let mut values: Vec<u32> = (0..VOCABULARY).map(vocabulary_tag).collect();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values.len(), VOCABULARY);
        assert!(values[0] != 0);
    }

    #[test]
    fn heavy_tail_has_about_one_percent_long_lists() {
        let mut rng = TraceRng::new(1);
        let counts: Vec<u32> = (0..100_000)
            .map(|_| TagCounts::HeavyTail.draw(&mut rng))
            .collect();
        let long = counts.iter().filter(|&&c| c >= 20).count();
        assert!((800..1200).contains(&long), "{long}");
        assert!(
            counts
                .iter()
                .all(|&c| (1..=4).contains(&c) || (20..=100).contains(&c))
        );
        let mean = counts.iter().map(|&c| f64::from(c)).sum::<f64>() / counts.len() as f64;
        assert!((mean - 3.075).abs() < 0.1, "{mean}");
    }

    #[test]
    fn builder_tracks_tags_and_handles_through_despawn() {
        let t = TagTraceBuilder::default().record("test", 10, 3, &(), |b, rng| {
            let built = build_interleaved(b, 10, TagCounts::Constant3, Preconditioning::None, rng);
            assert_eq!(built.len(), 10);
            assert_eq!(b.total_tags(), 30);
            b.start_body();
            let tag = b.random_present_tag(4, rng).unwrap();
            assert!(b.remove_tag(4, tag));
            assert_eq!(b.tags_of(4).len(), 2);
            b.despawn(4);
            b.despawn(9);
            assert_eq!((b.live.len(), b.total_tags()), (8, 24));
            b.live.check_invariants();
        });
        // Round 0 is Spawn, AddTag per entity, in handle order.
        assert_eq!(t.setup[0], TagOp::Spawn);
        assert!(matches!(t.setup[1], TagOp::AddTag(0, _)));
        assert!(matches!(t.setup[3], TagOp::AddTag(1, _)));
        let stats = t.validate().unwrap();
        assert_eq!(stats.tags_at_start, 30);
        assert_eq!(stats.removes_found, 1);
    }

    #[test]
    fn preconditioning_frees_about_half_the_foreign_buffers() {
        let t = TagTraceBuilder::default().record("test", 1000, 5, &(), |b, rng| {
            build_interleaved(
                b,
                1000,
                TagCounts::Constant3,
                Preconditioning::Interleaved,
                rng,
            );
        });
        let stats = t.validate().unwrap();
        assert_eq!(stats.foreign_allocs, 3000);
        let frees = t
            .setup
            .iter()
            .filter(|op| matches!(op, TagOp::ForeignFree(_)))
            .count();
        assert!((1400..1600).contains(&frees), "{frees}");
    }
}
