//! Seed 004's first object-oriented baseline (part 1, "entity-owned components"): every game
//! object owns a list of boxed components, `GetComponent<T>` scans that list for a component
//! of type `T`, and a system update iterates the objects and asks each for its component
//! ("one must iterate every object and ask it for its component of that type").
//!
//! Layout: the entities are the ID-table family's `holey` table holding the game objects
//! themselves (`Holey<GameObject>`); a `GameObject` is a `Vec<Box<dyn Any>>` of components.
//! `simulate` walks every slot of the table, follows the object's component list (one jump),
//! downcasts each box until it finds the point mass (a second jump per component): two
//! pointer chases per instance where the article's SoA has none. Killing an object drops its
//! components at once (the destroy-callback strategy).
//!
//! Objects here own only their point mass (a one-step type scan); a real object would scan
//! past its other components too.

use std::any::Any;

use super::entities::Entity;
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField, count_capacity_change,
};
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

/// A game object: the components it owns.
#[derive(Default)]
pub struct GameObject {
    components: Vec<Box<dyn Any>>,
}

impl GameObject {
    /// The object's `GetComponent<PointMass>`: a scan of its list.
    #[inline]
    fn point_mass(&self) -> Option<&PointMass> {
        self.components.iter().find_map(|c| c.downcast_ref())
    }

    #[inline]
    fn point_mass_mut(&mut self) -> Option<&mut PointMass> {
        self.components.iter_mut().find_map(|c| c.downcast_mut())
    }
}

/// Game objects owning boxed components, found by a type scan.
pub struct OopObjects {
    /// Invariant: `instances` objects own exactly one point mass, the others none.
    objects: Holey<GameObject>,
    instances: usize,
    /// Allocator calls: every component box and list growth or release, plus the table's
    /// growth.
    allocator_calls: u64,
}

impl OopObjects {
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

impl ComponentStore for OopObjects {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        name: "oop_objects",
        description: "seed 004's OOP baseline: game objects (in a holey table) owning Vec<Box<dyn Any>> components, found by a type scan; simulate iterates objects",
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
        if object.point_mass().is_some() {
            self.instances -= 1;
        }
        // Every box and the list buffer are freed.
        self.allocator_calls +=
            object.components.len() as u64 + u64::from(object.components.capacity() > 0);
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        let object = self.object_mut(entity)?;
        if object.point_mass().is_some() {
            return Err(ComponentError::attached(entity));
        }
        let before = object.components.capacity();
        object.components.push(Box::new(init));
        let after = object.components.capacity();
        self.instances += 1;
        self.allocator_calls += 1; // the box
        count_capacity_change(before, after, &mut self.allocator_calls);
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let object = self.object_mut(entity)?;
        let found = object.components.iter().position(|c| c.is::<PointMass>());
        if let Some(i) = found {
            object.components.swap_remove(i);
            self.instances -= 1;
            self.allocator_calls += 1;
        }
        Ok(found.is_some())
    }

    #[inline]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        Ok(self.object(entity)?.point_mass().map(|m| m.position))
    }

    #[inline]
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

    /// The table plus, per object with components, its list buffer and the boxes.
    fn memory_bytes(&self) -> usize {
        self.objects.memory_bytes()
            + self
                .objects
                .iter()
                .map(|o| o.components.capacity() * size_of::<Box<dyn Any>>())
                .sum::<usize>()
            + self.instances * size_of::<PointMass>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.objects.check_invariants()?;
        let counted = self
            .objects
            .iter()
            .map(|o| o.components.iter().filter(|c| c.is::<PointMass>()).count())
            .collect::<Vec<_>>();
        if counted.iter().any(|&c| c > 1) {
            return Err("an object owns two point masses".into());
        }
        let total: usize = counted.iter().sum();
        if total != self.instances {
            return Err(format!(
                "{total} point masses, counter says {}",
                self.instances
            ));
        }
        Ok(())
    }
}
