//! Peer: `bevy_ecs` (behind the `bevy` cargo feature, off by default: its build is the
//! heaviest of the peers). Two designs, one per storage bevy offers a component:
//!
//! * [`BevyTable`] (`bevy_table`): the default **table** storage, archetype tables like
//!   `hecs` (an entity without a point mass sits in the empty archetype; attaching or
//!   detaching moves it between tables).
//! * [`BevySparse`] (`bevy_sparse`): **sparse-set** storage (`#[component(storage =
//!   "SparseSet")]`), like `shipyard`: a sparse index array per component type plus dense
//!   arrays; attaching does not move the entity's table row.
//!
//! `simulate` runs a cached `QueryState<&mut C>` over the world (change ticks are written as
//! bevy always does). Lookups go through the world's entity table and the component's storage.
//! Destruction: `despawn` removes the components at once (the destroy-callback strategy).
//! Memory: bevy does not report its allocations; [`ComponentStore::memory_bytes`] is a lower
//! bound, 40 bytes per instance plus 16 per live entity (its location record), without spare
//! capacity or change ticks. Allocator calls are not observable (0).

use bevy_ecs::component::{Component, Mutable};
use bevy_ecs::entity::Entity;
use bevy_ecs::query::QueryState;
use bevy_ecs::world::World;

use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField,
};

/// The `bevy_ecs` version the designs are built against.
const VERSION: &str = "0.16.1";

/// A point mass in table storage.
#[derive(Component, Debug, Clone, Copy)]
pub struct TableMass(PointMass);

/// A point mass in sparse-set storage.
#[derive(Component, Debug, Clone, Copy)]
#[component(storage = "SparseSet")]
pub struct SparseMass(PointMass);

/// A bevy component wrapping a point mass, and the design record of its storage.
pub trait BevyMass: Component<Mutability = Mutable> + Copy {
    /// The record of the design storing it.
    const INFO: ComponentDesignInfo;
    /// Wraps a point mass.
    fn wrap(m: PointMass) -> Self;
    /// The point mass.
    fn mass(&self) -> &PointMass;
    /// The point mass, mutably.
    fn mass_mut(&mut self) -> &mut PointMass;
}

impl BevyMass for TableMass {
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "bevy_table",
        description: "bevy_ecs::World, table storage (archetype tables), despawn removes at once (cargo feature `bevy`)",
        kind: ComponentDesignKind::Peer {
            crate_name: "bevy_ecs",
            version: VERSION,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };
    fn wrap(m: PointMass) -> Self {
        TableMass(m)
    }
    fn mass(&self) -> &PointMass {
        &self.0
    }
    fn mass_mut(&mut self) -> &mut PointMass {
        &mut self.0
    }
}

impl BevyMass for SparseMass {
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "bevy_sparse",
        description: "bevy_ecs::World, sparse-set storage for the point mass, despawn removes at once (cargo feature `bevy`)",
        kind: ComponentDesignKind::Peer {
            crate_name: "bevy_ecs",
            version: VERSION,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };
    fn wrap(m: PointMass) -> Self {
        SparseMass(m)
    }
    fn mass(&self) -> &PointMass {
        &self.0
    }
    fn mass_mut(&mut self) -> &mut PointMass {
        &mut self.0
    }
}

/// A `bevy_ecs::World` holding point masses as `C`.
pub struct BevyPeer<C: BevyMass> {
    world: World,
    /// The simulate query, built once.
    query: QueryState<&'static mut C>,
    /// Entities with a point mass.
    instances: usize,
    /// Live entities.
    entities: usize,
}

/// `bevy_ecs` with table storage.
pub type BevyTable = BevyPeer<TableMass>;
/// `bevy_ecs` with sparse-set storage.
pub type BevySparse = BevyPeer<SparseMass>;

impl<C: BevyMass> ComponentStore for BevyPeer<C> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = C::INFO;

    fn new() -> Self {
        let mut world = World::new();
        let query = world.query::<&mut C>();
        Self {
            world,
            query,
            instances: 0,
            entities: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        self.entities += 1;
        Ok(self.world.spawn_empty().id())
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let had = self.world.get::<C>(entity).is_some();
        if !self.world.despawn(entity) {
            return Err(ComponentError::dead(entity));
        }
        self.entities -= 1;
        self.instances -= usize::from(had);
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        let Ok(mut e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        if e.contains::<C>() {
            return Err(ComponentError::attached(entity));
        }
        e.insert(C::wrap(init));
        self.instances += 1;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let Ok(mut e) = self.world.get_entity_mut(entity) else {
            return Err(ComponentError::dead(entity));
        };
        let found = e.take::<C>().is_some();
        self.instances -= usize::from(found);
        Ok(found)
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get_entity(entity) {
            Ok(e) => Ok(e.get::<C>().map(|c| c.mass().position)),
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
        Ok(match e.get_mut::<C>() {
            Some(mut c) => {
                *field.of(c.mass_mut()) = value;
                true
            }
            None => false,
        })
    }

    fn simulate(&mut self, dt: f32) {
        for mut c in self.query.iter_mut(&mut self.world) {
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
        for e in self.world.iter_entities() {
            if let Some(c) = e.get::<C>() {
                f(c.mass());
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

    fn check_invariants(&self) -> Result<(), String> {
        let (mut entities, mut counted) = (0, 0);
        for e in self.world.iter_entities() {
            entities += 1;
            counted += usize::from(e.contains::<C>());
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
