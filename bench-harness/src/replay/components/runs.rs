//! The runs a component replay hands to a design in one call: a run of lookups
//! ([`Lookups`], or [`ResolvedLookups`] over recorded entities in [`lookup_all`]), of writes
//! ([`Writes`]) or of position copies ([`Copies`], or [`ResolvedCopies`] in [`copy_all`]),
//! each a loop the design's
//! `read_positions` / `write_velocities` / `copy_positions` inlines, and what a run observed
//! ([`RunAnswers`]).

use impls::components::{ComponentError, ComponentStore, CopyRun, PositionRun, VelocityRun};
use workloads::components::ComponentOp;

use super::digest::{mix_lookup, velocity};
use crate::replay::contract::ReplayError;
use crate::replay::resolved::HandleIds;
use crate::replay::resolved::{Folded, fold_until_error};

/// What a run of lookups, writes or copies observed: the ops it applied, how many found a point
/// mass (a copy: both of its entities; and the lookups' [`mix_lookup`] sum), and the entity of
/// the op after them if the design refused it (`E` of a run of copies: the op's two
/// entities; the replayer asks the single-op method for the error).
#[derive(Debug, Default)]
pub(super) struct RunAnswers<E> {
    /// Ops of the run applied (the refused one not included).
    pub(super) ops: usize,
    /// Ops that found a point mass.
    pub(super) found: u64,
    /// Wrapping sum of [`mix_lookup`] over the found lookups (0 for writes and copies).
    pub(super) sum: u64,
    /// The entity of the op after the applied ones, if the design refused that op.
    pub(super) refused: Option<E>,
}

/// The `Lookup`s at the start of `ops`, as one [`PositionRun`]: the run ends at the first
/// other op.
pub(super) struct Lookups<'a, H> {
    pub(super) ops: &'a [ComponentOp],
    pub(super) ids: &'a mut H,
}

impl<E: Copy, H: HandleIds<E>> PositionRun<E> for Lookups<'_, H> {
    type Output = RunAnswers<E>;

    #[inline(always)]
    fn run<Er, Em, L, M>(self, mut lookup: L, mut missed: M) -> RunAnswers<E>
    where
        L: FnMut(E) -> Result<Option<[f32; 3]>, Er>,
        M: FnMut(E) -> Result<Option<[f32; 3]>, Em>,
    {
        let (mut found, mut sum) = (0u64, 0u64);
        let mut k = 0;
        while let Some(&ComponentOp::Lookup(h)) = self.ops.get(k) {
            let entity = self.ids.id(h);
            let answer = match lookup(entity) {
                Ok(answer) => answer,
                Err(_) => match missed(entity) {
                    Ok(answer) => answer,
                    Err(error) => return refused_at(k, found, sum, entity, error),
                },
            };
            if let Some(p) = answer {
                found += 1;
                sum = sum.wrapping_add(mix_lookup(h, p));
            }
            k += 1;
        }
        RunAnswers {
            ops: k,
            found,
            sum,
            refused: None,
        }
    }
}

/// A uniform run of `Lookup`s with its entities resolved (`ids[k]` is `ops[k]`'s), as one
/// [`PositionRun`]: a loop over two slices, as a crate's direct loop runs over its entities,
/// with nothing but the design's `lookup` in it; an entity `lookup` could not answer leaves
/// the loop for the design's `missed`, and the loop goes on after it.
struct ResolvedLookups<'a, E> {
    ops: &'a [ComponentOp],
    ids: &'a [E],
}

impl<E: Copy> PositionRun<E> for ResolvedLookups<'_, E> {
    type Output = RunAnswers<E>;

    #[inline(always)]
    fn run<Er, Em, L, M>(self, mut lookup: L, mut missed: M) -> RunAnswers<E>
    where
        L: FnMut(E) -> Result<Option<[f32; 3]>, Er>,
        M: FnMut(E) -> Result<Option<[f32; 3]>, Em>,
    {
        let (mut found, mut sum, mut k) = (0u64, 0u64, 0usize);
        loop {
            let folded = fold_until_error(&self.ops[k..], &self.ids[k..], |op, entity| match op {
                ComponentOp::Lookup(h) => lookup(entity).map(|p| p.map(|p| mix_lookup(h, p))),
                _ => Ok(None),
            });
            found += folded.found;
            sum = sum.wrapping_add(folded.sum);
            k += folded.answered;
            if folded.error.is_none() {
                break;
            }
            let (op, entity) = (self.ops[k], self.ids[k]);
            match missed(entity) {
                Ok(Some(p)) => {
                    if let ComponentOp::Lookup(h) = op {
                        found += 1;
                        sum = sum.wrapping_add(mix_lookup(h, p));
                    }
                }
                Ok(None) => {}
                Err(error) => return refused_at(k, found, sum, entity, error),
            }
            k += 1;
        }
        RunAnswers {
            ops: self.ops.len(),
            found,
            sum,
            refused: None,
        }
    }
}

/// A uniform run of `Lookup`s (`ops`, all lookups; `ids`, their resolved entities) in one
/// [`ComponentStore::read_positions`], out of line like the other families' uniform loops
/// (`has_all` of the tags, `get_all` of the DataComponent): the design's run is inlined into a
/// loop of its own, as in the crates' direct loops (`ref-direct-<peer>`).
#[inline(never)]
pub(super) fn lookup_all<S: ComponentStore>(
    store: &S,
    ops: &[ComponentOp],
    ids: &[S::Entity],
) -> RunAnswers<S::Entity> {
    store.read_positions(ResolvedLookups { ops, ids })
}

/// The `Write`s at the start of `ops`, as one [`VelocityRun`].
pub(super) struct Writes<'a, H> {
    pub(super) ops: &'a [ComponentOp],
    pub(super) ids: &'a mut H,
}

impl<E: Copy, H: HandleIds<E>> VelocityRun<E> for Writes<'_, H> {
    type Output = RunAnswers<E>;

    #[inline(always)]
    fn run<Er, W: FnMut(E, [f32; 3]) -> Result<bool, Er>>(self, mut write: W) -> RunAnswers<E> {
        let mut found = 0u64;
        let mut k = 0;
        while let Some(&ComponentOp::Write(h, seed)) = self.ops.get(k) {
            let entity = self.ids.id(h);
            match write(entity, velocity(seed)) {
                Ok(hit) => found += u64::from(hit),
                Err(error) => return refused_at(k, found, 0, entity, error),
            }
            k += 1;
        }
        RunAnswers {
            ops: k,
            found,
            sum: 0,
            refused: None,
        }
    }
}

/// The `CopyPosition`s at the start of `ops`, as one [`CopyRun`]: each op takes its two IDs
/// from `ids` in op order (source, then target), as the op-by-op loop did.
pub(super) struct Copies<'a, H> {
    pub(super) ops: &'a [ComponentOp],
    pub(super) ids: &'a mut H,
}

impl<E: Copy, H: HandleIds<E>> CopyRun<E> for Copies<'_, H> {
    type Output = RunAnswers<(E, E)>;

    #[inline(always)]
    fn run<Er, Em, C, M>(self, mut copy: C, mut missed: M) -> RunAnswers<(E, E)>
    where
        C: FnMut(E, E) -> Result<bool, Er>,
        M: FnMut(Er) -> Result<bool, Em>,
    {
        let mut found = 0u64;
        let mut k = 0;
        while let Some(&ComponentOp::CopyPosition(from, to)) = self.ops.get(k) {
            let (from, to) = (self.ids.id(from), self.ids.id(to));
            let copied = match copy(from, to).or_else(&mut missed) {
                Ok(copied) => copied,
                Err(error) => return refused_at(k, found, 0, (from, to), error),
            };
            found += u64::from(copied);
            k += 1;
        }
        RunAnswers {
            ops: k,
            found,
            sum: 0,
            refused: None,
        }
    }
}

/// A uniform run of `CopyPosition`s with its entities resolved (`ids[2k]` and `ids[2k + 1]` are
/// op `k`'s source and target), as one [`CopyRun`]: a loop over the pairs, as a crate's direct
/// loop runs over its copies (`ref-direct-<peer>`), with nothing but the design's `copy` in it;
/// a pair `copy` could not answer leaves the loop for the design's `missed`, and the loop
/// resumes after it. The loop makes no call of its own (as [`fold_until_error`]'s): with the
/// `missed` call inside it, the view a crate's `copy` reads (`hecs`'s) was kept on the stack
/// around that call and reloaded per pair.
///
/// [`fold_until_error`]: crate::replay::resolved::fold_until_error
struct ResolvedCopies<'a, E> {
    ids: &'a [E],
}

impl<E: Copy> CopyRun<E> for ResolvedCopies<'_, E> {
    type Output = RunAnswers<(E, E)>;

    #[inline(always)]
    fn run<Er, Em, C, M>(self, mut copy: C, mut missed: M) -> RunAnswers<(E, E)>
    where
        C: FnMut(E, E) -> Result<bool, Er>,
        M: FnMut(Er) -> Result<bool, Em>,
    {
        let pairs = self.ids.len() / 2;
        let (mut found, mut k) = (0u64, 0usize);
        while k < pairs {
            let stopped = copy_until_error(&self.ids[2 * k..2 * pairs], &mut copy);
            found += stopped.found;
            k += stopped.answered;
            let Some(error) = stopped.error else { break };
            let (from, to) = (self.ids[2 * k], self.ids[2 * k + 1]);
            match missed(error) {
                Ok(copied) => found += u64::from(copied),
                Err(error) => return refused_at(k, found, 0, (from, to), error),
            }
            k += 1;
        }
        RunAnswers {
            ops: pairs,
            found,
            sum: 0,
            refused: None,
        }
    }
}

/// [`ResolvedCopies`]'s loop: `copy` of each (source, target) pair of `ids` until one errs;
/// the pairs answered, the copies made and the error.
#[inline(always)]
fn copy_until_error<E: Copy, Er>(
    ids: &[E],
    copy: &mut impl FnMut(E, E) -> Result<bool, Er>,
) -> Folded<Er> {
    let mut found = 0u64;
    for (k, pair) in ids.chunks_exact(2).enumerate() {
        match copy(pair[0], pair[1]) {
            Ok(copied) => found += u64::from(copied),
            Err(error) => {
                return Folded {
                    answered: k,
                    found,
                    sum: 0,
                    error: Some(error),
                };
            }
        }
    }
    Folded {
        answered: ids.len() / 2,
        found,
        sum: 0,
        error: None,
    }
}

/// A uniform run of `CopyPosition`s (`ids`, the source and target of each, in op order) in one
/// [`ComponentStore::copy_positions`], out of line as [`lookup_all`]: the design's run is
/// inlined into a loop of its own, as in the crates' direct copy loops.
#[inline(never)]
pub(super) fn copy_all<S: ComponentStore>(
    store: &mut S,
    ids: &[S::Entity],
) -> RunAnswers<(S::Entity, S::Entity)> {
    store.copy_positions(ResolvedCopies { ids })
}

/// The answers of a run whose op `k`, on `entity`, the design refused with `error` (dropped
/// here: the replayer asks the single-op method for the error). Cold and out of line, like
/// [`ReplayError::at`].
#[cold]
#[inline(never)]
fn refused_at<E, Er>(k: usize, found: u64, sum: u64, entity: E, error: Er) -> RunAnswers<E> {
    drop(error);
    RunAnswers {
        ops: k,
        found,
        sum,
        refused: Some(entity),
    }
}

/// The error of op `index` of a run, refused by the design: what its single-op method
/// answers alone (`alone`), or a disagreement between the two if that method accepts it.
#[cold]
#[inline(never)]
pub(super) fn run_refusal<T>(
    index: usize,
    op: ComponentOp,
    alone: Result<T, ComponentError>,
) -> ReplayError {
    match alone {
        Err(error) => ReplayError::at(index, op, error),
        Ok(_) => ReplayError::at(
            index,
            op,
            "the design refused the op in a run and accepted it alone: its run and single-op methods disagree",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position entity `e` has in these tests: `e` in every coordinate.
    fn at(e: u32) -> [f32; 3] {
        [e as f32; 3]
    }

    /// A resolved run answers every op: the lookup's answers in its loop, `missed`'s for the
    /// entities the lookup left to it (the loop going on after each), and stops at the first
    /// op `missed` refuses, with the counts so far.
    #[test]
    fn a_resolved_run_asks_missed_off_its_loop_and_goes_on() {
        let ops: Vec<ComponentOp> = (0..8).map(ComponentOp::Lookup).collect();
        let ids: Vec<u32> = (10..18).collect();
        // The lookup answers even entities; of the odd ones `missed` finds 11 and 15 without a
        // point mass and the rest with one.
        let lookup = |e: u32| if e % 2 == 0 { Ok(Some(at(e))) } else { Err(()) };
        let missed = |e: u32| Ok::<_, ()>((e != 11 && e != 15).then(|| at(e)));
        let answers = ResolvedLookups {
            ops: &ops,
            ids: &ids,
        }
        .run(lookup, missed);
        let found: Vec<u32> = (10..18).filter(|&e| e != 11 && e != 15).collect();
        let sum = found
            .iter()
            .map(|&e| mix_lookup(e - 10, at(e)))
            .fold(0u64, u64::wrapping_add);
        assert_eq!(
            (answers.ops, answers.found, answers.sum, answers.refused),
            (8, found.len() as u64, sum, None)
        );

        let refusing = |e: u32| if e == 13 { Err(()) } else { Ok(Some(at(e))) };
        let answers = ResolvedLookups {
            ops: &ops,
            ids: &ids,
        }
        .run(lookup, refusing);
        let sum = [10, 11, 12]
            .iter()
            .map(|&e| mix_lookup(e - 10, at(e)))
            .fold(0u64, u64::wrapping_add);
        assert_eq!(
            (answers.ops, answers.found, answers.sum, answers.refused),
            (3, 3, sum, Some(13))
        );
    }
}
