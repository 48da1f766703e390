//! The article's entity → instance maps for packed designs (the third, the direct index, is
//! the layout of [`super::direct`]):
//!
//! * [`VecMap`]: `Array<unsigned> _map`, one `u32` per entity index ever used, holes where an
//!   entity has no instance ("only ... if the component was almost universal and lookups
//!   performance critical");
//! * [`HashIndex`]: `HashMap<Entity, unsigned> _map`, keyed by the whole entity ("uses less
//!   memory and lookups are still pretty fast"). std's `HashMap` (SwissTable) with a
//!   multiply-shift hasher of the 64-bit entity ([`EntityHasher`]): the article's map is
//!   BitSquid's own open-addressing hash, also with a cheap hash of the entity.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::count_capacity_change;
use super::entities::Entity;
use super::packed::InstanceMap;

/// No instance.
const NONE: u32 = u32::MAX;

/// `Vec<u32>` indexed by entity index.
#[derive(Debug, Default)]
pub struct VecMap {
    /// `map[entity.index()]` is the instance of the entity (live or garbage) with that index,
    /// or `NONE`. Invariant: `entries` values are not `NONE`.
    map: Vec<u32>,
    entries: usize,
    allocator_calls: u64,
}

impl InstanceMap for VecMap {
    #[inline]
    fn get(&self, entity: Entity) -> Option<u32> {
        match self.map.get(entity.index() as usize) {
            Some(&i) if i != NONE => Some(i),
            _ => None,
        }
    }

    fn insert(&mut self, entity: Entity, i: u32) {
        let index = entity.index() as usize;
        if index >= self.map.len() {
            let before = self.map.capacity();
            self.map.resize(index + 1, NONE);
            count_capacity_change(before, self.map.capacity(), &mut self.allocator_calls);
        }
        if self.map[index] == NONE {
            self.entries += 1;
        }
        self.map[index] = i;
    }

    fn remove(&mut self, entity: Entity) {
        if let Some(slot) = self.map.get_mut(entity.index() as usize)
            && *slot != NONE
        {
            *slot = NONE;
            self.entries -= 1;
        }
    }

    fn len(&self) -> usize {
        self.entries
    }

    fn memory_bytes(&self) -> usize {
        self.map.capacity() * size_of::<u32>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}

/// A multiply-shift hash of an entity's 64 bits (index and generation): one multiply by an odd
/// constant, high bits folded down.
#[derive(Debug, Default, Clone, Copy)]
pub struct EntityHasher(u64);

impl Hasher for EntityHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 32)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.0 = (self.0 << 32) | u64::from(v);
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
}

/// `HashMap<Entity, u32>` keyed by the whole entity.
#[derive(Debug, Default)]
pub struct HashIndex {
    map: HashMap<Entity, u32, BuildHasherDefault<EntityHasher>>,
    allocator_calls: u64,
}

impl InstanceMap for HashIndex {
    #[inline]
    fn get(&self, entity: Entity) -> Option<u32> {
        self.map.get(&entity).copied()
    }

    /// A growth allocates the new table, moves the entries and frees the old table: two
    /// allocator calls (one for the first table).
    fn insert(&mut self, entity: Entity, i: u32) {
        let before = self.map.capacity();
        self.map.insert(entity, i);
        if self.map.capacity() != before {
            self.allocator_calls += 1 + u64::from(before > 0);
        }
    }

    fn remove(&mut self, entity: Entity) {
        self.map.remove(&entity);
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    /// SwissTable: `capacity * 8 / 7` buckets (a power of two), each a key-value pair plus
    /// one control byte.
    fn memory_bytes(&self) -> usize {
        let cap = self.map.capacity();
        if cap == 0 {
            return 0;
        }
        let buckets = if cap < 8 {
            (cap + 1).next_power_of_two()
        } else {
            (cap * 8 / 7).next_power_of_two()
        };
        buckets * (size_of::<(Entity, u32)>() + 1)
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }
}
