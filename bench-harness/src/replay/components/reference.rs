//! The family's reference loops, verified like a replay:
//!
//! * [`VecSimulate`] (`ref-vec-simulate`): the article's `simulate` over a plain
//!   `Vec<PointMass>` of the live instances, timed beside every design on a body of `Simulate`
//!   ops (`comp-simulate`, `comp-simulate-sparse`): the loop an application writes with no
//!   component manager at all (no entity map, no holes, no garbage, one contiguous AoS array,
//!   the same f32 operation order as every design). It is not a floor: the SoA designs beat
//!   it (their x/y/z arrays vectorise: `split_xyz_hash` and `buffer_hash` take less time per
//!   instance than the loop on `comp-simulate` at 1K), which is the article's argument for SoA,
//!   shown against the simplest alternative. Verified: the instances updated and the final
//!   state's hash must equal the model's.
//! * [`DirectEcs`] (`ref-direct-<peer>`, for `hecs`, `shipyard` and the three `specs`
//!   storages): a lookup body (`comp-lookup`) written against the ECS crate itself, no trait
//!   in between: the peer's world after the trace's setup (built untimed by the peer's replay,
//!   so the same entities and components), one view or storage borrowed for the whole body, the
//!   crate's own `get` per entity, over a plain `Vec` of the body's (handle, entity) pairs.
//!   [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead` (replay ÷ this
//!   loop) is what the replay driver and the [`ComponentStore`] adapter add to the crate.
//!   Verified: the lookups found and their sum must equal the model's.
//! * The same loop for `bevy_ecs` (`ref-direct-bevy_table`, `ref-direct-bevy_sparse`, behind
//!   the `bevy` cargo feature), as bevy's docs show a system doing it: the `QueryState<&Position>`
//!   cached once (the peer's, built with its world), `QueryState::query` once for the body
//!   (its archetypes brought up to date, as a system's are each run), `Query::get` per entity.
//! * The same loop for our article design `buffer_direct` (`ref-direct-buffer_direct`):
//!   [`ComponentStore::position`] per entity, the store used directly. It has no adapter, so
//!   its overhead is the replay driver's alone, which every design of the family pays: a peer's
//!   overhead above it is its adapter's.

use std::time::Duration;

use impls::components::direct::BufferDirect;
use impls::components::model::ModelStore;
use impls::components::peers::Position;
use impls::components::peers::hecs::HecsPeer;
use impls::components::peers::shipyard::ShipyardPeer;
use impls::components::peers::specs::{self as specs_peer, SpecsPeer, SpecsStorage};
use impls::components::{ComponentStore, PointMass};
use workloads::Trace;
use workloads::components::{ComponentOp, EntityHandle};

use super::{ComponentDigest, ComponentFamily, ComponentReplay, DT, StateHash, mix_lookup};
use crate::host::Stopwatch;
use crate::replay::{ReferenceLoop, Replayer};

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

/// A peer whose crate the `ref-direct-<peer>` loop calls directly: the lookup loop as an
/// application writes it with the crate (its world borrowed from the peer, built untimed).
pub trait EcsLookupLoop: ComponentStore + 'static {
    /// Looks every entity of `lookups` up: how many had a point mass, and the wrapping sum of
    /// [`mix_lookup`] of their handles and positions. Out of line, so every call runs the same
    /// machine code whatever the caller.
    fn lookup_all(&self, lookups: &[(EntityHandle, Self::Entity)]) -> (u64, u64);
}

impl EcsLookupLoop for HecsPeer {
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
}

impl EcsLookupLoop for ShipyardPeer {
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
}

#[cfg(feature = "bevy")]
impl<S: impls::components::peers::bevy::BevyStorage> EcsLookupLoop
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
}

impl<S: SpecsStorage> EcsLookupLoop for SpecsPeer<S> {
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
}

impl EcsLookupLoop for BufferDirect {
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
}

/// A `Lookup` body run by the ECS crate of peer `P` directly (`ref-direct-<peer>`, see the
/// [module docs](self)).
pub struct DirectEcs<P: EcsLookupLoop> {
    /// The peer after the trace's setup: only its world is read.
    state: ComponentReplay<P>,
    /// The body's lookups: each op's handle and the peer's entity for it, in op order.
    lookups: Vec<(EntityHandle, P::Entity)>,
    /// The model's lookups found and their sum.
    expected: (u64, u64),
}

impl<P: EcsLookupLoop> ReferenceLoop for DirectEcs<P> {
    type Family = ComponentFamily;

    fn name() -> String {
        format!("ref-direct-{}", P::INFO.meta.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(P::INFO.meta.name)
    }

    /// For a trace whose body is only `Lookup` ops; `None` otherwise or if the peer refuses
    /// the setup.
    fn for_trace(trace: &Trace<ComponentOp>, expected: &ComponentDigest) -> Option<Self> {
        let mut state = ComponentReplay::<P>::after_setup(trace).ok()?;
        let entities = state.handles().ids();
        let lookups = trace
            .body
            .iter()
            .map(|op| match *op {
                ComponentOp::Lookup(h) => Some((h, *entities.get(h as usize)?)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        (!lookups.is_empty()).then(|| Self {
            state,
            lookups,
            expected: (expected.lookups_found, expected.lookup_sum),
        })
    }

    /// Times `iters` runs of the lookup loop.
    ///
    /// # Errors
    /// The lookups found or their sum differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            let start = Stopwatch::start();
            let answers = self
                .state
                .store
                .lookup_all(std::hint::black_box(&self.lookups));
            total += start.elapsed();
            if std::hint::black_box(answers) != self.expected {
                return Err(format!(
                    "{} called directly found {} positions (sum {:#x}), the model {} (sum {:#x})",
                    P::INFO.meta.name,
                    answers.0,
                    answers.1,
                    self.expected.0,
                    self.expected.1
                ));
            }
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
mod tests {
    use super::*;
    use crate::replay::ComponentFamily;
    use crate::verify::Expected;

    fn trace(workload: &str) -> Trace<ComponentOp> {
        workloads::registry::generate_for::<ComponentOp>(workload, 300, 7, None).unwrap()
    }

    #[test]
    fn simulates_like_the_model_and_refuses_other_bodies() {
        let trace = trace("comp-simulate");
        let expected = Expected::<ComponentFamily>::of(&trace).unwrap();
        let looped = VecSimulate::for_trace(&trace, &expected.body).expect("a simulate body");
        assert!(looped.expected_simulated > 0);
        looped.run(2).unwrap();
        assert!(VecSimulate::for_trace(&self::trace("comp-lookup"), &expected.body).is_none());
    }

    /// Every `ref-direct-<peer>` loop finds what the model finds on a lookup body (also with
    /// entities lacking a point mass) and has no loop for other bodies.
    #[test]
    fn direct_ecs_loops_look_up_like_the_model() {
        fn check<P: EcsLookupLoop>(trace: &Trace<ComponentOp>, other: &Trace<ComponentOp>) {
            let expected = Expected::<ComponentFamily>::of(trace).unwrap();
            let looped = DirectEcs::<P>::for_trace(trace, &expected.body).expect("a lookup body");
            assert_eq!(DirectEcs::<P>::mirrors(), Some(P::INFO.meta.name));
            looped
                .run(2)
                .unwrap_or_else(|e| panic!("{}: {e}", P::INFO.meta.name));
            let mut wrong = DirectEcs::<P>::for_trace(trace, &expected.body).unwrap();
            wrong.expected.1 ^= 1;
            assert!(wrong.run(1).is_err(), "{}", P::INFO.meta.name);
            assert!(DirectEcs::<P>::for_trace(other, &expected.body).is_none());
        }
        let sparse = workloads::registry::generate_for::<ComponentOp>(
            "comp-lookup",
            300,
            7,
            Some(&serde_json::json!({ "density": 0.5 })),
        )
        .unwrap();
        for lookups in [trace("comp-lookup"), sparse] {
            let other = trace("comp-frame");
            check::<BufferDirect>(&lookups, &other);
            check::<HecsPeer>(&lookups, &other);
            check::<ShipyardPeer>(&lookups, &other);
            check::<specs_peer::SpecsVec>(&lookups, &other);
            check::<specs_peer::SpecsDense>(&lookups, &other);
            check::<specs_peer::SpecsHash>(&lookups, &other);
            #[cfg(feature = "bevy")]
            {
                check::<impls::components::peers::bevy::BevyTable>(&lookups, &other);
                check::<impls::components::peers::bevy::BevySparse>(&lookups, &other);
            }
        }
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
