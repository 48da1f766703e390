//! One design's warm state, shared by its timed replays and the reference loop that mirrors it.
//!
//! A reference loop that writes a design's replay by hand (`ref-direct-<design>`) is read as a
//! ratio: the replay's time over the loop's is the replay driver's cost (`overhead` in
//! results). Built apart, the loop and the replay would each have a table and an ID list of
//! their own, two copies of the same data at two places in memory, and near the last-level
//! cache's size the copies differ by where they landed: at 262,144 objects a loop on a copy of
//! its own is measurably slower than on the design's table. Sharing the state makes the two
//! contestants read the same bytes, so what is left between them is what the driver does.
//!
//! Only a read-only body shares: its timed replays reuse one state ([`crate::timing`]), and a
//! loop that only reads it leaves it as the model expects.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;

use workloads::Trace;

use super::contract::{Family, OpOf, Replayer};
use super::erased::ResolvedState;
use super::erased::{Design, Resolved, State, design};
use super::resolved::ResolvedBody;

/// A design's state after the trace's setup and the dry run of a read-only body, with the body
/// resolved for it: what its timed replays reuse.
pub struct Shared<F: Family> {
    /// The design's state (borrowed mutably only inside a timed replay).
    pub state: Rc<RefCell<Box<dyn State<F>>>>,
    /// The body as the dry run resolved it: the design's own IDs in op order.
    pub body: Resolved,
}

impl<F: Family> Clone for Shared<F> {
    fn clone(&self) -> Self {
        Self {
            state: Rc::clone(&self.state),
            body: self.body.clone(),
        }
    }
}

/// [`Shared`] as replayer `R`'s own types, for a reference loop that reads its design's state.
pub struct SharedState<R: Replayer> {
    shared: Shared<R::Family>,
    replayer: PhantomData<fn() -> R>,
}

impl<R: Replayer> Clone for SharedState<R> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
            replayer: PhantomData,
        }
    }
}

impl<R: Replayer> SharedState<R> {
    /// A state of its own for `trace`: the setup and the dry run, as a timed replay prepares
    /// them, for a loop whose design is not in the cell.
    ///
    /// # Errors
    /// The design refused an op of the setup or the dry run.
    pub fn resolve(trace: &Trace<OpOf<R::Family>>) -> Result<Self, String> {
        let (state, body, _) = resolve_body(design::<R>(), trace)?;
        Ok(Self {
            shared: Shared {
                state: Rc::new(RefCell::new(state)),
                body,
            },
            replayer: PhantomData,
        })
    }

    /// `shared` if it holds a state of `R`.
    fn of(shared: Shared<R::Family>) -> Option<Self> {
        let is_r =
            shared.state.borrow().as_any().is::<R>() && shared.body.typed::<R::Id>().is_some();
        is_r.then_some(Self {
            shared,
            replayer: PhantomData,
        })
    }

    /// Calls `f` with the state and the resolved body (the state borrowed for the call).
    pub fn with<T>(&self, f: impl FnOnce(&R, &ResolvedBody<R::Id>) -> T) -> T {
        let state = self.shared.state.borrow();
        let replayer = state.as_any().downcast_ref::<R>().expect("checked by `of`");
        f(
            replayer,
            self.shared.body.typed::<R::Id>().expect("checked by `of`"),
        )
    }

    /// The state and body, erased.
    pub fn shared(&self) -> &Shared<R::Family> {
        &self.shared
    }

    /// The IDs the dry run recorded, in op order (their count, for a loop that checks the
    /// body's shape).
    pub fn resolved_ids(&self) -> usize {
        self.with(|_, body| body.ids().len())
    }
}

/// A state after `trace`'s setup on which the body was resolved (the dry run), the resolved
/// body and the dry run's digest. The state has replayed the body: reuse it only for a
/// read-only body.
///
/// # Errors
/// The design refused an op of the setup or the body.
pub fn resolve_body<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
) -> Result<ResolvedState<F>, String> {
    let mut state = design
        .after_setup(trace)
        .map_err(|e| format!("setup {e}"))?;
    let (body, digest) = state
        .resolve(&trace.body)
        .map_err(|e| format!("dry run {e}"))?;
    Ok((state, body, digest))
}

/// The states the designs of one cell (family, workload, N) share with the cell's reference
/// loops, by design name. Filled while the cell's designs are visited, read by the loops
/// visited after them, dropped with the cell.
#[derive(Default)]
pub struct CellStates {
    by_design: HashMap<&'static str, Box<dyn Any>>,
    /// For a body that writes (no state to share): the body as design `name`'s dry run
    /// resolved it, so a loop that mirrors the design reads its IDs instead of running a dry
    /// run of its own (a setup and the whole body, at 1M objects most of the loop's untimed
    /// work).
    resolved: HashMap<&'static str, Resolved>,
    /// The model's state digest after the cell's setup and body (`verify::Expected`'s), so a
    /// loop that checks the state after its passes reads it instead of replaying the model
    /// (at 65,536 entities the components model's whole replay, a balanced tree per op, is
    /// most of a loop's untimed work).
    state_at_end: Option<u64>,
}

impl CellStates {
    /// The states of a cell whose model ends in state digest `state_at_end`.
    pub fn ending_in(state_at_end: Option<u64>) -> Self {
        Self {
            state_at_end,
            ..Self::default()
        }
    }

    /// The model's state digest after the cell's setup and body, if the cell was given it
    /// ([`Self::ending_in`]).
    pub fn state_at_end(&self) -> Option<u64> {
        self.state_at_end
    }

    /// Keeps `shared`, the state of design `name`'s timed replays.
    pub fn insert<F: Family>(&mut self, name: &'static str, shared: Shared<F>) {
        self.by_design.insert(name, Box::new(shared));
    }

    /// Keeps `body`, the body of a trace that writes as design `name`'s dry run resolved it.
    pub fn insert_resolved(&mut self, name: &'static str, body: Resolved) {
        self.resolved.insert(name, body);
    }

    /// The body replayer `R`'s dry run resolved, if the cell holds it: `f` of it.
    pub fn with_resolved<R: Replayer, T>(
        &self,
        f: impl FnOnce(&ResolvedBody<R::Id>) -> T,
    ) -> Option<T> {
        self.resolved
            .get(R::design_name())
            .and_then(|body| body.typed::<R::Id>())
            .map(f)
    }

    /// The IDs replayer `R`'s dry run of the cell's body recorded, in op order, if the cell
    /// holds them: its resolved body that writes, or the body of its shared state (a body
    /// that only reads). A loop that mirrors `R` decodes its steps from them, so it names the
    /// very entities the timed replays name.
    pub fn recorded_ids<R: Replayer>(&self) -> Option<Vec<R::Id>> {
        self.with_resolved::<R, _>(|body| body.ids().to_vec())
            .or_else(|| {
                self.get::<R>()
                    .map(|shared| shared.with(|_, body| body.ids().to_vec()))
            })
    }

    /// The IDs replayer `R`'s dry run of `trace`'s body records, in op order: the cell's
    /// ([`recorded_ids`](Self::recorded_ids)) when it holds them, else those of a dry run of
    /// `R`'s own after the setup; `None` if that refuses the setup or an op of the body.
    pub fn body_ids<R: Replayer>(&self, trace: &Trace<OpOf<R::Family>>) -> Option<Vec<R::Id>> {
        self.recorded_ids::<R>().or_else(|| {
            let mut dry_run = R::after_setup(trace).ok()?;
            let (resolved, _) = dry_run.resolve(&trace.body).ok()?;
            Some(resolved.ids().to_vec())
        })
    }

    /// The state replayer `R`'s timed replays reuse, if the cell holds one.
    pub fn get<R: Replayer>(&self) -> Option<SharedState<R>> {
        self.by_design
            .get(R::design_name())
            .and_then(|shared| shared.downcast_ref::<Shared<R::Family>>())
            .cloned()
            .and_then(SharedState::of)
    }
}
