//! The crate calls of the `ref-direct-<design>` loops of a mixed body
//! ([`super::reference_mixed`]): per design, the one call its adapter makes for each op
//! ([`DirectMixed`]), on the world borrowed from the design (built untimed by its replay),
//! inlined into the one generic loop over the body's steps; a run of writes borrows its view
//! or storage once, out of line, as the runs of lookups and copies
//! ([`EcsDirectLoops`](super::reference::EcsDirectLoops)).

use impls::components::ComponentStore;
use impls::components::direct::BufferDirect;
use impls::components::peers::hecs::HecsPeer;
use impls::components::peers::shipyard::ShipyardPeer;
use impls::components::peers::specs::{self as specs_peer, SpecsPeer, SpecsStorage};
use impls::components::peers::{Acceleration, Mass, Position, Velocity, split};
use impls::components::{PointMass, VectorField};

use super::velocity;
/// The crate calls of a mixed body's steps for one design, each the one call the design's
/// adapter makes for the op, inlined into [`apply_steps`]; the run of writes is out of line,
/// as the runs of lookups and copies ([`EcsDirectLoops`]).
pub trait DirectMixed: ComponentStore {
    /// Spawns an entity without a point mass: the crate's entity, `None` if refused.
    fn direct_spawn(&mut self) -> Option<Self::Entity>;

    /// Spawns an entity with point mass `init`: the crate's entity, `None` if refused.
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<Self::Entity>;

    /// Despawns `entity` (its point mass with it): whether the crate did.
    fn direct_kill(&mut self, entity: Self::Entity) -> bool;

    /// Gives `entity` point mass `init`: whether the crate did.
    fn direct_attach(&mut self, entity: Self::Entity, init: PointMass) -> bool;

    /// Removes `entity`'s point mass: whether it had one, `None` if the crate refused.
    fn direct_detach(&mut self, entity: Self::Entity) -> Option<bool>;

    /// One frame's destruction step: nothing for a crate that destroys at once.
    #[inline(always)]
    fn direct_destroy_step(&mut self) {}

    /// Writes [`velocity`] of each pair's seed to the pair's entity, in order, one view or
    /// storage borrowed for the run: how many entities had a point mass.
    fn write_all(&mut self, writes: &[(Self::Entity, u32)]) -> u64;
}

impl DirectMixed for HecsPeer {
    /// `World::spawn(())`.
    #[inline(always)]
    fn direct_spawn(&mut self) -> Option<hecs::Entity> {
        Some(self.world_mut().spawn(()))
    }

    /// `World::spawn((Position, Velocity, Acceleration, Mass))`.
    #[inline(always)]
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<hecs::Entity> {
        Some(self.world_mut().spawn(split(init)))
    }

    /// `World::despawn`.
    #[inline(always)]
    fn direct_kill(&mut self, entity: hecs::Entity) -> bool {
        self.world_mut().despawn(entity).is_ok()
    }

    /// `World::insert` of the four components.
    #[inline(always)]
    fn direct_attach(&mut self, entity: hecs::Entity, init: PointMass) -> bool {
        self.world_mut().insert(entity, split(init)).is_ok()
    }

    /// `World::remove::<(Position, Velocity, Acceleration, Mass)>`.
    #[inline(always)]
    fn direct_detach(&mut self, entity: hecs::Entity) -> Option<bool> {
        match self
            .world_mut()
            .remove::<(Position, Velocity, Acceleration, Mass)>(entity)
        {
            Ok(_) => Some(true),
            Err(hecs::ComponentError::MissingComponent(_)) => Some(false),
            Err(hecs::ComponentError::NoSuchEntity) => None,
        }
    }

    /// `World::view_mut::<&mut Velocity>()` once, `View::get_mut` per entity.
    #[inline(never)]
    fn write_all(&mut self, writes: &[(hecs::Entity, u32)]) -> u64 {
        let mut view = self.world_mut().view_mut::<&mut Velocity>();
        let mut written = 0u64;
        for &(e, seed) in writes {
            if let Some(v) = view.get_mut(e) {
                v.0 = velocity(seed);
                written += 1;
            }
        }
        written
    }
}

impl DirectMixed for ShipyardPeer {
    /// `World::add_entity(())`.
    #[inline(always)]
    fn direct_spawn(&mut self) -> Option<shipyard::EntityId> {
        Some(self.world_mut().add_entity(()))
    }

    /// `World::add_entity((Position, Velocity, Acceleration, Mass))`.
    #[inline(always)]
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<shipyard::EntityId> {
        Some(self.world_mut().add_entity(split(init)))
    }

    /// `World::delete_entity`.
    #[inline(always)]
    fn direct_kill(&mut self, entity: shipyard::EntityId) -> bool {
        self.world_mut().delete_entity(entity)
    }

    /// `World::add_component` of the four components (it answers nothing).
    #[inline(always)]
    fn direct_attach(&mut self, entity: shipyard::EntityId, init: PointMass) -> bool {
        self.world_mut().add_component(entity, split(init));
        true
    }

    /// `World::remove::<(Position, Velocity, Acceleration, Mass)>` (a dead entity reads as
    /// one without a point mass).
    #[inline(always)]
    fn direct_detach(&mut self, entity: shipyard::EntityId) -> Option<bool> {
        let (_, _, _, mass) = self
            .world_mut()
            .remove::<(Position, Velocity, Acceleration, Mass)>(entity);
        Some(mass.is_some())
    }

    /// `World::borrow::<ViewMut<Velocity>>()` once, `Get::get` through `&mut ViewMut` per
    /// entity.
    #[inline(never)]
    fn write_all(&mut self, writes: &[(shipyard::EntityId, u32)]) -> u64 {
        use shipyard::Get as _;
        let Ok(mut velocities) = self.world().borrow::<shipyard::ViewMut<Velocity>>() else {
            return 0;
        };
        let mut written = 0u64;
        for &(e, seed) in writes {
            if let Ok(mut v) = (&mut velocities).get(e) {
                v.0 = velocity(seed);
                written += 1;
            }
        }
        written
    }
}

impl<S: SpecsStorage> DirectMixed for SpecsPeer<S> {
    /// `WorldExt::create_entity().build()`.
    #[inline(always)]
    fn direct_spawn(&mut self) -> Option<specs::Entity> {
        use specs::{Builder as _, WorldExt as _};
        Some(self.world_mut().create_entity().build())
    }

    /// `WorldExt::create_entity().with(..)` of the four components, `build()`.
    #[inline(always)]
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<specs::Entity> {
        use specs::{Builder as _, WorldExt as _};
        let entity = self
            .world_mut()
            .create_entity()
            .with(specs_peer::Position::<S>::new(init.position))
            .with(specs_peer::Velocity::<S>::new(init.velocity))
            .with(specs_peer::Acceleration::<S>::new(init.acceleration))
            .with(specs_peer::Mass::<S>::new(init.mass))
            .build();
        Some(entity)
    }

    /// `WorldExt::delete_entity`.
    #[inline(always)]
    fn direct_kill(&mut self, entity: specs::Entity) -> bool {
        use specs::WorldExt as _;
        self.world_mut().delete_entity(entity).is_ok()
    }

    /// `Storage::insert` into each of the four storages.
    #[inline(always)]
    fn direct_attach(&mut self, entity: specs::Entity, init: PointMass) -> bool {
        use specs::WorldExt as _;
        let world = self.world();
        let inserted = [
            world
                .write_storage()
                .insert(entity, specs_peer::Position::<S>::new(init.position))
                .is_ok(),
            world
                .write_storage()
                .insert(entity, specs_peer::Velocity::<S>::new(init.velocity))
                .is_ok(),
            world
                .write_storage()
                .insert(
                    entity,
                    specs_peer::Acceleration::<S>::new(init.acceleration),
                )
                .is_ok(),
            world
                .write_storage()
                .insert(entity, specs_peer::Mass::<S>::new(init.mass))
                .is_ok(),
        ];
        inserted.iter().all(|&done| done)
    }

    /// `Storage::remove` from each of the four storages (a dead entity reads as one without
    /// a point mass).
    #[inline(always)]
    fn direct_detach(&mut self, entity: specs::Entity) -> Option<bool> {
        use specs::WorldExt as _;
        let world = self.world();
        world
            .write_storage::<specs_peer::Position<S>>()
            .remove(entity);
        world
            .write_storage::<specs_peer::Velocity<S>>()
            .remove(entity);
        world
            .write_storage::<specs_peer::Acceleration<S>>()
            .remove(entity);
        let mass = world.write_storage::<specs_peer::Mass<S>>().remove(entity);
        Some(mass.is_some())
    }

    /// `WorldExt::write_storage::<Velocity>()` once, `Storage::get_mut` per entity.
    #[inline(never)]
    fn write_all(&mut self, writes: &[(specs::Entity, u32)]) -> u64 {
        use specs::WorldExt as _;
        use specs::storage::AccessMut as _;
        let mut velocities = self.world().write_storage::<specs_peer::Velocity<S>>();
        let mut written = 0u64;
        for &(e, seed) in writes {
            if let Some(mut v) = velocities.get_mut(e) {
                v.access_mut().0 = velocity(seed);
                written += 1;
            }
        }
        written
    }
}

#[cfg(feature = "bevy")]
impl<S: impls::components::peers::bevy::BevyStorage> DirectMixed
    for impls::components::peers::bevy::BevyPeer<S>
{
    /// `World::spawn_empty`.
    #[inline(always)]
    fn direct_spawn(&mut self) -> Option<Self::Entity> {
        Some(self.world_mut().spawn_empty().id())
    }

    /// `World::spawn((Position, Velocity, Acceleration, Mass))`.
    #[inline(always)]
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<Self::Entity> {
        Some(self.world_mut().spawn(bevy_bundle::<S>(init)).id())
    }

    /// `World::despawn`.
    #[inline(always)]
    fn direct_kill(&mut self, entity: Self::Entity) -> bool {
        self.world_mut().despawn(entity)
    }

    /// `World::get_entity_mut`, then `EntityWorldMut::insert` of the four components.
    #[inline(always)]
    fn direct_attach(&mut self, entity: Self::Entity, init: PointMass) -> bool {
        match self.world_mut().get_entity_mut(entity) {
            Ok(mut e) => {
                e.insert(bevy_bundle::<S>(init));
                true
            }
            Err(_) => false,
        }
    }

    /// `World::get_entity_mut`, then `EntityWorldMut::take` of the four components.
    #[inline(always)]
    fn direct_detach(&mut self, entity: Self::Entity) -> Option<bool> {
        use impls::components::peers::bevy as b;
        let mut e = self.world_mut().get_entity_mut(entity).ok()?;
        let taken = e.take::<(
            b::Position<S>,
            b::Velocity<S>,
            b::Acceleration<S>,
            b::Mass<S>,
        )>();
        Some(taken.is_some())
    }

    /// The cached `QueryState<&mut Velocity>`'s `QueryState::query_mut` once, `Query::get_mut`
    /// per entity.
    #[inline(never)]
    fn write_all(&mut self, writes: &[(Self::Entity, u32)]) -> u64 {
        let mut query = self.velocity_query();
        let mut written = 0u64;
        for &(e, seed) in writes {
            if let Ok(mut v) = query.get_mut(e) {
                v.0 = velocity(seed);
                written += 1;
            }
        }
        written
    }
}

/// The four bevy components of `m` in storage `S`.
#[cfg(feature = "bevy")]
fn bevy_bundle<S: impls::components::peers::bevy::BevyStorage>(
    m: PointMass,
) -> (
    impls::components::peers::bevy::Position<S>,
    impls::components::peers::bevy::Velocity<S>,
    impls::components::peers::bevy::Acceleration<S>,
    impls::components::peers::bevy::Mass<S>,
) {
    use impls::components::peers::bevy as b;
    (
        b::Position::new(m.position),
        b::Velocity::new(m.velocity),
        b::Acceleration::new(m.acceleration),
        b::Mass::new(m.mass),
    )
}

impl DirectMixed for BufferDirect {
    /// [`ComponentStore::spawn`].
    #[inline(always)]
    fn direct_spawn(&mut self) -> Option<Self::Entity> {
        self.spawn().ok()
    }

    /// [`ComponentStore::spawn_with`].
    #[inline(always)]
    fn direct_spawn_with(&mut self, init: PointMass) -> Option<Self::Entity> {
        self.spawn_with(init).ok()
    }

    /// [`ComponentStore::kill`] (its instance left as garbage).
    #[inline(always)]
    fn direct_kill(&mut self, entity: Self::Entity) -> bool {
        self.kill(entity).is_ok()
    }

    /// [`ComponentStore::attach`].
    #[inline(always)]
    fn direct_attach(&mut self, entity: Self::Entity, init: PointMass) -> bool {
        self.attach(entity, init).is_ok()
    }

    /// [`ComponentStore::detach`].
    #[inline(always)]
    fn direct_detach(&mut self, entity: Self::Entity) -> Option<bool> {
        self.detach(entity).ok()
    }

    /// [`ComponentStore::destroy_step`]: the article's GC step.
    #[inline(always)]
    fn direct_destroy_step(&mut self) {
        self.destroy_step();
    }

    /// [`ComponentStore::write`] of the velocity per entity, stopping at the first refusal as
    /// its `lookup_all` does, for the same reason.
    #[inline(never)]
    fn write_all(&mut self, writes: &[(Self::Entity, u32)]) -> u64 {
        let mut written = 0u64;
        for &(e, seed) in writes {
            match self.write(e, VectorField::Velocity, velocity(seed)) {
                Ok(done) => written += u64::from(done),
                Err(_) => break,
            }
        }
        written
    }
}
