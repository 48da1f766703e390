//! Peer: `specs` with its three storages, used as its documentation shows
//! (<https://docs.rs/specs/0.20.0/specs/trait.WorldExt.html>: `create_entity().with(..)`,
//! `read_storage`/`write_storage` fetched once per system run, `join` over storages). The
//! storages are almost exactly the article's three maps: `VecStorage` (a `Vec` indexed by
//! entity index, holes uninitialised: the direct index), `DenseVecStorage` (a `Vec<u32>` index
//! by entity index into packed data: the `Vec<u32>` map) and `HashMapStorage` (a hash map from
//! entity index to the component: the hash map). The point mass is four components,
//! [`Position`], [`Velocity`], [`Acceleration`] and [`Mass`], each in the design's storage;
//! a hierarchical bitset (`hibitset`) per storage marks which entities have it. An entity
//! attached at spawn is built with all four (`create_entity().with(..).build()`);
//! `simulate` fetches `WriteStorage<Position>`, `WriteStorage<Velocity>` and
//! `ReadStorage<Acceleration>` once and joins them (the bitsets intersected). A run of lookups
//! fetches `ReadStorage<Position>` once and calls `Storage::get` per entity (the bitset, the
//! entity's generation, the storage), a run of writes `WriteStorage<Velocity>` and `get_mut`,
//! a run of copies `WriteStorage<Position>`, `get` of the source and `get_mut` of the target
//! (the source's position copied out first, so a copy onto itself needs one storage); single
//! calls fetch the storage per call, as specs code outside a system does. The trade-off: the
//! storage picks the map per component type, but every access pays the bitset and the
//! generation check.
//!
//! The crate's answers carry the trait's errors: a storage's miss (dead, or without a point
//! mass) is told apart by the storage's own `fetched_entities().is_alive`, on the miss only.
//! `delete_entity` does not say whether the entity had a point mass, so `kill` reads the
//! `Mass` bitset first (the instance count; specs' own count walks the bitset). Destruction:
//! `delete_entity` removes the components at once (destroy callback). Memory: a lower bound
//! (specs does not report allocations): per instance the components plus the storages' own
//! indexes (VecStorage: a slot per entity index instead; DenseVecStorage: 4 + 4 bytes per
//! component; HashMapStorage: 4 bytes of key per component), per live entity 4 bytes of
//! generation. Allocator calls are not observable (0).
//!
//! Foreign entities: specs' `is_alive` says yes for an index its world never handed out (at
//! generation 1), and `delete_entity` of one then panics (debug) or corrupts the allocator,
//! `insert` grows `VecStorage` to the foreign index. So the adapter also remembers one past the
//! largest index its world handed out and refuses any other entity in every method that
//! changes the store (one compare, never in `position`/`write`, the timed lookups: those give
//! `Ok(None)`/`Ok(false)` for such an entity, as specs does, and change nothing).

use crate::DesignMeta;
use std::marker::PhantomData;

use specs::prelude::*;
use specs::storage::{AccessMut as _, SharedGetMutStorage};
use specs::world::EntitiesRes;

use super::joined;
use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, CopyRun, Destruction,
    PointMass, PositionRun, Refused, VectorField, VelocityRun,
};

/// The specs version measured (every specs design's record).
const SPECS: ComponentDesignKind = ComponentDesignKind::Peer {
    crate_name: "specs",
    version: "0.20.0",
    idiom: "World::create_entity().with(Position)...build() with the four components, a (WriteStorage<Position>, WriteStorage<Velocity>, ReadStorage<Acceleration>) join to simulate, ReadStorage<Position> fetched once per run of lookups, WriteStorage<Velocity> per run of writes and WriteStorage<Position> per run of copies",
    docs: "https://docs.rs/specs/0.20.0/specs/trait.WorldExt.html",
    adapter: "Per lookup, the closure wraps `Storage::get`'s `Option` in the trait's `Result<Option<[f32; 3]>, Refused>`, asking `is_alive` on a miss only to refuse a dead entity (a copy's closure answers the entity its storage missed, asked off the loop); methods that change the store refuse indices the world never handed out and keep counts. The family's loop also reads each op's kind, keeps its index for a refusal and walks ops and recorded entities as two slices, where the direct loop walks one; our designs pay that loop too.",
};

/// One of specs' storages, as the storage of all four point-mass components, and the record of
/// the design using it.
pub trait SpecsStorage: Send + Sync + 'static {
    /// The storage of component `T`.
    type Of<T: Send + Sync + 'static>: SharedGetMutStorage<T> + Default + Send + Sync + 'static;
    /// The design record.
    const INFO: ComponentDesignInfo;
    /// Bytes of the storage's own index per component held (the lower-bound memory
    /// estimate; 0: a slot per entity index instead).
    const INDEX_BYTES_PER_COMPONENT: usize;
}

macro_rules! specs_component {
    ($name:ident, $field:ty, $doc:literal) => {
        #[doc = $doc]
        pub struct $name<S>(pub $field, PhantomData<S>);

        impl<S> $name<S> {
            /// The component holding `value`.
            pub fn new(value: $field) -> Self {
                Self(value, PhantomData)
            }
        }

        impl<S: SpecsStorage> Component for $name<S> {
            type Storage = S::Of<Self>;
        }
    };
}

specs_component!(
    Position,
    [f32; 3],
    "[`PointMass::position`] in storage `S`."
);
specs_component!(
    Velocity,
    [f32; 3],
    "[`PointMass::velocity`] in storage `S`."
);
specs_component!(
    Acceleration,
    [f32; 3],
    "[`PointMass::acceleration`] in storage `S`."
);
specs_component!(Mass, f32, "[`PointMass::mass`] in storage `S`.");

macro_rules! specs_storage {
    ($marker:ident, $storage:ident, $design:literal, $index_bytes:expr, $description:literal) => {
        #[doc = concat!("The point mass's components in `specs::", stringify!($storage), "`s.")]
        pub struct $marker;

        impl SpecsStorage for $marker {
            type Of<T: Send + Sync + 'static> = $storage<T>;
            const INFO: ComponentDesignInfo = ComponentDesignInfo {
                meta: DesignMeta {
                    name: $design,
                    description: $description,
                    kind: SPECS,
                },
                destruction: Destruction::Callback,
                several_per_entity: false,
            };
            const INDEX_BYTES_PER_COMPONENT: usize = $index_bytes;
        }
    };
}

specs_storage!(
    InVec,
    VecStorage,
    "specs_vec",
    0,
    "specs VecStorage as its docs show: Position/Velocity/Acceleration/Mass each in a Vec indexed by entity index (the article's direct index) with a bitset, create_entity().with(..), simulate a join over three, storages fetched once per run of lookups/writes/copies"
);
specs_storage!(
    InDenseVec,
    DenseVecStorage,
    "specs_dense",
    8,
    "specs DenseVecStorage as its docs show: each component in packed data behind a Vec<u32> by entity index (the article's Vec<u32> map), create_entity().with(..), simulate a join over three, storages fetched once per run"
);
specs_storage!(
    InHashMap,
    HashMapStorage,
    "specs_hash",
    4,
    "specs HashMapStorage as its docs show: each component in a hash map from entity index (the article's hash map), create_entity().with(..), simulate a join over three, storages fetched once per run"
);

/// A `specs::World` holding point masses as four components in storage `S`.
pub struct SpecsPeer<S: SpecsStorage> {
    world: World,
    live: usize,
    instances: usize,
    /// One past the largest entity index given a point mass (VecStorage's length).
    max_index: usize,
    /// One past the largest entity index the world handed out: specs' `is_alive` holds for
    /// every index past it (see the module docs).
    spawned_end: u32,
    _storage: PhantomData<S>,
}

impl<S: SpecsStorage> SpecsPeer<S> {
    /// The world (the `ref-direct-specs_*` loops fetch their storages from it directly).
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, uniquely borrowed (the `ref-direct-specs_*` loops of a mixed body create
    /// and delete entities through it). Calls through it bypass the adapter's counts and its
    /// record of the indices handed out, so [`ComponentStore::entity_count`] and
    /// [`ComponentStore::instance_count`] are stale after them; [`ComponentStore::visit`]
    /// reads the storages themselves.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    fn alive(&self, entity: Entity) -> bool {
        self.world.entities().is_alive(entity)
    }

    /// [`alive`](Self::alive), and handed out by this world: the check of every method that
    /// changes the store.
    fn alive_here(&self, entity: Entity) -> bool {
        entity.id() < self.spawned_end && self.alive(entity)
    }

    /// The bookkeeping of a point mass given to `entity`.
    fn attached(&mut self, entity: Entity) {
        self.instances += 1;
        self.max_index = self.max_index.max(entity.id() as usize + 1);
    }
}

/// The answer for an entity a storage fetched with `entities` found no component of: dead
/// ([`Refused`]; the single-op methods make it [`ComponentError::DeadEntity`]), or alive
/// without a point mass.
#[cold]
fn missed<T>(entities: &EntitiesRes, entity: Entity, without: T) -> Result<T, Refused> {
    match entities.is_alive(entity) {
        true => Ok(without),
        false => Err(Refused),
    }
}

impl<S: SpecsStorage> ComponentStore for SpecsPeer<S> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = S::INFO;

    fn new() -> Self {
        let mut world = World::new();
        world.register::<Position<S>>();
        world.register::<Velocity<S>>();
        world.register::<Acceleration<S>>();
        world.register::<Mass<S>>();
        Self {
            world,
            live: 0,
            instances: 0,
            max_index: 0,
            spawned_end: 0,
            _storage: PhantomData,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        let entity = self.world.create_entity().build();
        self.live += 1;
        self.spawned_end = self.spawned_end.max(entity.id().saturating_add(1));
        Ok(entity)
    }

    fn spawn_with(&mut self, init: PointMass) -> Result<Entity, ComponentError> {
        let entity = self
            .world
            .create_entity()
            .with(Position::<S>::new(init.position))
            .with(Velocity::<S>::new(init.velocity))
            .with(Acceleration::<S>::new(init.acceleration))
            .with(Mass::<S>::new(init.mass))
            .build();
        self.live += 1;
        self.spawned_end = self.spawned_end.max(entity.id().saturating_add(1));
        self.attached(entity);
        Ok(entity)
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        if !self.alive_here(entity) {
            return Err(ComponentError::dead(entity));
        }
        let had = self.world.read_storage::<Mass<S>>().contains(entity);
        self.world
            .delete_entity(entity)
            .map_err(|_| ComponentError::dead(entity))?;
        self.live -= 1;
        self.instances -= usize::from(had);
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        if !self.alive_here(entity) {
            return Err(ComponentError::dead(entity));
        }
        // `insert` would overwrite a point mass (and hand the old one back): refuse first.
        if self.world.read_storage::<Mass<S>>().contains(entity) {
            return Err(ComponentError::attached(entity));
        }
        let dead = |_| ComponentError::dead(entity);
        self.world
            .write_storage()
            .insert(entity, Position::<S>::new(init.position))
            .map_err(dead)?;
        self.world
            .write_storage()
            .insert(entity, Velocity::<S>::new(init.velocity))
            .map_err(dead)?;
        self.world
            .write_storage()
            .insert(entity, Acceleration::<S>::new(init.acceleration))
            .map_err(dead)?;
        self.world
            .write_storage()
            .insert(entity, Mass::<S>::new(init.mass))
            .map_err(dead)?;
        self.attached(entity);
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        if !self.alive_here(entity) {
            return Err(ComponentError::dead(entity));
        }
        self.world.write_storage::<Position<S>>().remove(entity);
        self.world.write_storage::<Velocity<S>>().remove(entity);
        self.world.write_storage::<Acceleration<S>>().remove(entity);
        let had = self
            .world
            .write_storage::<Mass<S>>()
            .remove(entity)
            .is_some();
        self.instances -= usize::from(had);
        Ok(had)
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        let positions = self.world.read_storage::<Position<S>>();
        match positions.get(entity) {
            Some(p) => Ok(Some(p.0)),
            None => missed(positions.fetched_entities(), entity, None)
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    #[inline]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        let found = match field {
            VectorField::Position => {
                let mut positions = self.world.write_storage::<Position<S>>();
                positions
                    .get_mut(entity)
                    .map(|mut p| p.access_mut().0 = value)
                    .is_some()
            }
            VectorField::Velocity => {
                let mut velocities = self.world.write_storage::<Velocity<S>>();
                velocities
                    .get_mut(entity)
                    .map(|mut v| v.access_mut().0 = value)
                    .is_some()
            }
        };
        match found {
            true => Ok(true),
            false => missed(&self.world.entities(), entity, false)
                .map_err(|_| ComponentError::dead(entity)),
        }
    }

    /// One `ReadStorage<Position>` for the run (with the `Entities` it fetched), `get` per
    /// entity; `is_alive` only for an entity the storage missed, off the run's loop.
    #[inline]
    fn read_positions<R: PositionRun<Entity>>(&self, run: R) -> R::Output {
        let positions = self.world.read_storage::<Position<S>>();
        run.run(
            |entity| positions.get(entity).map(|p| Some(p.0)).ok_or(Refused),
            |entity| missed(positions.fetched_entities(), entity, None),
        )
    }

    /// One `WriteStorage<Velocity>` for the run, `get_mut` per entity.
    #[inline]
    fn write_velocities<R: VelocityRun<Entity>>(&mut self, run: R) -> R::Output {
        let mut velocities = self.world.write_storage::<Velocity<S>>();
        run.run(|entity, value| {
            let found = velocities
                .get_mut(entity)
                .map(|mut v| v.access_mut().0 = value)
                .is_some();
            match found {
                true => Ok(true),
                false => missed(velocities.fetched_entities(), entity, false),
            }
        })
    }

    /// One `WriteStorage<Position>` for the run, `get` of `from` (its position copied out)
    /// then `get_mut` of `to`; a miss answers the entity missed, and `is_alive` is asked of it
    /// off the run's loop (on the world's `Entities`, fetched then: the storage is the copy
    /// closure's).
    #[inline]
    fn copy_positions<R: CopyRun<Entity>>(&mut self, run: R) -> R::Output {
        let world = &self.world;
        let mut positions = world.write_storage::<Position<S>>();
        run.run(
            |from, to| {
                let p = positions.get(from).ok_or(from)?.0;
                positions.get_mut(to).ok_or(to)?.access_mut().0 = p;
                Ok(true)
            },
            |entity| missed(&world.entities(), entity, false),
        )
    }

    fn simulate(&mut self, dt: f32) {
        let mut positions = self.world.write_storage::<Position<S>>();
        let mut velocities = self.world.write_storage::<Velocity<S>>();
        let accelerations = self.world.read_storage::<Acceleration<S>>();
        for (mut p, mut v, a) in (&mut positions, &mut velocities, &accelerations).join() {
            PointMass::step(&mut p.access_mut().0, &mut v.access_mut().0, &a.0, dt);
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        let masses = self.world.read_storage::<Mass<S>>();
        let positions = self.world.read_storage::<Position<S>>();
        let velocities = self.world.read_storage::<Velocity<S>>();
        let accelerations = self.world.read_storage::<Acceleration<S>>();
        for (m, p, v, a) in (&masses, &positions, &velocities, &accelerations).join() {
            f(&joined(m.0, p.0, v.0, a.0));
        }
    }

    fn entity_count(&self) -> usize {
        self.live
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        let data = if S::INDEX_BYTES_PER_COMPONENT == 0 {
            self.max_index * size_of::<PointMass>()
        } else {
            self.instances * (size_of::<PointMass>() + 4 * S::INDEX_BYTES_PER_COMPONENT)
        };
        data + self.live * size_of::<u32>()
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    /// The four storages hold the same entities, as many as the counter says.
    fn check_invariants(&self) -> Result<(), String> {
        let counts = [
            self.world.read_storage::<Position<S>>().count(),
            self.world.read_storage::<Velocity<S>>().count(),
            self.world.read_storage::<Acceleration<S>>().count(),
            self.world.read_storage::<Mass<S>>().count(),
        ];
        let mut all = 0;
        self.visit(|_| all += 1);
        if counts.iter().any(|&c| c != all) || all != self.instances {
            return Err(format!(
                "storages of {counts:?} components, {all} entities hold all four, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}

/// specs `VecStorage`.
pub type SpecsVec = SpecsPeer<InVec>;
/// specs `DenseVecStorage`.
pub type SpecsDense = SpecsPeer<InDenseVec>;
/// specs `HashMapStorage`.
pub type SpecsHash = SpecsPeer<InHashMap>;
