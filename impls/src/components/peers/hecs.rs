//! Peer: `hecs`, an archetype ECS, used as its documentation shows
//! (<https://docs.rs/hecs/0.11.2/hecs/struct.World.html>). The point mass is four components,
//! [`Position`], [`Velocity`], [`Acceleration`] and [`Mass`]; an entity attached at spawn is
//! spawned with all four (`World::spawn((p, v, a, m))`, straight into their archetype), one
//! spawned empty lives in the empty archetype until `insert` moves it. `simulate` is
//! `query_mut::<(&mut Position, &mut Velocity, &Acceleration)>()`, a walk over the matching
//! archetypes' three columns (SoA per component: `Mass` is never read). A run of lookups
//! borrows `World::view::<&Position>()` once and calls `ViewBorrow::get` per entity (the
//! entity table's generation check, the archetype, the row), a run of writes
//! `view::<&mut Velocity>()` and `get_mut`, a run of copies `view::<&mut Position>()` and
//! `get_mut` of the source then of the target (the source's position copied out first, so a
//! copy onto itself needs no second borrow); single calls use `World::get`. The trade-off of
//! the layout: attaching or detaching moves the entity's row between archetypes, which a
//! sparse set (shipyard) does not pay.
//!
//! The crate's answers carry the trait's errors: `despawn`, `remove` and `World::get` report
//! a dead entity themselves; a view's miss (dead or without a point mass) is told apart by
//! `World::contains`, on the miss only. Destruction: `despawn` removes the components at once
//! (the destroy-callback strategy). Instances are counted from the archetypes holding `Mass`
//! (hecs counts entities, not components). Memory: hecs does not report its allocations;
//! [`ComponentStore::memory_bytes`] is a lower bound, 40 bytes per instance plus 16 per live
//! entity (its entity metadata: generation and location), without spare capacity. Allocator
//! calls are not observable (0).

use crate::DesignMeta;
use hecs::{ComponentError as HecsError, World};

use super::{Acceleration, Mass, Position, Velocity, joined, split};
use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, CopyRun, Destruction,
    PointMass, PositionRun, Refused, VectorField, VelocityRun,
};

/// A `hecs::World` holding point masses as four components.
pub struct HecsPeer {
    world: World,
}

impl HecsPeer {
    /// The world (the `ref-direct-hecs` lookup loop reads it directly).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, uniquely borrowed (the `ref-direct-hecs` copy, simulate and mixed loops
    /// write it directly).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// A run's answer for an entity a view missed: dead ([`Refused`]), or alive without a
    /// point mass.
    #[cold]
    fn missed<T>(&self, entity: hecs::Entity, without: T) -> Result<T, Refused> {
        match self.world.contains(entity) {
            true => Ok(without),
            false => Err(Refused),
        }
    }
}

impl ComponentStore for HecsPeer {
    type Entity = hecs::Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "hecs",
            description: "hecs::World as its docs show: Position/Velocity/Acceleration/Mass components (archetype columns), spawn with the bundle, simulate a query_mut over three, a view borrowed once per run of lookups/writes/copies; despawn removes at once",
            kind: ComponentDesignKind::Peer {
                crate_name: "hecs",
                version: "0.11.2",
                idiom: "World::spawn((Position, Velocity, Acceleration, Mass)), query_mut::<(&mut Position, &mut Velocity, &Acceleration)> to simulate, view::<&Position>() once per run of lookups, view::<&mut Velocity>() per run of writes and view::<&mut Position>() per run of copies",
                docs: "https://docs.rs/hecs/0.11.2/hecs/struct.World.html",
                adapter: "Per lookup, the closure wraps `ViewBorrow::get`'s `Option` in the trait's `Result<Option<[f32; 3]>, Refused>`, asking `World::contains` on a miss only to refuse a dead entity (a copy's closure answers the entity its view missed, asked off the loop); a run of copies borrows the world through `view` where the direct loop's unique borrow takes `view_mut`, one borrow check per run; `attach` checks `has::<Mass>()` first, as `insert` would replace silently. The family's loop also reads each op's kind, keeps its index for a refusal and walks ops and recorded entities as two slices, where the direct loop walks one; our designs pay that loop too.",
            },
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            world: World::new(),
        }
    }

    fn spawn(&mut self) -> Result<hecs::Entity, ComponentError> {
        Ok(self.world.spawn(()))
    }

    fn spawn_with(&mut self, init: PointMass) -> Result<hecs::Entity, ComponentError> {
        Ok(self.world.spawn(split(init)))
    }

    fn kill(&mut self, entity: hecs::Entity) -> Result<(), ComponentError> {
        self.world
            .despawn(entity)
            .map_err(|_| ComponentError::dead(entity))
    }

    fn attach(&mut self, entity: hecs::Entity, init: PointMass) -> Result<(), ComponentError> {
        // `insert` would replace a point mass silently: the entity's own `has` tells.
        match self.world.entity(entity) {
            Err(_) => Err(ComponentError::dead(entity)),
            Ok(e) if e.has::<Mass>() => Err(ComponentError::attached(entity)),
            Ok(_) => self
                .world
                .insert(entity, split(init))
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    fn detach(&mut self, entity: hecs::Entity) -> Result<bool, ComponentError> {
        match self
            .world
            .remove::<(Position, Velocity, Acceleration, Mass)>(entity)
        {
            Ok(_) => Ok(true),
            Err(HecsError::NoSuchEntity) => Err(ComponentError::dead(entity)),
            Err(HecsError::MissingComponent(_)) => Ok(false),
        }
    }

    #[inline]
    fn position(&self, entity: hecs::Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get::<&Position>(entity) {
            Ok(p) => Ok(Some(p.0)),
            Err(HecsError::NoSuchEntity) => Err(ComponentError::dead(entity)),
            Err(HecsError::MissingComponent(_)) => Ok(None),
        }
    }

    #[inline]
    fn write(
        &mut self,
        entity: hecs::Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        let written = match field {
            VectorField::Position => self
                .world
                .get::<&mut Position>(entity)
                .map(|mut p| p.0 = value),
            VectorField::Velocity => self
                .world
                .get::<&mut Velocity>(entity)
                .map(|mut v| v.0 = value),
        };
        match written {
            Ok(()) => Ok(true),
            Err(HecsError::NoSuchEntity) => Err(ComponentError::dead(entity)),
            Err(HecsError::MissingComponent(_)) => Ok(false),
        }
    }

    /// One `view::<&Position>()` for the run, `get` per entity; `World::contains` only for an
    /// entity the view missed, off the run's loop.
    #[inline]
    fn read_positions<R: PositionRun<hecs::Entity>>(&self, run: R) -> R::Output {
        let view = self.world.view::<&Position>();
        run.run(
            |entity| view.get(entity).map(|p| Some(p.0)).ok_or(Refused),
            |entity| self.missed(entity, None),
        )
    }

    /// One `view::<&mut Velocity>()` for the run, `get_mut` per entity.
    #[inline]
    fn write_velocities<R: VelocityRun<hecs::Entity>>(&mut self, run: R) -> R::Output {
        let mut view = self.world.view::<&mut Velocity>();
        run.run(|entity, value| match view.get_mut(entity) {
            Some(v) => {
                v.0 = value;
                Ok(true)
            }
            None => self.missed(entity, false),
        })
    }

    /// One `view::<&mut Position>()` for the run, `get_mut` of `from` (its position copied
    /// out) then of `to`; a miss answers the entity missed, and `World::contains` is asked of
    /// it off the run's loop. Through `view` (the world borrowed shared, checked once per run)
    /// rather than `view_mut`, whose unique borrow of the world would leave `contains` no way
    /// in.
    #[inline]
    fn copy_positions<R: CopyRun<hecs::Entity>>(&mut self, run: R) -> R::Output {
        let mut view = self.world.view::<&mut Position>();
        run.run(
            |from, to| {
                let p = view.get_mut(from).ok_or(from)?.0;
                view.get_mut(to).ok_or(to)?.0 = p;
                Ok(true)
            },
            |entity| self.missed(entity, false),
        )
    }

    fn simulate(&mut self, dt: f32) {
        for (p, v, a) in self
            .world
            .query_mut::<(&mut Position, &mut Velocity, &Acceleration)>()
        {
            PointMass::step(&mut p.0, &mut v.0, &a.0, dt);
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        let mut query = self
            .world
            .query::<(&Mass, &Position, &Velocity, &Acceleration)>();
        for (m, p, v, a) in query.iter() {
            f(&joined(m.0, p.0, v.0, a.0));
        }
    }

    fn entity_count(&self) -> usize {
        self.world.len() as usize
    }

    /// The rows of the archetypes holding `Mass` (a few archetypes, not one per entity).
    fn instance_count(&self) -> usize {
        self.world
            .archetypes()
            .filter(|a| a.has::<Mass>())
            .map(|a| a.len() as usize)
            .sum()
    }

    fn memory_bytes(&self) -> usize {
        self.instance_count() * size_of::<PointMass>() + self.entity_count() * 16
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    /// Every archetype holds the four components together or none of them.
    fn check_invariants(&self) -> Result<(), String> {
        for a in self.world.archetypes() {
            let held = [
                a.has::<Position>(),
                a.has::<Velocity>(),
                a.has::<Acceleration>(),
                a.has::<Mass>(),
            ];
            if held.iter().any(|&h| h != held[0]) {
                return Err(format!(
                    "an archetype of {} entities holds some of the point mass's components: {held:?}",
                    a.len()
                ));
            }
        }
        Ok(())
    }
}
