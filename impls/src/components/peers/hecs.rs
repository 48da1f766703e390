//! Peer: `hecs`, an archetype ECS. A point mass is a component of an entity's archetype; an
//! entity without one lives in the empty archetype, and `attach`/`detach` move it between
//! archetypes (copying its other columns, here none). `simulate` is `query_mut::<&mut
//! PointMass>`, a walk over the matching archetypes' columns (AoS within the column: the
//! component is the whole `PointMass`). Lookups go through hecs's entity table (generation
//! check, archetype, row) and the archetype's column.
//!
//! Destruction: `despawn` removes the components at once (the destroy-callback strategy).
//! Memory: hecs does not report its allocations; [`ComponentStore::memory_bytes`] is a lower
//! bound, 40 bytes per instance plus 16 per live entity (its entity metadata: generation and
//! location), without spare capacity. Allocator calls are not observable (0).

use hecs::{ComponentError as HecsError, World};

use crate::components::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField,
};

/// A `hecs::World` holding point masses.
pub struct HecsPeer {
    world: World,
    /// Entities with a point mass (hecs counts entities, not components).
    instances: usize,
}

impl ComponentStore for HecsPeer {
    type Entity = hecs::Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "hecs",
        description: "hecs::World: archetype storage, PointMass as one component column, despawn removes at once",
        kind: ComponentDesignKind::Peer {
            crate_name: "hecs",
            version: "0.11.2",
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            world: World::new(),
            instances: 0,
        }
    }

    fn spawn(&mut self) -> Result<hecs::Entity, ComponentError> {
        Ok(self.world.spawn(()))
    }

    fn kill(&mut self, entity: hecs::Entity) -> Result<(), ComponentError> {
        let had = self.world.satisfies::<&PointMass>(entity);
        self.world
            .despawn(entity)
            .map_err(|_| ComponentError::dead(entity))?;
        self.instances -= usize::from(had);
        Ok(())
    }

    fn attach(&mut self, entity: hecs::Entity, init: PointMass) -> Result<(), ComponentError> {
        if !self.world.contains(entity) {
            return Err(ComponentError::dead(entity));
        }
        match self.world.satisfies::<&PointMass>(entity) {
            true => Err(ComponentError::attached(entity)),
            false => {
                self.world
                    .insert_one(entity, init)
                    .map_err(|_| ComponentError::dead(entity))?;
                self.instances += 1;
                Ok(())
            }
        }
    }

    fn detach(&mut self, entity: hecs::Entity) -> Result<bool, ComponentError> {
        match self.world.remove_one::<PointMass>(entity) {
            Ok(_) => {
                self.instances -= 1;
                Ok(true)
            }
            Err(HecsError::NoSuchEntity) => Err(ComponentError::dead(entity)),
            Err(HecsError::MissingComponent(_)) => Ok(false),
        }
    }

    #[inline]
    fn position(&self, entity: hecs::Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.world.get::<&PointMass>(entity) {
            Ok(m) => Ok(Some(m.position)),
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
        match self.world.get::<&mut PointMass>(entity) {
            Ok(mut m) => {
                *field.of(&mut m) = value;
                Ok(true)
            }
            Err(HecsError::NoSuchEntity) => Err(ComponentError::dead(entity)),
            Err(HecsError::MissingComponent(_)) => Ok(false),
        }
    }

    fn simulate(&mut self, dt: f32) {
        for m in self.world.query_mut::<&mut PointMass>() {
            PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
        }
    }

    fn destroy_step(&mut self) {}

    fn collect_all_garbage(&mut self) {}

    fn garbage(&self) -> usize {
        0
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for m in self.world.query::<&PointMass>().iter() {
            f(m);
        }
    }

    fn entity_count(&self) -> usize {
        self.world.len() as usize
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        self.instances * size_of::<PointMass>() + self.entity_count() * 16
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        let counted = self.world.query::<&PointMass>().iter().count();
        if counted != self.instances {
            return Err(format!(
                "{counted} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}
