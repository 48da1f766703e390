//! The article's array of arrays (I5): a hash from key `a` to a slot in a
//! `Vec<Vec<RecordId>>` (`chash32_t observations_by_observed` plus
//! `std::vector<std::vector<uint32_t>> observations_by_observed_arr`).
//!
//! Visits read one small array of IDs, then the records; add is a push (amortised O(1), but an
//! allocation whenever a key's array grows); remove searches the key's array for the ID (O(m))
//! and swap-removes it, so removing all of one key's `m` records is O(m²). A slot whose array
//! empties is dropped from the hash and its array (with its capacity) reused for the next new
//! key. One index (on `a`): the `b` side scans. Capped at [`MAX_SET`] records per key.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use std::collections::HashMap;

use super::arena::RecordArena;
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// Largest set a benchmark replays on the designs whose removal searches the set.
pub const MAX_SET: usize = 16_384;

/// Hash `a` → slot, one `Vec<RecordId>` per slot.
#[derive(Debug, Clone, Default)]
pub struct VecOfVecs {
    arena: RecordArena<()>,
    /// Key → its slot in `arrays`; present exactly for keys with live records.
    slot_of: HashMap<Key, u32>,
    /// `arrays[slot]`: the IDs of the slot's key. Invariant: empty exactly for free slots.
    arrays: Vec<Vec<RecordId>>,
    /// Slots whose arrays are empty, for reuse.
    free_slots: Vec<u32>,
}

impl VecOfVecs {
    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        let slot = self.slot_of[&r.a];
        let array = &mut self.arrays[slot as usize];
        let at = array.iter().position(|&x| x == id).expect("indexed record");
        array.swap_remove(at);
        if array.is_empty() {
            self.slot_of.remove(&r.a);
            self.free_slots.push(slot);
        }
        Ok(r)
    }
}

impl RelationIndex for VecOfVecs {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "vec_of_vecs",
            description: "the article's array of arrays: std HashMap a → slot in a Vec<Vec<u32>> of IDs; removal searches the key's array",
            kind: RelationDesignKind::Article,
        },
        indexes_b: false,
        max_live_records: None,
        max_set_size: Some(MAX_SET),
    };

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        let slot = match self.slot_of.get(&record.a) {
            Some(&slot) => slot,
            None => {
                let slot = self.free_slots.pop().unwrap_or_else(|| {
                    self.arrays.push(Vec::new());
                    (self.arrays.len() - 1) as u32
                });
                self.slot_of.insert(record.a, slot);
                slot
            }
        };
        self.arrays[slot as usize].push(id);
        Ok(id)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.unlink(id)?;
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, mut f: impl FnMut(RecordId, Record)) {
        if let Some(&slot) = self.slot_of.get(&a) {
            for &id in &self.arrays[slot as usize] {
                f(id, self.arena.slots[id as usize].record);
            }
        }
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        self.arena.scan_for(|r| r.b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let &slot = self.slot_of.get(&a)?;
        let id = self.arrays[slot as usize][0];
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.slot_of
            .get(&a)
            .map_or(0, |&slot| self.arrays[slot as usize].len())
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes()
            + hash_map_bytes::<Key, u32>(self.slot_of.capacity())
            + self.arrays.capacity() * size_of::<Vec<RecordId>>()
            + self
                .arrays
                .iter()
                .map(|a| a.capacity() * size_of::<RecordId>())
                .sum::<usize>()
            + self.free_slots.capacity() * size_of::<u32>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        let mut total = 0;
        for (&key, &slot) in &self.slot_of {
            let array = self
                .arrays
                .get(slot as usize)
                .ok_or_else(|| format!("key {key}: slot {slot} out of bounds"))?;
            if array.is_empty() {
                return Err(format!("key {key}: empty array in use"));
            }
            for &id in array {
                if self.arena.get(id).map(|r| r.a) != Ok(key) {
                    return Err(format!("key {key}: id {id} is not a live record of it"));
                }
            }
            total += array.len();
        }
        if total != self.arena.len() {
            return Err(format!(
                "arrays hold {total} ids, {} live",
                self.arena.len()
            ));
        }
        if self.free_slots.len() + self.slot_of.len() != self.arrays.len() {
            return Err("slots are neither used nor free".into());
        }
        Ok(())
    }
}
