//! The runs a component replay hands to a design in one call: a run of lookups
//! ([`Lookups`], or [`ResolvedLookups`] over recorded entities in [`lookup_all`]) or of writes
//! ([`Writes`]), each a loop the design's `read_positions` / `write_velocities` inlines, and
//! what a run observed ([`RunAnswers`]).

use impls::components::{ComponentError, ComponentStore, PositionRun, VelocityRun};
use workloads::components::ComponentOp;

use super::{mix_lookup, velocity};
use crate::replay::resolved::fold_uniform;
use crate::replay::{HandleIds, ReplayError};

/// What a run of lookups or writes observed: the ops it applied, how many found a point mass
/// (and the lookups' [`mix_lookup`] sum), and the entity of the op after them if the design
/// refused it (the replayer asks the single-op method for the error).
#[derive(Debug, Default)]
pub(super) struct RunAnswers<E> {
    /// Ops of the run applied (the refused one not included).
    pub(super) ops: usize,
    /// Ops that found a point mass.
    pub(super) found: u64,
    /// Wrapping sum of [`mix_lookup`] over the found lookups (0 for writes).
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
    fn run<Er, L: FnMut(E) -> Result<Option<[f32; 3]>, Er>>(self, mut lookup: L) -> RunAnswers<E> {
        let (mut found, mut sum) = (0u64, 0u64);
        let mut k = 0;
        while let Some(&ComponentOp::Lookup(h)) = self.ops.get(k) {
            let entity = self.ids.id(h);
            match lookup(entity) {
                Ok(Some(p)) => {
                    found += 1;
                    sum = sum.wrapping_add(mix_lookup(h, p));
                }
                Ok(None) => {}
                Err(error) => return refused_at(k, found, sum, entity, error),
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
/// [`PositionRun`]: a loop over two slices, as a crate's direct loop runs over its entities.
struct ResolvedLookups<'a, E> {
    ops: &'a [ComponentOp],
    ids: &'a [E],
}

impl<E: Copy> PositionRun<E> for ResolvedLookups<'_, E> {
    type Output = RunAnswers<E>;

    #[inline(always)]
    fn run<Er, L: FnMut(E) -> Result<Option<[f32; 3]>, Er>>(self, mut lookup: L) -> RunAnswers<E> {
        let answers = fold_uniform(self.ops, self.ids, |op, entity| match op {
            ComponentOp::Lookup(h) => lookup(entity).map(|p| p.map(|p| mix_lookup(h, p))),
            _ => Ok(None),
        });
        match answers {
            Ok((found, sum)) => RunAnswers {
                ops: self.ops.len(),
                found,
                sum,
                refused: None,
            },
            // The run's counts are not read after a refusal: the replay stops with its error.
            Err((k, error)) => refused_at(k, 0, 0, self.ids[k], error),
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
