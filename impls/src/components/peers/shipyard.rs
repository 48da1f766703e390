//! Peer: `shipyard`, a sparse-set ECS. Each component type has a sparse set: a sparse array
//! indexed by entity index pointing into a dense array of entity ids and a dense array of
//! components (the article's `Vec<u32>` map with packed data, in a crate). `simulate` iterates
//! the dense `PointMass` array through a `ViewMut`; a lookup is a sparse-array read plus a
//! dense read, behind a storage borrow per call (`World::get`).
//!
//! Destruction: `delete_entity` removes the components at once (destroy callback). Memory: a
//! lower bound (shipyard reports its storages only through `Debug`): per instance the
//! component and its dense entity id (48 bytes), per live entity its entity-list slot and a
//! sparse-array slot (12 bytes), without spare capacity or sparse pages. Allocator calls are
//! not observable (0).

use shipyard::{EntitiesView, EntityId, IntoIter, ViewMut, World};

use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField,
};

/// The point mass as a shipyard component (untracked: no insertion/modification tracking).
#[derive(Debug, Clone, Copy)]
pub struct ShipyardMass(pub PointMass);

impl shipyard::Component for ShipyardMass {
    type Tracking = shipyard::track::Untracked;
}

/// A `shipyard::World` holding point masses.
pub struct ShipyardPeer {
    world: World,
    /// Live entities (shipyard has no O(1) count).
    live: usize,
    /// Entities with a point mass.
    instances: usize,
}

impl ShipyardPeer {
    fn alive(&self, entity: EntityId) -> bool {
        self.world
            .borrow::<EntitiesView>()
            .is_ok_and(|e| e.is_alive(entity))
    }

    fn has(&self, entity: EntityId) -> bool {
        self.world.get::<&ShipyardMass>(entity).is_ok()
    }
}

impl ComponentStore for ShipyardPeer {
    type Entity = EntityId;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "shipyard",
        description: "shipyard::World: a sparse set per component (sparse index array, dense ids and components), delete_entity removes at once",
        kind: ComponentDesignKind::Peer {
            crate_name: "shipyard",
            version: "0.11.5",
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            world: World::new(),
            live: 0,
            instances: 0,
        }
    }

    fn spawn(&mut self) -> Result<EntityId, ComponentError> {
        self.live += 1;
        Ok(self.world.add_entity(()))
    }

    fn kill(&mut self, entity: EntityId) -> Result<(), ComponentError> {
        let had = self.has(entity);
        if !self.world.delete_entity(entity) {
            return Err(ComponentError::dead(entity));
        }
        self.live -= 1;
        self.instances -= usize::from(had);
        Ok(())
    }

    fn attach(&mut self, entity: EntityId, init: PointMass) -> Result<(), ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        if self.has(entity) {
            return Err(ComponentError::attached(entity));
        }
        self.world.add_component(entity, ShipyardMass(init));
        self.instances += 1;
        Ok(())
    }

    fn detach(&mut self, entity: EntityId) -> Result<bool, ComponentError> {
        if !self.alive(entity) {
            return Err(ComponentError::dead(entity));
        }
        let had = self.has(entity);
        if had {
            self.world.delete_component::<ShipyardMass>(entity);
            self.instances -= 1;
        }
        Ok(had)
    }

    #[inline]
    fn position(&self, entity: EntityId) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get::<&ShipyardMass>(entity) {
            Ok(m) => Ok(Some(m.0.position)),
            Err(_) if self.alive(entity) => Ok(None),
            Err(_) => Err(ComponentError::dead(entity)),
        }
    }

    #[inline]
    fn write(
        &mut self,
        entity: EntityId,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        match self.world.get::<&mut ShipyardMass>(entity) {
            Ok(mut m) => {
                *field.of(&mut m.0) = value;
                Ok(true)
            }
            Err(_) if self.alive(entity) => Ok(false),
            Err(_) => Err(ComponentError::dead(entity)),
        }
    }

    fn simulate(&mut self, dt: f32) {
        self.world.run(|mut masses: ViewMut<ShipyardMass>| {
            for m in (&mut masses).iter() {
                let m = &mut m.0;
                PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
            }
        });
    }

    fn destroy_step(&mut self) {}

    fn collect_all_garbage(&mut self) {}

    fn garbage(&self) -> usize {
        0
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        self.world.run(|masses: shipyard::View<ShipyardMass>| {
            for m in masses.iter() {
                f(&m.0);
            }
        });
    }

    fn entity_count(&self) -> usize {
        self.live
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        self.instances * (size_of::<PointMass>() + size_of::<EntityId>())
            + self.live * (size_of::<EntityId>() + size_of::<u32>())
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut counted = 0;
        self.visit(|_| counted += 1);
        if counted != self.instances {
            return Err(format!(
                "{counted} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}
