//! The family's reference loops, verified like a replay:
//!
//! * [`DirectRelations`] (`ref-direct-<peer>`, for `multimap` and `hashbrown_smallvec`): the
//!   relation bodies written against the map crate itself, no [`RelationIndex`] in between:
//!   the peer's two maps (key → record IDs, on `a` and on `b`) and its record array after the
//!   trace's setup (built untimed by the peer's replay, so the same records under the same
//!   IDs), over a plain `Vec` of the body's decoded ops (keys, records, record IDs):
//!   - a body of `VisitByA` (`idx-tags`): per key, `MultiMap::get_vec(&key)` /
//!     `HashMap::get(&key)`, the children's slice iterated, each child's record read by ID;
//!   - a body of `FirstByA` (`idx-first`): per key, `MultiMap::get(&key)` /
//!     `HashMap::get(&key)` then `first()`, the record read;
//!   - a body with writes (`idx-notify`, `idx-heavy-tail`, `idx-entity-delete`; also
//!     `idx-churn`, `idx-star`, `idx-build`): the reads as above (`VisitByB`, `CountByA` by
//!     `get_vec` / `get` and the length too), `Add` by the record array's insert then
//!     `MultiMap::insert` / `entry(key).or_default().push` on both maps, `Remove` (of the ID
//!     the peer handed out, resolved before timing) by `get_vec_mut` + `position` +
//!     `Vec::remove` / `get_mut` + `position` + `swap_remove` on both maps, dropping a key
//!     whose set empties (as the crate's documented multimap use does), then the array's free,
//!     in one loop over the ops in order. `RemoveEntity(e)` makes the calls the peer's adapter
//!     makes through the family's default `remove_entity`: the IDs under `e` by `get_vec` /
//!     `get` on the map on `a`, then on the map on `b` those whose record's `a` is not `e`,
//!     sorted, then each removed as by `Remove`, in ascending ID order. That order is the
//!     family's contract (it decides which IDs later `Add`s reuse), so an application of the
//!     contract follows it too; the IDs go to one buffer reserved before timing where the
//!     default collects them into a new `Vec` per call. Its state is the peer's maps and array
//!     rebuilt by the peer's replay of the setup for every timed pass (outside the timed
//!     region), as the replay's timing rebuilds its state for a body that writes: the first
//!     pass's when the loop is built, each later one's before its pass, and a pass's spent
//!     state is freed before the next, so a single pass (the cache pass runs one) holds the
//!     body and its verification only.
//!
//!   A trace has a loop exactly where the peer's own replay runs it: both decline by the
//!   same [`Replayer::unsupported_before`], the peers' cap on the set size of traces that
//!   remove (`idx-star` above [`MAX_SET`](impls::relations::vec_of_vecs::MAX_SET) records).
//!   There the cell ranks no peer, so it has no "called directly" ranking without a loop
//!   for every design of ours (a rule of `results::rank_called_directly`), not for want of
//!   a peer's loop.
//!   [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷ this loop)
//!   is what the replay driver and the [`RelationIndex`] adapter add to the crate. The crate
//!   calls are behind [`DirectRelationPeer`]'s `#[inline(always)]` one-call methods, so one
//!   generic loop serves both crates with no call between. Verified: the whole body digest
//!   (visits, firsts, counts, removals and their sums, by the family's [`mix_record`], and the
//!   records held after the body, counted outside the timed region) must equal the model's.

use std::time::Duration;

use impls::relations::arena::{RecordArena, Slot};
use impls::relations::peers::hashbrown_smallvec::{self as hashbrown_peer, HashbrownSmallVec};
use impls::relations::peers::multimap::{self as multimap_peer, MultimapPeer};
use impls::relations::{Key, Record, RecordId, RelationIndex};
use workloads::Trace;
use workloads::relations::RelationOp;

use super::{RelationDigest, RelationFamily, RelationReplay, mix_record};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, describe_mismatch, runs_trace};
use crate::replay::pass_states::PassStates;

/// A peer whose map crate the `ref-direct-<peer>` loop calls directly: its maps and records
/// borrowed (or taken) from the peer, and one method per crate call.
pub trait DirectRelationPeer: RelationIndex + 'static {
    /// One index, key → record IDs: the crate's map.
    type Index;

    /// The peer's records, by ID.
    fn arena(&self) -> &RecordArena<()>;

    /// The peer's map on `a`.
    fn by_a(&self) -> &Self::Index;

    /// The peer's records and maps (on `a`, on `b`) taken out of it.
    fn into_parts(self) -> (RecordArena<()>, Self::Index, Self::Index);

    /// The IDs under `key`, empty if none.
    fn ids(index: &Self::Index, key: Key) -> &[RecordId];

    /// The first ID under `key`.
    fn first(index: &Self::Index, key: Key) -> Option<RecordId>;

    /// Adds `id` under `key`.
    fn insert(index: &mut Self::Index, key: Key, id: RecordId);

    /// Removes `id` from `key`'s set, and the key if its set empties; `false` if it was not
    /// there.
    fn erase(index: &mut Self::Index, key: Key, id: RecordId) -> bool;
}

impl DirectRelationPeer for MultimapPeer {
    type Index = multimap_peer::Index;

    fn arena(&self) -> &RecordArena<()> {
        MultimapPeer::arena(self)
    }

    fn by_a(&self) -> &Self::Index {
        MultimapPeer::by_a(self)
    }

    fn into_parts(self) -> (RecordArena<()>, Self::Index, Self::Index) {
        MultimapPeer::into_parts(self)
    }

    /// `MultiMap::get_vec`.
    #[inline(always)]
    fn ids(index: &Self::Index, key: Key) -> &[RecordId] {
        index.get_vec(&key).map_or(&[], Vec::as_slice)
    }

    /// `MultiMap::get` (the first value).
    #[inline(always)]
    fn first(index: &Self::Index, key: Key) -> Option<RecordId> {
        index.get(&key).copied()
    }

    /// `MultiMap::insert`.
    #[inline(always)]
    fn insert(index: &mut Self::Index, key: Key, id: RecordId) {
        index.insert(key, id);
    }

    /// `MultiMap::get_vec_mut`, `position`, `Vec::remove`, and `MultiMap::remove` of an
    /// emptied key.
    #[inline(always)]
    fn erase(index: &mut Self::Index, key: Key, id: RecordId) -> bool {
        let Some(ids) = index.get_vec_mut(&key) else {
            return false;
        };
        let Some(at) = ids.iter().position(|&x| x == id) else {
            return false;
        };
        ids.remove(at);
        if ids.is_empty() {
            index.remove(&key);
        }
        true
    }
}

impl DirectRelationPeer for HashbrownSmallVec {
    type Index = hashbrown_peer::Index;

    fn arena(&self) -> &RecordArena<()> {
        HashbrownSmallVec::arena(self)
    }

    fn by_a(&self) -> &Self::Index {
        HashbrownSmallVec::by_a(self)
    }

    fn into_parts(self) -> (RecordArena<()>, Self::Index, Self::Index) {
        HashbrownSmallVec::into_parts(self)
    }

    /// `HashMap::get`, the `SmallVec`'s slice.
    #[inline(always)]
    fn ids(index: &Self::Index, key: Key) -> &[RecordId] {
        index.get(&key).map_or(&[], |ids| ids.as_slice())
    }

    /// `HashMap::get`, then the `SmallVec`'s `first`.
    #[inline(always)]
    fn first(index: &Self::Index, key: Key) -> Option<RecordId> {
        index.get(&key)?.first().copied()
    }

    /// `HashMap::entry(key).or_default().push(id)`.
    #[inline(always)]
    fn insert(index: &mut Self::Index, key: Key, id: RecordId) {
        index.entry(key).or_default().push(id);
    }

    /// `HashMap::get_mut`, `position`, `SmallVec::swap_remove`, and `HashMap::remove` of an
    /// emptied key.
    #[inline(always)]
    fn erase(index: &mut Self::Index, key: Key, id: RecordId) -> bool {
        let Some(ids) = index.get_mut(&key) else {
            return false;
        };
        let Some(at) = ids.iter().position(|&x| x == id) else {
            return false;
        };
        ids.swap_remove(at);
        if ids.is_empty() {
            index.remove(&key);
        }
        true
    }
}

/// One op of a body that writes, as the application holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `VisitByA`.
    VisitA(Key),
    /// `VisitByB`.
    VisitB(Key),
    /// `FirstByA`.
    First(Key),
    /// `CountByA`.
    Count(Key),
    /// `Add`.
    Add(Record),
    /// `Remove`: the ID the peer handed out for the handle.
    Remove(RecordId),
    /// `RemoveEntity`: the entity, its records found by the maps.
    RemoveEntity(Key),
}

/// A body the loop has a shape for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Body {
    /// Only `VisitByA`: the keys.
    Visits(Vec<Key>),
    /// Only `FirstByA`: the keys.
    Firsts(Vec<Key>),
    /// Reads and at least one `Add`, `Remove` or `RemoveEntity`, in op order.
    Writes(Vec<Step>),
}

/// Visits every record under `key`, read from `slots` by ID: (visited, wrapping sum of
/// [`mix_record`]).
#[inline(always)]
fn visit_key<P: DirectRelationPeer>(slots: &[Slot<()>], index: &P::Index, key: Key) -> (u64, u64) {
    let (mut visited, mut sum) = (0u64, 0u64);
    P::ids(index, key).iter().for_each(|&id| {
        visited += 1;
        sum = sum.wrapping_add(mix_record(id, slots[id as usize].record));
    });
    (visited, sum)
}

/// Visits every record under each key: (visited, wrapping sum of [`mix_record`]).
#[inline(never)]
fn visit_keys<P: DirectRelationPeer>(
    arena: &RecordArena<()>,
    index: &P::Index,
    keys: &[Key],
) -> (u64, u64) {
    let (mut visited, mut sum) = (0u64, 0u64);
    for &key in keys {
        let (v, s) = visit_key::<P>(&arena.slots, index, key);
        visited += v;
        sum = sum.wrapping_add(s);
    }
    (visited, sum)
}

/// Finds the first record under each key: (found, wrapping sum of the found records' `a`).
#[inline(never)]
fn first_of_keys<P: DirectRelationPeer>(
    arena: &RecordArena<()>,
    index: &P::Index,
    keys: &[Key],
) -> (u64, u64) {
    let slots = arena.slots.as_slice();
    let (mut found, mut sum) = (0u64, 0u64);
    for &key in keys {
        if let Some(id) = P::first(index, key) {
            found += 1;
            sum = sum.wrapping_add(u64::from(slots[id as usize].record.a));
        }
    }
    (found, sum)
}

/// Removes live record `id` from both maps (under its own keys) and frees it: the record, or
/// `None` if it was not live or a map did not list it.
#[inline(always)]
fn remove_record<P: DirectRelationPeer>(
    arena: &mut RecordArena<()>,
    by_a: &mut P::Index,
    by_b: &mut P::Index,
    id: RecordId,
) -> Option<Record> {
    let record = arena.get(id).ok()?;
    if !(P::erase(by_a, record.a, id) && P::erase(by_b, record.b, id)) {
        return None;
    }
    arena.free(id).ok()
}

/// Removes every record with `a == entity` or `b == entity` as the peer's adapter does (the
/// family's default `RelationIndex::remove_entity`, with the crate called directly): the IDs
/// under `entity` on `a`, then those under it on `b` whose record's `a` is another key (a
/// record with both keys `entity` once), into `ids`; sorted, then each erased from both maps
/// and freed in ascending ID order, the family's contract for the IDs a later `Add` reuses.
/// (removed, wrapping sum of [`mix_record`]), or `None` as [`remove_record`].
#[inline(always)]
fn remove_entity<P: DirectRelationPeer>(
    arena: &mut RecordArena<()>,
    by_a: &mut P::Index,
    by_b: &mut P::Index,
    entity: Key,
    ids: &mut Vec<RecordId>,
) -> Option<(u64, u64)> {
    ids.clear();
    ids.extend_from_slice(P::ids(by_a, entity));
    let slots = arena.slots.as_slice();
    ids.extend(
        P::ids(by_b, entity)
            .iter()
            .copied()
            .filter(|&id| slots[id as usize].record.a != entity),
    );
    ids.sort_unstable();
    let (mut removed, mut sum) = (0u64, 0u64);
    for &id in ids.iter() {
        let record = remove_record::<P>(arena, by_a, by_b, id)?;
        removed += 1;
        sum = sum.wrapping_add(mix_record(id, record));
    }
    Some((removed, sum))
}

/// Applies `steps` in order to the peer's records and maps: the body's digest but
/// `records_held`, or `None` if the array refused an add or a removed ID was not live.
/// `entity_ids` is the reused buffer of one `RemoveEntity`'s IDs.
#[inline(never)]
fn apply_steps<P: DirectRelationPeer>(
    arena: &mut RecordArena<()>,
    by_a: &mut P::Index,
    by_b: &mut P::Index,
    steps: &[Step],
    entity_ids: &mut Vec<RecordId>,
) -> Option<RelationDigest> {
    let mut d = RelationDigest::default();
    let (mut visited, mut visit_sum) = (0u64, 0u64);
    let (mut removed, mut removed_sum) = (0u64, 0u64);
    for &step in steps {
        match step {
            Step::VisitA(key) => {
                let (v, s) = visit_key::<P>(&arena.slots, by_a, key);
                visited += v;
                visit_sum = visit_sum.wrapping_add(s);
            }
            Step::VisitB(key) => {
                let (v, s) = visit_key::<P>(&arena.slots, by_b, key);
                visited += v;
                visit_sum = visit_sum.wrapping_add(s);
            }
            Step::First(key) => {
                if let Some(id) = P::first(by_a, key) {
                    d.firsts_found += 1;
                    d.first_key_sum = d
                        .first_key_sum
                        .wrapping_add(u64::from(arena.slots[id as usize].record.a));
                }
            }
            Step::Count(key) => d.count_sum += P::ids(by_a, key).len() as u64,
            Step::Add(record) => {
                let id = arena.insert(record).ok()?;
                P::insert(by_a, record.a, id);
                P::insert(by_b, record.b, id);
            }
            Step::Remove(id) => {
                let record = remove_record::<P>(arena, by_a, by_b, id)?;
                removed += 1;
                removed_sum = removed_sum.wrapping_add(mix_record(id, record));
            }
            Step::RemoveEntity(entity) => {
                let (r, s) = remove_entity::<P>(arena, by_a, by_b, entity, entity_ids)?;
                removed += r;
                removed_sum = removed_sum.wrapping_add(s);
            }
        }
    }
    d.visited = visited;
    d.visit_sum = visit_sum;
    d.removed = removed;
    d.removed_sum = removed_sum;
    Some(d)
}

/// The state one pass over a body that writes runs on: the peer's records and maps (on `a`,
/// on `b`) taken out of its replay after the setup.
struct Fresh<P: DirectRelationPeer> {
    arena: RecordArena<()>,
    by_a: P::Index,
    by_b: P::Index,
}

impl<P: DirectRelationPeer> Fresh<P> {
    /// The records and maps of `replay`, a state after the setup.
    fn of(mut replay: RelationReplay<P>) -> Self {
        let (arena, by_a, by_b) = std::mem::replace(&mut replay.index, P::new()).into_parts();
        Self { arena, by_a, by_b }
    }
}

/// A relation body run by the map crate of peer `P` directly (`ref-direct-<peer>`, see the
/// [module docs](self)).
pub struct DirectRelations<P: DirectRelationPeer> {
    /// The trace (its setup rebuilds the state of a body that writes).
    trace: Trace<RelationOp>,
    /// The peer after the setup, for a read-only body (only its map on `a` and its records are
    /// read); `None` for a body that writes.
    state: Option<RelationReplay<P>>,
    /// For a body that writes: the states of its passes (the first built by
    /// [`ReferenceLoop::for_trace`], so a single pass runs no setup).
    passes: PassStates<Fresh<P>>,
    /// The body, decoded.
    body: Body,
    /// The most records one `RemoveEntity` can remove (twice the trace's largest set): the
    /// capacity of its ID buffer, reserved before timing.
    entity_ids: usize,
    /// The model's body digest.
    expected: RelationDigest,
}

impl<P: DirectRelationPeer> DirectRelations<P> {
    /// Decodes `trace`'s body; `None` for a body of no shape above. `ids` resolves a removed
    /// handle to the peer's ID (called only for a body that writes).
    fn decode(
        trace: &Trace<RelationOp>,
        ids: impl FnOnce() -> Option<Vec<RecordId>>,
    ) -> Option<Body> {
        let body = &trace.body;
        if body.is_empty() {
            return None;
        }
        if body.iter().all(|op| matches!(op, RelationOp::VisitByA(_))) {
            return Some(Body::Visits(
                body.iter()
                    .filter_map(|op| match *op {
                        RelationOp::VisitByA(key) => Some(key),
                        _ => None,
                    })
                    .collect(),
            ));
        }
        if body.iter().all(|op| matches!(op, RelationOp::FirstByA(_))) {
            return Some(Body::Firsts(
                body.iter()
                    .filter_map(|op| match *op {
                        RelationOp::FirstByA(key) => Some(key),
                        _ => None,
                    })
                    .collect(),
            ));
        }
        if trace.body_is_read_only() {
            // A mixed read-only body: no registered workload has one.
            return None;
        }
        let ids = ids()?;
        body.iter()
            .map(|op| match *op {
                RelationOp::VisitByA(key) => Some(Step::VisitA(key)),
                RelationOp::VisitByB(key) => Some(Step::VisitB(key)),
                RelationOp::FirstByA(key) => Some(Step::First(key)),
                RelationOp::CountByA(key) => Some(Step::Count(key)),
                RelationOp::Add { a, b, payload } => Some(Step::Add(Record { a, b, payload })),
                RelationOp::Remove(h) => ids.get(h as usize).copied().map(Step::Remove),
                RelationOp::RemoveEntity(entity) => Some(Step::RemoveEntity(entity)),
            })
            .collect::<Option<_>>()
            .map(Body::Writes)
    }

    /// The timed part of one pass over a read-only body, on the setup's state: its digest.
    fn read_pass(&self, state: &RelationReplay<P>) -> (RelationDigest, Duration) {
        let arena = std::hint::black_box(state.index.arena());
        let by_a = std::hint::black_box(state.index.by_a());
        let mut digest = RelationDigest {
            records_held: arena.len() as u64,
            ..RelationDigest::default()
        };
        let start = Stopwatch::start();
        match &self.body {
            Body::Visits(keys) => {
                (digest.visited, digest.visit_sum) =
                    visit_keys::<P>(arena, by_a, std::hint::black_box(keys));
            }
            Body::Firsts(keys) => {
                (digest.firsts_found, digest.first_key_sum) =
                    first_of_keys::<P>(arena, by_a, std::hint::black_box(keys));
            }
            Body::Writes(_) => unreachable!("a body that writes has no state kept"),
        }
        (digest, start.elapsed())
    }

    /// One pass over a body that writes, on the peer's records and maps after the setup
    /// (built before the pass unless ready, untimed): its digest (`None`: an op failed) and the
    /// time of the body alone.
    fn write_pass(&self, steps: &[Step]) -> Result<(Option<RelationDigest>, Duration), String> {
        let mut fresh = self.passes.next(|| {
            RelationReplay::<P>::after_setup(&self.trace)
                .map(Fresh::of)
                .map_err(|e| format!("setup {e}"))
        })?;
        let Fresh { arena, by_a, by_b } = &mut fresh;
        let mut entity_ids = Vec::with_capacity(self.entity_ids);
        crate::host::fresh_time_slice();
        let start = Stopwatch::start();
        let digest = apply_steps::<P>(
            std::hint::black_box(arena),
            by_a,
            by_b,
            std::hint::black_box(steps),
            &mut entity_ids,
        );
        let elapsed = start.elapsed();
        let digest = digest.map(|d| RelationDigest {
            records_held: fresh.arena.len() as u64,
            ..d
        });
        self.passes.spend(fresh);
        Ok((digest, elapsed))
    }
}

impl<P: DirectRelationPeer> ReferenceLoop for DirectRelations<P> {
    type Family = RelationFamily;
    const MIRRORS: Option<&'static str> = Some(P::INFO.meta.name);

    /// For a body of only `VisitByA`, only `FirstByA`, or of reads and `Add` / `Remove` /
    /// `RemoveEntity` with at least one write; `None` otherwise, or exactly where the peer's
    /// own replay does not run the trace ([`Replayer::unsupported_before`]: its cap on the set
    /// size of traces that remove), or if it refuses the setup.
    fn for_trace(trace: &Trace<RelationOp>, expected: &RelationDigest) -> Option<Self> {
        let stats = runs_trace::<RelationReplay<P>>(trace)?;
        // Every handle's ID, from an untimed replay of the body (the peer's IDs are
        // deterministic, as the timed replay's dry run checks).
        let body = Self::decode(trace, || {
            let mut dry = RelationReplay::<P>::after_setup(trace).ok()?;
            dry.replay(&trace.body).ok()?;
            Some(dry.handles().ids().to_vec())
        })?;
        let removes_entities = matches!(&body, Body::Writes(steps)
            if steps.iter().any(|s| matches!(s, Step::RemoveEntity(_))));
        let entity_ids = if removes_entities {
            usize::try_from(stats.max_set_size.saturating_mul(2)).unwrap_or(0)
        } else {
            0
        };
        let state = RelationReplay::<P>::after_setup(trace).ok()?;
        let (state, passes) = match body {
            Body::Writes(_) => (None, PassStates::starting_with(Fresh::of(state))),
            _ => (Some(state), PassStates::default()),
        };
        Some(Self {
            trace: trace.clone(),
            state,
            passes,
            body,
            entity_ids,
            expected: *expected,
        })
    }

    /// Times `iters` passes of the body (a body that writes on a state after the setup built
    /// before each pass but a first, untimed).
    ///
    /// # Errors
    /// The body's digest differs from the model's, or an add or removal failed.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let (digest, elapsed) = match (&self.body, &self.state) {
                (Body::Writes(steps), _) => self.write_pass(steps)?,
                (_, Some(state)) => {
                    let (digest, elapsed) = self.read_pass(state);
                    (Some(digest), elapsed)
                }
                (_, None) => unreachable!("a read-only body keeps its state"),
            };
            total += elapsed;
            let Some(digest) = std::hint::black_box(digest) else {
                return Err(format!(
                    "{} called directly failed an add or a removal the model made",
                    P::INFO.meta.name
                ));
            };
            if digest != self.expected {
                return Err(format!(
                    "{} called directly: {}",
                    P::INFO.meta.name,
                    describe_mismatch(&self.expected, &digest)
                ));
            }
        }
        Ok(total)
    }
}

/// `ref-direct-multimap`.
pub type DirectMultimap = DirectRelations<MultimapPeer>;
/// `ref-direct-hashbrown_smallvec`.
pub type DirectHashbrownSmallVec = DirectRelations<HashbrownSmallVec>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::{check_mirroring_loop, trace_with};
    use crate::verify::Expected;

    fn trace(workload: &str, n: usize) -> Trace<RelationOp> {
        trace_with(workload, n, None)
    }

    /// The loop of peer `P` on `trace` answers like the model and fails a corrupted
    /// expectation.
    fn check<P: DirectRelationPeer>(trace: &Trace<RelationOp>) {
        check_mirroring_loop::<DirectRelations<P>>(
            trace,
            &[|d| {
                d.visit_sum ^= 1;
                d.first_key_sum ^= 1;
            }],
            "sum",
        );
    }

    /// Both loops answer like the model on the query bodies and the bodies that write.
    #[test]
    fn direct_loops_answer_like_the_model() {
        for workload in [
            "idx-tags",
            "idx-first",
            "idx-notify",
            "idx-heavy-tail",
            "idx-churn",
            "idx-star",
            "idx-build",
            "idx-entity-delete",
        ] {
            let trace = trace(workload, 400);
            check::<MultimapPeer>(&trace);
            check::<HashbrownSmallVec>(&trace);
        }
    }

    /// Peer `P` has a loop on `trace` exactly where its own replay runs it; where both run,
    /// the loop answers like the model.
    fn loop_where_the_replay_runs<P: DirectRelationPeer>(trace: &Trace<RelationOp>) -> bool {
        let stats = trace.validate().unwrap();
        let runs = RelationReplay::<P>::unsupported_before(&stats).is_none();
        let expected = Expected::<RelationFamily>::of(trace).unwrap();
        let looped = DirectRelations::<P>::for_trace(trace, &expected.body);
        assert_eq!(looped.is_some(), runs, "{}", P::INFO.meta.name);
        if let Some(looped) = looped {
            looped.run(1).unwrap();
        }
        runs
    }

    /// A star of `n` records of which 1 % are removed: the set-size cap applies to it as to
    /// the whole star, at a fraction of the debug build's quadratic removals.
    fn thin_star(n: usize) -> Trace<RelationOp> {
        trace_with(
            "idx-star",
            n,
            Some(&serde_json::json!({ "remove_percent": 1 })),
        )
    }

    /// The loops decline a star exactly where the peers' replays do: it runs at the set-size
    /// cap and not one record above (as `idx-star` at 100,000, where no peer is ranked).
    #[test]
    fn a_star_has_a_loop_exactly_where_the_peer_runs_it() {
        let cap = impls::relations::vec_of_vecs::MAX_SET;
        let at_cap = thin_star(cap);
        assert!(loop_where_the_replay_runs::<MultimapPeer>(&at_cap));
        assert!(loop_where_the_replay_runs::<HashbrownSmallVec>(&at_cap));
        let above = thin_star(cap + 1);
        assert!(!loop_where_the_replay_runs::<MultimapPeer>(&above));
        assert!(!loop_where_the_replay_runs::<HashbrownSmallVec>(&above));
        // The committed size: the loops stop before any replay, so no model runs here.
        let star = trace("idx-star", 100_000);
        let stats = star.validate().unwrap();
        let any = RelationDigest::default();
        assert!(RelationReplay::<MultimapPeer>::unsupported_before(&stats).is_some());
        assert!(DirectMultimap::for_trace(&star, &any).is_none());
        assert!(RelationReplay::<HashbrownSmallVec>::unsupported_before(&stats).is_some());
        assert!(DirectHashbrownSmallVec::for_trace(&star, &any).is_none());
    }

    /// `RemoveEntity` frees the entity's records in ascending ID order whatever order the maps
    /// list them in (the `Add`s after it reuse them most recently freed first, so their IDs
    /// show the order), and a record with both keys the entity once.
    #[test]
    fn remove_entity_frees_in_the_familys_order() {
        let add = |a, b| RelationOp::Add {
            a,
            b,
            payload: a * 10 + b,
        };
        let trace = Trace {
            header: workloads::trace::TraceHeader {
                generator: "entity-order".into(),
                n: 6,
                seed: 0,
                params: serde_json::json!({}),
            },
            // Entity 1's records: IDs 0 (b), 1 (a and b), 3 (a), 4 (b); the maps list them in
            // insertion order, a side then b side, not sorted.
            setup: vec![
                add(2, 1),
                add(1, 1),
                add(3, 4),
                add(1, 5),
                add(6, 1),
                add(7, 8),
            ],
            body: vec![
                RelationOp::RemoveEntity(1),
                add(9, 9),
                add(9, 8),
                RelationOp::VisitByA(9),
                RelationOp::VisitByB(8),
                RelationOp::RemoveEntity(8),
                RelationOp::CountByA(7),
            ],
        };
        check::<MultimapPeer>(&trace);
        check::<HashbrownSmallVec>(&trace);
    }

    /// A body that writes: the first pass runs on the state built with the loop (a single
    /// pass runs no setup), later ones on states built before them.
    #[test]
    fn the_first_pass_of_a_body_that_writes_needs_no_setup() {
        let trace = trace("idx-notify", 400);
        let expected = Expected::<RelationFamily>::of(&trace).unwrap();
        let looped = DirectHashbrownSmallVec::for_trace(&trace, &expected.body).unwrap();
        assert_eq!(looped.passes.held(), (true, false));
        looped.run(1).unwrap();
        assert_eq!(looped.passes.held(), (false, true));
        looped.run(2).unwrap();
    }

    /// A removal of an ID that is not live fails the run instead of panicking.
    #[test]
    fn a_wrong_removal_fails() {
        let trace = trace("idx-churn", 400);
        let expected = Expected::<RelationFamily>::of(&trace).unwrap();
        let mut looped = DirectMultimap::for_trace(&trace, &expected.body).unwrap();
        let Body::Writes(steps) = &mut looped.body else {
            panic!("a body that writes");
        };
        let at = steps
            .iter()
            .position(|s| matches!(s, Step::Remove(_)))
            .unwrap();
        steps[at] = Step::Remove(u32::MAX - 1);
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("failed"), "{error}");
    }
}
