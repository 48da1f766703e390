//! Peer: `specs` with its three storages, almost exactly the article's three maps:
//! `VecStorage` (a `Vec` indexed by entity index, holes uninitialised: the direct index),
//! `DenseVecStorage` (a `Vec<u32>` index by entity index into packed data: the `Vec<u32>`
//! map) and `HashMapStorage` (a hash map from entity index to the component: the hash map).
//! A hierarchical bitset (`hibitset`) marks which entities have the component; `simulate` is a
//! `join` over it. Every call fetches the storage from the world (a runtime borrow), as specs
//! code outside a system does.
//!
//! Destruction: `delete_entity` removes the components at once (destroy callback). Memory: a
//! lower bound (specs does not report allocations): per instance the component plus the
//! storage's own index (VecStorage: a slot per entity index instead; DenseVecStorage: 4 + 4
//! bytes; HashMapStorage: 4 bytes of key), per live entity 4 bytes of generation. Allocator
//! calls are not observable (0).

use std::marker::PhantomData;

use specs::prelude::*;
use specs::storage::UnprotectedStorage;

use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField,
};

/// The specs version measured (every specs design's record).
const SPECS: ComponentDesignKind = ComponentDesignKind::Peer {
    crate_name: "specs",
    version: "0.20.0",
};

/// A point-mass component type for one specs storage.
pub trait SpecsMass: Component + Send + Sync + From<PointMass> {
    /// The design record.
    const INFO: ComponentDesignInfo;
    /// Bytes of the storage's own index per instance (the lower-bound memory estimate).
    const INDEX_BYTES_PER_INSTANCE: usize;
    /// The point mass.
    fn mass(&self) -> &PointMass;
    /// The point mass, mutably.
    fn mass_mut(&mut self) -> &mut PointMass;
}

macro_rules! specs_mass {
    ($name:ident, $storage:ident, $design:literal, $index_bytes:expr, $description:literal) => {
        #[doc = concat!("The point mass in a `specs::", stringify!($storage), "`.")]
        #[derive(Debug, Clone, Copy)]
        pub struct $name(pub PointMass);

        impl Component for $name {
            type Storage = $storage<Self>;
        }

        impl From<PointMass> for $name {
            fn from(m: PointMass) -> Self {
                Self(m)
            }
        }

        impl SpecsMass for $name {
            const INFO: ComponentDesignInfo = ComponentDesignInfo {
                name: $design,
                description: $description,
                kind: SPECS,
                destruction: Destruction::Callback,
                several_per_entity: false,
            };
            const INDEX_BYTES_PER_INSTANCE: usize = $index_bytes;
            fn mass(&self) -> &PointMass {
                &self.0
            }
            fn mass_mut(&mut self) -> &mut PointMass {
                &mut self.0
            }
        }
    };
}

specs_mass!(
    VecMass,
    VecStorage,
    "specs_vec",
    0,
    "specs VecStorage: components in a Vec indexed by entity index (the article's direct index), a bitset of which are set"
);
specs_mass!(
    DenseMass,
    DenseVecStorage,
    "specs_dense",
    8,
    "specs DenseVecStorage: a Vec<u32> by entity index into packed components (the article's Vec<u32> map)"
);
specs_mass!(
    HashMass,
    HashMapStorage,
    "specs_hash",
    4,
    "specs HashMapStorage: a hash map from entity index to the component (the article's hash map)"
);

/// A `specs::World` holding point masses in storage `C`.
pub struct SpecsPeer<C: SpecsMass> {
    world: World,
    live: usize,
    instances: usize,
    /// One past the largest entity index given a point mass (VecStorage's length).
    max_index: usize,
    _storage: PhantomData<C>,
}

impl<C: SpecsMass> SpecsPeer<C> {
    fn alive(&self, entity: Entity) -> bool {
        self.world.entities().is_alive(entity)
    }
}

impl<C: SpecsMass> ComponentStore for SpecsPeer<C>
where
    C::Storage: specs::storage::SharedGetMutStorage<C> + Default,
    for<'a> <C::Storage as UnprotectedStorage<C>>::AccessMut<'a>: std::ops::DerefMut<Target = C>,
{
    type Entity = Entity;
    const INFO: ComponentDesignInfo = C::INFO;

    fn new() -> Self {
        let mut world = World::new();
        world.register::<C>();
        Self {
            world,
            live: 0,
            instances: 0,
            max_index: 0,
            _storage: PhantomData,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        self.live += 1;
        Ok(self.world.create_entity().build())
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        let had = self.world.read_storage::<C>().contains(entity);
        self.world
            .delete_entity(entity)
            .map_err(|_| ComponentError::dead(entity))?;
        self.live -= 1;
        self.instances -= usize::from(had);
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        let mut storage = self.world.write_storage::<C>();
        if storage.contains(entity) {
            return Err(ComponentError::attached(entity));
        }
        storage
            .insert(entity, C::from(init))
            .map_err(|_| ComponentError::dead(entity))?;
        self.instances += 1;
        self.max_index = self.max_index.max(entity.id() as usize + 1);
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        let had = self.world.write_storage::<C>().remove(entity).is_some();
        self.instances -= usize::from(had);
        Ok(had)
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        Ok(self
            .world
            .read_storage::<C>()
            .get(entity)
            .map(|m| m.mass().position))
    }

    #[inline]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        Ok(match self.world.write_storage::<C>().get_mut(entity) {
            Some(mut m) => {
                *field.of(m.mass_mut()) = value;
                true
            }
            None => false,
        })
    }

    fn simulate(&mut self, dt: f32) {
        let mut storage = self.world.write_storage::<C>();
        for mut c in (&mut storage).join() {
            let m = c.mass_mut();
            PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
        }
    }

    fn destroy_step(&mut self) {}

    fn collect_all_garbage(&mut self) {}

    fn garbage(&self) -> usize {
        0
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for c in self.world.read_storage::<C>().join() {
            f(c.mass());
        }
    }

    fn entity_count(&self) -> usize {
        self.live
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        let data = if C::INDEX_BYTES_PER_INSTANCE == 0 {
            self.max_index * size_of::<C>()
        } else {
            self.instances * (size_of::<C>() + C::INDEX_BYTES_PER_INSTANCE)
        };
        data + self.live * size_of::<u32>()
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        let counted = self.world.read_storage::<C>().join().count();
        if counted != self.instances {
            return Err(format!(
                "{counted} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}

/// specs `VecStorage`.
pub type SpecsVec = SpecsPeer<VecMass>;
/// specs `DenseVecStorage`.
pub type SpecsDense = SpecsPeer<DenseMass>;
/// specs `HashMapStorage`.
pub type SpecsHash = SpecsPeer<HashMass>;
