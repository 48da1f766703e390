//! Peer: `bevy_ecs` (behind the `bevy` cargo feature, off by default: its build is the
//! heaviest of the peers), used as its documentation shows
//! (<https://docs.rs/bevy_ecs/0.16.1/bevy_ecs/system/struct.Query.html>: a `Query` over the
//! components a system needs, `Query::get` for random access; outside a schedule, the
//! `QueryState` a system caches, from `World::query`). The point mass is four components,
//! [`Position`], [`Velocity`], [`Acceleration`] and [`Mass`]; an entity attached at spawn is
//! spawned with all four (`World::spawn((p, v, a, m))`). Two designs, one per storage bevy
//! offers a component:
//!
//! * [`BevyTable`] (`bevy_table`): the default **table** storage, archetype tables like
//!   `hecs` (an entity without a point mass sits in the empty archetype; attaching or
//!   detaching moves it between tables).
//! * [`BevySparse`] (`bevy_sparse`): **sparse-set** storage (`StorageType::SparseSet`), like
//!   `shipyard`: a sparse index array per component type plus dense arrays; attaching does
//!   not move the entity's table row.
//!
//! `simulate` runs a cached `QueryState<(&mut Position, &mut Velocity, &Acceleration)>` (change
//! ticks are written as bevy always does). A run of lookups takes the cached
//! `QueryState<&Position>`'s `Query` once (its archetypes brought up to date, as a system's
//! are each run) and calls `Query::get` per entity, whose error says whether the entity is
//! dead or lacks the component; a run of writes does the same with `&mut Velocity` and
//! `get_mut`, a run of copies with `&mut Position`, `Query::get` of the source (its position
//! copied out, so a copy onto itself needs one query) and `get_mut` of the target. Single
//! calls use `World::get_entity`. Destruction: `despawn`
//! removes the components at once (the destroy-callback strategy). Memory: bevy does not
//! report its allocations; [`ComponentStore::memory_bytes`] is a lower bound, 40 bytes per
//! instance plus 16 per live entity (its location record), without spare capacity or change
//! ticks. Allocator calls are not observable (0).

use crate::DesignMeta;
use std::cell::RefCell;
use std::marker::PhantomData;

use bevy_ecs::component::{Component, Mutable, StorageType};
use bevy_ecs::entity::Entity;
use bevy_ecs::query::{QueryEntityError, QueryState};
use bevy_ecs::system::Query;
use bevy_ecs::world::World;

use super::joined;
use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, CopyRun, Destruction,
    PointMass, PositionRun, Refused, VectorField, VelocityRun,
};

/// The `bevy_ecs` version the designs are built against.
const VERSION: &str = "0.16.1";
/// How both bevy designs use the crate (their `DesignKind::Peer::idiom`).
const IDIOM: &str = "World::spawn((Position, Velocity, Acceleration, Mass)), a cached QueryState<(&mut Position, &mut Velocity, &Acceleration)> to simulate, QueryState<&Position>::query once per run of lookups, QueryState<&mut Velocity> per run of writes and QueryState<&mut Position> per run of copies, Query::get per entity";
/// The documentation page the idiom follows.
const DOCS: &str = "https://docs.rs/bevy_ecs/0.16.1/bevy_ecs/query/struct.QueryState.html";
/// What both bevy designs' adapter adds per op (their `DesignKind::Peer::adapter`).
const ADAPTER: &str = "Per lookup, the closure wraps `Query::get`'s `Result` in the trait's `Result<Option<[f32; 3]>, Refused>`, reading its `QueryEntityError` to refuse a dead entity (no extra call); spawns and kills keep counts, `attach` checks `contains::<Mass>` first. The family's loop also reads each op's kind, keeps its index for a refusal and walks ops and recorded entities as two slices, where the direct loop walks one; our designs pay that loop too.";

/// The record of a bevy design: its name and description, the crate's idiom, and the destroy
/// callback (`despawn`) both storages share.
const fn info(name: &'static str, description: &'static str) -> ComponentDesignInfo {
    ComponentDesignInfo {
        meta: DesignMeta {
            name,
            description,
            kind: ComponentDesignKind::Peer {
                crate_name: "bevy_ecs",
                version: VERSION,
                idiom: IDIOM,
                docs: DOCS,
                adapter: ADAPTER,
            },
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    }
}

/// A storage bevy offers a component, for all four point-mass components, and the record of
/// the design using it.
pub trait BevyStorage: Send + Sync + 'static {
    /// Where bevy keeps the components.
    const STORAGE: StorageType;
    /// The design record.
    const INFO: ComponentDesignInfo;
}

/// The four components in table storage.
pub struct InTable;

impl BevyStorage for InTable {
    const STORAGE: StorageType = StorageType::Table;
    const INFO: ComponentDesignInfo = info(
        "bevy_table",
        "bevy_ecs::World as its docs show, table storage (archetype tables): Position/Velocity/Acceleration/Mass components, spawn with the bundle, simulate a cached QueryState over three, Query::get on a query taken once per run of lookups/writes/copies; despawn removes at once (cargo feature `bevy`)",
    );
}

/// The four components in sparse-set storage.
pub struct InSparseSet;

impl BevyStorage for InSparseSet {
    const STORAGE: StorageType = StorageType::SparseSet;
    const INFO: ComponentDesignInfo = info(
        "bevy_sparse",
        "bevy_ecs::World as its docs show, sparse-set storage: Position/Velocity/Acceleration/Mass components, spawn with the bundle, simulate a cached QueryState over three, Query::get on a query taken once per run of lookups/writes/copies; despawn removes at once (cargo feature `bevy`)",
    );
}

macro_rules! bevy_component {
    ($name:ident, $field:ty, $doc:literal) => {
        #[doc = $doc]
        pub struct $name<S>(pub $field, PhantomData<S>);

        impl<S> $name<S> {
            /// The component holding `value`.
            pub fn new(value: $field) -> Self {
                Self(value, PhantomData)
            }
        }

        impl<S: BevyStorage> Component for $name<S> {
            const STORAGE_TYPE: StorageType = S::STORAGE;
            type Mutability = Mutable;
        }
    };
}

bevy_component!(
    Position,
    [f32; 3],
    "[`PointMass::position`] in storage `S`."
);
bevy_component!(
    Velocity,
    [f32; 3],
    "[`PointMass::velocity`] in storage `S`."
);
bevy_component!(
    Acceleration,
    [f32; 3],
    "[`PointMass::acceleration`] in storage `S`."
);
bevy_component!(Mass, f32, "[`PointMass::mass`] in storage `S`.");

/// The four components of a point mass in storage `S`.
type Bundle<S> = (Position<S>, Velocity<S>, Acceleration<S>, Mass<S>);

fn bundle<S: BevyStorage>(m: PointMass) -> Bundle<S> {
    (
        Position::new(m.position),
        Velocity::new(m.velocity),
        Acceleration::new(m.acceleration),
        Mass::new(m.mass),
    )
}

/// The query `simulate` runs (the `ref-direct-bevy_*` simulate loops take their `Query`
/// from the same cached state, [`BevyPeer::step_query`]).
pub type Step<S> = (
    &'static mut Position<S>,
    &'static mut Velocity<S>,
    &'static Acceleration<S>,
);

/// A `bevy_ecs::World` holding point masses as four components in storage `S`.
pub struct BevyPeer<S: BevyStorage> {
    world: World,
    /// The simulate query, built once.
    step: QueryState<Step<S>>,
    /// The lookup query, built once; in a cell because a run of lookups reads the store
    /// through `&self` and a query brings its archetypes up to date first.
    positions: RefCell<QueryState<&'static Position<S>>>,
    /// The velocity-write query, built once.
    velocities: QueryState<&'static mut Velocity<S>>,
    /// The position-copy query, built once.
    copies: QueryState<&'static mut Position<S>>,
    /// Entities with a point mass.
    instances: usize,
    /// Live entities.
    entities: usize,
}

/// `bevy_ecs` with table storage.
pub type BevyTable = BevyPeer<InTable>;
/// `bevy_ecs` with sparse-set storage.
pub type BevySparse = BevyPeer<InSparseSet>;

impl<S: BevyStorage> BevyPeer<S> {
    /// The world (the `ref-direct-bevy_*` loops read it directly).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, uniquely borrowed (the `ref-direct-bevy_*` loops of a mixed body spawn and
    /// despawn entities through it). Calls through it bypass the adapter's counts, so
    /// [`ComponentStore::entity_count`] and [`ComponentStore::instance_count`] are stale after
    /// them; [`ComponentStore::visit`] reads the world itself.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The cached `QueryState<&mut Velocity>`'s `Query` on the world, as a system writing
    /// velocities gets it (a run of writes uses it; the `ref-direct-bevy_*` loops write
    /// through it).
    pub fn velocity_query(&mut self) -> Query<'_, '_, &'static mut Velocity<S>> {
        self.velocities.query_mut(&mut self.world)
    }

    /// The cached `QueryState<&Position>` a run of lookups queries the world through (what a
    /// system caches; the `ref-direct-bevy_*` loops take their `Query` from it).
    pub fn position_query(&self) -> std::cell::RefMut<'_, QueryState<&'static Position<S>>> {
        self.positions.borrow_mut()
    }

    /// The cached `QueryState<&mut Position>`'s `Query` on the world, as a system copying
    /// positions gets it (a run of copies uses it; the `ref-direct-bevy_*` loops copy through
    /// it).
    pub fn copy_query(&mut self) -> Query<'_, '_, &'static mut Position<S>> {
        self.copies.query_mut(&mut self.world)
    }

    /// The cached simulate `QueryState`'s `Query` on the world, as a system stepping point
    /// masses gets it each run (the `ref-direct-bevy_*` simulate loops iterate it).
    pub fn step_query(&mut self) -> Query<'_, '_, Step<S>> {
        self.step.query_mut(&mut self.world)
    }
}

/// A run's answer for an entity a query did not match: dead ([`Refused`]), or alive without a
/// point mass.
#[cold]
fn missed<T>(error: QueryEntityError, without: T) -> Result<T, Refused> {
    match error {
        QueryEntityError::EntityDoesNotExist(_) => Err(Refused),
        _ => Ok(without),
    }
}

impl<S: BevyStorage> ComponentStore for BevyPeer<S> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = S::INFO;

    fn new() -> Self {
        let mut world = World::new();
        let step = world.query::<Step<S>>();
        let positions = RefCell::new(world.query::<&Position<S>>());
        let velocities = world.query::<&mut Velocity<S>>();
        let copies = world.query::<&mut Position<S>>();
        Self {
            world,
            step,
            positions,
            velocities,
            copies,
            instances: 0,
            entities: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        self.entities += 1;
        Ok(self.world.spawn_empty().id())
    }

    fn spawn_with(&mut self, init: PointMass) -> Result<Entity, ComponentError> {
        self.entities += 1;
        self.instances += 1;
        Ok(self.world.spawn(bundle::<S>(init)).id())
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let Ok(e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        // `despawn` does not say what it removed: the located entity's archetype tells.
        self.instances -= usize::from(e.contains::<Mass<S>>());
        e.despawn();
        self.entities -= 1;
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        let Ok(mut e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        // `insert` would replace a point mass silently.
        if e.contains::<Mass<S>>() {
            return Err(ComponentError::attached(entity));
        }
        e.insert(bundle::<S>(init));
        self.instances += 1;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let Ok(mut e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        let found = e.take::<Bundle<S>>().is_some();
        self.instances -= usize::from(found);
        Ok(found)
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get_entity(entity) {
            Ok(e) => Ok(e.get::<Position<S>>().map(|p| p.0)),
            Err(_) => Err(ComponentError::dead(entity)),
        }
    }

    #[inline]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        let Ok(mut e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        let found = match field {
            VectorField::Position => e.get_mut::<Position<S>>().map(|mut p| p.0 = value),
            VectorField::Velocity => e.get_mut::<Velocity<S>>().map(|mut v| v.0 = value),
        };
        Ok(found.is_some())
    }

    /// One `Query<&Position>` for the run, `Query::get` per entity.
    #[inline]
    fn read_positions<R: PositionRun<Entity>>(&self, run: R) -> R::Output {
        let mut state = self.positions.borrow_mut();
        let query = state.query(&self.world);
        // The query's error already tells a dead entity from one without a position: the
        // run's loop answers every lookup, and a refusal stands.
        run.run(
            |entity| match query.get(entity) {
                Ok(p) => Ok(Some(p.0)),
                Err(error) => missed(error, None),
            },
            |_| Err(Refused),
        )
    }

    /// One `Query<&mut Velocity>` for the run, `Query::get_mut` per entity.
    #[inline]
    fn write_velocities<R: VelocityRun<Entity>>(&mut self, run: R) -> R::Output {
        let mut query = self.velocity_query();
        run.run(|entity, value| match query.get_mut(entity) {
            Ok(mut v) => {
                v.0 = value;
                Ok(true)
            }
            Err(error) => missed(error, false),
        })
    }

    /// One `Query<&mut Position>` for the run, `Query::get` of `from` (its position copied
    /// out) then `Query::get_mut` of `to`; the query's error already tells a dead entity from
    /// one without a position, so the run's loop answers every copy.
    #[inline]
    fn copy_positions<R: CopyRun<Entity>>(&mut self, run: R) -> R::Output {
        let mut query = self.copy_query();
        run.run(
            |from, to| {
                let p = match query.get(from) {
                    Ok(p) => p.0,
                    Err(error) => return missed(error, false),
                };
                match query.get_mut(to) {
                    Ok(mut q) => {
                        q.0 = p;
                        Ok(true)
                    }
                    Err(error) => missed(error, false),
                }
            },
            Err,
        )
    }

    fn simulate(&mut self, dt: f32) {
        for (mut p, mut v, a) in self.step.iter_mut(&mut self.world) {
            PointMass::step(&mut p.0, &mut v.0, &a.0, dt);
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for e in self.world.iter_entities() {
            if let (Some(m), Some(p), Some(v), Some(a)) = (
                e.get::<Mass<S>>(),
                e.get::<Position<S>>(),
                e.get::<Velocity<S>>(),
                e.get::<Acceleration<S>>(),
            ) {
                f(&joined(m.0, p.0, v.0, a.0));
            }
        }
    }

    fn entity_count(&self) -> usize {
        self.entities
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        self.instances * size_of::<PointMass>() + self.entities * 16
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    /// The counters agree with the world, and an entity holds all four components or none.
    fn check_invariants(&self) -> Result<(), String> {
        let (mut entities, mut counted) = (0, 0);
        for e in self.world.iter_entities() {
            entities += 1;
            let held = [
                e.contains::<Position<S>>(),
                e.contains::<Velocity<S>>(),
                e.contains::<Acceleration<S>>(),
                e.contains::<Mass<S>>(),
            ];
            if held.iter().any(|&h| h != held[0]) {
                return Err(format!(
                    "{:?} holds some of the four components: {held:?}",
                    e.id()
                ));
            }
            counted += usize::from(held[0]);
        }
        if counted != self.instances || entities != self.entities {
            return Err(format!(
                "{entities} entities and {counted} point masses, counters say {} and {}",
                self.entities, self.instances
            ));
        }
        Ok(())
    }
}
