//! Tuned: the article's direct index ([`super::direct`]) with **specs' `VecStorage` layout**.
//! What it takes from specs (the peer `specs_vec`, `specs::VecStorage`): one array per field,
//! each indexed by entity index, so a lookup loads the position array and nothing of the
//! other fields; and the entity's liveness read from a small per-index array of generations,
//! not from the entity manager. Where specs checks its allocator's generation and a bitset
//! per storage, this design keeps one array, `owners`: slot `i` holds the generation of the
//! live entity with index `i` that has an instance, or [`HOLE`]. One compare of the entity's
//! generation against `owners[i]` tells "alive and has an instance"; only a miss asks the
//! entity manager whether the entity is dead.
//!
//! That needs the slot cleared when its entity dies, so destruction is the article's destroy
//! callback (as specs' `delete_entity`), not [`super::direct`]'s GC: `kill` clears the slot at
//! once and no garbage is ever kept.
//!
//! Trade-off: the same holes as the article's direct index (the arrays are as long as the
//! largest entity index given an instance; `simulate` runs over every slot, holes included,
//! zeros staying zero, branch-free), in five allocations instead of one buffer. In exchange a
//! lookup touches two arrays of 4 and 12 bytes per entity index (16 bytes, where
//! `buffer_direct` touches its entity and generation words, its position and the entity
//! manager's slot in four places), so at tens of thousands of entities what a run of random
//! lookups reads still fits the second-level cache (`comp-lookup` at 65,536 entities, ranked
//! against `specs_vec` and `buffer_direct`).

use super::columns::Columns;
use super::entities::{Entities, Entity};
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField, check_instances, count_capacity_change,
};
use crate::DesignMeta;

/// The mark of a slot without an instance in `owners`. The entity manager (the `holey` table)
/// never hands out this generation (it retires a slot instead), so no live entity matches it;
/// `DirectTuned`'s lookups still refuse an entity that carries it.
pub const HOLE: u32 = u32::MAX;

/// Five arrays indexed by entity index (the owners and the four field [`Columns`]), owners'
/// generations checked per lookup, destroy callback.
#[derive(Debug, Clone)]
pub struct DirectTuned {
    entities: Entities,
    /// `owners[i]`: the generation of the live entity with index `i` if it has an instance,
    /// else [`HOLE`]. Invariant: every field column has `owners.len()` elements; a slot whose
    /// owner is [`HOLE`] holds zeros in every field.
    owners: Vec<u32>,
    fields: Columns,
    /// Slots whose owner is not [`HOLE`].
    instances: usize,
    allocator_calls: u64,
}

impl DirectTuned {
    /// The slot of `entity`'s instance: `Some` exactly when `entity` is alive and has one.
    #[inline(always)]
    fn slot_of(&self, entity: Entity) -> Option<usize> {
        let (i, generation) = (entity.index() as usize, entity.generation());
        (self.owners.get(i) == Some(&generation) && generation != HOLE).then_some(i)
    }

    /// The answer for an entity [`slot_of`](Self::slot_of) did not find: dead (refused), or
    /// alive without an instance (`Ok(())`).
    #[cold]
    fn missed(&self, entity: Entity) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)
    }

    fn capacities(&self) -> [usize; 5] {
        let [m, p, v, a] = self.fields.capacities();
        [self.owners.capacity(), m, p, v, a]
    }

    /// Lengthens every array to `len` with holes (each `Vec` grows as `Vec` does: at least
    /// doubling, so a run of attaches at rising indices costs amortised O(1)).
    fn grow_to(&mut self, len: usize) {
        let before = self.capacities();
        self.owners.resize(len, HOLE);
        self.fields.resize(len);
        for (b, a) in before.into_iter().zip(self.capacities()) {
            count_capacity_change(b, a, &mut self.allocator_calls);
        }
    }

    /// Empties slot `i` (a hole holds zeros).
    fn clear(&mut self, i: usize) {
        self.owners[i] = HOLE;
        self.fields.set(i, &PointMass::default());
        self.instances -= 1;
    }
}

impl ComponentStore for DirectTuned {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "direct_tuned",
            description: "tuned direct index with specs' VecStorage layout: one array per field indexed by entity index, the owner's generation per slot checked instead of the entity manager, destroy callback",
            kind: ComponentDesignKind::Tuned,
        },
        destruction: Destruction::Callback,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            entities: Entities::default(),
            owners: Vec::new(),
            fields: Columns::default(),
            instances: 0,
            allocator_calls: 0,
        }
    }

    fn spawn(&mut self) -> Result<Entity, ComponentError> {
        self.entities.create()
    }

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        let slot = self.slot_of(entity);
        self.entities.destroy(entity)?;
        if let Some(i) = slot {
            self.clear(i);
        }
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)?;
        if self.slot_of(entity).is_some() {
            return Err(ComponentError::attached(entity));
        }
        let i = entity.index() as usize;
        if i >= self.owners.len() {
            self.grow_to(i + 1);
        }
        // The slot is a hole: a dead owner's slot was cleared by `kill`.
        self.owners[i] = entity.generation();
        self.fields.set(i, &init);
        self.instances += 1;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        self.entities.check_alive(entity)?;
        Ok(match self.slot_of(entity) {
            Some(i) => {
                self.clear(i);
                true
            }
            None => false,
        })
    }

    #[inline(always)]
    fn position(&self, entity: Entity) -> Result<Option<[f32; 3]>, ComponentError> {
        match self.slot_of(entity) {
            Some(i) => Ok(Some(self.fields.position(i))),
            None => self.missed(entity).map(|()| None),
        }
    }

    #[inline(always)]
    fn write(
        &mut self,
        entity: Entity,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        match self.slot_of(entity) {
            Some(i) => {
                self.fields.write(i, field, value);
                Ok(true)
            }
            None => self.missed(entity).map(|()| false),
        }
    }

    fn simulate(&mut self, dt: f32) {
        self.fields.simulate(dt);
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for (i, &owner) in self.owners.iter().enumerate() {
            if owner != HOLE {
                f(&self.fields.get(i));
            }
        }
    }

    fn entity_count(&self) -> usize {
        self.entities.len()
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes()
            + self.owners.capacity() * size_of::<u32>()
            + self.fields.capacity_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.entities.allocator_calls() + self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        let len = self.owners.len();
        let lens = self.fields.lens();
        if lens.iter().any(|&l| l != len) {
            return Err(format!("{len} owners but field arrays of {lens:?}"));
        }
        let mut held = 0;
        for (i, &owner) in self.owners.iter().enumerate() {
            if owner == HOLE {
                if self.fields.get(i) != PointMass::default() {
                    return Err(format!("hole {i} holds data"));
                }
                continue;
            }
            let entity = Entity::new(i as u32, owner);
            if !self.entities.alive(entity) {
                return Err(format!("slot {i} belongs to dead entity {entity:?}"));
            }
            held += 1;
        }
        check_instances(held, self.instances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entity_carrying_the_hole_mark_is_refused_not_read_from_a_hole() {
        let mut store = DirectTuned::new();
        let a = store.spawn().unwrap();
        let b = store.spawn().unwrap();
        store.attach(b, PointMass::default()).unwrap();
        // Index 0 is a hole (a has no instance); a forged entity with the hole's mark as its
        // generation is not alive and must be refused, not answered from the hole.
        let forged = Entity::new(a.index(), HOLE);
        assert!(store.position(forged).is_err());
        assert!(
            store
                .write(forged, VectorField::Velocity, [1.0; 3])
                .is_err()
        );
        assert_eq!(store.position(a), Ok(None));
        store.check_invariants().unwrap();
    }

    #[test]
    fn a_killed_entitys_slot_is_cleared_at_once_and_its_index_reused_cleanly() {
        let mut store = DirectTuned::new();
        let a = store.spawn().unwrap();
        let init = PointMass {
            mass: 1.0,
            position: [1.0, 2.0, 3.0],
            ..PointMass::default()
        };
        store.attach(a, init).unwrap();
        store.kill(a).unwrap();
        assert_eq!((store.instance_count(), store.garbage()), (0, 0));
        assert!(store.position(a).is_err());
        let b = store.spawn().unwrap();
        assert_eq!(b.index(), a.index(), "the holey table reuses the index");
        assert_eq!(store.position(b), Ok(None));
        store.check_invariants().unwrap();
    }
}
