//! Peer: `shipyard`, a sparse-set ECS, used as its documentation shows
//! (<https://docs.rs/shipyard/0.11.5/shipyard/struct.World.html>: `add_entity`, `borrow`,
//! `run`, and the `Get` trait on views). Each component type has a sparse set: a sparse array
//! indexed by entity index pointing into a dense array of entity ids and a dense array of
//! components (the article's `Vec<u32>` map with packed data, in a crate). The point mass is
//! four components, [`Position`], [`Velocity`], [`Acceleration`] and [`Mass`]; an entity
//! attached at spawn is added with all four (`add_entity((p, v, a, m))`). `simulate` is a
//! system (`World::run`) over `ViewMut<Position>`, `ViewMut<Velocity>` and
//! `View<Acceleration>`, iterated together (shipyard walks the shortest dense array and looks
//! the others up by sparse index). A run of lookups borrows `View<Position>` once
//! (`World::borrow`) and calls `Get::get` per entity (a sparse read and a dense read), a run
//! of writes `ViewMut<Velocity>`, a run of copies `ViewMut<Position>` (`Get::get` through
//! `&ViewMut` for the source, through `&mut ViewMut` for the target, the source's position
//! copied out first so a copy onto itself needs one view); single calls use `World::get`. The
//! trade-off against archetypes: attaching never moves other components, but a query over
//! several components joins sparse sets instead of walking shared rows.
//!
//! The crate's answers carry the trait's errors: `delete_entity` says whether the entity was
//! alive; a miss of a view, of `World::get` or of `remove` (dead, or without a point mass) is
//! told apart by `EntitiesView::is_alive`, on the miss only. Destruction: `delete_entity`
//! removes the components at once (destroy callback). Instances are the `Mass` sparse set's
//! length. Memory: a lower bound (shipyard reports its storages only through `Debug`): per
//! instance the components and their four dense entity ids (72 bytes), per live entity its
//! entity-list slot and four sparse-array slots, without spare capacity or sparse pages.
//! Allocator calls are not observable (0).

use crate::DesignMeta;
use shipyard::{EntitiesView, EntityId, Get, IntoIter, View, ViewMut, World};

use super::{Acceleration, Mass, Position, Velocity, joined, split};
use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, CopyRun, Destruction,
    PointMass, PositionRun, Refused, VectorField, VelocityRun,
};

macro_rules! untracked_component {
    ($($name:ident),*) => {
        $(impl shipyard::Component for $name {
            type Tracking = shipyard::track::Untracked;
        })*
    };
}

// No insertion/modification tracking: the components are plain data, as in the docs' examples.
untracked_component!(Position, Velocity, Acceleration, Mass);

/// A `shipyard::World` holding point masses as four components.
pub struct ShipyardPeer {
    world: World,
    /// Live entities (shipyard has no O(1) count).
    live: usize,
}

impl ShipyardPeer {
    /// The world (the `ref-direct-shipyard` loops borrow their views from it directly).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, uniquely borrowed (the `ref-direct-shipyard` loop of a mixed body adds and
    /// deletes entities through it). Calls through it bypass the live count, so
    /// [`ComponentStore::entity_count`] is stale after them; [`ComponentStore::visit`] reads
    /// the world itself.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    fn alive(&self, entity: EntityId) -> bool {
        self.world
            .borrow::<EntitiesView>()
            .is_ok_and(|e| e.is_alive(entity))
    }

    /// The answer for an entity the crate found no component of: dead ([`Refused`]; the
    /// single-op methods make it [`ComponentError::DeadEntity`]), or alive without a point
    /// mass.
    #[cold]
    fn missed<T>(&self, entity: EntityId, without: T) -> Result<T, Refused> {
        match self.alive(entity) {
            true => Ok(without),
            false => Err(Refused),
        }
    }
}

impl ComponentStore for ShipyardPeer {
    type Entity = EntityId;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "shipyard",
            description: "shipyard::World as its docs show: Position/Velocity/Acceleration/Mass components (a sparse set each), add_entity with the bundle, simulate a system over three views, View borrowed once per run of lookups/writes/copies; delete_entity removes at once",
            kind: ComponentDesignKind::Peer {
                crate_name: "shipyard",
                version: "0.11.5",
                idiom: "World::add_entity((Position, Velocity, Acceleration, Mass)), a system over (ViewMut<Position>, ViewMut<Velocity>, View<Acceleration>) to simulate, View<Position> borrowed once per run of lookups, ViewMut<Velocity> per run of writes and ViewMut<Position> per run of copies",
                docs: "https://docs.rs/shipyard/0.11.5/shipyard/struct.World.html",
                adapter: "Per lookup, the closure wraps `Get::get`'s `Result` in the trait's `Result<Option<[f32; 3]>, Refused>`, asking `EntitiesView::is_alive` on a miss only to refuse a dead entity (a copy's closure answers the entity its view missed, asked off the loop); `spawn`/`kill` keep a live count, `attach` checks `is_alive` and `World::get::<&Mass>` first. The family's loop also reads each op's kind, keeps its index for a refusal and walks ops and recorded entities as two slices, where the direct loop walks one; our designs pay that loop too.",
            },
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            world: World::new(),
            live: 0,
        }
    }

    fn spawn(&mut self) -> Result<EntityId, ComponentError> {
        self.live += 1;
        Ok(self.world.add_entity(()))
    }

    fn spawn_with(&mut self, init: PointMass) -> Result<EntityId, ComponentError> {
        self.live += 1;
        Ok(self.world.add_entity(split(init)))
    }

    fn kill(&mut self, entity: EntityId) -> Result<(), ComponentError> {
        if !self.world.delete_entity(entity) {
            return Err(ComponentError::dead(entity));
        }
        self.live -= 1;
        Ok(())
    }

    fn attach(&mut self, entity: EntityId, init: PointMass) -> Result<(), ComponentError> {
        // `add_component` replaces a component silently and ignores a dead entity.
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        if self.world.get::<&Mass>(entity).is_ok() {
            return Err(ComponentError::attached(entity));
        }
        self.world.add_component(entity, split(init));
        Ok(())
    }

    fn detach(&mut self, entity: EntityId) -> Result<bool, ComponentError> {
        match self
            .world
            .remove::<(Position, Velocity, Acceleration, Mass)>(entity)
        {
            (_, _, _, Some(_)) => Ok(true),
            _ => self
                .missed(entity, false)
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    #[inline]
    fn position(&self, entity: EntityId) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get::<&Position>(entity) {
            Ok(p) => Ok(Some(p.0)),
            Err(_) => self
                .missed(entity, None)
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    #[inline]
    fn write(
        &mut self,
        entity: EntityId,
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
            Err(_) => self
                .missed(entity, false)
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    /// One `View<Position>` for the run, `Get::get` per entity; `EntitiesView::is_alive` only
    /// for an entity the view missed, off the run's loop.
    #[inline]
    fn read_positions<R: PositionRun<EntityId>>(&self, run: R) -> R::Output {
        let Ok(positions) = self.world.borrow::<View<Position>>() else {
            // Only while another borrow holds the storage mutably, which this store never
            // leaves behind: the per-call path answers the same.
            return run.run(
                |entity| self.position(entity),
                |entity| self.position(entity),
            );
        };
        run.run(
            |entity| {
                (&positions)
                    .get(entity)
                    .map(|p| Some(p.0))
                    .map_err(|_| Refused)
            },
            |entity| self.missed(entity, None),
        )
    }

    /// One `ViewMut<Velocity>` for the run, `Get::get` per entity.
    #[inline]
    fn write_velocities<R: VelocityRun<EntityId>>(&mut self, run: R) -> R::Output {
        let this = &*self;
        let Ok(mut velocities) = this.world.borrow::<ViewMut<Velocity>>() else {
            return run.run(
                |entity, value| match this.world.get::<&mut Velocity>(entity) {
                    Ok(mut v) => {
                        v.0 = value;
                        Ok(true)
                    }
                    Err(_) => this.missed(entity, false),
                },
            );
        };
        run.run(|entity, value| match (&mut velocities).get(entity) {
            Ok(mut v) => {
                v.0 = value;
                Ok(true)
            }
            Err(_) => this.missed(entity, false),
        })
    }

    /// One `ViewMut<Position>` for the run, `Get::get` of `from` (its position copied out)
    /// then of `to`; a miss answers the entity missed, and `EntitiesView::is_alive` is asked
    /// of it off the run's loop.
    #[inline]
    fn copy_positions<R: CopyRun<EntityId>>(&mut self, run: R) -> R::Output {
        let this = &*self;
        let Ok(mut positions) = this.world.borrow::<ViewMut<Position>>() else {
            // Only while another borrow holds the storage, which this store never leaves
            // behind: the per-call path (`World::get`) answers the same.
            return run.run(
                |from, to| {
                    let p = this.world.get::<&Position>(from).map_err(|_| from)?.0;
                    this.world.get::<&mut Position>(to).map_err(|_| to)?.0 = p;
                    Ok(true)
                },
                |entity| this.missed(entity, false),
            );
        };
        run.run(
            |from, to| {
                let p = (&positions).get(from).map_err(|_| from)?.0;
                (&mut positions).get(to).map_err(|_| to)?.0 = p;
                Ok(true)
            },
            |entity| this.missed(entity, false),
        )
    }

    fn simulate(&mut self, dt: f32) {
        self.world.run(
            |mut p: ViewMut<Position>, mut v: ViewMut<Velocity>, a: View<Acceleration>| {
                for (p, v, a) in (&mut p, &mut v, &a).iter() {
                    PointMass::step(&mut p.0, &mut v.0, &a.0, dt);
                }
            },
        );
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        self.world.run(
            |m: View<Mass>, p: View<Position>, v: View<Velocity>, a: View<Acceleration>| {
                for (m, p, v, a) in (&m, &p, &v, &a).iter() {
                    f(&joined(m.0, p.0, v.0, a.0));
                }
            },
        );
    }

    fn entity_count(&self) -> usize {
        self.live
    }

    /// The `Mass` sparse set's length.
    fn instance_count(&self) -> usize {
        self.world.borrow::<View<Mass>>().map_or(0, |m| m.len())
    }

    fn memory_bytes(&self) -> usize {
        self.instance_count() * (size_of::<PointMass>() + 4 * size_of::<EntityId>())
            + self.live * (size_of::<EntityId>() + 4 * size_of::<u32>())
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    /// The four sparse sets hold the same entities.
    fn check_invariants(&self) -> Result<(), String> {
        self.world.run(
            |m: View<Mass>, p: View<Position>, v: View<Velocity>, a: View<Acceleration>| {
                let lengths = [m.len(), p.len(), v.len(), a.len()];
                let joined = (&m, &p, &v, &a).iter().count();
                if lengths.iter().any(|&l| l != joined) {
                    return Err(format!(
                        "sparse sets of {lengths:?} components, {joined} entities hold all four"
                    ));
                }
                Ok(())
            },
        )
    }
}
