//! The ID-table family's op vocabulary (`id_table`), shared by traces, replay, property tests
//! and recordings: the ops, their body statistics, validation and byte encoding.

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, TraceStats};
use crate::trace::{InvalidTrace, Part};

/// A logical handle: handle `k` names the object created by the trace's `k`-th [`IdTableOp::Add`].
pub type Handle = u32;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = IdTableOp;

/// One operation of a trace. Expected outcomes are part of the op: a valid trace only uses
/// [`IdTableOp::Get`], [`IdTableOp::Mutate`] and [`IdTableOp::Remove`] on live handles and [`IdTableOp::GetStale`] on
/// removed ones (checked by [`Trace::validate`](crate::trace::Trace::validate)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdTableOp {
    /// Insert [`Payload::for_handle`](crate::Payload::for_handle) of the next handle.
    Add,
    /// Look up a live handle; expects a hit on the object created for it.
    Get(Handle),
    /// Look up a removed handle; expects a miss.
    GetStale(Handle),
    /// Remove a live handle; expects the object created for it back.
    Remove(Handle),
    /// Sum [`Payload::value`](crate::Payload) over all live objects.
    Iterate,
    /// Add one to the `value` of every live object through mutable iteration.
    IterateMut,
    /// Look up a live handle mutably and apply [`Payload::mutate`](crate::Payload::mutate).
    Mutate(Handle),
    /// Reorder the stored objects by ascending [`Object::value`](crate::Object::value) (a
    /// consumer's key) where the design can (a packed design permutes its dense array and
    /// patches its index; IDs stay valid). Designs whose object positions are fixed by their
    /// IDs ignore it. Changes no answer: every later op's digest is order-independent.
    Sort,
}

impl IdTableOp {
    /// The handle the op names, if any.
    pub const fn handle(self) -> Option<Handle> {
        match self {
            IdTableOp::Get(h)
            | IdTableOp::GetStale(h)
            | IdTableOp::Remove(h)
            | IdTableOp::Mutate(h) => Some(h),
            IdTableOp::Add | IdTableOp::Iterate | IdTableOp::IterateMut | IdTableOp::Sort => None,
        }
    }

    /// Whether replaying the op leaves the table's contents unchanged, so a body made only of
    /// such ops can be timed repeatedly on one table.
    pub const fn is_read_only(self) -> bool {
        matches!(
            self,
            IdTableOp::Get(_) | IdTableOp::GetStale(_) | IdTableOp::Iterate
        )
    }
}

/// Counts of a trace's body, for throughput and for the file header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdTableStats {
    /// `Add` ops.
    pub adds: u64,
    /// `Get` ops.
    pub gets: u64,
    /// `GetStale` ops.
    pub stale_gets: u64,
    /// `Remove` ops.
    pub removes: u64,
    /// `Mutate` ops, and `Sort` ops (one work unit each; bodies rarely hold one).
    pub mutates: u64,
    /// `Iterate` and `IterateMut` ops.
    pub iterations: u64,
    /// Live objects visited by all iterations together.
    pub iterated_objects: u64,
    /// Live objects after the setup (the state the body starts from).
    pub live_at_start: u64,
    /// Most live objects at any point of the trace.
    pub peak_live: u64,
}

impl IdTableStats {
    /// Work units of the body: one per single-object op plus one per object an iteration
    /// visits. Throughput (ops/s) and ns/op are per work unit, so `iterate-*` workloads are
    /// reported per live object visited.
    pub fn work_units(&self) -> u64 {
        self.adds
            + self.gets
            + self.stale_gets
            + self.removes
            + self.mutates
            + self.iterated_objects
    }
}

impl TraceStats for IdTableStats {
    fn work_units(&self) -> u64 {
        IdTableStats::work_units(self)
    }

    fn peak_live(&self) -> u64 {
        self.peak_live
    }

    fn live_at_start(&self) -> u64 {
        self.live_at_start
    }
}

impl TraceOp for IdTableOp {
    const FAMILY: &'static str = "id_table";
    type Stats = IdTableStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<Self::Stats, InvalidTrace> {
        validate(setup, body)
    }

    fn creates_handle(self) -> bool {
        matches!(self, IdTableOp::Add)
    }

    fn is_read_only(self) -> bool {
        IdTableOp::is_read_only(self)
    }

    fn visits_many(self) -> bool {
        matches!(self, IdTableOp::Iterate | IdTableOp::IterateMut)
    }

    const RENAMES_HANDLES: bool = true;

    /// An op on a handle that no longer exists is dropped.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            IdTableOp::Get(h) => IdTableOp::Get(rename(h)?),
            IdTableOp::GetStale(h) => IdTableOp::GetStale(rename(h)?),
            IdTableOp::Remove(h) => IdTableOp::Remove(rename(h)?),
            IdTableOp::Mutate(h) => IdTableOp::Mutate(rename(h)?),
            IdTableOp::Add | IdTableOp::Iterate | IdTableOp::IterateMut | IdTableOp::Sort => self,
        })
    }

    fn touches(self) -> Option<u32> {
        self.handle()
    }

    fn encode(self, out: &mut Vec<u8>) {
        encode(self, out);
    }

    fn decode(tag: u8, fields: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        decode(tag, fields)
    }
}

/// [`Trace::validate`](crate::trace::Trace::validate) for this vocabulary.
fn validate(setup: &[IdTableOp], body: &[IdTableOp]) -> Result<IdTableStats, InvalidTrace> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Live,
        Removed,
    }
    let mut states: Vec<State> = Vec::new();
    let mut live: u64 = 0;
    let mut stats = IdTableStats::default();
    for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
        if part == Part::Body {
            stats.live_at_start = live;
        }
        let in_body = part == Part::Body;
        for (at, op) in part.steps(ops) {
            if let Some(handle) = op.handle() {
                let state = states
                    .get(handle as usize)
                    .copied()
                    .ok_or_else(|| at.not_yet_added(op, handle))?;
                match (op, state) {
                    (IdTableOp::GetStale(_), State::Live) => {
                        return Err(InvalidTrace::StaleOfLive {
                            part,
                            index: at.index,
                            handle,
                        });
                    }
                    (IdTableOp::GetStale(_), State::Removed) => {}
                    (_, State::Removed) => {
                        return Err(at.already_removed(op, handle));
                    }
                    (_, State::Live) => {}
                }
            }
            match op {
                IdTableOp::Add => {
                    if states.len() > Handle::MAX as usize {
                        return Err(InvalidTrace::TooManyAdds {
                            part,
                            index: at.index,
                        });
                    }
                    states.push(State::Live);
                    live += 1;
                    stats.peak_live = stats.peak_live.max(live);
                }
                IdTableOp::Remove(h) => {
                    states[h as usize] = State::Removed;
                    live -= 1;
                }
                _ => {}
            }
            if in_body {
                match op {
                    IdTableOp::Add => stats.adds += 1,
                    IdTableOp::Get(_) => stats.gets += 1,
                    IdTableOp::GetStale(_) => stats.stale_gets += 1,
                    IdTableOp::Remove(_) => stats.removes += 1,
                    IdTableOp::Mutate(_) | IdTableOp::Sort => stats.mutates += 1,
                    IdTableOp::Iterate | IdTableOp::IterateMut => {
                        stats.iterations += 1;
                        stats.iterated_objects += live;
                    }
                }
            }
        }
    }
    Ok(stats)
}

crate::codec::op_tags! { ADD, GET, GET_STALE, REMOVE, ITERATE, ITERATE_MUT, MUTATE, SORT }

/// Encodes an op (see the format module doc's table).
fn encode(op: IdTableOp, out: &mut Vec<u8>) {
    let (tag, handle) = match op {
        IdTableOp::Add => (tag::ADD, None),
        IdTableOp::Get(h) => (tag::GET, Some(h)),
        IdTableOp::GetStale(h) => (tag::GET_STALE, Some(h)),
        IdTableOp::Remove(h) => (tag::REMOVE, Some(h)),
        IdTableOp::Iterate => (tag::ITERATE, None),
        IdTableOp::IterateMut => (tag::ITERATE_MUT, None),
        IdTableOp::Mutate(h) => (tag::MUTATE, Some(h)),
        IdTableOp::Sort => (tag::SORT, None),
    };
    OpFields::write_op(out, tag, handle);
}

/// Decodes the op with tag byte `tag`.
fn decode(tag: u8, fields: &mut OpFields<'_, '_>) -> Result<Option<IdTableOp>, FormatError> {
    Ok(Some(match tag {
        tag::ADD => IdTableOp::Add,
        tag::GET => IdTableOp::Get(fields.u32()?),
        tag::GET_STALE => IdTableOp::GetStale(fields.u32()?),
        tag::REMOVE => IdTableOp::Remove(fields.u32()?),
        tag::ITERATE => IdTableOp::Iterate,
        tag::ITERATE_MUT => IdTableOp::IterateMut,
        tag::MUTATE => IdTableOp::Mutate(fields.u32()?),
        tag::SORT => IdTableOp::Sort,
        _ => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Trace;

    #[test]
    fn counts_work_units_of_the_body_only() {
        let t = Trace::for_test(
            vec![IdTableOp::Add, IdTableOp::Add, IdTableOp::Add],
            vec![
                IdTableOp::Get(0),
                IdTableOp::Remove(1),
                IdTableOp::GetStale(1),
                IdTableOp::Iterate,
                IdTableOp::Add,
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!(s.live_at_start, 3);
        assert_eq!(s.iterated_objects, 2);
        assert_eq!(s.work_units(), 1 + 1 + 1 + 2 + 1);
        assert_eq!(s.peak_live, 3);
        assert!(!t.body_is_read_only());
    }

    #[test]
    fn names_the_first_bad_op() {
        let t = Trace::for_test(
            vec![IdTableOp::Add],
            vec![
                IdTableOp::Get(0),
                IdTableOp::Remove(0),
                IdTableOp::Mutate(0),
            ],
        );
        let err = t.validate().unwrap_err();
        assert_eq!(
            err,
            InvalidTrace::AlreadyRemoved {
                part: Part::Body,
                index: 2,
                op: "Mutate(0)".into(),
                handle: 0
            }
        );
        assert_eq!(
            err.to_string(),
            "body op 2 (Mutate(0)) uses handle 0, which was removed"
        );
        let t = Trace::for_test(vec![IdTableOp::Get(0)], vec![]);
        let err = t.validate().unwrap_err();
        assert!(
            matches!(
                err,
                InvalidTrace::NotYetAdded {
                    index: 0,
                    part: Part::Setup,
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "setup op 0 (Get(0)) uses handle 0, which is not added yet"
        );
        let t = Trace::for_test(vec![IdTableOp::Add], vec![IdTableOp::GetStale(0)]);
        assert!(matches!(
            t.validate(),
            Err(InvalidTrace::StaleOfLive { .. })
        ));
    }
}
