//! The family's reference loops, verified like a replay:
//!
//! * [`DirectTags`] (`ref-direct-<design>`, for the peers `smallvec` and `arrayvec` and our
//!   article baseline `vec_of_vecs`): the tag-store bodies written against the design's
//!   per-entity vectors themselves, no [`TagStore`] in between: the peer's
//!   `Vec<SmallVec<[u32; 4]>>` / `Vec<ArrayVec<u32, 8>>`, or the `Vec<Vec<u32>>` that
//!   `vec_of_vecs` is, after the trace's setup (built untimed by the design's replay, so the
//!   same entities, tags and heap layout, foreign buffers included), indexed by entity, over a
//!   plain `Vec` of the body's decoded ops (handle, the design's entity, tag):
//!   - a body of `VisitEntity` (`tags-visit-entity`, either tag count): the slice of
//!     `lists[e]` iterated (`iter().for_each`, as the adapter does) per op;
//!   - a body of `HasTag` (`tags-has`): `lists[e].contains(&tag)` per op;
//!   - a body of `VisitAll` (`tags-visit-all`, `-heavy`, `-fragmented`): `lists.iter()`,
//!     `enumerate`, then each list's slice iterated, per pass;
//!   - a body of reads and tag writes (`tags-mutate` and its `-r0` .. `-r64` variants,
//!     `tags-grow-long`): the reads as above, `AddTag` by the vector's `push` (`Vec`,
//!     smallvec) or `try_push` (arrayvec, a refusal fails the run), `RemoveTag` by
//!     `iter().position` + the vector's `swap_remove`, the op order kept in one loop over a
//!     `Vec` of the ops. Its state is the design's vectors rebuilt by its replay of the setup
//!     for every timed pass (outside the timed region), as the replay's timing rebuilds its
//!     state for a body that writes: the first pass's when the loop is built, each later one's
//!     before its pass, and a pass's spent state is freed before the next, so a single pass
//!     (the cache pass runs one) holds the body and its verification only.
//!
//!   Bodies that spawn, despawn or clear (`tags-build`, `tags-churn`) have no loop: reusing
//!   released entities is the store's entity bookkeeping, not the vectors'.
//!   [`ReferenceLoop::mirrors`] names the design, so the results' `overhead` (replay ÷ this
//!   loop) is what the replay driver and the [`TagStore`] contract add to the vectors. For
//!   `vec_of_vecs` (whose `add_tag` grows its inner `Vec` to the capacities `Vec::push` picks)
//!   that is every design's share: the driver, the liveness check of each op's entity and the
//!   counts the contract keeps, which the peers' adapters pay too; a peer's overhead above it
//!   is its adapter's own. Verified: the whole body digest (hits, removals, visits and their
//!   sums, by the family's [`mix_pair`], and the tags held after the body, counted outside the
//!   timed region) must equal the model's.

use std::ops::Deref;
use std::time::Duration;

use impls::tags::peers::arrayvec::{self as arrayvec_peer, ArrayVecPeer};
use impls::tags::peers::smallvec::{self as smallvec_peer, SmallVecPeer};
use impls::tags::vec_of_vecs::VecOfVecs;
use impls::tags::{Entity, Tag, TagStore};
use workloads::tags::EntityHandle;
use workloads::{TagOp, Trace};

use super::{TagDigest, TagFamily, TagReplay, mix_pair};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, describe_mismatch};
use crate::replay::pass_states::PassStates;

/// A design whose per-entity vectors the `ref-direct-<design>` loop uses directly: its vectors
/// borrowed (or taken) from the store, and the vector's own push and swap-remove (the reads go
/// through the vector's slice).
pub trait DirectTagLists: TagStore + 'static {
    /// One entity's tags: the design's vector.
    type List: Deref<Target = [Tag]>;

    /// The design's vectors, indexed by entity.
    fn lists(&self) -> &[Self::List];

    /// The design's vectors taken out of it.
    fn into_lists(self) -> Vec<Self::List>;

    /// The vector's push; `false` if it refused the tag (full).
    fn push(list: &mut Self::List, tag: Tag) -> bool;

    /// The vector's `swap_remove(at)`.
    fn swap_remove(list: &mut Self::List, at: usize);
}

impl DirectTagLists for SmallVecPeer {
    type List = smallvec_peer::List;

    fn lists(&self) -> &[Self::List] {
        SmallVecPeer::lists(self)
    }

    fn into_lists(self) -> Vec<Self::List> {
        SmallVecPeer::into_lists(self)
    }

    /// `SmallVec::push` (spills to the heap past 4).
    #[inline(always)]
    fn push(list: &mut Self::List, tag: Tag) -> bool {
        list.push(tag);
        true
    }

    /// `SmallVec::swap_remove`.
    #[inline(always)]
    fn swap_remove(list: &mut Self::List, at: usize) {
        list.swap_remove(at);
    }
}

impl DirectTagLists for ArrayVecPeer {
    type List = arrayvec_peer::List;

    fn lists(&self) -> &[Self::List] {
        ArrayVecPeer::lists(self)
    }

    fn into_lists(self) -> Vec<Self::List> {
        ArrayVecPeer::into_lists(self)
    }

    /// `ArrayVec::try_push` (refused past 8).
    #[inline(always)]
    fn push(list: &mut Self::List, tag: Tag) -> bool {
        list.try_push(tag).is_ok()
    }

    /// `ArrayVec::swap_remove`.
    #[inline(always)]
    fn swap_remove(list: &mut Self::List, at: usize) {
        list.swap_remove(at);
    }
}

impl DirectTagLists for VecOfVecs {
    type List = Vec<Tag>;

    fn lists(&self) -> &[Self::List] {
        VecOfVecs::lists(self)
    }

    fn into_lists(self) -> Vec<Self::List> {
        VecOfVecs::into_lists(self)
    }

    /// `Vec::push` (4, then doubling: the capacities `vec_of_vecs`' `add_tag` reserves).
    #[inline(always)]
    fn push(list: &mut Self::List, tag: Tag) -> bool {
        list.push(tag);
        true
    }

    /// `Vec::swap_remove`.
    #[inline(always)]
    fn swap_remove(list: &mut Self::List, at: usize) {
        list.swap_remove(at);
    }
}

/// One op of a body that writes, as the application holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `HasTag`: the handle (for the digest), the entity, the tag.
    Has(EntityHandle, Entity, Tag),
    /// `VisitEntity`.
    Visit(EntityHandle, Entity),
    /// `VisitAll`.
    VisitAll,
    /// `AddTag`.
    Add(Entity, Tag),
    /// `RemoveTag`.
    Remove(EntityHandle, Entity, Tag),
}

/// A body the loop has a shape for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Body {
    /// Only `VisitEntity`: (handle, entity) per op.
    Visits(Vec<(EntityHandle, Entity)>),
    /// Only `HasTag`: (handle, entity, tag) per op.
    Has(Vec<(EntityHandle, Entity, Tag)>),
    /// Only `VisitAll`: the number of passes.
    VisitAll(usize),
    /// Reads and at least one `AddTag` or `RemoveTag`, in op order.
    Writes(Vec<Step>),
}

/// Visits every listed entity's tags: (visited, wrapping sum of [`mix_pair`]).
#[inline(never)]
fn visit_entities<L: Deref<Target = [Tag]>>(
    lists: &[L],
    visits: &[(EntityHandle, Entity)],
) -> (u64, u64) {
    let (mut visited, mut sum) = (0u64, 0u64);
    for &(h, e) in visits {
        lists[e as usize].iter().for_each(|&tag| {
            visited += 1;
            sum = sum.wrapping_add(mix_pair(h, tag));
        });
    }
    (visited, sum)
}

/// Asks every listed entity whether it has the tag: (found, wrapping sum of [`mix_pair`] over
/// the found).
#[inline(never)]
fn has_tags<L: Deref<Target = [Tag]>>(
    lists: &[L],
    queries: &[(EntityHandle, Entity, Tag)],
) -> (u64, u64) {
    let (mut found, mut sum) = (0u64, 0u64);
    for &(h, e, tag) in queries {
        if lists[e as usize].contains(&tag) {
            found += 1;
            sum = sum.wrapping_add(mix_pair(h, tag));
        }
    }
    (found, sum)
}

/// One pass over every (entity, tag) pair, the entity by its index, counted into `visited`
/// and summed into `sum`.
#[inline(always)]
fn visit_all<L: Deref<Target = [Tag]>>(lists: &[L], visited: &mut u64, sum: &mut u64) {
    for (e, list) in lists.iter().enumerate() {
        list.iter().for_each(|&tag| {
            *visited += 1;
            *sum = sum.wrapping_add(mix_pair(e as Entity, tag));
        });
    }
}

/// `passes` passes of [`visit_all`]: (visited, sum).
#[inline(never)]
fn visit_all_passes<L: Deref<Target = [Tag]>>(lists: &[L], passes: usize) -> (u64, u64) {
    let (mut visited, mut sum) = (0u64, 0u64);
    for _ in 0..passes {
        visit_all(std::hint::black_box(lists), &mut visited, &mut sum);
    }
    (visited, sum)
}

/// Applies `steps` in order to the design's vectors: the body's digest but `tags_held`, or
/// `None` if the crate refused a push.
#[inline(never)]
fn apply_steps<P: DirectTagLists>(lists: &mut [P::List], steps: &[Step]) -> Option<TagDigest> {
    let (mut has_found, mut removes_found, mut found_sum) = (0u64, 0u64, 0u64);
    let (mut visited, mut visit_sum, mut visited_by_all) = (0u64, 0u64, 0u64);
    for &step in steps {
        match step {
            Step::Has(h, e, tag) => {
                if lists[e as usize].contains(&tag) {
                    has_found += 1;
                    found_sum = found_sum.wrapping_add(mix_pair(h, tag));
                }
            }
            Step::Visit(h, e) => {
                lists[e as usize].iter().for_each(|&tag| {
                    visited += 1;
                    visit_sum = visit_sum.wrapping_add(mix_pair(h, tag));
                });
            }
            Step::VisitAll => {
                let before = visited;
                visit_all(&*lists, &mut visited, &mut visit_sum);
                visited_by_all += visited - before;
            }
            Step::Add(e, tag) => {
                if !P::push(&mut lists[e as usize], tag) {
                    return None;
                }
            }
            Step::Remove(h, e, tag) => {
                let list = &mut lists[e as usize];
                if let Some(at) = list.iter().position(|&t| t == tag) {
                    P::swap_remove(list, at);
                    removes_found += 1;
                    found_sum = found_sum.wrapping_add(mix_pair(h, tag));
                }
            }
        }
    }
    Some(TagDigest {
        has_found,
        removes_found,
        found_sum,
        visited,
        visited_by_all,
        visit_sum,
        tags_held: 0,
    })
}

/// Tags held by `lists` (outside the timed region).
fn tags_held<L: Deref<Target = [Tag]>>(lists: &[L]) -> u64 {
    lists.iter().map(|l| l.len() as u64).sum()
}

/// The state one pass over a body that writes runs on: the design's vectors taken out of its
/// replay after the setup, and that replay (holding the setup's foreign buffers, as the
/// replay's own state does).
struct Fresh<P: DirectTagLists> {
    lists: Vec<P::List>,
    _replay: TagReplay<P>,
}

impl<P: DirectTagLists> Fresh<P> {
    /// The vectors of `replay`, a state after the setup.
    fn of(mut replay: TagReplay<P>) -> Self {
        Self {
            lists: std::mem::replace(&mut replay.store, P::new()).into_lists(),
            _replay: replay,
        }
    }
}

/// A tag body run on the vectors of design `P` directly (`ref-direct-<design>`, see
/// the [module docs](self)).
pub struct DirectTags<P: DirectTagLists> {
    /// The trace (its setup rebuilds the state of a body that writes).
    trace: Trace<TagOp>,
    /// The design after the setup, for a read-only body (only its vectors are read); `None` for
    /// a body that writes.
    state: Option<TagReplay<P>>,
    /// For a body that writes: the states of its passes (the first built by
    /// [`ReferenceLoop::for_trace`], so a single pass runs no setup).
    passes: PassStates<Fresh<P>>,
    /// The body, decoded.
    body: Body,
    /// The tags the design holds after the setup (a read-only body's `tags_held`).
    held_after_setup: u64,
    /// The model's body digest.
    expected: TagDigest,
}

impl<P: DirectTagLists> DirectTags<P> {
    /// Decodes `trace`'s body with `entities[h]` the design's entity of handle `h`; `None` for
    /// a body of no shape above.
    fn decode(trace: &Trace<TagOp>, entities: &[Entity]) -> Option<Body> {
        let entity = |h: EntityHandle| entities.get(h as usize).copied();
        let body = &trace.body;
        if body.is_empty() {
            return None;
        }
        if body.iter().all(|op| matches!(op, TagOp::VisitEntity(_))) {
            return body
                .iter()
                .map(|op| match *op {
                    TagOp::VisitEntity(h) => Some((h, entity(h)?)),
                    _ => None,
                })
                .collect::<Option<_>>()
                .map(Body::Visits);
        }
        if body.iter().all(|op| matches!(op, TagOp::HasTag(..))) {
            return body
                .iter()
                .map(|op| match *op {
                    TagOp::HasTag(h, tag) => Some((h, entity(h)?, tag)),
                    _ => None,
                })
                .collect::<Option<_>>()
                .map(Body::Has);
        }
        if body.iter().all(|op| *op == TagOp::VisitAll) {
            return Some(Body::VisitAll(body.len()));
        }
        if trace.body_is_read_only() {
            // A mixed read-only body: no registered workload has one.
            return None;
        }
        body.iter()
            .map(|op| match *op {
                TagOp::HasTag(h, tag) => Some(Step::Has(h, entity(h)?, tag)),
                TagOp::VisitEntity(h) => Some(Step::Visit(h, entity(h)?)),
                TagOp::VisitAll => Some(Step::VisitAll),
                TagOp::AddTag(h, tag) => Some(Step::Add(entity(h)?, tag)),
                TagOp::RemoveTag(h, tag) => Some(Step::Remove(h, entity(h)?, tag)),
                _ => None,
            })
            .collect::<Option<_>>()
            .map(Body::Writes)
    }

    /// The timed part of one pass over a read-only body, on the setup's state: its digest.
    fn read_pass(&self, state: &TagReplay<P>) -> (TagDigest, Duration) {
        let lists = std::hint::black_box(state.store.lists());
        let mut digest = TagDigest {
            tags_held: self.held_after_setup,
            ..TagDigest::default()
        };
        let start = Stopwatch::start();
        match &self.body {
            Body::Visits(visits) => {
                (digest.visited, digest.visit_sum) =
                    visit_entities(lists, std::hint::black_box(visits));
            }
            Body::Has(queries) => {
                (digest.has_found, digest.found_sum) =
                    has_tags(lists, std::hint::black_box(queries));
            }
            Body::VisitAll(passes) => {
                (digest.visited, digest.visit_sum) =
                    visit_all_passes(lists, std::hint::black_box(*passes));
                digest.visited_by_all = digest.visited;
            }
            Body::Writes(_) => unreachable!("a body that writes has no state kept"),
        }
        (digest, start.elapsed())
    }

    /// One pass over a body that writes, on the design's vectors after the setup (built before
    /// the pass unless ready, untimed): its digest (`None`: a push refused) and the time of
    /// the body alone.
    fn write_pass(&self, steps: &[Step]) -> Result<(Option<TagDigest>, Duration), String> {
        let mut fresh = self.passes.next(|| {
            TagReplay::<P>::after_setup(&self.trace)
                .map(Fresh::of)
                .map_err(|e| format!("setup {e}"))
        })?;
        crate::host::fresh_time_slice();
        let start = Stopwatch::start();
        let digest = apply_steps::<P>(
            std::hint::black_box(&mut fresh.lists),
            std::hint::black_box(steps),
        );
        let elapsed = start.elapsed();
        let digest = digest.map(|d| TagDigest {
            tags_held: tags_held(&fresh.lists),
            ..d
        });
        self.passes.spend(fresh);
        Ok((digest, elapsed))
    }
}

impl<P: DirectTagLists> ReferenceLoop for DirectTags<P> {
    type Family = TagFamily;

    fn name() -> String {
        format!("ref-direct-{}", P::INFO.meta.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(P::INFO.meta.name)
    }

    /// For a body of only `VisitEntity`, only `HasTag`, only `VisitAll`, or of those and
    /// `AddTag` / `RemoveTag` with at least one write; `None` otherwise, or if the design cannot
    /// run the trace (its cap of tags per entity) or refuses the setup.
    fn for_trace(trace: &Trace<TagOp>, expected: &TagDigest) -> Option<Self> {
        let stats = trace.validate().ok()?;
        if TagReplay::<P>::unsupported_before(&stats).is_some() {
            return None;
        }
        let mut state = TagReplay::<P>::after_setup(trace).ok()?;
        let body = Self::decode(trace, state.handles().ids())?;
        let held_after_setup = tags_held(state.store.lists());
        let (state, passes) = match body {
            Body::Writes(_) => (None, PassStates::starting_with(Fresh::of(state))),
            _ => (Some(state), PassStates::default()),
        };
        Some(Self {
            trace: trace.clone(),
            state,
            passes,
            body,
            held_after_setup,
            expected: *expected,
        })
    }

    /// Times `iters` passes of the body (a body that writes on a state after the setup built
    /// before each pass but a first, untimed).
    ///
    /// # Errors
    /// The body's digest differs from the model's, or the crate refused a push.
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
                    "{} called directly refused a tag the model took",
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

/// `ref-direct-smallvec`.
pub type DirectSmallVec = DirectTags<SmallVecPeer>;
/// `ref-direct-arrayvec`.
pub type DirectArrayVec = DirectTags<ArrayVecPeer>;
/// `ref-direct-vec_of_vecs`: our article baseline's own vectors, every design's share.
pub type DirectVecOfVecs = DirectTags<VecOfVecs>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Expected;

    fn trace(workload: &str, params: Option<serde_json::Value>) -> Trace<TagOp> {
        workloads::registry::generate_for::<TagOp>(workload, 300, 7, params.as_ref()).unwrap()
    }

    /// The loop of design `P` on `trace` gives the model's digest, and a corrupted expectation
    /// fails.
    fn check<P: DirectTagLists>(trace: &Trace<TagOp>) {
        let name = &trace.header.generator;
        let expected = Expected::<TagFamily>::of(trace).unwrap();
        let looped = DirectTags::<P>::for_trace(trace, &expected.body)
            .unwrap_or_else(|| panic!("{}: no loop for {name}", P::INFO.meta.name));
        assert_eq!(DirectTags::<P>::mirrors(), Some(P::INFO.meta.name));
        looped
            .run(2)
            .unwrap_or_else(|e| panic!("{} on {name}: {e}", P::INFO.meta.name));
        let mut wrong = DirectTags::<P>::for_trace(trace, &expected.body).unwrap();
        wrong.expected.found_sum ^= 1;
        wrong.expected.visit_sum ^= 1;
        let error = wrong.run(1).unwrap_err();
        assert!(error.contains("sum"), "{}: {error}", P::INFO.meta.name);
    }

    /// The three loops replay the read-only bodies (also heavy-tailed, for `smallvec` and
    /// `vec_of_vecs`), the mutation bodies and the growing lists like the model.
    #[test]
    fn direct_loops_answer_like_the_model() {
        let heavy = Some(serde_json::json!({ "tag_counts": "heavy-tail" }));
        for (workload, params) in [
            ("tags-visit-entity", None),
            ("tags-has", None),
            ("tags-visit-all", None),
            ("tags-visit-all-fragmented", None),
            ("tags-mutate", None),
            ("tags-mutate-r0", None),
            ("tags-mutate-r16", None),
        ] {
            let trace = trace(workload, params);
            check::<SmallVecPeer>(&trace);
            check::<ArrayVecPeer>(&trace);
            check::<VecOfVecs>(&trace);
        }
        for workload in ["tags-visit-entity", "tags-has", "tags-mutate"] {
            check::<SmallVecPeer>(&trace(workload, heavy.clone()));
            check::<VecOfVecs>(&trace(workload, heavy.clone()));
        }
        for workload in ["tags-visit-all-heavy", "tags-grow-long"] {
            check::<SmallVecPeer>(&trace(workload, None));
            check::<VecOfVecs>(&trace(workload, None));
        }
    }

    /// Bodies that spawn or despawn have no loop; neither has a trace beyond `arrayvec`'s cap.
    #[test]
    fn other_bodies_and_capped_traces_have_no_loop() {
        for workload in ["tags-build", "tags-churn"] {
            let trace = trace(workload, None);
            let expected = Expected::<TagFamily>::of(&trace).unwrap();
            assert!(DirectSmallVec::for_trace(&trace, &expected.body).is_none());
            assert!(DirectArrayVec::for_trace(&trace, &expected.body).is_none());
        }
        let heavy = trace("tags-visit-all-heavy", None);
        let expected = Expected::<TagFamily>::of(&heavy).unwrap();
        assert!(DirectArrayVec::for_trace(&heavy, &expected.body).is_none());
    }

    /// A body that writes: the first pass runs on the state built with the loop (a single
    /// pass runs no setup), later ones on states built before them.
    #[test]
    fn the_first_pass_of_a_body_that_writes_needs_no_setup() {
        let trace = trace("tags-mutate", None);
        let expected = Expected::<TagFamily>::of(&trace).unwrap();
        let looped = DirectSmallVec::for_trace(&trace, &expected.body).unwrap();
        assert_eq!(looped.passes.held(), (true, false));
        looped.run(1).unwrap();
        assert_eq!(looped.passes.held(), (false, true));
        looped.run(2).unwrap();
    }

    /// A state that lost a tag fails a body that writes (its `tags_held`).
    #[test]
    fn a_wrong_count_after_writes_fails() {
        let trace = trace("tags-mutate", None);
        let expected = Expected::<TagFamily>::of(&trace).unwrap();
        let mut looped = DirectSmallVec::for_trace(&trace, &expected.body).unwrap();
        looped.expected.tags_held += 1;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("tags_held"), "{error}");
    }
}
