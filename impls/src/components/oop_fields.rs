//! Seed 004's middle object-oriented baseline (part 1, "well-known components as fields":
//! `Transform* transform; Renderer* renderer; Components otherComponents;`): a game object
//! keeps a pointer field per built-in component type and a generic list only for the
//! user-defined ones. Getting a built-in component is one field read instead of a type scan,
//! "but one must still iterate every object": a system jumps to the object, reads the
//! component's address, checks it is there and jumps to it.
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! (`Holey<GameObject>`); a `GameObject` has `point_mass: Option<Box<PointMass>>` and an
//! (here always empty) `Vec<Box<dyn Any>>` of other components. `simulate` walks every slot of
//! the table and follows each present field: one pointer chase per instance (`oop_objects`
//! has two: list, then box; `oop_pools` one, but over the pool instead of every object).
//! Killing an object drops its component at once (the destroy-callback strategy).

use std::any::Any;

use super::entities::Entity;
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField, count_capacity_change,
};
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

/// A game object: a field per well-known component, a list for the others.
#[derive(Default)]
pub struct GameObject {
    /// The built-in point mass (the article's `Transform* transform`).
    point_mass: Option<Box<PointMass>>,
    /// User-defined components (none in this benchmark; kept so the object has the
    /// article's shape and size).
    other_components: Vec<Box<dyn Any>>,
}

/// Game objects with a boxed point-mass field.
pub struct OopFields {
    /// Invariant: exactly `instances` objects have a point mass.
    objects: Holey<GameObject>,
    instances: usize,
    /// Allocator calls: every component box and list growth or release, plus the table's
    /// growth.
    allocator_calls: u64,
}

impl OopFields {
    fn object(&self, entity: Entity) -> Result<&GameObject, ComponentError> {
        self.objects
            .get(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }

    fn object_mut(&mut self, entity: Entity) -> Result<&mut GameObject, ComponentError> {
        self.objects
            .get_mut(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }
}

impl ComponentStore for OopFields {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "oop_fields",
        description: "seed 004's OOP baseline with well-known components as fields: game objects (in a holey table) with an Option<Box<PointMass>> field; simulate iterates objects",
        kind: ComponentDesignKind::Article,
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

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
            .insert(GameObject::default())
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
        if object.point_mass.is_some() {
            self.instances -= 1;
            self.allocator_calls += 1; // the box is freed
        }
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        let object = self.object_mut(entity)?;
        if object.point_mass.is_some() {
            return Err(ComponentError::attached(entity));
        }
        object.point_mass = Some(Box::new(init));
        self.instances += 1;
        self.allocator_calls += 1;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let found = self.object_mut(entity)?.point_mass.take().is_some();
        if found {
            self.instances -= 1;
            self.allocator_calls += 1;
        }
        Ok(found)
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        Ok(self.object(entity)?.point_mass.as_ref().map(|m| m.position))
    }

    #[inline]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        Ok(match &mut self.object_mut(entity)?.point_mass {
            Some(m) => {
                *field.of(m) = value;
                true
            }
            None => false,
        })
    }

    fn simulate(&mut self, dt: f32) {
        for object in self.objects.iter_mut() {
            if let Some(m) = &mut object.point_mass {
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
            if let Some(m) = &object.point_mass {
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

    /// The table (objects with their field and empty list inline) plus the boxes.
    fn memory_bytes(&self) -> usize {
        self.objects.memory_bytes()
            + self
                .objects
                .iter()
                .map(|o| o.other_components.capacity() * size_of::<Box<dyn Any>>())
                .sum::<usize>()
            + self.instances * size_of::<PointMass>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.objects.check_invariants()?;
        let total = self
            .objects
            .iter()
            .filter(|o| o.point_mass.is_some())
            .count();
        if total != self.instances {
            return Err(format!(
                "{total} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}
