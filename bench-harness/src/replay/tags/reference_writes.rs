//! The steps of a body that writes, for the tag family's `ref-direct-<design>` loops
//! ([`DirectTags`](super::reference::DirectTags), whose module docs give the loop): each op
//! decoded with the entity it names or gets as the design's dry run recorded it, and applied
//! to the design's vectors as the design's adapter applies it, with the stack of released
//! entities an application that reuses slots keeps beside them.

use impls::tags::{Entity, Tag};
use workloads::tags::EntityHandle;
use workloads::{TagOp, Trace};

use super::reference::{DirectTagLists, visit_all};
use super::{TagDigest, TagReplay, mix_pair};
use crate::replay::pass_states::spawn_slot;

/// One op of a body that writes, as the application holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
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
    /// `Spawn`: the entity the design's dry run got.
    Spawn(Entity),
    /// `Despawn`.
    Despawn(Entity),
    /// `Clear`.
    Clear(Entity),
}

/// Why a pass over a body that writes stopped: at the step (index into the body) whose push
/// the crate refused, or whose spawn got another entity than the design's dry run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stopped {
    /// A push refused (a full `ArrayVec`).
    Refused(usize),
    /// A spawn's entity differs from the recorded one.
    OtherEntity(usize),
}

/// Applies `steps` in order to the design's vectors and the stack of released entities (most
/// recently released last): the body's digest but `tags_held`, or where it stopped.
#[inline(never)]
pub(super) fn apply_steps<P: DirectTagLists>(
    lists: &mut Vec<P::List>,
    released: &mut Vec<Entity>,
    steps: &[Step],
) -> Result<TagDigest, Stopped> {
    let (mut has_found, mut removes_found, mut found_sum) = (0u64, 0u64, 0u64);
    let (mut visited, mut visit_sum, mut visited_by_all) = (0u64, 0u64, 0u64);
    // The index of a failing step is read off the iterator, so the loop keeps no counter.
    let mut rest = steps.iter();
    while let Some(&step) = rest.next() {
        let at = || steps.len() - rest.len() - 1;
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
                    return Err(Stopped::Refused(at()));
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
            Step::Spawn(recorded) => {
                if spawn_slot(lists, released) != recorded {
                    return Err(Stopped::OtherEntity(at()));
                }
            }
            Step::Despawn(e) => {
                P::release(&mut lists[e as usize]);
                released.push(e);
            }
            Step::Clear(e) => P::clear(&mut lists[e as usize]),
        }
    }
    Ok(TagDigest {
        has_found,
        removes_found,
        found_sum,
        visited,
        visited_by_all,
        visit_sum,
        tags_held: 0,
    })
}

/// The state one pass over a body that writes runs on: the design's vectors and released
/// entities taken out of its replay after the setup, and that replay (holding the setup's
/// foreign buffers, as the replay's own state does).
pub(super) struct Fresh<P: DirectTagLists> {
    pub(super) lists: Vec<P::List>,
    /// The application's stack of released entities, most recently released last (a `Spawn`
    /// takes the last).
    pub(super) released: Vec<Entity>,
    _replay: TagReplay<P>,
}

impl<P: DirectTagLists> Fresh<P> {
    /// The vectors and released entities of `replay`, a state after the setup.
    pub(super) fn of(mut replay: TagReplay<P>) -> Self {
        let (lists, released) = std::mem::replace(&mut replay.store, P::new()).into_parts();
        Self {
            lists,
            released,
            _replay: replay,
        }
    }
}

/// The body of `trace`, which writes, as steps holding `ids`, the entities the design's dry run
/// recorded in op order (one per op but `VisitAll`); `None` for a body with a `Foreign` op or
/// if the IDs do not fit the body.
pub(super) fn decode_writes(trace: &Trace<TagOp>, ids: &[Entity]) -> Option<Vec<Step>> {
    let mut ids = ids.iter().copied();
    let steps = trace
        .body
        .iter()
        .map(|op| {
            Some(match *op {
                TagOp::HasTag(h, tag) => Step::Has(h, ids.next()?, tag),
                TagOp::VisitEntity(h) => Step::Visit(h, ids.next()?),
                TagOp::VisitAll => Step::VisitAll,
                TagOp::AddTag(_, tag) => Step::Add(ids.next()?, tag),
                TagOp::RemoveTag(h, tag) => Step::Remove(h, ids.next()?, tag),
                TagOp::Spawn => Step::Spawn(ids.next()?),
                TagOp::Despawn(_) => Step::Despawn(ids.next()?),
                TagOp::Clear(_) => Step::Clear(ids.next()?),
                TagOp::Foreign(_) | TagOp::ForeignFree(_) => return None,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    ids.next().is_none().then_some(steps)
}
