//! The bulk array every relation design stores its records in (the article's "large unsorted
//! array" with a free list, from its previous post): slot `id` holds record `id` plus whatever
//! the design keeps inline beside it (`X`: the article's `prev`/`next` links, or nothing), and
//! freed slots are reused most recently freed first, so every design hands out the same IDs.
//!
//! Liveness is one bit per slot, so a stale ID is refused without a sentinel value in the
//! record.

use super::{Key, Record, RecordId, RelationError};
use crate::intrusive_list::{Link, Links};

/// One slot: the record and the design's inline data.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Slot<X> {
    /// The record (meaningless while the slot is free).
    pub record: Record,
    /// The design's inline data for the record.
    pub extra: X,
}

/// Records with permanent IDs and a LIFO free list.
#[derive(Debug, Clone)]
pub struct RecordArena<X> {
    /// `slots[id]`: record `id`. Invariant: `slots.len()` is the number of IDs ever handed out.
    pub slots: Vec<Slot<X>>,
    /// Bit `id` is set exactly while record `id` is live.
    live: Vec<u64>,
    /// Freed IDs, most recently freed last. Invariant: exactly the IDs below `slots.len()`
    /// whose live bit is clear, each once.
    free: Vec<RecordId>,
}

impl<X> Default for RecordArena<X> {
    fn default() -> Self {
        Self {
            slots: Vec::new(),
            live: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<X: Copy + Default> RecordArena<X> {
    /// Number of live records.
    #[inline]
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether no record is live.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of IDs ever handed out (live or free).
    #[inline]
    pub fn id_bound(&self) -> usize {
        self.slots.len()
    }

    /// Whether `id` names a live record.
    #[inline]
    pub fn is_live(&self, id: RecordId) -> bool {
        self.live
            .get(id as usize / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    /// The live record `id`.
    ///
    /// # Errors
    /// [`RelationError::NoSuchRecord`].
    #[inline]
    pub fn get(&self, id: RecordId) -> Result<Record, RelationError> {
        if self.is_live(id) {
            Ok(self.slots[id as usize].record)
        } else {
            Err(RelationError::NoSuchRecord { id })
        }
    }

    /// Stores `record` (inline data reset to its default) and returns its ID.
    ///
    /// # Errors
    /// [`RelationError::IdSpaceExhausted`] past `u32::MAX - 1` records.
    pub fn insert(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let slot = Slot {
            record,
            extra: X::default(),
        };
        let id = match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = slot;
                id
            }
            None => {
                let id = RecordId::try_from(self.slots.len())
                    .ok()
                    .filter(|&id| id < u32::MAX)
                    .ok_or(RelationError::IdSpaceExhausted {
                        limit: u64::from(u32::MAX),
                    })?;
                self.slots.push(slot);
                if id as usize / 64 >= self.live.len() {
                    self.live.push(0);
                }
                id
            }
        };
        self.live[id as usize / 64] |= 1 << (id % 64);
        Ok(id)
    }

    /// Frees live record `id` and returns it.
    ///
    /// # Errors
    /// [`RelationError::NoSuchRecord`].
    pub fn free(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let record = self.get(id)?;
        self.live[id as usize / 64] &= !(1 << (id % 64));
        self.free.push(id);
        Ok(record)
    }

    /// Frees every ID of `ids` (all live, distinct) in ascending order, the family's rule for
    /// [`remove_entity`](super::RelationIndex::remove_entity). Sorts `ids`.
    pub fn free_sorted(&mut self, ids: &mut [RecordId]) {
        ids.sort_unstable();
        for &id in ids.iter() {
            self.free(id).expect("remove_entity frees live records");
        }
    }

    /// Calls `f(id, slot)` for every live record, in ID order.
    #[inline]
    pub fn for_each_live(&self, mut f: impl FnMut(RecordId, &Slot<X>)) {
        for (w, &word) in self.live.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let id = (w * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                f(id, &self.slots[id as usize]);
            }
        }
    }

    /// Calls `f(id, record)` for every live record whose key `key_of(record)` is `key`, in ID
    /// order: a visit by brute force (the scan design, and the `b` side of the designs with
    /// one index).
    #[inline]
    pub fn scan_for(
        &self,
        key_of: impl Fn(&Record) -> Key,
        key: Key,
        mut f: impl FnMut(RecordId, Record),
    ) {
        self.for_each_live(|id, s| {
            if key_of(&s.record) == key {
                f(id, s.record);
            }
        });
    }

    /// Heap bytes of the slots, the live bits and the free list.
    pub fn memory_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Slot<X>>()
            + self.live.capacity() * size_of::<u64>()
            + self.free.capacity() * size_of::<RecordId>()
    }

    /// Checks the free list against the live bits.
    ///
    /// # Errors
    /// The first disagreement.
    pub fn check_invariants(&self) -> Result<(), String> {
        if self.live.len() != self.slots.len().div_ceil(64) {
            return Err(format!(
                "{} live words for {} slots",
                self.live.len(),
                self.slots.len()
            ));
        }
        let mut seen = vec![false; self.slots.len()];
        for &id in &self.free {
            let Some(s) = seen.get_mut(id as usize) else {
                return Err(format!("free id {id} out of bounds"));
            };
            if *s || self.is_live(id) {
                return Err(format!("free id {id} is live or listed twice"));
            }
            *s = true;
        }
        let dead = (0..self.slots.len() as u32)
            .filter(|&id| !self.is_live(id))
            .count();
        if dead != self.free.len() {
            return Err(format!(
                "{dead} dead slots but {} on the free list",
                self.free.len()
            ));
        }
        if let Some(&last) = self.live.last()
            && self.slots.len() % 64 != 0
            && last >> (self.slots.len() % 64) != 0
        {
            return Err("live bits set past the last slot".into());
        }
        Ok(())
    }
}

/// The article's layout: the links inside the record (`observation_t {observed, observer,
/// prev, next}`).
impl Links for [Slot<Link>] {
    #[inline]
    fn link(&self, x: u32) -> Link {
        self[x as usize].extra
    }

    #[inline]
    fn link_mut(&mut self, x: u32) -> &mut Link {
        &mut self[x as usize].extra
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reuses_freed_ids_last_first_and_refuses_stale_ones() {
        let mut arena = RecordArena::<()>::default();
        let r = |a| Record {
            a,
            b: 0,
            payload: 0,
        };
        let ids: Vec<_> = (0..70).map(|i| arena.insert(r(i)).unwrap()).collect();
        assert_eq!(ids[69], 69);
        arena.free(3).unwrap();
        arena.free(65).unwrap();
        assert_eq!(arena.free(3), Err(RelationError::NoSuchRecord { id: 3 }));
        assert_eq!(arena.insert(r(1)), Ok(65));
        let mut many = [10, 5, 7];
        arena.free_sorted(&mut many);
        assert_eq!(arena.insert(r(1)), Ok(10));
        assert_eq!(arena.insert(r(1)), Ok(7));
        assert_eq!(arena.len(), 68);
        let mut count = 0;
        arena.for_each_live(|_, _| count += 1);
        assert_eq!(count, 68);
        arena.check_invariants().unwrap();
    }
}
