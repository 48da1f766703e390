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
//! The slot (`PoolSlot`) and the table around it are [`PoolTable`], shared with the pools that
//! differ only in the free-slot policy (`pool_sorted_vec`, `pool_lowest`); this file is the
//! policy: the article's LIFO list through the holes' `next_free` links.

use super::pool_table::{FreeSlots, NIL, PoolSlot, PoolTable};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// Pool with an alive flag per slot and a LIFO free list through the holes; 64-bit IDs.
///
/// ```
/// use impls::id_table::{IdTable, pool::Pool};
///
/// let mut table = Pool::<u32>::new();
/// let a = table.insert(1).unwrap();
/// assert_eq!(table.remove(a), Some(1));
/// let b = table.insert(2).unwrap(); // the hole a left, one generation on
/// assert_eq!((b.index(), table.get(a)), (a.index(), None));
/// ```
pub type Pool<T> = PoolTable<T, LifoList>;

/// The article's free list: the holes linked through their `next_free`, newest first.
#[derive(Debug, Clone)]
pub struct LifoList {
    /// Most recently made hole, or `NIL`. Invariant: every reusable hole is on the list
    /// exactly once; retired holes and alive slots are on no list and have `next_free == NIL`.
    head: u32,
}

impl FreeSlots for LifoList {
    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "pool",
            description: "stable-pointer pool: alive flag + separate free-list link per slot, LIFO reuse, 32-bit index + 32-bit generation",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self { head: NIL }
    }

    #[inline]
    fn insert<T>(table: &mut PoolTable<T, Self>, value: T) -> Result<Id64, TableError> {
        if table.free.head != NIL {
            let index = table.free.head;
            let slot = &mut table.slots[index as usize];
            table.free.head = slot.next_free;
            let generation = slot.occupy(value);
            table.len += 1;
            return Ok(Id64::new(index, generation));
        }
        table.push(value)
    }

    #[inline]
    fn release<T>(&mut self, slot: &mut PoolSlot<T>, index: u32) {
        slot.next_free = self.head;
        self.head = index;
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn check_invariants<T>(&self, slots: &[PoolSlot<T>]) -> Result<(), String> {
        let mut on_list = vec![false; slots.len()];
        let mut cursor = self.head;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(slot) = slots.get(i) else {
                return Err(format!("free list points past the end, at {i}"));
            };
            if !slot.is_reusable() {
                return Err(format!("free list reaches alive or retired slot {i}"));
            }
            if std::mem::replace(&mut on_list[i], true) {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            cursor = slot.next_free;
        }
        for (i, slot) in slots.iter().enumerate() {
            if !slot.is_reusable() {
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
    use crate::id_table::{IdTable, checks, pool_table};

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
        pool_table::slot_is_retired_when_its_generation_would_wrap::<LifoList>();
    }
}
