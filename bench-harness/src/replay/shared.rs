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

use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use workloads::Trace;

use super::{OpOf, Replayer, ResolvedBody, ResolvedPair};

/// A design's state after the trace's setup and the dry run of a read-only body, with the body
/// resolved for it: what its timed replays reuse.
pub struct SharedState<R: Replayer> {
    /// The design's state (borrowed mutably only inside a timed replay).
    pub state: Rc<RefCell<R>>,
    /// The body as the dry run resolved it: the design's own IDs in op order.
    pub body: Rc<ResolvedBody<R::Id>>,
}

impl<R: Replayer> Clone for SharedState<R> {
    fn clone(&self) -> Self {
        Self {
            state: Rc::clone(&self.state),
            body: Rc::clone(&self.body),
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
        let (state, (body, _)) = resolve_body::<R>(trace)?;
        Ok(Self {
            state: Rc::new(RefCell::new(state)),
            body: Rc::new(body),
        })
    }
}

/// A state after `trace`'s setup on which the body was resolved (the dry run), the resolved
/// body and the dry run's digest. The state has replayed the body: reuse it only for a
/// read-only body.
///
/// # Errors
/// The design refused an op of the setup or the body.
pub fn resolve_body<R: Replayer>(
    trace: &Trace<OpOf<R::Family>>,
) -> Result<(R, ResolvedPair<R>), String> {
    let mut state = R::after_setup(trace).map_err(|e| format!("setup {e}"))?;
    let resolved = state
        .resolve(&trace.body)
        .map_err(|e| format!("dry run {e}"))?;
    Ok((state, resolved))
}

/// The states the designs of one cell (family, workload, N) share with the cell's reference
/// loops, by replayer type. Filled while the cell's designs are visited, read by the loops
/// visited after them, dropped with the cell.
#[derive(Default)]
pub struct CellStates {
    by_replayer: HashMap<TypeId, Box<dyn Any>>,
}

impl CellStates {
    /// Keeps `shared`, the state of replayer `R`'s timed replays.
    pub fn insert<R: Replayer>(&mut self, shared: SharedState<R>) {
        self.by_replayer.insert(TypeId::of::<R>(), Box::new(shared));
    }

    /// The state replayer `R`'s timed replays reuse, if the cell holds one.
    pub fn get<R: Replayer>(&self) -> Option<SharedState<R>> {
        self.by_replayer
            .get(&TypeId::of::<R>())
            .and_then(|shared| shared.downcast_ref::<SharedState<R>>())
            .cloned()
    }
}
