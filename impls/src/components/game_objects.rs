//! The store behind seed 004's two object-oriented baselines that keep components inside the
//! game objects ([`oop_objects`](super::oop_objects): a list of boxed components found by a
//! type scan; [`oop_fields`](super::oop_fields): a field per well-known component). Only
//! where the object keeps its point mass differs between them, so that is the one thing each
//! design file says ([`GameObject`]); the entity table, the counts, `simulate` (walk every
//! object, ask it for its point mass) and the accounting are here, once.
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! themselves (`Holey<O>`). Killing an object drops its components at once (the
//! destroy-callback strategy); there is never garbage.

use super::entities::Entity;
use super::{
    ComponentDesignInfo, ComponentError, ComponentStore, PointMass, VectorField,
    count_capacity_change,
};
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

/// A game object's layout: where it keeps its point mass, and what that costs the heap.
pub trait GameObject: Default + 'static {
    /// The design's registry entry.
    const INFO: ComponentDesignInfo;

    /// The object's `GetComponent<PointMass>`.
    fn point_mass(&self) -> Option<&PointMass>;

    /// The same, mutably.
    fn point_mass_mut(&mut self) -> Option<&mut PointMass>;

    /// Gives an object without a point mass one; returns the allocator calls it made (the box,
    /// and any list growth).
    fn attach(&mut self, init: PointMass) -> u64;

    /// Drops the object's point mass (one box freed); whether it had one.
    fn detach(&mut self) -> bool;

    /// Allocator calls dropping the object makes (its boxes and list buffers).
    fn drop_calls(&self) -> u64;

    /// Heap bytes of the object's component lists (the point-mass box not included).
    fn list_bytes(&self) -> usize;

    /// Point masses the object holds (the invariant: at most one).
    fn point_masses(&self) -> usize;
}

/// Game objects of layout `O` in a holey table.
pub struct GameObjects<O> {
    /// Invariant: exactly `instances` objects hold a point mass, none holds two.
    objects: Holey<O>,
    instances: usize,
    /// Allocator calls: every component box and list growth or release, plus the table's
    /// growth.
    allocator_calls: u64,
}

impl<O: GameObject> GameObjects<O> {
    fn object(&self, entity: Entity) -> Result<&O, ComponentError> {
        self.objects
            .get(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }

    fn object_mut(&mut self, entity: Entity) -> Result<&mut O, ComponentError> {
        self.objects
            .get_mut(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }
}

impl<O: GameObject> ComponentStore for GameObjects<O> {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = O::INFO;

    fn new() -> Self {
        Self {
            objects: Holey::new(),
            instances: 0,
            allocator_calls: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        let before = self.objects.memory_bytes();
        let e = self
            .objects
            .insert(O::default())
            .map_err(|_| ComponentError::IndexSpaceExhausted { what: "entities" })?;
        count_capacity_change(
            before,
            self.objects.memory_bytes(),
            &mut self.allocator_calls,
        );
        Ok(e)
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let object = self
            .objects
            .remove(entity)
            .ok_or_else(|| ComponentError::dead(entity))?;
        if object.point_mass().is_some() {
            self.instances -= 1;
        }
        self.allocator_calls += object.drop_calls();
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        let object = self.object_mut(entity)?;
        if object.point_mass().is_some() {
            return Err(ComponentError::attached(entity));
        }
        let calls = object.attach(init);
        self.instances += 1;
        self.allocator_calls += calls;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let found = self.object_mut(entity)?.detach();
        if found {
            self.instances -= 1;
            self.allocator_calls += 1;
        }
        Ok(found)
    }

    #[inline(always)]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        Ok(self.object(entity)?.point_mass().map(|m| m.position))
    }

    #[inline(always)]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        Ok(match self.object_mut(entity)?.point_mass_mut() {
            Some(m) => {
                *field.of(m) = value;
                true
            }
            None => false,
        })
    }

    /// Walks every object of the table and asks it for its point mass.
    fn simulate(&mut self, dt: f32) {
        for object in self.objects.iter_mut() {
            if let Some(m) = object.point_mass_mut() {
                PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
            }
        }
    }

    fn destroy_step(&mut self) {}

    fn collect_all_garbage(&mut self) {}

    fn garbage(&self) -> usize {
        0
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for object in self.objects.iter() {
            if let Some(m) = object.point_mass() {
                f(m);
            }
        }
    }

    fn entity_count(&self) -> usize {
        self.objects.len()
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    /// The table (objects inline), each object's component lists, and the point-mass boxes.
    fn memory_bytes(&self) -> usize {
        self.objects.memory_bytes()
            + self.objects.iter().map(O::list_bytes).sum::<usize>()
            + self.instances * size_of::<PointMass>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.objects.check_invariants()?;
        let mut total = 0;
        for object in self.objects.iter() {
            let held = object.point_masses();
            if held > 1 {
                return Err(format!("an object holds {held} point masses"));
            }
            total += held;
        }
        if total != self.instances {
            return Err(format!(
                "{total} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}
