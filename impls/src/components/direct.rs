//! The article's first entity → instance map: **"just use this index"**. The single buffer of
//! [`super::single_buffer`] indexed directly by entity index, so instance slot `i` belongs to
//! the entity with index `i`; slots of entities without an instance are holes (their entity
//! field is [`NO_ENTITY`], the "alive bit", and their fields zero).
//!
//! Trade-off: a lookup is one read of the slot's entity (no map at all), but the arrays are as
//! long as the largest entity index ever given an instance, so at low density most of the
//! memory and of every `simulate` pass is holes ("this will waste memory, but also
//! performance, because we will fill our caches with unused data"). `simulate` runs over
//! every slot, holes included (zeros stay zero), branch-free.
//!
//! Destruction: the article's GC, sampling random slots (a hole counts as alive, so sparse
//! stores stop sooner); a new entity reusing a dead entity's index overwrites its garbage.

use super::entities::{Entities, Entity, NO_ENTITY};
use super::packed::{InstanceStorage, entity_slot_ops};
use super::single_buffer::SingleBuffer;
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    GarbageSlots, GcRng, PointMass, VectorField,
};
use crate::DesignMeta;

/// The single buffer indexed by entity index, GC.
#[derive(Debug, Clone)]
pub struct BufferDirect {
    entities: Entities,
    /// Slot `i` holds the instance of the entity with index `i`, or [`NO_ENTITY`] and zeros.
    /// Invariant: `slots.len()` is one past the largest index ever attached.
    slots: SingleBuffer,
    /// Slots holding an instance (live or garbage).
    instances: usize,
    /// Slots whose entity is dead.
    garbage: usize,
    rng: GcRng,
}

impl BufferDirect {
    #[inline]
    fn slot_of(&self, entity: Entity) -> Option<usize> {
        let i = entity.index() as usize;
        (i < self.slots.len() && self.slots.entity(i) == entity).then_some(i)
    }

    fn destroy(&mut self, i: usize) {
        self.slots.clear(i);
        self.instances -= 1;
    }
}

impl GarbageSlots for BufferDirect {
    fn slot_count(&self) -> usize {
        self.slots.len()
    }

    fn holds_garbage(&self, i: usize) -> bool {
        let e = self.slots.entity(i);
        e != NO_ENTITY && !self.entities.alive(e)
    }

    fn collect(&mut self, i: usize) {
        self.destroy(i);
        self.garbage -= 1;
    }

    fn gc_rng(&mut self) -> &mut GcRng {
        &mut self.rng
    }
}

impl ComponentStore for BufferDirect {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "buffer_direct",
            description: "the article's direct index: one buffer of SoA arrays indexed by entity index (holes with an empty-entity mark, no map), GC",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Gc,
        several_per_entity: false,
    };

    fn new() -> Self {
        Self {
            entities: Entities::default(),
            slots: SingleBuffer::default(),
            instances: 0,
            garbage: 0,
            rng: GcRng::new(),
        }
    }

    entity_slot_ops!(slot_of: slot_of, storage: slots, detach_by: destroy);

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        self.entities.destroy(entity)?;
        if self.slot_of(entity).is_some() {
            self.garbage += 1;
        }
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)?;
        let i = entity.index() as usize;
        let len = self.slots.len();
        if i >= len {
            self.slots.reserve_for(i + 1);
            self.slots.set_len(i + 1);
            for hole in len..=i {
                self.slots.clear(hole);
            }
        }
        let held = self.slots.entity(i);
        if held == entity {
            return Err(ComponentError::attached(entity));
        }
        if held != NO_ENTITY {
            // A dead entity's garbage in this slot.
            self.garbage -= 1;
            self.instances -= 1;
        }
        self.slots.put(i, entity, &init);
        self.instances += 1;
        Ok(())
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        for i in 0..self.slots.len() {
            if self.slots.entity(i) != NO_ENTITY {
                f(&self.slots.get(i));
            }
        }
    }

    fn instance_count(&self) -> usize {
        self.instances
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes() + self.slots.memory_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.entities.allocator_calls() + self.slots.allocator_calls()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        let (mut held, mut dead) = (0, 0);
        for i in 0..self.slots.len() {
            let e = self.slots.entity(i);
            if e == NO_ENTITY {
                if self.slots.get(i) != PointMass::default() {
                    return Err(format!("hole {i} holds data"));
                }
                continue;
            }
            if e.index() as usize != i {
                return Err(format!("slot {i} holds entity {e:?}"));
            }
            held += 1;
            dead += usize::from(!self.entities.alive(e));
        }
        if (held, dead) != (self.instances, self.garbage) {
            return Err(format!(
                "{held} instances and {dead} dead counted, recorded {} and {}",
                self.instances, self.garbage
            ));
        }
        Ok(())
    }
}
