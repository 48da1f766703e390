//! Seed 004's second object-oriented baseline (part 2, "scene-owned per-type pools of
//! pointers", `ComponentPool<Transform*> transforms`): components are still heap-allocated one
//! by one, but the scene keeps a pool of pointers per component type, so a system iterates
//! its pool instead of every object ("one fewer memory jump per component, and no
//! has-component check").
//!
//! Layout: entities in the ID-table family's `holey` table, each game object holding the
//! index of its point mass's pool slot (its `GetComponent`, one read instead of a scan); the
//! pool is a `Vec<Box<(Entity, PointMass)>>`, swap-removed on destroy (patching the moved
//! owner's index). `simulate` walks the pool of boxes: one pointer chase per instance (the
//! OOP baseline `oop_objects` has two, the SoA designs none). Killing an object destroys its
//! component at once (destroy callback). The boxes come from a
//! [`ScatteredBoxes`](super::game_objects::ScatteredBoxes) reserve, handed out shuffled, so
//! consecutive pool entries are not neighbours in memory even on a fresh heap (as
//! `oop_objects` and `oop_fields`).

use super::entities::Entity;
use super::game_objects::{ScatteredBoxes, spawn_object};
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField, count_capacity_change,
};
use crate::DesignMeta;
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

/// No pool slot.
const NONE: u32 = u32::MAX;

/// Per-type pools of boxed components.
pub struct OopPools {
    /// The game objects: each one's pool slot, or `NONE`. Invariant: `pool[objects[e]].0 ==
    /// e` for every object with a slot.
    objects: Holey<u32>,
    /// The point-mass pool: one box per instance, with its owner. The boxes are the point of
    /// the design (seed 004's pool of pointers to heap-allocated components).
    #[allow(clippy::vec_box)]
    pool: Vec<Box<(Entity, PointMass)>>,
    /// Where the pool's boxes come from: batches handed out shuffled, so consecutive pool
    /// entries are not neighbours in memory (see [`ScatteredBoxes`]).
    boxes: ScatteredBoxes<(Entity, PointMass)>,
    allocator_calls: u64,
}

impl OopPools {
    fn slot(&self, entity: Entity) -> Result<Option<usize>, ComponentError> {
        match self.objects.get(entity) {
            None => Err(ComponentError::dead(entity)),
            Some(&NONE) => Ok(None),
            Some(&i) => Ok(Some(i as usize)),
        }
    }

    fn destroy(&mut self, i: usize) {
        self.pool.swap_remove(i);
        self.allocator_calls += 1;
        if let Some(moved) = self.pool.get(i) {
            let owner = moved.0;
            if let Some(slot) = self.objects.get_mut(owner) {
                *slot = i as u32;
            }
        }
    }
}

impl ComponentStore for OopPools {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "oop_pools",
            description: "seed 004's scene-owned per-type pool: Vec<Box<PointMass>> iterated by the system, objects (holey table) keep their pool slot",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            objects: Holey::new(),
            pool: Vec::new(),
            boxes: ScatteredBoxes::default(),
            allocator_calls: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        spawn_object(&mut self.objects, NONE, &mut self.allocator_calls)
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let slot = self.slot(entity)?;
        self.objects.remove(entity);
        if let Some(i) = slot {
            self.destroy(i);
        }
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        if self.slot(entity)?.is_some() {
            return Err(ComponentError::attached(entity));
        }
        let i = u32::try_from(self.pool.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ComponentError::IndexSpaceExhausted { what: "instances" })?;
        let boxed = self
            .boxes
            .boxed((entity, init), self.pool.len(), &mut self.allocator_calls);
        let before = self.pool.capacity();
        self.pool.push(boxed);
        count_capacity_change(before, self.pool.capacity(), &mut self.allocator_calls);
        if let Some(slot) = self.objects.get_mut(entity) {
            *slot = i;
        }
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        let Some(i) = self.slot(entity)? else {
            return Ok(false);
        };
        if let Some(slot) = self.objects.get_mut(entity) {
            *slot = NONE;
        }
        self.destroy(i);
        Ok(true)
    }

    #[inline(always)]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        Ok(self.slot(entity)?.map(|i| self.pool[i].1.position))
    }

    #[inline(always)]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        Ok(match self.slot(entity)? {
            Some(i) => {
                *field.of(&mut self.pool[i].1) = value;
                true
            }
            None => false,
        })
    }

    fn simulate(&mut self, dt: f32) {
        for b in &mut self.pool {
            let m = &mut b.1;
            PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for b in &self.pool {
            f(&b.1);
        }
    }

    fn entity_count(&self) -> usize {
        self.objects.len()
    }

    fn instance_count(&self) -> usize {
        self.pool.len()
    }

    fn memory_bytes(&self) -> usize {
        self.objects.memory_bytes()
            + self.pool.capacity() * size_of::<Box<(Entity, PointMass)>>()
            + self.pool.len() * size_of::<(Entity, PointMass)>()
            + self.boxes.memory_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.objects.check_invariants()?;
        for (i, b) in self.pool.iter().enumerate() {
            if self.objects.get(b.0) != Some(&(i as u32)) {
                return Err(format!(
                    "pool slot {i}'s owner {:?} does not point back",
                    b.0
                ));
            }
        }
        let with = self.objects.iter().filter(|&&s| s != NONE).count();
        if with != self.pool.len() {
            return Err(format!(
                "{with} objects with a slot, {} in the pool",
                self.pool.len()
            ));
        }
        Ok(())
    }
}
