//! Stable-pointer pool with a doubly linked list of the live elements: the Blue Moon Games
//! "vector + list hybrid" (seed 004, v2a).
//!
//! `pool`'s slots (object behind an alive flag, generation, LIFO free-list link through the
//! holes; `Id64`: 32-bit index + 32-bit generation) plus two links per slot, `prev` and `next`,
//! that chain the live elements in insertion order (insert appends at the tail, remove unlinks
//! in O(1)). `iter` follows the chain, so it visits exactly the live elements and never tests
//! a hole: the article's aim. The price, as the article says: "2 extra pointers per element …
//! at least 8 bytes more memory" (here two `u32`, 8 bytes), two more writes per insert and
//! remove, and a walk whose order after churn is no longer the slots' address order (each step
//! a dependent load, possibly a cache miss), so "this extra work is not necessarily worth it".
//! `iter_mut` walks the slots in address order and tests the flag (following links would need
//! several `&mut` into one slice, which safe Rust cannot hand out); both visit every live
//! object once.
//!
//! Cost: insert, get, remove O(1); `iter` O(live) dependent steps. A slot whose generation
//! would wrap is retired, so a stale ID never matches again.

use super::pool_table::{NIL, PoolSlot, slot_index};
use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// A `pool` slot plus its place in the live list.
#[derive(Debug, Clone)]
struct LinkedSlot<T> {
    /// Object, alive flag, generation and free-list link, as in `pool`.
    slot: PoolSlot<T>,
    /// Alive: the previous live slot in insertion order, or `NIL` for the first. Hole: `NIL`.
    prev: u32,
    /// Alive: the next live slot, or `NIL` for the last. Hole: `NIL`.
    next: u32,
}

/// Pool with a LIFO free list through the holes and a doubly linked list of live elements.
///
/// ```
/// use impls::id_table::{IdTable, pool_linked::PoolLinked};
///
/// let mut table = PoolLinked::<u32>::new();
/// let ids: Vec<_> = (0..4).map(|i| table.insert(i).unwrap()).collect();
/// table.remove(ids[1]).unwrap();
/// table.insert(9).unwrap(); // reuses slot 1, linked at the tail
/// assert_eq!(table.iter().copied().collect::<Vec<_>>(), [0, 2, 3, 9]);
/// ```
#[derive(Debug, Clone)]
pub struct PoolLinked<T> {
    /// Invariants: alive slots == `len`; every non-retired hole is on the free list exactly
    /// once; the live list from `head` visits every alive slot exactly once, with `prev` the
    /// reverse of `next`, ending at `tail`.
    slots: Vec<LinkedSlot<T>>,
    /// Most recently made hole, or `NIL`.
    free_head: u32,
    /// First live slot in insertion order, or `NIL`.
    head: u32,
    /// Last live slot, or `NIL`.
    tail: u32,
    len: usize,
}

impl<T> PoolLinked<T> {
    /// Links the alive slot `i` at the tail of the live list.
    fn link_last(&mut self, i: u32) {
        let tail = self.tail;
        let s = &mut self.slots[i as usize];
        s.prev = tail;
        s.next = NIL;
        if tail == NIL {
            self.head = i;
        } else {
            self.slots[tail as usize].next = i;
        }
        self.tail = i;
    }

    /// Takes slot `i` out of the live list.
    fn unlink(&mut self, i: u32) {
        let s = &mut self.slots[i as usize];
        let (prev, next) = (s.prev, s.next);
        s.prev = NIL;
        s.next = NIL;
        if prev == NIL {
            self.head = next;
        } else {
            self.slots[prev as usize].next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.slots[next as usize].prev = prev;
        }
    }
}

/// Follows the live list.
struct LiveList<'a, T> {
    slots: &'a [LinkedSlot<T>],
    cursor: u32,
    remaining: usize,
}

impl<'a, T> Iterator for LiveList<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        let s = self.slots.get(self.cursor as usize)?;
        self.cursor = s.next;
        self.remaining -= 1;
        s.slot.value.as_ref()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T: 'static> IdTable<T> for PoolLinked<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "pool_linked",
            description: "stable-pointer pool (alive flag, LIFO free list) plus a doubly linked list of the live elements that iteration follows (+8 B per slot), the article's vector + list hybrid",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_head: NIL,
            head: NIL,
            tail: NIL,
            len: 0,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        let (index, generation) = if self.free_head != NIL {
            let index = self.free_head;
            let slot = &mut self.slots[index as usize].slot;
            self.free_head = slot.next_free;
            (index, slot.occupy(value))
        } else {
            let index = slot_index(self.slots.len())?;
            self.slots.push(LinkedSlot {
                slot: PoolSlot::fresh(value),
                prev: NIL,
                next: NIL,
            });
            (index, 0)
        };
        self.link_last(index);
        self.len += 1;
        Ok(Id64::new(index, generation))
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        self.slots
            .get(id.index() as usize)?
            .slot
            .get(id.generation())
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        self.slots
            .get_mut(id.index() as usize)?
            .slot
            .get_mut(id.generation())
    }

    #[inline]
    fn remove(&mut self, id: Id64) -> Option<T> {
        let index = id.index();
        let slot = &mut self.slots.get_mut(index as usize)?.slot;
        let value = slot.vacate(id.generation())?;
        if !slot.is_retired() {
            slot.next_free = self.free_head;
            self.free_head = index;
        }
        self.unlink(index);
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        LiveList {
            slots: &self.slots,
            cursor: self.head,
            remaining: self.len,
        }
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|s| s.slot.value.as_mut())
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<LinkedSlot<T>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let alive = self.slots.iter().filter(|s| s.slot.is_alive()).count();
        if alive != self.len {
            return Err(format!("len {} but {alive} alive slots", self.len));
        }
        let mut seen = vec![false; self.slots.len()];
        let (mut listed, mut prev, mut cursor) = (0, NIL, self.head);
        while cursor != NIL {
            let i = cursor as usize;
            let Some(s) = self.slots.get(i).filter(|s| s.slot.is_alive()) else {
                return Err(format!("live list reaches slot {i}, which is not alive"));
            };
            if std::mem::replace(&mut seen[i], true) {
                return Err(format!("live list has a cycle through slot {i}"));
            }
            if s.prev != prev {
                return Err(format!("slot {i}'s prev is {}, expected {prev}", s.prev));
            }
            listed += 1;
            prev = cursor;
            cursor = s.next;
        }
        if listed != self.len || prev != self.tail {
            return Err(format!(
                "live list holds {listed} slots ending at {prev}; len {}, tail {}",
                self.len, self.tail
            ));
        }
        let mut on_free = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(s) = self.slots.get(i) else {
                return Err(format!("free list reaches slot {i} past the end"));
            };
            if s.slot.is_alive() || s.slot.is_retired() {
                return Err(format!("free list reaches non-reusable slot {i}"));
            }
            if std::mem::replace(&mut on_free[i], true) {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            cursor = s.slot.next_free;
        }
        for (i, s) in self.slots.iter().enumerate() {
            let reusable = !s.slot.is_alive() && !s.slot.is_retired();
            if reusable != on_free[i] {
                return Err(format!(
                    "hole {i} reusable: {reusable}, on free list: {}",
                    on_free[i]
                ));
            }
            if !s.slot.is_alive() && (s.prev != NIL || s.next != NIL) {
                return Err(format!("hole {i} keeps live-list links"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::checks;
    use crate::id_table::pool_table::RETIRED;

    #[test]
    fn slot_is_the_pool_slot_plus_two_u32_links() {
        assert_eq!(
            std::mem::size_of::<LinkedSlot<[u64; 4]>>(),
            std::mem::size_of::<PoolSlot<[u64; 4]>>() + 8
        );
    }

    #[test]
    fn iteration_follows_insertion_order_and_skips_holes() {
        let (mut t, ids) = checks::filled::<PoolLinked<u32>>(6);
        for i in [0, 2, 5] {
            t.remove(ids[i]).unwrap();
        }
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 3, 4]);
        assert_eq!(t.insert(7).unwrap().index(), 5, "LIFO reuse");
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 3, 4, 7]);
        assert_eq!(t.iter().size_hint(), (4, Some(4)));
        t.check_invariants().unwrap();
        for id in [ids[1], ids[3], ids[4]] {
            t.remove(id).unwrap();
        }
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [7]);
        t.check_invariants().unwrap();
    }

    /// The stated horizon (`StaleDetection::Never`): a slot whose generation would wrap is
    /// retired, as in `pool`.
    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        checks::slot_is_retired_at_its_last_generation::<PoolLinked<u32>>(
            Id64::index,
            Id64::new(0, RETIRED - 1),
            |t| t.slots[0].slot.generation = RETIRED - 1,
        );
    }

    #[test]
    fn check_invariants_catches_a_broken_back_link() {
        let (t, _) = checks::filled::<PoolLinked<u32>>(3);
        checks::check_invariants_catches(t, |t| t.slots[2].prev = 0);
    }
}
