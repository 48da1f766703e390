//! The article's "exercise" for several instances of a component per entity: "add a
//! `next_instance` field to the component data that allows you to traverse a linked list of
//! component instances belonging to the same entity" (Part 2, Components). A port of
//! [`super::single_buffer::BufferHash`] (one buffer of SoA arrays, `HashMap<Entity, u32>`
//! map, the article's GC) plus that field.
//!
//! Layout: the single buffer (48 bytes per instance) and a parallel `Vec<u32>` `next`
//! (4 bytes per instance): `next[i]` is the next instance of instance `i`'s entity, or
//! `NONE`. The map points at each entity's **first** instance, the chain's head, which is
//! the one lookups see; `attach_another` links the new instance right after the head (O(1)).
//! Destroying instance `i` (GC, detach) unlinks it by walking its entity's chain from the head,
//! then swap-removes it and walks the moved instance's chain to repoint its predecessor: both
//! O(chain length), the article's expected chains being short.
//!
//! Trade-off: 4 more bytes per instance and a chain walk per destroy, for an entity → several
//! instances map without a second container; `simulate` is the single buffer's pass.

use super::entities::{Entities, Entity};
use super::maps::HashIndex;
use super::packed::{InstanceMap, InstanceStorage, entity_slot_ops, packed_garbage_slots};
use super::single_buffer::SingleBuffer;
use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    GarbageSlots, GcRng, PointMass, VectorField, count_capacity_change,
};
use crate::DesignMeta;

/// End of a chain.
const NONE: u32 = u32::MAX;

/// One buffer, hash map to the first instance, `next_instance` chains, GC.
pub struct BufferChain {
    entities: Entities,
    /// Instances `0..n` packed, each with its entity.
    storage: SingleBuffer,
    /// Invariant: `next.len() == storage.len()`; following `next` from an entity's head visits
    /// exactly the instances owned by that entity, each once, and ends at `NONE`.
    next: Vec<u32>,
    /// Invariant: exactly one entry per entity owning instances (live or garbage), pointing at
    /// one of them (the head).
    map: HashIndex,
    /// Instances whose entity is dead.
    garbage: usize,
    rng: GcRng,
    /// Capacity changes of `next`.
    next_calls: u64,
}

impl BufferChain {
    fn head(&self, entity: Entity) -> Option<usize> {
        self.map.get(entity).map(|i| i as usize)
    }

    /// The instance whose `next` is `i` in `entity`'s chain (`None`: `i` is the head).
    fn predecessor(&self, entity: Entity, i: usize) -> Option<usize> {
        let mut p = self.head(entity).expect("an instance's entity has a head");
        if p == i {
            return None;
        }
        while self.next[p] as usize != i {
            p = self.next[p] as usize;
        }
        Some(p)
    }

    fn push(&mut self, entity: Entity, init: PointMass) -> Result<usize, ComponentError> {
        let i = u32::try_from(self.storage.len())
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(ComponentError::IndexSpaceExhausted { what: "instances" })?;
        self.storage.push(entity, init);
        let before = self.next.capacity();
        self.next.push(NONE);
        count_capacity_change(before, self.next.capacity(), &mut self.next_calls);
        Ok(i as usize)
    }

    /// Unlinks instance `i` from its chain, swap-removes it and repoints the moved one.
    fn destroy(&mut self, i: usize) {
        let entity = self.storage.entity(i);
        match self.predecessor(entity, i) {
            Some(p) => self.next[p] = self.next[i],
            None if self.next[i] == NONE => self.map.remove(entity),
            None => self.map.insert(entity, self.next[i]),
        }
        let last = self.storage.len() - 1;
        self.next.swap_remove(i);
        if let Some(moved) = self.storage.swap_remove(i) {
            match self.predecessor(moved, last) {
                Some(p) => self.next[p] = i as u32,
                None => self.map.insert(moved, i as u32),
            }
        }
    }

    /// Instances in `entity`'s chain.
    fn chain_len(&self, entity: Entity) -> usize {
        let mut len = 0;
        let mut p = self.map.get(entity).unwrap_or(NONE);
        while p != NONE {
            len += 1;
            p = self.next[p as usize];
        }
        len
    }
}

impl GarbageSlots for BufferChain {
    packed_garbage_slots!();
}

impl ComponentStore for BufferChain {
    type Entity = Entity;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "buffer_chain",
            description: "the article's next_instance exercise: buffer_hash plus a next-instance chain per entity (several point masses per entity; the map points at the first)",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Gc,
        several_per_entity: true,
    };

    fn new() -> Self {
        Self {
            entities: Entities::default(),
            storage: SingleBuffer::default(),
            next: Vec::new(),
            map: HashIndex::default(),
            garbage: 0,
            rng: GcRng::new(),
            next_calls: 0,
        }
    }

    entity_slot_ops!(slot_of: head, storage: storage);

    fn kill(&mut self, entity: Entity) -> Result<(), ComponentError> {
        self.entities.destroy(entity)?;
        self.garbage += self.chain_len(entity);
        Ok(())
    }

    fn attach(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)?;
        if self.head(entity).is_some() {
            return Err(ComponentError::attached(entity));
        }
        let i = self.push(entity, init)?;
        self.map.insert(entity, i as u32);
        Ok(())
    }

    fn attach_another(&mut self, entity: Entity, init: PointMass) -> Result<(), ComponentError> {
        self.entities.check_alive(entity)?;
        let Some(head) = self.head(entity) else {
            return self.attach(entity, init);
        };
        let i = self.push(entity, init)?;
        self.next[i] = self.next[head];
        self.next[head] = i as u32;
        Ok(())
    }

    fn detach(&mut self, entity: Entity) -> Result<bool, ComponentError> {
        self.entities.check_alive(entity)?;
        let mut found = false;
        while let Some(head) = self.head(entity) {
            self.destroy(head);
            found = true;
        }
        Ok(found)
    }

    fn visit(&self, f: impl FnMut(&PointMass)) {
        self.storage.for_each(f);
    }

    fn instance_count(&self) -> usize {
        self.storage.len()
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes()
            + self.storage.memory_bytes()
            + self.next.capacity() * size_of::<u32>()
            + self.map.memory_bytes()
    }

    fn allocator_calls(&self) -> u64 {
        self.entities.allocator_calls()
            + self.storage.allocator_calls()
            + self.map.allocator_calls()
            + self.next_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        let n = self.storage.len();
        if self.next.len() != n {
            return Err(format!("{} next links for {n} instances", self.next.len()));
        }
        let mut seen = vec![false; n];
        let mut heads = 0;
        let mut dead = 0;
        for i in 0..n {
            let e = self.storage.entity(i);
            if self.head(e) != Some(i) {
                continue;
            }
            heads += 1;
            let mut p = i as u32;
            while p != NONE {
                let q = p as usize;
                if q >= n || seen[q] || self.storage.entity(q) != e {
                    return Err(format!("chain of {e:?} broken at {q}"));
                }
                seen[q] = true;
                dead += usize::from(!self.entities.alive(e));
                p = self.next[q];
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(format!("instance {i} is on no chain"));
        }
        if heads != self.map.len() {
            return Err(format!("{} map entries for {heads} chains", self.map.len()));
        }
        if dead != self.garbage {
            return Err(format!("{dead} dead instances, garbage {}", self.garbage));
        }
        Ok(())
    }
}
