//! The family's reference loops, verified like a replay:
//!
//! * [`DirectTags`] (`ref-direct-<design>`, for the peers `smallvec` and `arrayvec` and our
//!   article baseline `vec_of_vecs`): the tag-store bodies written against the design's
//!   per-entity vectors themselves, no [`TagStore`] in between: the peer's
//!   `Vec<SmallVec<[u32; 4]>>` / `Vec<ArrayVec<u32, 8>>`, or the `Vec<Vec<u32>>` that
//!   `vec_of_vecs` is, after the trace's setup (built untimed by the design's replay, so the
//!   same entities, tags and heap layout, foreign buffers included), indexed by entity, over a
//!   plain `Vec` of the body's decoded ops (handle, the design's entity, tag; in a body that
//!   writes, the entity each op names or gets as the design's dry run recorded it, the IDs its
//!   timed replays read, taken from the cell when it holds them,
//!   [`CellStates::recorded_ids`]):
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
//!     (the cache pass runs one) holds the body and its verification only;
//!   - a body that spawns, despawns or clears (`tags-build`, `tags-build-heavy`,
//!     `tags-churn`), in the same loop and on the same states, each op doing to the vectors
//!     what the design's adapter does: `Spawn` takes the most recently released entity off a
//!     stack, or pushes an empty vector when none waits (as `create_entity`, whose reused
//!     vector its `destroy_entity` left empty), and an entity other than the one the dry run
//!     recorded fails the run, since the later steps would name other vectors; `Despawn`
//!     empties the vector as `destroy_entity` does (`mem::take` for `Vec` and `SmallVec`,
//!     freeing a heap buffer; `clear` for `ArrayVec`) and pushes the entity on the stack;
//!     `Clear` is the vector's `clear`. Of the adapters' entity bookkeeping
//!     ([`EntitySet`](impls::tags::entities::EntitySet)) the loop keeps that stack of released
//!     entities alone (starting as the design's after the setup), the least an application
//!     that reuses slots keeps: the liveness bits, which answer `NoSuchEntity` for a released
//!     entity, it does without, as it never names one.
//!
//!   [`ReferenceLoop::mirrors`] names the design, so the results' `overhead` (replay ÷ this
//!   loop) is what the replay driver and the [`TagStore`] contract add to the vectors. For
//!   `vec_of_vecs` (whose `add_tag` grows its inner `Vec` to the capacities `Vec::push` picks)
//!   that is every design's share: the driver, the liveness check of each op's entity (and
//!   the liveness bit a spawn or despawn sets) and the counts the contract keeps, which the
//!   peers' adapters pay too; a peer's overhead above it is its adapter's own. Verified: the
//!   whole body digest (hits, removals, visits and their sums, by the family's [`mix_pair`],
//!   and the tags held after the body, counted outside the timed region) must equal the
//!   model's.

use std::ops::Deref;
use std::time::Duration;

use impls::tags::peers::arrayvec::{self as arrayvec_peer, ArrayVecPeer};
use impls::tags::peers::smallvec::{self as smallvec_peer, SmallVecPeer};
use impls::tags::vec_of_vecs::VecOfVecs;
use impls::tags::{Entity, Tag, TagStore};
use workloads::tags::EntityHandle;
use workloads::{TagOp, Trace};

use super::reference_writes::{Fresh, Step, Stopped, apply_steps, decode_writes};
use super::{TagDigest, TagFamily, TagReplay, mix_pair};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, describe_mismatch, runs_trace};
use crate::replay::pass_states::PassStates;
use crate::replay::shared::CellStates;

/// A design whose per-entity vectors the `ref-direct-<design>` loop uses directly: its vectors
/// borrowed (or taken) from the store, and the vector's own push, swap-remove and clear (the
/// reads go through the vector's slice).
pub trait DirectTagLists: TagStore + 'static {
    /// One entity's tags: the design's vector (`Default`: the empty vector a new entity gets).
    type List: Deref<Target = [Tag]> + Default;

    /// The design's vectors, indexed by entity.
    fn lists(&self) -> &[Self::List];

    /// The design's vectors taken out of it, and its released entities (most recently
    /// released last).
    fn into_parts(self) -> (Vec<Self::List>, Vec<Entity>);

    /// The vector's push; `false` if it refused the tag (full).
    fn push(list: &mut Self::List, tag: Tag) -> bool;

    /// The vector's `swap_remove(at)`.
    fn swap_remove(list: &mut Self::List, at: usize);

    /// The vector's `clear` (`Clear`).
    fn clear(list: &mut Self::List);

    /// What the design's `destroy_entity` does to the vector.
    fn release(list: &mut Self::List);
}

/// The [`DirectTagLists`] items every design writes alike: `lists` and `into_parts` are
/// `$design`'s own, `swap_remove` and `clear` the vector's (named `$vector` in their docs),
/// inlined into the loops as each impl wrote them. With `grows:` and `takes:` (a vector that
/// grows on the heap, `Vec` and `SmallVec`) also `push`, which never refuses, and `release`
/// by `mem::take` (freeing a heap buffer), each documented by the text after its key.
macro_rules! design_vectors {
    ($design:ident, $vector:literal, grows: $push:literal, takes: $release:literal) => {
        design_vectors!($design, $vector);

        #[doc = concat!("`", $vector, "::push` (", $push, ").")]
        #[inline(always)]
        fn push(list: &mut Self::List, tag: Tag) -> bool {
            list.push(tag);
            true
        }

        #[doc = concat!("`mem::take`: ", $release, ".")]
        #[inline(always)]
        fn release(list: &mut Self::List) {
            drop(std::mem::take(list));
        }
    };
    ($design:ident, $vector:literal) => {
        fn lists(&self) -> &[Self::List] {
            $design::lists(self)
        }

        fn into_parts(self) -> (Vec<Self::List>, Vec<Entity>) {
            $design::into_parts(self)
        }

        #[doc = concat!("`", $vector, "::swap_remove`.")]
        #[inline(always)]
        fn swap_remove(list: &mut Self::List, at: usize) {
            list.swap_remove(at);
        }

        #[doc = concat!("`", $vector, "::clear`.")]
        #[inline(always)]
        fn clear(list: &mut Self::List) {
            list.clear();
        }
    };
}

impl DirectTagLists for SmallVecPeer {
    type List = smallvec_peer::List;

    design_vectors!(
        SmallVecPeer,
        "SmallVec",
        grows: "spills to the heap past 4",
        takes: "the inline, empty `SmallVec` (a spilled buffer freed)"
    );
}

impl DirectTagLists for ArrayVecPeer {
    type List = arrayvec_peer::List;

    design_vectors!(ArrayVecPeer, "ArrayVec");

    /// `ArrayVec::try_push` (refused past 8).
    #[inline(always)]
    fn push(list: &mut Self::List, tag: Tag) -> bool {
        list.try_push(tag).is_ok()
    }

    /// `ArrayVec::clear` (the tags are inline: nothing to free).
    #[inline(always)]
    fn release(list: &mut Self::List) {
        list.clear();
    }
}

impl DirectTagLists for VecOfVecs {
    type List = Vec<Tag>;

    design_vectors!(
        VecOfVecs,
        "Vec",
        grows: "4, then doubling: the capacities `vec_of_vecs`' `add_tag` reserves",
        takes: "an empty `Vec` without a buffer (the old one freed)"
    );
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
    /// Any other body with no `Foreign` op (reads, tag writes, spawns, despawns and clears,
    /// at least one a write), in op order.
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
pub(super) fn visit_all<L: Deref<Target = [Tag]>>(lists: &[L], visited: &mut u64, sum: &mut u64) {
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

/// Tags held by `lists` (outside the timed region).
fn tags_held<L: Deref<Target = [Tag]>>(lists: &[L]) -> u64 {
    lists.iter().map(|l| l.len() as u64).sum()
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
    /// Decodes `trace`'s body, which only reads, with `entities[h]` the design's entity of
    /// handle `h`; `None` for a body of no shape above.
    fn decode_reads(trace: &Trace<TagOp>, entities: &[Entity]) -> Option<Body> {
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
        // A mixed body that only reads: no registered workload has one.
        body.iter()
            .all(|op| *op == TagOp::VisitAll)
            .then_some(Body::VisitAll(body.len()))
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
    /// the pass unless ready, untimed): its digest (or where it stopped) and the time of the
    /// body alone.
    fn write_pass(&self, steps: &[Step]) -> Result<(Result<TagDigest, Stopped>, Duration), String> {
        let mut fresh = self.passes.next(|| {
            TagReplay::<P>::after_setup(&self.trace)
                .map(Fresh::of)
                .map_err(|e| format!("setup {e}"))
        })?;
        crate::host::fresh_time_slice();
        let start = Stopwatch::start();
        let digest = apply_steps::<P>(
            std::hint::black_box(&mut fresh.lists),
            std::hint::black_box(&mut fresh.released),
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
    const MIRRORS: Option<&'static str> = Some(P::INFO.meta.name);

    /// For a body of only `VisitEntity`, only `HasTag`, only `VisitAll`, or of any ops but
    /// `Foreign` with at least one write; `None` otherwise, or if the design cannot run the
    /// trace (its cap of tags per entity) or refuses the setup or the dry run. A body that
    /// writes takes its entities from the dry run of the design's timed replay when the cell
    /// holds it, else from a dry run of its own.
    fn in_cell(trace: &Trace<TagOp>, expected: &TagDigest, designs: &CellStates) -> Option<Self> {
        runs_trace::<TagReplay<P>>(trace)?;
        let mut state = TagReplay::<P>::after_setup(trace).ok()?;
        let held_after_setup = tags_held(state.store.lists());
        let (body, state, passes) = if trace.body_is_read_only() {
            let body = Self::decode_reads(trace, state.handles().ids())?;
            (body, Some(state), PassStates::default())
        } else {
            let ids = designs.body_ids::<TagReplay<P>>(trace)?;
            let steps = decode_writes(trace, &ids)?;
            let first = PassStates::starting_with(Fresh::of(state));
            (Body::Writes(steps), None, first)
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
    /// The body's digest differs from the model's, the crate refused a push, or a spawn got
    /// another entity than the design's dry run.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let name = P::INFO.meta.name;
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let (digest, elapsed) = match (&self.body, &self.state) {
                (Body::Writes(steps), _) => self.write_pass(steps)?,
                (_, Some(state)) => {
                    let (digest, elapsed) = self.read_pass(state);
                    (Ok(digest), elapsed)
                }
                (_, None) => unreachable!("a read-only body keeps its state"),
            };
            total += elapsed;
            let digest = std::hint::black_box(digest).map_err(|stopped| match stopped {
                Stopped::Refused(at) => format!(
                    "{name} called directly refused a tag the model took (op {at} of the body)"
                ),
                Stopped::OtherEntity(at) => format!(
                    "{name} called directly: the spawn of op {at} of the body got another \
                     entity than the design's dry run of the same ops"
                ),
            })?;
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
    use crate::replay::testing::{check_mirroring_loop, trace_with};
    use crate::verify::Expected;

    fn trace(workload: &str, params: Option<serde_json::Value>) -> Trace<TagOp> {
        trace_with(workload, 300, params.as_ref())
    }

    /// The loop of design `P` on `trace` answers like the model and fails a corrupted
    /// expectation.
    fn check<P: DirectTagLists>(trace: &Trace<TagOp>) {
        check_mirroring_loop::<DirectTags<P>>(
            trace,
            &[|d| {
                d.found_sum ^= 1;
                d.visit_sum ^= 1;
            }],
            "sum",
        );
    }

    /// The three loops replay every body of every registered workload like the model (the
    /// reads, the mutations, the growing lists, the bodies that spawn and despawn), `arrayvec`
    /// wherever its cap lets it run the trace, and the heavy-tailed variants too.
    #[test]
    fn direct_loops_answer_like_the_model_on_every_workload() {
        let mut capped = Vec::new();
        for workload in workloads::registry::workloads_of("tags") {
            let trace = trace(workload.name, None);
            check::<SmallVecPeer>(&trace);
            check::<VecOfVecs>(&trace);
            let stats = trace.validate().unwrap();
            if TagReplay::<ArrayVecPeer>::unsupported_before(&stats).is_some() {
                capped.push(workload.name);
            } else {
                check::<ArrayVecPeer>(&trace);
            }
        }
        // At 300 entities `tags-grow-long`'s lists stay within the cap.
        assert_eq!(capped, ["tags-build-heavy", "tags-visit-all-heavy"]);
        let heavy = Some(serde_json::json!({ "tag_counts": "heavy-tail" }));
        for workload in ["tags-visit-entity", "tags-has", "tags-mutate", "tags-churn"] {
            check::<SmallVecPeer>(&trace(workload, heavy.clone()));
            check::<VecOfVecs>(&trace(workload, heavy.clone()));
        }
    }

    /// A trace beyond `arrayvec`'s cap has no `arrayvec` loop, whatever its body.
    #[test]
    fn capped_traces_have_no_loop() {
        for workload in ["tags-visit-all-heavy", "tags-build-heavy"] {
            let heavy = trace(workload, None);
            let expected = Expected::<TagFamily>::of(&heavy).unwrap();
            assert!(DirectArrayVec::for_trace(&heavy, &expected.body).is_none());
        }
    }

    /// `tags-mutate`'s setup with `released` of its entities despawned at its end, and `body`.
    fn with_body(released: &[EntityHandle], body: Vec<TagOp>) -> Trace<TagOp> {
        let mut trace = trace("tags-mutate", None);
        trace
            .setup
            .extend(released.iter().map(|&h| TagOp::Despawn(h)));
        trace.body = body;
        trace
    }

    /// Entities released by the setup are the first a spawn reuses (most recent first), then
    /// new ones; a `Clear` empties an entity that stays live, and `VisitAll` sees it all.
    #[test]
    fn spawns_reuse_the_setups_released_entities_and_clears_empty_a_list() {
        let handles = trace("tags-mutate", None).handle_count() as EntityHandle;
        let (a, b, c) = (handles, handles + 1, handles + 2);
        let trace = with_body(
            &[3, 5],
            vec![
                TagOp::Spawn,
                TagOp::Spawn,
                TagOp::Spawn,
                TagOp::AddTag(a, 11),
                TagOp::AddTag(b, 12),
                TagOp::AddTag(c, 13),
                TagOp::Clear(0),
                TagOp::AddTag(0, 14),
                TagOp::Despawn(a),
                TagOp::VisitAll,
                TagOp::HasTag(c, 13),
                TagOp::VisitEntity(0),
            ],
        );
        check::<SmallVecPeer>(&trace);
        check::<ArrayVecPeer>(&trace);
        check::<VecOfVecs>(&trace);
        let expected = Expected::<TagFamily>::of(&trace).unwrap();
        let looped = DirectVecOfVecs::for_trace(&trace, &expected.body).unwrap();
        let Body::Writes(steps) = &looped.body else {
            panic!("a body that writes");
        };
        assert_eq!(
            &steps[..3],
            &[Step::Spawn(5), Step::Spawn(3), Step::Spawn(handles)]
        );
    }

    /// A spawn that gets another entity than the design's dry run recorded fails the run,
    /// naming the op.
    #[test]
    fn a_spawn_with_another_entity_than_the_dry_runs_fails() {
        let trace = trace("tags-churn", None);
        let expected = Expected::<TagFamily>::of(&trace).unwrap();
        let mut looped = DirectArrayVec::for_trace(&trace, &expected.body).unwrap();
        let Body::Writes(steps) = &mut looped.body else {
            panic!("a body that writes");
        };
        assert!(matches!(steps[0], Step::Despawn(_)), "{:?}", steps[0]);
        let Step::Spawn(recorded) = &mut steps[1] else {
            panic!("churn's second op spawns");
        };
        *recorded += 1;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("op 1 of the body"), "{error}");
    }

    /// In a cell whose design's timed replay resolved a body that writes, the loop decodes its
    /// steps from those very entities (no dry run of its own) and answers like the model.
    #[test]
    fn a_body_that_writes_takes_its_entities_from_the_designs_dry_run() {
        let trace = trace("tags-churn", None);
        let expected = Expected::<TagFamily>::of(&trace).unwrap();
        let mut timed =
            crate::timing::TimedReplay::of::<TagReplay<SmallVecPeer>>(&trace, &expected);
        assert!(timed.shared().unwrap().is_none(), "a body that writes");
        let mut designs = CellStates::default();
        designs.insert_resolved(
            TagReplay::<SmallVecPeer>::design_name(),
            timed.resolved().unwrap().clone(),
        );
        let recorded = designs.recorded_ids::<TagReplay<SmallVecPeer>>().unwrap();
        let looped = DirectSmallVec::in_cell(&trace, &expected.body, &designs).unwrap();
        let Body::Writes(steps) = &looped.body else {
            panic!("a body that writes");
        };
        let Step::Spawn(first) = steps[1] else {
            panic!("churn's second op spawns");
        };
        assert_eq!(first, recorded[1]);
        looped.run(2).unwrap();
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
