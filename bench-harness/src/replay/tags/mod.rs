//! The tag-store family's replay driver: applies [`TagOp`] traces to any [`TagStore`] and
//! digests what it observed.
//!
//! Generic and monomorphised per design: no dynamic dispatch and no allocation per op in the
//! timed loop except what the store (or a `Foreign` op, setup only) allocates. Logical entity
//! handles map to the store's entities through a flat `Vec` (handle `k` is the `k`-th
//! `Spawn`), reserved before timing.
//!
//! `VisitAll` digests each pair by the store's own entity number, with no map read in the
//! timed loop: every design must hand out the same entity numbers as the model (released
//! numbers reused, most recent first; the family contract, checked by
//! `impls/tests/integration/tags_model.rs`), so the model's digest is the same. A map back to logical
//! handles would add a read per visited tag whose cost depends on the design's visiting order
//! (`sorted_chunks` sweeps its buffer, not its entities), biasing exactly the comparison the
//! workload is about.

mod claims;
mod metrics;
mod reference;
mod reference_writes;

use impls::tags::model::ModelStore;
use impls::tags::{
    Entity, TagDesignInfo, TagDesignVisitor, TagError, TagStore, for_each_tag_design,
};
use serde::{Deserialize, Serialize};
use workloads::tags::{EntityHandle, TagStats};
use workloads::{TagOp, Trace, TraceStats};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes, records_of,
};
use super::glue::{
    family_marker, forward_design, forward_replay, hosts_design, merge_fields, visit_registry,
};
use super::metric_fields::ratio;
use super::resolved::{HandleIds, HandleMap};
pub use metrics::TagMetrics;
use results::DesignRecord;

family_marker! {
    /// The tag stores: [`TagOp`] traces replayed on [`TagStore`]s, checked against
    /// [`ModelStore`].
    TagFamily
}

impl Family for TagFamily {
    type Op = TagOp;
    type Digest = TagDigest;
    type Model = TagReplay<ModelStore>;
    type Metrics = TagMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "Tag stores";
    /// The article's starting point, one `Vec` per entity.
    const REFERENCE_DESIGN: &'static str = "vec_of_vecs";
    /// The visits: the article's argument is "a cache miss for every next pointer we follow".
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] =
        &["tags-visit-entity", "tags-visit-all"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["tags-build", "tags-churn"];
    const LATENCY_WORKLOADS: &'static [&'static str] =
        &["tags-build", "tags-has", "tags-visit-entity", "tags-churn"];
    /// 256K entities (about 2M tags, tens of MB in every design): beyond the last-level cache
    /// with a setup well under a second per design. The sweep also runs `tags-grow-long`,
    /// whose lists grow with N: the growth policies' cost per push across N (C9).
    const SCALING_WORKLOADS: &'static [&'static str] = &["tags-grow-long"];
    const SWEEP_MAX_N: usize = 1 << 18;

    const SIZES: RunSizes = RunSizes {
        quick: &[1_000, 100_000],
        default: &[1_000, 100_000],
        full: &[1_000, 100_000, 1_000_000],
        passes_quick: &[1_000, 100_000],
        passes: &[1_000, 100_000, 1_000_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::tags::tag_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, TagFamily, for_each_tag_design, TagDesignVisitor,
            [S: TagStore + 'static] => TagReplay<S>
        );
        visitor.visit_loop::<reference::DirectSmallVec>();
        visitor.visit_loop::<reference::DirectArrayVec>();
        visitor.visit_loop::<reference::DirectVecOfVecs>();
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`TagReplay`] of it.
    TagFamily,
    [D: TagStore] => TagReplay<D>,
    design_record(&D::INFO)
);

/// The results record of a tag-store design. Its "ID" is the `u32` entity handle, which
/// carries no generation.
pub fn design_record(info: &TagDesignInfo) -> DesignRecord {
    DesignRecord {
        id_bytes: std::mem::size_of::<Entity>(),
        limits: Some(match info.tags_per_entity_cap {
            Some(cap) => format!("at most {cap} tags per entity"),
            None => "no cap on tags per entity".to_string(),
        }),
        ..crate::replay::design_record_of(TagFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// Everything a tag replay observed, reduced to counts and wrapping sums: independent of the
/// order in which a design keeps (and visits) an entity's tags or its entities.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagDigest {
    /// `HasTag` ops that found their tag.
    pub has_found: u64,
    /// `RemoveTag` ops that found (and removed) their tag.
    pub removes_found: u64,
    /// Wrapping sum of [`mix_pair`]`(handle, tag)` over every `HasTag` and `RemoveTag` that
    /// found its tag, so finding another query's tag changes it.
    pub found_sum: u64,
    /// Tags visited by `VisitEntity` and `VisitAll`.
    pub visited: u64,
    /// Of `visited`, the tags visited by `VisitAll` (its work units).
    pub visited_by_all: u64,
    /// Wrapping sum of [`mix_pair`] over every visited (entity, tag) pair, the entity named by
    /// its logical handle for `VisitEntity` and by its store entity number for `VisitAll`:
    /// visiting another entity's tags, a tag twice or a stale tag changes it.
    pub visit_sum: u64,
    /// Tags the store holds after the replayed ops ([`TagStore::tag_count`], read once after
    /// the loop): bodies of writes only (`tags-build`, `tags-churn`) observe nothing else, and
    /// a store that loses or invents a tag either miscounts here or breaks its own
    /// `tag_count` invariant, which verification checks next.
    pub tags_held: u64,
}

impl ReplayDigest<TagOp> for TagDigest {
    /// Adds the counts and sums; `tags_held` is the later replay's (the state after it).
    fn merge(&mut self, later: &TagDigest) {
        merge_fields!(
            self,
            later,
            add: [has_found, removes_found, visited, visited_by_all],
            wrapping: [found_sum, visit_sum],
            later: [tags_held],
        );
    }

    /// One per op but `VisitAll` (one per tag it visited) and the setup-only `Foreign` ops
    /// (none), as `TagStats::work_units` counts them.
    fn work_units(&self, ops: &[TagOp]) -> u64 {
        let single = ops
            .iter()
            .filter(|op| {
                !matches!(
                    op,
                    TagOp::VisitAll | TagOp::Foreign(_) | TagOp::ForeignFree(_)
                )
            })
            .count() as u64;
        single + self.visited_by_all
    }
}

/// Mixes an (entity handle, tag) pair into a digest sum, as [`super::mix_object`] mixes an object:
/// the tag XOR the handle times an odd 64-bit constant, so the same tag on another entity
/// gives another value and swapping tags between entities changes the sum.
#[inline(always)]
pub fn mix_pair(handle: EntityHandle, tag: u32) -> u64 {
    u64::from(tag) ^ u64::from(handle).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A tag store plus the handle maps and foreign buffers: the state a trace is replayed on.
pub struct TagReplay<S: TagStore> {
    /// The design under test.
    pub store: S,
    /// `entities[k]` is the store's entity for handle `k` (kept after `Despawn`, unused then).
    entities: HandleMap<Entity>,
    /// `foreign[k]` holds the `k`-th `Foreign` buffer until its `ForeignFree`.
    foreign: Vec<Option<Vec<u8>>>,
}

impl<S: TagStore> TagReplay<S> {
    /// An empty store with room in the handle maps for `trace`'s handles.
    pub fn for_trace(trace: &Trace<TagOp>) -> Self {
        let handles = trace.handle_count();
        Self {
            store: S::new(),
            entities: HandleMap::with_capacity(handles),
            foreign: Vec::new(),
        }
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// Expects a validated trace; an op naming a handle never spawned is a bug in the caller
    /// and panics on the handle map's bounds check.
    ///
    /// A uniform run of `HasTag`s, `VisitEntity`s or `AddTag`s of a timed run
    /// ([`HandleIds::uniform_ids`]) is one tight loop ([`has_all`], [`visit_entities`],
    /// [`add_all`]);
    /// everything else goes op by op ([`run_mixed`](Self::run_mixed)).
    ///
    /// # Errors
    /// The store refused an op (a full fixed-capacity entity, index space); the ops before it
    /// were applied.
    pub fn run<H: HandleIds<Entity>>(
        &mut self,
        ops: &[TagOp],
        entities: &mut H,
    ) -> Result<TagDigest, ReplayError> {
        let first = ops.first().copied();
        let has_fast_path = matches!(
            first,
            Some(TagOp::HasTag(..) | TagOp::VisitEntity(_) | TagOp::AddTag(..))
        );
        // `uniform_ids` consumes the segment's IDs: ask only when there is a fast path.
        let Some(run) = has_fast_path
            .then(|| entities.uniform_ids(ops.len()))
            .flatten()
        else {
            return self.run_mixed(ops, entities);
        };
        let store = &mut self.store;
        let refused = |(index, error)| ReplayError::at(index, ops[index], error);
        let mut digest = TagDigest::default();
        match first {
            Some(TagOp::HasTag(..)) => {
                (digest.has_found, digest.found_sum) = has_all(store, ops, run).map_err(refused)?;
            }
            Some(TagOp::AddTag(..)) => add_all(store, ops, run).map_err(refused)?,
            _ => {
                (digest.visited, digest.visit_sum) =
                    visit_entities(store, ops, run).map_err(refused)?;
            }
        }
        digest.tags_held = store.tag_count() as u64;
        Ok(digest)
    }

    /// [`run`](Self::run) op by op: its own function, so the fast path's dispatch takes none of
    /// this loop's registers (in one function with it, `tags-mutate` runs 5% more instructions
    /// per op).
    #[inline(never)]
    fn run_mixed<H: HandleIds<Entity>>(
        &mut self,
        ops: &[TagOp],
        entities: &mut H,
    ) -> Result<TagDigest, ReplayError> {
        // Accumulators as plain locals so the loop keeps them in registers.
        let (mut has_found, mut removes_found, mut found_sum) = (0u64, 0u64, 0u64);
        let (mut visited, mut visit_sum, mut visited_by_all) = (0u64, 0u64, 0u64);
        let store = &mut self.store;
        for (index, &op) in ops.iter().enumerate() {
            let refused = |error| ReplayError::at(index, op, error);
            match op {
                TagOp::Spawn => {
                    entities
                        .created(store.create_entity().map_err(refused)?)
                        .map_err(|e| ReplayError::at(index, op, e))?;
                }
                TagOp::Despawn(h) => {
                    store.destroy_entity(entities.id(h)).map_err(refused)?;
                }
                TagOp::AddTag(h, tag) => {
                    store.add_tag(entities.id(h), tag).map_err(refused)?;
                }
                TagOp::RemoveTag(h, tag) => {
                    if store.remove_tag(entities.id(h), tag).map_err(refused)? {
                        removes_found += 1;
                        found_sum = found_sum.wrapping_add(mix_pair(h, tag));
                    }
                }
                TagOp::HasTag(h, tag) => {
                    if store.has_tag(entities.id(h), tag).map_err(refused)? {
                        has_found += 1;
                        found_sum = found_sum.wrapping_add(mix_pair(h, tag));
                    }
                }
                TagOp::VisitEntity(h) => {
                    store
                        .visit_entity(entities.id(h), |tag| {
                            visited += 1;
                            visit_sum = visit_sum.wrapping_add(mix_pair(h, tag));
                        })
                        .map_err(refused)?;
                }
                TagOp::VisitAll => {
                    let before = visited;
                    store.visit_all(|e, tag| {
                        visited += 1;
                        visit_sum = visit_sum.wrapping_add(mix_pair(e, tag));
                    });
                    visited_by_all += visited - before;
                }
                TagOp::Clear(h) => {
                    store.clear_entity(entities.id(h)).map_err(refused)?;
                }
                TagOp::Foreign(bytes) => {
                    // Written, not just reserved, so the pages and the allocator's chunk are
                    // really in use (`vec![0; n]` could map untouched zero pages).
                    let mut buffer = Vec::with_capacity(bytes as usize);
                    buffer.resize(bytes as usize, (index as u8) | 1);
                    self.foreign.push(Some(buffer));
                }
                TagOp::ForeignFree(k) => {
                    self.foreign[k as usize] = None;
                }
            }
        }
        Ok(TagDigest {
            has_found,
            removes_found,
            found_sum,
            visited,
            visited_by_all,
            visit_sum,
            tags_held: store.tag_count() as u64,
        })
    }
}

/// A uniform run of `HasTag`s ([`HandleIds::uniform_ids`]) as one tight loop, `entities[i]`
/// the store's entity of `ops[i]`: (found, wrapping sum of [`mix_pair`] over the found), or
/// the index of the first refused op and the store's error.
///
/// Out of line and small, with the store's `has_tag` inlined into it, as into an application's
/// loop over its own entities: called from [`TagReplay::run_mixed`]'s loop over nine op kinds,
/// `has_tag` was a call whose 32-byte `Result` went through the stack (callgrind on
/// `tags-has`, smallvec: 7 data writes per lookup against none in the crate's direct loop).
/// `ops` holds only `HasTag`s (the segment is uniform).
#[inline(never)]
fn has_all<S: TagStore>(
    store: &mut S,
    ops: &[TagOp],
    entities: &[Entity],
) -> Result<(u64, u64), (usize, TagError)> {
    super::resolved::fold_uniform(ops, entities, |op, entity| match op {
        TagOp::HasTag(h, tag) => Ok(store.has_tag(entity, tag)?.then(|| mix_pair(h, tag))),
        _ => Ok(None),
    })
}

/// A uniform run of `VisitEntity`s as one tight loop, as [`has_all`]: (visited, wrapping sum
/// of [`mix_pair`] over the visited), or the first refused op's index and error.
#[inline(never)]
fn visit_entities<S: TagStore>(
    store: &mut S,
    ops: &[TagOp],
    entities: &[Entity],
) -> Result<(u64, u64), (usize, TagError)> {
    let (mut visited, mut sum) = (0u64, 0u64);
    for (index, (&op, &entity)) in ops.iter().zip(entities).enumerate() {
        if let TagOp::VisitEntity(h) = op {
            store
                .visit_entity(entity, |tag| {
                    visited += 1;
                    sum = sum.wrapping_add(mix_pair(h, tag));
                })
                .map_err(|e| (index, e))?;
        }
    }
    Ok((visited, sum))
}

/// A uniform run of `AddTag`s as one tight loop, as [`has_all`]: `Ok`, or the first refused
/// op's index and error. Op by op in [`TagReplay::run_mixed`], each push would pay that loop's
/// dispatch over nine op kinds, the same few nanoseconds for every design: on `tags-grow-long`
/// (a body of pushes) at 100,000 tags, `smallvec`'s replay would take over twice as long per
/// push as the crate's own loop (`ref-direct-smallvec`).
#[inline(never)]
fn add_all<S: TagStore>(
    store: &mut S,
    ops: &[TagOp],
    entities: &[Entity],
) -> Result<(), (usize, TagError)> {
    for (index, (&op, &entity)) in ops.iter().zip(entities).enumerate() {
        if let TagOp::AddTag(_, tag) = op {
            store.add_tag(entity, tag).map_err(|e| (index, e))?;
        }
    }
    Ok(())
}

impl<S: TagStore + 'static> Replayer for TagReplay<S> {
    type Family = TagFamily;
    type Id = Entity;

    fn design_name() -> &'static str {
        S::INFO.meta.name
    }

    fn unsupported_before(stats: &TagStats) -> Option<String> {
        let cap = S::INFO.tags_per_entity_cap?;
        (stats.max_tags_per_entity > cap as u64).then(|| {
            format!(
                "holds at most {cap} tags per entity; the trace gives one entity {}",
                stats.max_tags_per_entity
            )
        })
    }

    forward_replay!(TagReplay { for_trace, run }, handles: entities);

    forward_design!(store, live: entity_count);

    fn measure(trace: &Trace<TagOp>, stats: &TagStats) -> Result<Option<TagMetrics>, ReplayError> {
        let mut state = Self::for_trace(trace);
        let calls_at_start = state.store.allocator_calls();
        state.replay(&trace.setup)?;
        let tags_after_setup = state.store.tag_count() as u64;
        let memory_after_setup = state.store.memory_bytes() as u64;
        let calls_after_setup = state.store.allocator_calls();
        state.replay(&trace.body)?;
        let body_calls = state.store.allocator_calls() - calls_after_setup;
        Ok(Some(TagMetrics {
            tags_after_setup,
            bytes_per_tag: ratio(memory_after_setup, tags_after_setup),
            memory_bytes_after_body: state.store.memory_bytes() as u64,
            setup_alloc_calls_per_tag: ratio(calls_after_setup - calls_at_start, tags_after_setup),
            alloc_calls_per_op: ratio(body_calls, stats.work_units()).unwrap_or(0.0),
        }))
    }
}
