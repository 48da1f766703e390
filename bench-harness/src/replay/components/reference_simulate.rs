//! The `ref-direct-<peer>` loops of a body of `Simulate` ops (`comp-simulate`,
//! `comp-simulate-sparse` and its density points `-d1`, `-d50`, `-d100`): per pass, the
//! crate's own query over the three components the step reads and writes, taken once for the
//! pass as a system takes it each frame and iterated, [`PointMass::step`] with [`DT`] per
//! instance it yields ([`DirectSimulate`]). It is the peer's `simulate` written out in the
//! loop over the peer's world, so the loop's time is the crate's query and the replay's
//! overhead over it is what the family's driver adds around each `Simulate` (its dispatch and
//! the store's instance count per op).
//!
//! Each loop also counts the instances its queries yield (one add per instance beside the
//! step): the digest's `simulated`, which the model reads as the live instances before each
//! `Simulate`. The state the passes run on and their verification are
//! [`DirectEcs`](super::reference::DirectEcs)'s: a world rebuilt untimed from the trace's
//! setup for every timed run of the body, the state after it read back through the peer's
//! [`ComponentStore::visit`], untimed.

use impls::components::direct::BufferDirect;
use impls::components::peers::hecs::HecsPeer;
use impls::components::peers::shipyard::ShipyardPeer;
use impls::components::peers::specs::{self as specs_peer, SpecsPeer, SpecsStorage};
use impls::components::peers::{Acceleration, Position, Velocity};
use impls::components::{ComponentStore, PointMass};

use super::DT;

/// A design whose `ref-direct-<design>` loop runs a body of `Simulate`s with the crate's own
/// query (or, for our own design, its own `simulate`). Out of line, so every call runs the
/// same machine code whatever the caller.
pub trait DirectSimulate: ComponentStore {
    /// Runs `passes` passes of [`PointMass::step`] with [`DT`] over every instance, the query
    /// taken once per pass: how many instances the passes updated (the digest's `simulated`).
    fn simulate_passes(&mut self, passes: usize) -> u64;
}

impl DirectSimulate for HecsPeer {
    /// `World::query_mut::<(&mut Position, &mut Velocity, &Acceleration)>()` per pass (the
    /// world uniquely borrowed: no dynamic borrow checks), over the matching archetypes'
    /// columns.
    #[inline(never)]
    fn simulate_passes(&mut self, passes: usize) -> u64 {
        let world = self.world_mut();
        let mut simulated = 0u64;
        for _ in 0..passes {
            for (p, v, a) in world.query_mut::<(&mut Position, &mut Velocity, &Acceleration)>() {
                PointMass::step(&mut p.0, &mut v.0, &a.0, DT);
                simulated += 1;
            }
        }
        simulated
    }
}

impl DirectSimulate for ShipyardPeer {
    /// A system run per pass (`World::run`) over `ViewMut<Position>`, `ViewMut<Velocity>` and
    /// `View<Acceleration>`, iterated together (`IntoIter::iter`).
    #[inline(never)]
    fn simulate_passes(&mut self, passes: usize) -> u64 {
        use shipyard::{IntoIter as _, View, ViewMut};
        let world = self.world();
        let mut simulated = 0u64;
        for _ in 0..passes {
            simulated += world.run(
                |mut p: ViewMut<Position>, mut v: ViewMut<Velocity>, a: View<Acceleration>| {
                    let mut updated = 0u64;
                    for (p, v, a) in (&mut p, &mut v, &a).iter() {
                        PointMass::step(&mut p.0, &mut v.0, &a.0, DT);
                        updated += 1;
                    }
                    updated
                },
            );
        }
        simulated
    }
}

impl<S: SpecsStorage> DirectSimulate for SpecsPeer<S> {
    /// `WorldExt::write_storage` of `Position` and `Velocity` and `read_storage` of
    /// `Acceleration` per pass, joined (`Join::join`: their bitsets intersected).
    #[inline(never)]
    fn simulate_passes(&mut self, passes: usize) -> u64 {
        use specs::storage::AccessMut as _;
        use specs::{Join as _, WorldExt as _};
        let world = self.world();
        let mut simulated = 0u64;
        for _ in 0..passes {
            let mut positions = world.write_storage::<specs_peer::Position<S>>();
            let mut velocities = world.write_storage::<specs_peer::Velocity<S>>();
            let accelerations = world.read_storage::<specs_peer::Acceleration<S>>();
            for (mut p, mut v, a) in (&mut positions, &mut velocities, &accelerations).join() {
                PointMass::step(&mut p.access_mut().0, &mut v.access_mut().0, &a.0, DT);
                simulated += 1;
            }
        }
        simulated
    }
}

#[cfg(feature = "bevy")]
impl<S: impls::components::peers::bevy::BevyStorage> DirectSimulate
    for impls::components::peers::bevy::BevyPeer<S>
{
    /// The cached `QueryState<(&mut Position, &mut Velocity, &Acceleration)>`'s
    /// `QueryState::query_mut` per pass (its archetypes brought up to date, as a system's are
    /// each run), iterated with `Query::iter_mut` (change ticks written as bevy always does).
    #[inline(never)]
    fn simulate_passes(&mut self, passes: usize) -> u64 {
        let mut simulated = 0u64;
        for _ in 0..passes {
            let mut query = self.step_query();
            for (mut p, mut v, a) in query.iter_mut() {
                PointMass::step(&mut p.0, &mut v.0, &a.0, DT);
                simulated += 1;
            }
        }
        simulated
    }
}

impl DirectSimulate for BufferDirect {
    /// Our `buffer_direct` called directly: [`ComponentStore::simulate`] per pass, the live
    /// instances counted as the replay counts them (the instances less the garbage), as an
    /// application holding the store writes it. Its overhead is the replay driver's alone.
    #[inline(never)]
    fn simulate_passes(&mut self, passes: usize) -> u64 {
        let mut simulated = 0u64;
        for _ in 0..passes {
            simulated += (self.instance_count() - self.garbage()) as u64;
            self.simulate(DT);
        }
        simulated
    }
}
