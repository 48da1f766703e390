//! Resolved bodies: the design's own IDs, read in op order, so a timed replay touches what an
//! application holding its IDs would touch and nothing else.
//!
//! A trace names objects by handle (`k` is the `k`-th object created); a design hands out its
//! own IDs (a generational index, a block offset, an entity). Replaying through a handle → ID
//! map costs a random read of the map per op, a cache and TLB miss at large `n` that no
//! application pays. So a timed replay runs in two steps:
//!
//! 1. **Dry run** (untimed): [`Replayer::resolve`](super::Replayer::resolve) replays the body
//!    through the handle map ([`HandleMap`], recording) and logs every ID an op used or
//!    produced, in op order: the [`ResolvedBody`].
//! 2. **Timed run**: [`Replayer::replay_resolved`](super::Replayer::replay_resolved) replays the
//!    body on a fresh (or, for read-only bodies, the same) state, reading each op's ID from an
//!    [`IdCursor`] over the recorded IDs, sequentially. An ID the design produces is compared
//!    with the recorded one: a design whose IDs differ between the two runs fails with
//!    [`IdMismatch`] instead of replaying with wrong IDs.
//!
//! Every family's replay loop is written once, generic over [`HandleIds`], and serves both
//! steps. The body is also cut into [`Segment`]s: long runs of one op kind (a lookup body is
//! one run) are flagged [`Segment::uniform`], so a family can replay them as a tight loop over
//! [`IdCursor::uniform_ids`] (ops that use one or two IDs each) or, after
//! [`HandleIds::uniform_without_ids`], over the ops alone (ops that use none: key queries),
//! in a small function of its own that the design's call is inlined into.

use std::fmt::Debug;

use workloads::TraceOp;

/// Where a replay loop finds the design's ID of the handle an op names, and where it puts the
/// ID an op produced.
///
/// The loop calls these in op order, a fixed number of times per op kind, so a dry run's
/// recording [`HandleMap`] and a timed run's [`IdCursor`] see the same sequence of calls.
pub trait HandleIds<Id: Copy> {
    /// The ID of handle `h`, named by the op being replayed.
    fn id(&mut self, h: u32) -> Id;

    /// The op being replayed created the next handle, and the design gave it `id`.
    ///
    /// # Errors
    /// A timed run's design gave a different ID than the dry run recorded.
    fn created(&mut self, id: Id) -> Result<(), IdMismatch>;

    /// The op being replayed changed handle `h`'s ID to `id` (a reallocated block's offset).
    ///
    /// # Errors
    /// As [`created`](HandleIds::created).
    fn reassigned(&mut self, h: u32, id: Id) -> Result<(), IdMismatch>;

    /// For a timed run of a [`Segment::uniform`] run of ops that use `ids` IDs in all (by
    /// [`HandleIds::id`]: the ops times the one or two IDs each uses): those IDs as one slice,
    /// in op order, consumed. `None` otherwise (the handle map, a mixed segment, or a run whose
    /// ops use another number of IDs): the loop then goes op by op.
    fn uniform_ids(&mut self, ids: usize) -> Option<&[Id]> {
        let _ = ids;
        None
    }

    /// For a timed run of a [`Segment::uniform`] run of ops that use no ID (queries by key):
    /// `true`, once. `false` otherwise (the handle map, a mixed segment, or a
    /// run of ops that use IDs): the loop then goes op by op.
    fn uniform_without_ids(&mut self) -> bool {
        false
    }
}

/// A design produced a different ID in a timed run than in the dry run that resolved the body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the design returned {got} where the untimed dry run of the same ops returned {recorded}: \
     its IDs are not deterministic, so the resolved body cannot be replayed on it"
)]
pub struct IdMismatch {
    /// The ID the timed run got, as `Debug` prints it.
    pub got: String,
    /// The ID the dry run recorded.
    pub recorded: String,
}

/// The replayer's handle → ID map: `map[k]` is handle `k`'s ID (kept after removal, for stale
/// lookups). Used by setup, by the dry run and by every untimed replay.
///
/// While it records (the dry run, [`start_recording`](Self::start_recording)), it also logs
/// every ID handed to or produced by an op, in op order. The recording is a branch in the
/// handle map rather than a handle source of its own: each source is one more copy of every
/// design's replay loop in the program, and no timed replay reads through the map.
#[derive(Debug, Clone)]
pub struct HandleMap<Id> {
    ids: Vec<Id>,
    /// The IDs the ops used or produced since recording started, in op order.
    log: Option<Vec<Id>>,
}

impl<Id> Default for HandleMap<Id> {
    fn default() -> Self {
        Self {
            ids: Vec::new(),
            log: None,
        }
    }
}

impl<Id: Copy> HandleMap<Id> {
    /// An empty map with room for `handles` handles, so creating ops never reallocate it.
    pub fn with_capacity(handles: usize) -> Self {
        Self {
            ids: Vec::with_capacity(handles),
            log: None,
        }
    }

    /// Handles created so far.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no handle was created.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The IDs in handle order.
    pub fn ids(&self) -> &[Id] {
        &self.ids
    }

    /// Starts logging the IDs the ops use and produce (an empty log).
    pub fn start_recording(&mut self) {
        self.log = Some(Vec::new());
    }

    /// IDs logged since [`start_recording`](Self::start_recording) (0 when not recording).
    pub fn recorded(&self) -> usize {
        self.log.as_ref().map_or(0, Vec::len)
    }

    /// Stops recording and returns the log, in op order.
    pub fn stop_recording(&mut self) -> Vec<Id> {
        self.log.take().unwrap_or_default()
    }

    #[inline(always)]
    fn record(&mut self, id: Id) {
        if let Some(log) = &mut self.log {
            log.push(id);
        }
    }
}

impl<Id: Copy> HandleIds<Id> for HandleMap<Id> {
    #[inline(always)]
    fn id(&mut self, h: u32) -> Id {
        let id = self.ids[h as usize];
        self.record(id);
        id
    }

    #[inline(always)]
    fn created(&mut self, id: Id) -> Result<(), IdMismatch> {
        self.record(id);
        self.ids.push(id);
        Ok(())
    }

    #[inline(always)]
    fn reassigned(&mut self, h: u32, id: Id) -> Result<(), IdMismatch> {
        self.record(id);
        self.ids[h as usize] = id;
        Ok(())
    }
}

/// A stretch of a body replayed by one call of the family's loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// First op (index into the body).
    pub start: usize,
    /// One past the last op.
    pub end: usize,
    /// First recorded ID of the segment (index into [`ResolvedBody::ids`]).
    pub first_id: usize,
    /// Every op of the segment has one kind (at least [`MIN_UNIFORM_RUN`] of them) and used
    /// the same number of recorded IDs, at most two, so the family may replay it as a tight
    /// loop over [`IdCursor::uniform_ids`] (one or two each: a lookup, a copy from one entity
    /// to another) or over the ops alone ([`HandleIds::uniform_without_ids`]).
    pub uniform: bool,
}

/// Shortest run of one op kind that becomes its own uniform segment: shorter runs stay in a
/// mixed segment, so a mixed body (churn) pays no per-run call.
pub const MIN_UNIFORM_RUN: usize = 64;

/// A body resolved by a dry run: every ID its ops use or produce, in op order, and the body cut
/// into segments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBody<Id> {
    ids: Vec<Id>,
    segments: Vec<Segment>,
}

impl<Id: Copy + PartialEq + Debug> ResolvedBody<Id> {
    /// Reads one element per cache line of the recorded IDs and the segments, so a cache
    /// simulation that starts after the dry run holds them as the timed replays do (they read
    /// the same arrays every sample).
    pub fn read_every_line(&self) {
        read_every_line(&self.ids);
        read_every_line(&self.segments);
    }

    /// The body `ops` with the IDs the dry run recorded (`ids_per_op[i]` of them for op `i`,
    /// concatenated in `ids`).
    ///
    /// # Panics
    /// If `ids_per_op` does not sum to `ids.len()` (a bug in the dry run).
    pub fn new<O: TraceOp>(ops: &[O], ids: Vec<Id>, ids_per_op: &[u32]) -> Self {
        assert_eq!(ops.len(), ids_per_op.len(), "one ID count per op");
        assert_eq!(
            ids_per_op.iter().map(|&k| k as usize).sum::<usize>(),
            ids.len(),
            "the ID counts cover the recorded IDs"
        );
        Self {
            segments: segments(ops, ids_per_op),
            ids,
        }
    }

    /// The recorded IDs, in op order.
    pub fn ids(&self) -> &[Id] {
        &self.ids
    }

    /// The segments, in order, covering the body.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Bytes the timed run reads besides the body's ops (IDs and segments).
    pub fn bytes(&self) -> usize {
        self.ids.len() * std::mem::size_of::<Id>()
            + self.segments.len() * std::mem::size_of::<Segment>()
    }

    /// A cursor over segment `segment`'s IDs.
    pub fn cursor(&self, segment: &Segment, next_first: usize) -> IdCursor<'_, Id> {
        IdCursor {
            rest: self.ids[segment.first_id..next_first].iter(),
            uniform: segment.uniform,
        }
    }

    /// A cursor over all IDs, for a replay in arbitrary pieces (no uniform fast path).
    pub fn whole_cursor(&self) -> IdCursor<'_, Id> {
        IdCursor {
            rest: self.ids.iter(),
            uniform: false,
        }
    }
}

/// Cuts `ops` into uniform runs of at least [`MIN_UNIFORM_RUN`] ops of one kind using the same
/// number of IDs each, at most two, and mixed segments between them.
fn segments<O: TraceOp>(ops: &[O], ids_per_op: &[u32]) -> Vec<Segment> {
    let mut segments = Vec::new();
    let (mut mixed_start, mut mixed_first_id) = (0, 0);
    let mut i = 0;
    let mut id_at = 0;
    while i < ops.len() {
        let kind = std::mem::discriminant(&ops[i]);
        let per_op = ids_per_op[i];
        let mut j = i;
        while j < ops.len()
            && per_op <= 2
            && std::mem::discriminant(&ops[j]) == kind
            && ids_per_op[j] == per_op
        {
            j += 1;
        }
        if j - i >= MIN_UNIFORM_RUN {
            if mixed_start < i {
                segments.push(Segment {
                    start: mixed_start,
                    end: i,
                    first_id: mixed_first_id,
                    uniform: false,
                });
            }
            segments.push(Segment {
                start: i,
                end: j,
                first_id: id_at,
                uniform: true,
            });
            id_at += (j - i) * per_op as usize;
            mixed_start = j;
            mixed_first_id = id_at;
            i = j;
        } else {
            let stop = j.max(i + 1);
            id_at += ids_per_op[i..stop]
                .iter()
                .map(|&k| k as usize)
                .sum::<usize>();
            i = stop;
        }
    }
    if mixed_start < ops.len() {
        segments.push(Segment {
            start: mixed_start,
            end: ops.len(),
            first_id: mixed_first_id,
            uniform: false,
        });
    }
    segments
}

/// The timed run's view: the recorded IDs of one segment, read sequentially.
pub struct IdCursor<'a, Id> {
    /// The IDs not read yet.
    rest: std::slice::Iter<'a, Id>,
    /// Whether the segment is uniform and none of its IDs was read yet.
    uniform: bool,
}

impl<Id: Copy + PartialEq + Debug> IdCursor<'_, Id> {
    /// Whether every recorded ID was read.
    pub fn is_exhausted(&self) -> bool {
        self.rest.len() == 0
    }

    #[inline(always)]
    fn check(&mut self, got: Id) -> Result<(), IdMismatch> {
        let recorded = self.id(0);
        if got == recorded {
            Ok(())
        } else {
            Err(mismatch(got, recorded))
        }
    }
}

/// The error of a timed run whose design produced `got` where the dry run recorded
/// `recorded`; out of line, so the timed loop keeps only the comparison.
#[cold]
#[inline(never)]
fn mismatch<Id: Debug>(got: Id, recorded: Id) -> IdMismatch {
    IdMismatch {
        got: format!("{got:?}"),
        recorded: format!("{recorded:?}"),
    }
}

/// A loop asked for more IDs than its dry run recorded.
#[cold]
#[inline(never)]
fn past_the_end() -> ! {
    panic!(
        "the replay loop asked for more IDs than its dry run recorded: its calls must depend on \
         the ops only"
    )
}

impl<Id: Copy + PartialEq + Debug> HandleIds<Id> for IdCursor<'_, Id> {
    /// The next recorded ID (the handle is not read: the dry run resolved it).
    ///
    /// # Panics
    /// Past the last recorded ID: the loop asked for more IDs than in the dry run, a bug in
    /// the family's loop (its calls must depend on the op kinds only).
    #[inline(always)]
    fn id(&mut self, _h: u32) -> Id {
        match self.rest.next() {
            Some(&id) => id,
            None => past_the_end(),
        }
    }

    #[inline(always)]
    fn created(&mut self, id: Id) -> Result<(), IdMismatch> {
        self.check(id)
    }

    #[inline(always)]
    fn reassigned(&mut self, _h: u32, id: Id) -> Result<(), IdMismatch> {
        self.check(id)
    }

    #[inline(always)]
    fn uniform_ids(&mut self, ids: usize) -> Option<&[Id]> {
        if !self.uniform || ids != self.rest.len() {
            return None;
        }
        self.uniform = false;
        let all = self.rest.as_slice();
        self.rest = [].iter();
        Some(all)
    }

    #[inline(always)]
    fn uniform_without_ids(&mut self) -> bool {
        let uniform = self.uniform && self.rest.len() == 0;
        self.uniform = false;
        uniform
    }
}

/// The loop of a uniform run of queries by ID ([`HandleIds::uniform_ids`]): `answer` per op
/// and its resolved ID, in order; (answers that found something, wrapping sum of their
/// terms), or the index of the first refused op and its error. Inlined into each family's
/// small out-of-line loop (tags' `has_all`, the DataComponent's `get_all`), where the design's
/// query is inlined in turn, as in an application's loop over its entities.
#[inline(always)]
pub fn fold_uniform<Op: Copy, Id: Copy, E>(
    ops: &[Op],
    ids: &[Id],
    answer: impl FnMut(Op, Id) -> Result<Option<u64>, E>,
) -> Result<(u64, u64), (usize, E)> {
    let folded = fold_until_error(ops, ids, answer);
    match folded.error {
        None => Ok((folded.found, folded.sum)),
        Some(error) => Err((folded.answered, error)),
    }
}

/// What [`fold_until_error`] made of a run: the ops answered before it stopped, how many
/// found something and the wrapping sum of their terms, and the error it stopped at.
#[derive(Debug)]
pub struct Folded<E> {
    /// Ops answered (all of them, or the index of the op that erred).
    pub answered: usize,
    /// Answers that found something.
    pub found: u64,
    /// Wrapping sum of their terms.
    pub sum: u64,
    /// The error of op `answered`, if one stopped the fold.
    pub error: Option<E>,
}

/// [`fold_uniform`]'s loop, keeping what it answered before an error: a caller that can
/// still answer the op that erred (off this loop, as the components' runs ask a design's
/// `missed`) goes on from the next op with the counts so far.
#[inline(always)]
pub fn fold_until_error<Op: Copy, Id: Copy, E>(
    ops: &[Op],
    ids: &[Id],
    mut answer: impl FnMut(Op, Id) -> Result<Option<u64>, E>,
) -> Folded<E> {
    let (mut found, mut sum) = (0u64, 0u64);
    for (index, (&op, &id)) in ops.iter().zip(ids).enumerate() {
        match answer(op, id) {
            Ok(Some(term)) => {
                found += 1;
                sum = sum.wrapping_add(term);
            }
            Ok(None) => {}
            Err(error) => {
                return Folded {
                    answered: index,
                    found,
                    sum,
                    error: Some(error),
                };
            }
        }
    }
    Folded {
        answered: ops.len().min(ids.len()),
        found,
        sum,
        error: None,
    }
}

/// Reads one element of `items` per 64-byte line (every element when they are larger), through
/// [`std::hint::black_box`] so the loads are not optimised away.
pub fn read_every_line<T: Copy>(items: &[T]) {
    let step = (64 / std::mem::size_of::<T>().max(1)).max(1);
    for item in items.iter().step_by(step) {
        std::hint::black_box(*item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workloads::IdTableOp;

    fn per_op(ops: &[IdTableOp]) -> Vec<u32> {
        ops.iter()
            .map(|op| u32::from(!matches!(op, IdTableOp::Iterate | IdTableOp::IterateMut)))
            .collect()
    }

    /// The body of `ops` with `counts[i]` IDs for op `i`, the IDs numbered in op order.
    fn numbered(ops: &[IdTableOp], counts: &[u32]) -> ResolvedBody<u64> {
        let ids: Vec<u64> = (0..counts.iter().sum::<u32>() as u64).collect();
        ResolvedBody::new(ops, ids, counts)
    }

    /// Each segment of `body` as (start, end, first ID, uniform).
    fn shape(body: &ResolvedBody<u64>) -> Vec<(usize, usize, usize, bool)> {
        body.segments()
            .iter()
            .map(|s| (s.start, s.end, s.first_id, s.uniform))
            .collect()
    }

    #[test]
    fn long_runs_are_uniform_segments_and_short_ones_stay_mixed() {
        let mut ops = vec![IdTableOp::Add, IdTableOp::Get(0), IdTableOp::Remove(0)];
        ops.extend(std::iter::repeat_n(IdTableOp::Get(1), MIN_UNIFORM_RUN));
        ops.push(IdTableOp::Iterate);
        ops.extend(std::iter::repeat_n(IdTableOp::Get(1), MIN_UNIFORM_RUN - 1));
        let counts = per_op(&ops);
        let body = numbered(&ops, &counts);
        let s = body.segments();
        assert_eq!(s.len(), 3, "{s:?}");
        assert_eq!(
            (s[0].start, s[0].end, s[0].first_id, s[0].uniform),
            (0, 3, 0, false)
        );
        assert_eq!(
            (s[1].start, s[1].end, s[1].first_id, s[1].uniform),
            (3, 3 + MIN_UNIFORM_RUN, 3, true)
        );
        assert_eq!(s[2].start, 3 + MIN_UNIFORM_RUN);
        assert_eq!(s[2].end, ops.len());
        assert_eq!(s[2].first_id, 3 + MIN_UNIFORM_RUN);
        assert!(!s[2].uniform);
    }

    /// A long run of ops that use no ID is uniform too, and only a cursor over it answers
    /// `uniform_without_ids` (once); a run of ops using one ID each answers `uniform_ids`
    /// only.
    #[test]
    fn long_runs_of_ops_without_ids_are_uniform_and_answer_once() {
        let mut ops = vec![IdTableOp::Add];
        ops.extend(std::iter::repeat_n(IdTableOp::Iterate, MIN_UNIFORM_RUN));
        ops.extend(std::iter::repeat_n(IdTableOp::Get(0), MIN_UNIFORM_RUN));
        let counts = per_op(&ops);
        let body = numbered(&ops, &counts);
        let s = body.segments();
        let shape = shape(&body);
        let iterates_end = 1 + MIN_UNIFORM_RUN;
        assert_eq!(
            shape,
            [
                (0, 1, 0, false),
                (1, iterates_end, 1, true),
                (iterates_end, ops.len(), 1, true)
            ]
        );
        let mut keys = body.cursor(&s[1], s[2].first_id);
        assert!(keys.uniform_ids(MIN_UNIFORM_RUN).is_none());
        let mut keys = body.cursor(&s[1], s[2].first_id);
        assert!(keys.uniform_without_ids());
        assert!(!keys.uniform_without_ids(), "answered once");
        let mut gets = body.cursor(&s[2], body.ids().len());
        assert!(!gets.uniform_without_ids(), "its ops use IDs");
        let mut mixed = body.cursor(&s[0], s[1].first_id);
        assert!(!mixed.uniform_without_ids());
        let mut map = HandleMap::<u64>::default();
        assert!(!map.uniform_without_ids());
    }

    /// A long run of ops that use two IDs each (a copy from one entity to another) is uniform,
    /// and its cursor answers `uniform_ids` with both IDs of every op, in op order, only when
    /// asked for all of them; a run of more than two IDs per op stays mixed.
    #[test]
    fn long_runs_of_two_id_ops_are_uniform_and_hand_out_their_pairs() {
        let ops = vec![IdTableOp::Get(0); MIN_UNIFORM_RUN + 1];
        let mut counts = vec![2u32; MIN_UNIFORM_RUN];
        counts.push(3);
        let body = numbered(&ops, &counts);
        let s = body.segments();
        let shape = shape(&body);
        let pairs = 2 * MIN_UNIFORM_RUN;
        assert_eq!(
            shape,
            [
                (0, MIN_UNIFORM_RUN, 0, true),
                (MIN_UNIFORM_RUN, ops.len(), pairs, false)
            ]
        );
        let mut cursor = body.cursor(&s[0], s[1].first_id);
        assert!(
            cursor.uniform_ids(MIN_UNIFORM_RUN).is_none(),
            "one ID per op asked"
        );
        let all = cursor.uniform_ids(pairs).expect("both IDs of every op");
        assert_eq!(all, (0..pairs as u64).collect::<Vec<_>>());
        assert!(cursor.is_exhausted());
    }

    #[test]
    fn a_cursor_reads_in_order_and_rejects_a_different_created_id() {
        let ops = [IdTableOp::Add, IdTableOp::Get(0)];
        let body = ResolvedBody::new(&ops, vec![7u64, 7], &[1, 1]);
        let seg = body.segments()[0];
        let mut cursor = body.cursor(&seg, body.ids().len());
        assert!(
            cursor.uniform_ids(2).is_none(),
            "a mixed segment has no fast path"
        );
        let err = cursor.created(8).unwrap_err();
        assert_eq!((err.got.as_str(), err.recorded.as_str()), ("8", "7"));
        assert!(err.to_string().contains("not deterministic"));
        assert_eq!(cursor.id(0), 7);
        assert!(cursor.is_exhausted());
    }

    #[test]
    fn a_recording_map_logs_every_id_and_updates_the_map() {
        let mut map = HandleMap::with_capacity(2);
        map.created(9u32).unwrap();
        map.start_recording();
        map.created(10).unwrap();
        map.created(11).unwrap();
        assert_eq!(map.id(1), 10);
        map.reassigned(2, 12).unwrap();
        assert_eq!(map.recorded(), 4);
        assert_eq!(map.stop_recording(), vec![10, 11, 10, 12]);
        assert_eq!(map.ids(), &[9, 10, 12]);
        // Not recording: nothing is logged.
        assert_eq!(map.id(0), 9);
        assert_eq!(map.recorded(), 0);
        assert!(map.stop_recording().is_empty());
    }
}
