//! The family's reference loops, verified like a replay:
//!
//! * [`VecSimulate`] (`ref-vec-simulate`): the article's `simulate` over a plain
//!   `Vec<PointMass>` of the live instances, timed beside every design on a body of `Simulate`
//!   ops (`comp-simulate`, `comp-simulate-sparse`): the loop an application writes with no
//!   component manager at all (no entity map, no holes, no garbage, one contiguous AoS array,
//!   the same f32 operation order as every design). It is not a floor: an SoA design's x/y/z
//!   arrays vectorise where this AoS loop's do not, so an SoA design can take less time per
//!   instance (the cell's table shows whether it does), which is the article's argument for
//!   SoA, shown against the simplest alternative. Verified: the instances updated and the
//!   final state's hash must equal the model's.
//! * [`DirectEcs`] (`ref-direct-<peer>`, for `hecs`, `shipyard` and the three `specs`
//!   storages): the component bodies written against the ECS crate itself, no trait in
//!   between: the peer's world after the trace's setup (built untimed by the peer's replay, so
//!   the same entities and components), one view or storage borrowed for the whole body, as a
//!   system borrows it, over a plain `Vec` of the body's decoded ops, one out-of-line loop per
//!   body kind and peer ([`EcsDirectLoops`]):
//!   - a body of `Lookup`s (`comp-lookup`): the crate's own `get` per entity of the body's
//!     (handle, entity) pairs;
//!   - a body of `CopyPosition`s (`comp-sync`, `comp-sync-random`): the position storage
//!     borrowed mutably once (hecs `World::view_mut::<&mut Position>()`, shipyard
//!     `ViewMut<Position>`, specs `WriteStorage<Position>`), per (source, target) pair the
//!     source's position read and copied out, then the target's written. Its state is the
//!     peer's world rebuilt by the peer's replay of the setup for every timed pass (outside
//!     the timed region), as the replay's timing rebuilds its state for a body that writes:
//!     the first pass's when the loop is built, each later one's before its pass, and a
//!     pass's spent state is freed before the next.
//!   - a body of `Simulate`s (`comp-simulate`, `comp-simulate-sparse` and its `-d1`, `-d50`,
//!     `-d100` points): per `Simulate`, the crate's own query over the three components the
//!     step reads and writes, taken once for the pass as the peer's `simulate` takes it (hecs
//!     `World::query_mut::<(&mut Position, &mut Velocity, &Acceleration)>()`, shipyard a
//!     `World::run` system over `ViewMut<Position>`, `ViewMut<Velocity>` and
//!     `View<Acceleration>`, specs a join of `WriteStorage<Position>`,
//!     `WriteStorage<Velocity>` and `ReadStorage<Acceleration>`), every instance it yields
//!     stepped ([`DirectSimulate`], in `reference_simulate.rs`), on a state rebuilt for every
//!     timed pass as a body of copies is.
//!   - any other body (`comp-frame`, `comp-gc` and its `-kill*` points): the crate's own call
//!     per op (spawn with the components, despawn, insert, remove), a view borrowed per run
//!     of lookups, writes or copies, one query per `Simulate`, over the entities the peer's
//!     dry run recorded, on a state rebuilt for every timed pass (`reference_mixed.rs`).
//!
//!   A trace the peer's replay cannot run (`comp-multi`: several point masses per entity)
//!   has no loop. [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead`
//!   (replay ÷ this loop) is what the replay driver and the [`ComponentStore`] adapter add to
//!   the crate. Verified: the lookups found and their sum, or the copies made (the instances
//!   simulated, a mixed body's whole digest) and the state after the body (read back through
//!   the peer's [`ComponentStore::visit`], untimed), must equal the model's.
//! * The same loops for `bevy_ecs` (`ref-direct-bevy_table`, `ref-direct-bevy_sparse`, behind
//!   the `bevy` cargo feature), as bevy's docs show a system doing it: the `QueryState` cached
//!   once (the peer's, built with its world: `&Position` for lookups, `&mut Position` for
//!   copies, `(&mut Position, &mut Velocity, &Acceleration)` for simulate), its `Query` taken
//!   once for the body or the `Simulate` (its archetypes brought up to date, as a system's
//!   are each run), `Query::get` per entity (and `Query::get_mut` of a copy's target), or
//!   `Query::iter_mut` over the instances.
//! * The same loops for our article design `buffer_direct` (`ref-direct-buffer_direct`):
//!   [`ComponentStore::position`] per entity, then [`ComponentStore::write`] of a copy's
//!   target, or [`ComponentStore::simulate`] per `Simulate`, or its own method per op of a
//!   mixed body (the GC step per `DestroyStep`), the store used directly. It has no adapter,
//!   so its overhead is the replay driver's alone, which every design of the family pays: a
//!   peer's overhead above it is its adapter's.

use std::time::Duration;

use impls::components::direct::BufferDirect;
use impls::components::model::ModelStore;
use impls::components::peers::Position;
use impls::components::peers::hecs::HecsPeer;
use impls::components::peers::shipyard::ShipyardPeer;
use impls::components::peers::specs::{self as specs_peer, SpecsPeer, SpecsStorage};
use impls::components::{ComponentStore, PointMass, VectorField};
use workloads::Trace;
use workloads::components::{ComponentOp, EntityHandle};

use super::digest::mix_lookup;
use super::reference_mixed::{MixedSteps, apply_steps};
use super::reference_mixed_calls::DirectMixed;
use super::reference_simulate::DirectSimulate;
use super::{ComponentDigest, ComponentFamily, ComponentReplay, DT, StateHash};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer};
use crate::replay::pass_states::PassStates;
use crate::replay::shared::CellStates;

/// `simulate` over a plain `Vec` of the instances live after the setup, once per `Simulate`.
pub struct VecSimulate {
    /// The instances after the setup, in the model's order (copied before each timed run).
    instances: Vec<PointMass>,
    /// `Simulate` ops in the body.
    passes: usize,
    /// Instances updated over the body, the model's [`ComponentDigest::simulated`].
    expected_simulated: u64,
    /// The model's state digest after the body.
    expected_state: u64,
}

impl ReferenceLoop for VecSimulate {
    type Family = ComponentFamily;

    fn name() -> String {
        "ref-vec-simulate".to_string()
    }

    /// For a trace whose body is only `Simulate` ops; `None` otherwise or if the model refuses
    /// the trace.
    fn for_trace(trace: &Trace<ComponentOp>, expected: &ComponentDigest) -> Option<Self> {
        if trace.body.is_empty() || trace.body.iter().any(|op| *op != ComponentOp::Simulate) {
            return None;
        }
        let mut model = ComponentReplay::<ModelStore>::for_trace(trace);
        model.replay(&trace.setup).ok()?;
        let mut instances = Vec::with_capacity(model.store.instance_count());
        model.store.visit(|m| instances.push(*m));
        model.replay(&trace.body).ok()?;
        Some(Self {
            instances,
            passes: trace.body.len(),
            expected_simulated: expected.simulated,
            expected_state: model.state_digest()?,
        })
    }

    /// Times `iters` runs of all passes, each on a fresh copy of the instances (copied
    /// outside the timed region).
    ///
    /// # Errors
    /// The instances updated or the final state differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let mut instances = self.instances.clone();
            let start = Stopwatch::start();
            let mut simulated = 0u64;
            for _ in 0..self.passes {
                let instances = std::hint::black_box(&mut instances);
                simulated += instances.len() as u64;
                for m in instances.iter_mut() {
                    PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, DT);
                }
            }
            total += start.elapsed();
            if std::hint::black_box(simulated) != self.expected_simulated {
                return Err(format!(
                    "the plain Vec simulated {simulated} instances, the model {}",
                    self.expected_simulated
                ));
            }
            let mut hash = StateHash::default();
            instances.iter().for_each(|m| hash.add(m));
            if hash.finish() != self.expected_state {
                return Err("the plain Vec's state after the body differs from the model's".into());
            }
        }
        Ok(total)
    }
}

/// A peer whose crate the `ref-direct-<peer>` loop calls directly: each body kind's loop as an
/// application writes it with the crate (its world borrowed from the peer, built untimed), one
/// view or storage borrowed for the whole body (a body of `Simulate`s: one query per pass,
/// [`DirectSimulate`]; a mixed body: the crate's calls per step, [`DirectMixed`]). Out of
/// line, so every call runs the same machine code whatever the caller.
pub trait EcsDirectLoops: DirectSimulate + DirectMixed + 'static {
    /// Looks every entity of `lookups` up: how many had a point mass, and the wrapping sum of
    /// [`mix_lookup`] of their handles and positions.
    fn lookup_all(&self, lookups: &[(EntityHandle, Self::Entity)]) -> (u64, u64);

    /// Copies the source's position to the target for every (source, target) pair of
    /// `copies`, in order: how many copies were made (both entities had a point mass).
    fn copy_all(&mut self, copies: &[(Self::Entity, Self::Entity)]) -> u64;
}

impl EcsDirectLoops for HecsPeer {
    /// `World::view::<&Position>()` once, `ViewBorrow::get` per entity.
    #[inline(never)]
    fn lookup_all(&self, lookups: &[(EntityHandle, hecs::Entity)]) -> (u64, u64) {
        let view = self.world().view::<&Position>();
        let (mut found, mut sum) = (0u64, 0u64);
        for &(h, e) in lookups {
            if let Some(p) = view.get(e) {
                found += 1;
                sum = sum.wrapping_add(mix_lookup(h, p.0));
            }
        }
        (found, sum)
    }

    /// `World::view_mut::<&mut Position>()` once (hecs's view of a uniquely borrowed world,
    /// without dynamic borrow checks), `View::get_mut` of the source, then of the target.
    #[inline(never)]
    fn copy_all(&mut self, copies: &[(hecs::Entity, hecs::Entity)]) -> u64 {
        let mut view = self.world_mut().view_mut::<&mut Position>();
        let mut copied = 0u64;
        for &(from, to) in copies {
            let Some(p) = view.get_mut(from).map(|p| p.0) else {
                continue;
            };
            if let Some(target) = view.get_mut(to) {
                target.0 = p;
                copied += 1;
            }
        }
        copied
    }
}

impl EcsDirectLoops for ShipyardPeer {
    /// `World::borrow::<View<Position>>()` once, `Get::get` per entity.
    #[inline(never)]
    fn lookup_all(&self, lookups: &[(EntityHandle, shipyard::EntityId)]) -> (u64, u64) {
        use shipyard::Get as _;
        let Ok(positions) = self.world().borrow::<shipyard::View<Position>>() else {
            return (0, 0);
        };
        let (mut found, mut sum) = (0u64, 0u64);
        for &(h, e) in lookups {
            if let Ok(p) = (&positions).get(e) {
                found += 1;
                sum = sum.wrapping_add(mix_lookup(h, p.0));
            }
        }
        (found, sum)
    }

    /// `World::borrow::<ViewMut<Position>>()` once, `Get::get` of the source through
    /// `&ViewMut`, then of the target through `&mut ViewMut`.
    #[inline(never)]
    fn copy_all(&mut self, copies: &[(shipyard::EntityId, shipyard::EntityId)]) -> u64 {
        use shipyard::Get as _;
        let Ok(mut positions) = self.world().borrow::<shipyard::ViewMut<Position>>() else {
            return 0;
        };
        let mut copied = 0u64;
        for &(from, to) in copies {
            let Ok(p) = (&positions).get(from).map(|p| p.0) else {
                continue;
            };
            if let Ok(mut target) = (&mut positions).get(to) {
                target.0 = p;
                copied += 1;
            }
        }
        copied
    }
}

#[cfg(feature = "bevy")]
impl<S: impls::components::peers::bevy::BevyStorage> EcsDirectLoops
    for impls::components::peers::bevy::BevyPeer<S>
{
    /// The cached `QueryState<&Position>`'s `QueryState::query` once, `Query::get` per entity.
    #[inline(never)]
    fn lookup_all(&self, lookups: &[(EntityHandle, Self::Entity)]) -> (u64, u64) {
        let mut state = self.position_query();
        let query = state.query(self.world());
        let (mut found, mut sum) = (0u64, 0u64);
        for &(h, e) in lookups {
            if let Ok(p) = query.get(e) {
                found += 1;
                sum = sum.wrapping_add(mix_lookup(h, p.0));
            }
        }
        (found, sum)
    }

    /// The cached `QueryState<&mut Position>`'s `QueryState::query_mut` once, `Query::get` of
    /// the source, then `Query::get_mut` of the target.
    #[inline(never)]
    fn copy_all(&mut self, copies: &[(Self::Entity, Self::Entity)]) -> u64 {
        let mut query = self.copy_query();
        let mut copied = 0u64;
        for &(from, to) in copies {
            let Ok(p) = query.get(from).map(|p| p.0) else {
                continue;
            };
            if let Ok(mut target) = query.get_mut(to) {
                target.0 = p;
                copied += 1;
            }
        }
        copied
    }
}

impl<S: SpecsStorage> EcsDirectLoops for SpecsPeer<S> {
    /// `WorldExt::read_storage::<Position>()` once, `Storage::get` per entity.
    #[inline(never)]
    fn lookup_all(&self, lookups: &[(EntityHandle, specs::Entity)]) -> (u64, u64) {
        use specs::WorldExt as _;
        let positions = self.world().read_storage::<specs_peer::Position<S>>();
        let (mut found, mut sum) = (0u64, 0u64);
        for &(h, e) in lookups {
            if let Some(p) = positions.get(e) {
                found += 1;
                sum = sum.wrapping_add(mix_lookup(h, p.0));
            }
        }
        (found, sum)
    }

    /// `WorldExt::write_storage::<Position>()` once, `Storage::get` of the source, then
    /// `Storage::get_mut` of the target.
    #[inline(never)]
    fn copy_all(&mut self, copies: &[(specs::Entity, specs::Entity)]) -> u64 {
        use specs::WorldExt as _;
        use specs::storage::AccessMut as _;
        let mut positions = self.world().write_storage::<specs_peer::Position<S>>();
        let mut copied = 0u64;
        for &(from, to) in copies {
            let Some(p) = positions.get(from).map(|p| p.0) else {
                continue;
            };
            if let Some(mut target) = positions.get_mut(to) {
                target.access_mut().0 = p;
                copied += 1;
            }
        }
        copied
    }
}

impl EcsDirectLoops for BufferDirect {
    /// Our `buffer_direct` called directly: [`ComponentStore::position`] per entity, as an
    /// application holding the store writes it, stopping at the first refusal as the replay
    /// does (never in a verified run: the count would then differ from the model's). Its
    /// overhead is the replay driver's alone (there is no adapter), so a peer's overhead above
    /// it is its adapter's.
    ///
    /// It stops rather than going on past a refusal (`if let Ok(Some(p))`): that would drop the
    /// error (a `String`) inside the loop, keeping the drop's code and registers in every
    /// iteration, and the replay, whose run ends at a refusal, would read below 0.95 of this
    /// loop (the `overhead` of `ref-direct-buffer_direct` on `comp-lookup`).
    #[inline(never)]
    fn lookup_all(&self, lookups: &[(EntityHandle, Self::Entity)]) -> (u64, u64) {
        let (mut found, mut sum) = (0u64, 0u64);
        for &(h, e) in lookups {
            match self.position(e) {
                Ok(Some(p)) => {
                    found += 1;
                    sum = sum.wrapping_add(mix_lookup(h, p));
                }
                Ok(None) => {}
                Err(_) => break,
            }
        }
        (found, sum)
    }

    /// [`ComponentStore::position`] of the source, then [`ComponentStore::write`] of the
    /// target, stopping at the first refusal as [`lookup_all`](Self::lookup_all) does, for the
    /// same reason.
    #[inline(never)]
    fn copy_all(&mut self, copies: &[(Self::Entity, Self::Entity)]) -> u64 {
        let mut copied = 0u64;
        for &(from, to) in copies {
            let p = match self.position(from) {
                Ok(Some(p)) => p,
                Ok(None) => continue,
                Err(_) => break,
            };
            match self.write(to, VectorField::Position, p) {
                Ok(done) => copied += u64::from(done),
                Err(_) => break,
            }
        }
        copied
    }
}

/// A body a `ref-direct-<peer>` loop runs, decoded before timing, with the state it runs on.
pub(super) enum Body<P: EcsDirectLoops> {
    /// Only `Lookup`s: each op's handle and the peer's entity for it, in op order, read on
    /// the peer after the setup.
    Lookups {
        /// The peer after the trace's setup: only its world is read.
        state: ComponentReplay<P>,
        /// The (handle, entity) pairs.
        lookups: Vec<(EntityHandle, P::Entity)>,
    },
    /// Only `CopyPosition`s: each op's source and target entities, in op order, on a state
    /// rebuilt for each pass.
    Copies {
        /// The trace (its setup rebuilds each pass's state).
        trace: Trace<ComponentOp>,
        /// The states of the passes (the first built by [`ReferenceLoop::for_trace`], so a
        /// single pass runs no setup).
        passes: PassStates<ComponentReplay<P>>,
        /// The (source, target) pairs.
        copies: Vec<(P::Entity, P::Entity)>,
    },
    /// Only `Simulate`s, on a state rebuilt for each pass as a body of copies is.
    Simulates {
        /// The trace (its setup rebuilds each pass's state).
        trace: Trace<ComponentOp>,
        /// The states of the passes, as [`Body::Copies`]'s.
        passes: PassStates<ComponentReplay<P>>,
        /// The `Simulate` ops of the body: the passes of the crate's query.
        simulates: usize,
    },
    /// Any other body (ops of several kinds), decoded into the crate's calls, on a state
    /// rebuilt for each pass as a body of copies is ([`super::reference_mixed`]).
    Mixed {
        /// The trace (its setup rebuilds each pass's state).
        trace: Trace<ComponentOp>,
        /// The states of the passes, as [`Body::Copies`]'s.
        passes: PassStates<ComponentReplay<P>>,
        /// The steps, over the entities the design's dry run recorded, and the model's
        /// body digest they must give.
        steps: Box<MixedSteps<P::Entity>>,
    },
}

/// A component body run by the ECS crate of peer `P` directly (`ref-direct-<peer>`, see the
/// [module docs](self)).
pub struct DirectEcs<P: EcsDirectLoops> {
    /// The body and its state.
    pub(super) body: Body<P>,
    /// The model's answers: the lookups found and their sum, or the copies made (the
    /// instances simulated) and the state digest after the body ([`Replayer::state_digest`]);
    /// for a mixed body, 0 and the state digest (its whole body digest is its steps').
    pub(super) expected: (u64, u64),
}

impl<P: EcsDirectLoops> DirectEcs<P> {
    /// One pass over a body that writes, `body`, on the peer after the setup (built before
    /// the pass unless ready, untimed): `body`'s count and the state digest after it, and the
    /// time of `body` alone.
    fn pass_on_fresh_state<T>(
        trace: &Trace<ComponentOp>,
        passes: &PassStates<ComponentReplay<P>>,
        body: impl FnOnce(&mut P) -> T,
    ) -> Result<((T, u64), Duration), String> {
        let mut state = passes
            .next(|| ComponentReplay::<P>::after_setup(trace).map_err(|e| format!("setup {e}")))?;
        crate::host::fresh_time_slice();
        let start = Stopwatch::start();
        let count = body(std::hint::black_box(&mut state.store));
        let elapsed = start.elapsed();
        let digest = state.state_digest();
        passes.spend(state);
        let digest = digest.ok_or("the peer gives no state digest")?;
        Ok(((count, digest), elapsed))
    }
}

/// The model's state digest after `trace`'s setup and body: the cell's, where it holds it
/// ([`CellStates::state_at_end`]), else the model's replay; `None` if it refuses the trace.
pub(super) fn model_state_after(trace: &Trace<ComponentOp>, designs: &CellStates) -> Option<u64> {
    if let Some(state) = designs.state_at_end() {
        return Some(state);
    }
    let mut model = ComponentReplay::<ModelStore>::for_trace(trace);
    model.replay(&trace.setup).ok()?;
    model.replay(&trace.body).ok()?;
    model.state_digest()
}

impl<P: EcsDirectLoops> ReferenceLoop for DirectEcs<P> {
    type Family = ComponentFamily;
    const MIRRORS: Option<&'static str> = Some(P::INFO.meta.name);

    /// For any non-empty body the peer's replay runs; `None` if the peer refuses the setup
    /// (or, for a body that writes, the model the trace or the peer the dry run). A body of
    /// one kind on states of its own; a mixed body with its entities from the dry run of the
    /// peer's timed replay, if the cell holds it ([`DirectEcs::mixed`]).
    fn in_cell(
        trace: &Trace<ComponentOp>,
        expected: &ComponentDigest,
        designs: &CellStates,
    ) -> Option<Self> {
        let all = |is: fn(&ComponentOp) -> bool| trace.body.iter().all(is);
        if !(all(|op| matches!(op, ComponentOp::Lookup(_)))
            || all(|op| matches!(op, ComponentOp::CopyPosition(..)))
            || all(|op| *op == ComponentOp::Simulate))
        {
            return Self::mixed(trace, expected, designs);
        }
        let mut state = ComponentReplay::<P>::after_setup(trace).ok()?;
        let entities = state.handles().ids();
        let entity = |h: EntityHandle| entities.get(h as usize).copied();
        match trace.body.first()? {
            ComponentOp::Lookup(_) => {
                let lookups = trace
                    .body
                    .iter()
                    .map(|op| match *op {
                        ComponentOp::Lookup(h) => Some((h, entity(h)?)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Self {
                    body: Body::Lookups { state, lookups },
                    expected: (expected.lookups_found, expected.lookup_sum),
                })
            }
            ComponentOp::CopyPosition(..) => {
                let copies = trace
                    .body
                    .iter()
                    .map(|op| match *op {
                        ComponentOp::CopyPosition(from, to) => Some((entity(from)?, entity(to)?)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Self {
                    body: Body::Copies {
                        trace: trace.clone(),
                        passes: PassStates::starting_with(state),
                        copies,
                    },
                    expected: (expected.copies_done, model_state_after(trace, designs)?),
                })
            }
            ComponentOp::Simulate => Some(Self {
                body: Body::Simulates {
                    trace: trace.clone(),
                    passes: PassStates::starting_with(state),
                    simulates: trace.body.len(),
                },
                expected: (expected.simulated, model_state_after(trace, designs)?),
            }),
            _ => None,
        }
    }

    /// Times `iters` passes of the body (a body that writes on a state after the setup built
    /// before each pass but a first, untimed).
    ///
    /// # Errors
    /// The lookups found or their sum, or the copies made (the instances simulated, a mixed
    /// body's digest) or the state after them, differ from the model's; or a mixed body's
    /// step was refused or spawned another entity than the peer's dry run.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let (answers, elapsed) = match &self.body {
                Body::Lookups { state, lookups } => {
                    let start = Stopwatch::start();
                    let answers = state.store.lookup_all(std::hint::black_box(lookups));
                    (answers, start.elapsed())
                }
                Body::Copies {
                    trace,
                    passes,
                    copies,
                } => Self::pass_on_fresh_state(trace, passes, |store| {
                    store.copy_all(std::hint::black_box(copies))
                })?,
                Body::Simulates {
                    trace,
                    passes,
                    simulates,
                } => Self::pass_on_fresh_state(trace, passes, |store| {
                    store.simulate_passes(std::hint::black_box(*simulates))
                })?,
                Body::Mixed {
                    trace,
                    passes,
                    steps,
                } => {
                    let ((outcome, state), elapsed) =
                        Self::pass_on_fresh_state(trace, passes, |store| {
                            apply_steps(store, std::hint::black_box(steps))
                        })?;
                    steps.check(P::INFO.meta.name, &trace.body, outcome)?;
                    ((0, state), elapsed)
                }
            };
            total += elapsed;
            if std::hint::black_box(answers) == self.expected {
                continue;
            }
            let name = P::INFO.meta.name;
            let ((got, got_hash), (want, want_hash)) = (answers, self.expected);
            return Err(match self.body {
                Body::Lookups { .. } => format!(
                    "{name} called directly found {got} positions (sum {got_hash:#x}), the model {want} (sum {want_hash:#x})"
                ),
                Body::Copies { .. } => format!(
                    "{name} called directly made {got} copies (state {got_hash:#x}), the model {want} (state {want_hash:#x})"
                ),
                Body::Simulates { .. } => format!(
                    "{name} called directly simulated {got} instances (state {got_hash:#x}), the model {want} (state {want_hash:#x})"
                ),
                Body::Mixed { .. } => format!(
                    "{name} called directly left the state {got_hash:#x}, the model {want_hash:#x}"
                ),
            });
        }
        Ok(total)
    }
}

/// `ref-direct-buffer_direct`: our article design called directly, the driver's share.
pub type DirectBufferDirect = DirectEcs<BufferDirect>;
/// `ref-direct-hecs`.
pub type DirectHecs = DirectEcs<HecsPeer>;
/// `ref-direct-shipyard`.
pub type DirectShipyard = DirectEcs<ShipyardPeer>;
/// `ref-direct-specs_vec`.
pub type DirectSpecsVec = DirectEcs<specs_peer::SpecsVec>;
/// `ref-direct-specs_dense`.
pub type DirectSpecsDense = DirectEcs<specs_peer::SpecsDense>;
/// `ref-direct-specs_hash`.
pub type DirectSpecsHash = DirectEcs<specs_peer::SpecsHash>;
/// `ref-direct-bevy_table`.
#[cfg(feature = "bevy")]
pub type DirectBevyTable = DirectEcs<impls::components::peers::bevy::BevyTable>;
/// `ref-direct-bevy_sparse`.
#[cfg(feature = "bevy")]
pub type DirectBevySparse = DirectEcs<impls::components::peers::bevy::BevySparse>;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::replay::ComponentFamily;
    use crate::replay::testing::{trace, trace_with};
    use crate::verify::Expected;

    #[test]
    fn simulates_like_the_model_and_refuses_other_bodies() {
        let trace = trace("comp-simulate");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let looped = VecSimulate::for_trace(&trace, &expected.body).expect("a simulate body");
        assert!(looped.expected_simulated > 0);
        looped.run(2).unwrap();
        assert!(VecSimulate::for_trace(&self::trace("comp-lookup"), &expected.body).is_none());
    }

    /// Runs `check::<P>(trace)` for every design with `ref-direct-` loops.
    macro_rules! for_every_direct_loop {
        ($check:ident, $trace:expr) => {
            use impls::components::peers as p;
            $check::<impls::components::direct::BufferDirect>($trace);
            $check::<p::hecs::HecsPeer>($trace);
            $check::<p::shipyard::ShipyardPeer>($trace);
            $check::<p::specs::SpecsVec>($trace);
            $check::<p::specs::SpecsDense>($trace);
            $check::<p::specs::SpecsHash>($trace);
            #[cfg(feature = "bevy")]
            {
                $check::<p::bevy::BevyTable>($trace);
                $check::<p::bevy::BevySparse>($trace);
            }
        };
    }
    pub(in super::super) use for_every_direct_loop;

    /// Every `ref-direct-<peer>` loop finds what the model finds on a lookup body (also with
    /// entities lacking a point mass), copies what the model copies on the copy bodies and
    /// simulates what it simulates on the simulate bodies (at every density; the count and the
    /// state after them, pass after pass on rebuilt states), fails a wrong expectation of
    /// either answer, and has no loop for a trace its replay cannot run.
    #[test]
    fn direct_ecs_loops_answer_like_the_model() {
        fn check<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) {
            let (name, workload) = (P::INFO.meta.name, &trace.header.generator);
            let expected = Expected::<ComponentFamily>::of(trace).unwrap();
            let looped = DirectEcs::<P>::for_trace(trace, &expected.body)
                .unwrap_or_else(|| panic!("{name}: no loop for {workload}"));
            assert_eq!(DirectEcs::<P>::MIRRORS, Some(name));
            // Three passes after two: a state left over from a pass would fail the third.
            for iters in [2, 3] {
                looped
                    .run(iters)
                    .unwrap_or_else(|e| panic!("{name} on {workload}: {e}"));
            }
            let mut wrong = DirectEcs::<P>::for_trace(trace, &expected.body).unwrap();
            wrong.expected.1 ^= 1;
            assert!(wrong.run(1).is_err(), "{name} on {workload}");
            let mut wrong = DirectEcs::<P>::for_trace(trace, &expected.body).unwrap();
            wrong.expected.0 += 1;
            assert!(wrong.run(1).is_err(), "{name} on {workload}");
        }
        fn no_loop<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) {
            let expected = Expected::<ComponentFamily>::of(trace).unwrap();
            assert!(DirectEcs::<P>::for_trace(trace, &expected.body).is_none());
        }
        let sparse = trace_with(
            "comp-lookup",
            300,
            Some(&serde_json::json!({ "density": 0.5 })),
        );
        for body in [
            trace("comp-lookup"),
            sparse,
            trace("comp-sync"),
            trace("comp-sync-random"),
            trace("comp-simulate"),
            trace("comp-simulate-sparse"),
            trace("comp-simulate-sparse-d1"),
            trace("comp-simulate-sparse-d50"),
            trace("comp-simulate-sparse-d100"),
        ] {
            for_every_direct_loop!(check, &body);
        }
        // Several point masses per entity: no design with a direct loop holds them (the
        // mixed bodies' loops are checked in `reference_mixed`).
        for_every_direct_loop!(no_loop, &trace("comp-multi"));
    }

    /// A simulate loop whose instances simulated are the model's but whose state is not fails
    /// on the state; its first pass runs on the state built with the loop.
    #[test]
    fn a_wrong_simulate_fails_on_the_state() {
        fn check<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) {
            let name = P::INFO.meta.name;
            let expected = Expected::<ComponentFamily>::of(trace).unwrap();
            let mut looped = DirectEcs::<P>::for_trace(trace, &expected.body).unwrap();
            let Body::Simulates {
                passes, simulates, ..
            } = &mut looped.body
            else {
                panic!("{name}: a body of simulates");
            };
            assert_eq!(passes.held(), (true, false), "{name}");
            // One pass fewer, expected to simulate as many instances fewer: only the state
            // differs from the expectation.
            let per_pass = looped.expected.0 / *simulates as u64;
            *simulates -= 1;
            looped.expected.0 -= per_pass;
            let count = looped.expected.0;
            let error = looped.run(1).unwrap_err();
            assert!(
                error.contains(&format!("simulated {count} instances"))
                    && error.contains(&format!("the model {count} (state")),
                "{name}: {error}"
            );
        }
        let simulate = trace("comp-simulate");
        for_every_direct_loop!(check, &simulate);
    }

    /// A copy loop whose copies are as many as the model's but not the same ones fails on the
    /// state after the body; the first pass runs on the state built with the loop.
    #[test]
    fn a_wrong_copy_fails_on_the_state() {
        fn check<P: EcsDirectLoops>(trace: &Trace<ComponentOp>) {
            let name = P::INFO.meta.name;
            let expected = Expected::<ComponentFamily>::of(trace).unwrap();
            let mut looped = DirectEcs::<P>::for_trace(trace, &expected.body).unwrap();
            let Body::Copies { passes, copies, .. } = &mut looped.body else {
                panic!("{name}: a body of copies");
            };
            assert_eq!(passes.held(), (true, false), "{name}");
            // The node's position copied back to its bone first: the bone's changes.
            let (from, to) = copies[0];
            copies.insert(0, (to, from));
            copies.pop();
            let error = looped.run(1).unwrap_err();
            assert!(error.contains("state"), "{name}: {error}");
        }
        let sync = trace("comp-sync");
        for_every_direct_loop!(check, &sync);
    }

    #[test]
    fn a_wrong_state_fails_verification() {
        let trace = trace("comp-simulate");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let mut looped = VecSimulate::for_trace(&trace, &expected.body).unwrap();
        looped.instances[0].velocity[0] += 1.0;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("differs from the model"), "{error}");
        looped.instances.pop();
        assert!(looped.run(1).unwrap_err().contains("simulated"));
    }
}
