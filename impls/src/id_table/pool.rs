//! Stable-pointer pool: the Blue Moon Games "second version", with an alive flag per element and
//! a LIFO free list threaded through the holes.
//!
//! Objects live in one `Vec` of slots and never move. Each slot keeps, as separate fields, the
//! object behind an alive flag (`Option<T>`: its tag is the article's `MarkEmpty` flag), the slot's
//! generation and the article's `nextEmpty` link. An ID is the slot index plus the generation
//! (`Id64`: 32 + 32 bits; the article hands out raw pointers, we add the generation so stale IDs
//! are detected). Removing an object clears the flag and pushes the slot on the free list; insert
//! pops the most recently made hole (LIFO, the article's `firstEmpty`).
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot and tests the
//! alive flag, so it pays per slot, holes included, with a data-dependent branch per slot.
//!
//! Trade-off against `holey` (same algorithm): the link is a field of its own, as in the
//! article's element, instead of sharing storage with the object, so a slot is
//! `size_of::<Option<T>>() + 8` bytes rounded to `T`'s alignment (48 bytes for a 32-byte,
//! 8-aligned payload, against 40 for `holey`). A slot whose generation would wrap is retired
//! (never reused), so a stale ID never matches again.
//!
//! The slot type (`PoolSlot`) is shared with the `pool_lowest` design, which differs only in the free-slot
//! policy.

use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// End of the free list, and the link of every slot that is not on a free list.
pub(crate) const NIL: u32 = u32::MAX;

/// The generation of a retired hole: one that is never reused, because reusing it would let a
/// 2^32-old ID match again.
pub(crate) const RETIRED: u32 = u32::MAX;

/// One pool element: object behind an alive flag, generation, free-list link.
#[derive(Debug, Clone)]
pub(crate) struct PoolSlot<T> {
    /// `Some` iff the slot is alive (the alive flag is `Option`'s tag).
    pub(crate) value: Option<T>,
    /// Alive: the generation IDs of the occupant carry. Hole: the generation the next occupant
    /// gets, one more than the last occupant's; [`RETIRED`] for a hole that is never reused.
    pub(crate) generation: u32,
    /// Hole on `Pool`'s free list: the next hole on it (or [`NIL`]). [`NIL`] otherwise, and
    /// always `NIL` in `pool_lowest`, whose free set is a bitset.
    pub(crate) next_free: u32,
}

impl<T> PoolSlot<T> {
    /// A fresh alive slot holding `value` at generation 0.
    pub(crate) fn fresh(value: T) -> Self {
        Self {
            value: Some(value),
            generation: 0,
            next_free: NIL,
        }
    }

    /// Whether the alive flag is set.
    #[inline]
    pub(crate) fn is_alive(&self) -> bool {
        self.value.is_some()
    }

    /// Whether this is a hole that must never be reused.
    pub(crate) fn is_retired(&self) -> bool {
        !self.is_alive() && self.generation == RETIRED
    }

    /// The object, if alive and `generation` matches.
    #[inline]
    pub(crate) fn get(&self, generation: u32) -> Option<&T> {
        if self.generation == generation {
            self.value.as_ref()
        } else {
            None
        }
    }

    /// The object mutably, if alive and `generation` matches.
    #[inline]
    pub(crate) fn get_mut(&mut self, generation: u32) -> Option<&mut T> {
        if self.generation == generation {
            self.value.as_mut()
        } else {
            None
        }
    }

    /// Puts `value` in this hole and returns the generation of its ID. The caller has taken the
    /// slot off its free set.
    pub(crate) fn occupy(&mut self, value: T) -> u32 {
        debug_assert!(!self.is_alive() && !self.is_retired());
        self.value = Some(value);
        self.next_free = NIL;
        self.generation
    }

    /// Takes the object out if alive and `generation` matches, and moves the slot to the next
    /// generation (which is [`RETIRED`] after `u32::MAX - 1` reuses). The caller puts the hole
    /// on its free set unless [`Self::is_retired`].
    pub(crate) fn vacate(&mut self, generation: u32) -> Option<T> {
        if self.generation != generation {
            return None;
        }
        let value = self.value.take()?;
        self.generation = generation.wrapping_add(1);
        Some(value)
    }
}

/// Converts a new slot's position into a slot index, refusing the one index reserved as [`NIL`].
pub(crate) fn slot_index(index: usize) -> Result<u32, TableError> {
    u32::try_from(index)
        .ok()
        .filter(|&i| i != NIL)
        .ok_or(TableError::IdSpaceExhausted {
            created: index as u64,
        })
}

/// Pool with an alive flag per slot and a LIFO free list through the holes; 64-bit IDs.
#[derive(Debug, Clone)]
pub struct Pool<T> {
    /// Invariant: alive slots == `len`; every non-retired hole is on the free list exactly once;
    /// retired holes and alive slots are on no list and have `next_free == NIL`.
    slots: Vec<PoolSlot<T>>,
    /// Most recently made hole, or `NIL`.
    free_head: u32,
    len: usize,
}

impl<T: 'static> IdTable<T> for Pool<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "pool",
            description: "stable-pointer pool: alive flag + separate free-list link per slot, LIFO reuse, 32-bit index + 32-bit generation",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_head: NIL,
            len: 0,
        }
    }

    #[inline]
    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        if self.free_head != NIL {
            let index = self.free_head;
            let slot = &mut self.slots[index as usize];
            self.free_head = slot.next_free;
            let generation = slot.occupy(value);
            self.len += 1;
            return Ok(Id64::new(index, generation));
        }
        let index = slot_index(self.slots.len())?;
        self.slots.push(PoolSlot::fresh(value));
        self.len += 1;
        Ok(Id64::new(index, 0))
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        self.slots.get(id.index() as usize)?.get(id.generation())
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        self.slots
            .get_mut(id.index() as usize)?
            .get_mut(id.generation())
    }

    #[inline]
    fn remove(&mut self, id: Id64) -> Option<T> {
        let slot = self.slots.get_mut(id.index() as usize)?;
        let value = slot.vacate(id.generation())?;
        if !slot.is_retired() {
            slot.next_free = self.free_head;
            self.free_head = id.index();
        }
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|slot| slot.value.as_ref())
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|slot| slot.value.as_mut())
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<PoolSlot<T>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let alive = self.slots.iter().filter(|s| s.is_alive()).count();
        if alive != self.len {
            return Err(format!("len {} but {} alive slots", self.len, alive));
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(slot) = self.slots.get(i) else {
                return Err(format!("free list points past the end, at {i}"));
            };
            if slot.is_alive() {
                return Err(format!("free list reaches alive slot {i}"));
            }
            if slot.is_retired() {
                return Err(format!("retired slot {i} is on the free list"));
            }
            if on_list[i] {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            on_list[i] = true;
            cursor = slot.next_free;
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if slot.is_alive() || slot.is_retired() {
                if slot.next_free != NIL {
                    return Err(format!("slot {i} is off the free list but has a link"));
                }
            } else if !on_list[i] {
                return Err(format!("hole {i} is not on the free list"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::checks;

    #[test]
    fn slot_is_flagged_payload_plus_generation_and_link() {
        assert_eq!(std::mem::size_of::<PoolSlot<[u64; 4]>>(), 48);
    }

    #[test]
    fn free_list_is_lifo() {
        let refills = checks::holes_are_reused_newest_first::<Pool<u32>>([1, 2], Id64::index);
        assert_eq!(refills, [Id64::new(2, 1), Id64::new(1, 1)]);
    }

    #[test]
    fn iteration_skips_dead_slots() {
        let (mut t, ids) = checks::filled::<Pool<u32>>(5);
        t.remove(ids[0]).unwrap();
        t.remove(ids[3]).unwrap();
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 4]);
    }

    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        checks::slot_is_retired_at_its_last_generation::<Pool<u32>>(
            Id64::index,
            Id64::new(0, RETIRED - 1),
            |t| t.slots[0].generation = RETIRED - 1,
        );
    }
}
