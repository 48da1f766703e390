//! Array with holes: the article's second design, with a 64-bit ID and a LIFO free list.
//!
//! Objects live in one `Vec` of slots and never move, so an ID is the slot index plus the
//! slot's generation (`Id64`: 32 + 32 bits). Removing an object leaves a hole; the holes form
//! a singly linked LIFO free list threaded through the vacant slots themselves (no side
//! allocation), and insert fills the most recently made hole first.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, so at 50% holes it touches twice the memory of a packed array (the article's
//! argument for the packed design) and branches on every slot.
//!
//! Differences from the article, kept small and stated: the generation is per slot and
//! incremented on removal (the article uses one global `_next_inner_id` counter, which wraps
//! after 2^32 creations); a slot whose generation would wrap is retired (never reused), so a
//! stale ID can never match again.

use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// End of the free list.
const NIL: u32 = u32::MAX;

/// One slot. The generation sits in both variants so that it shares the enum's first word with
/// the discriminant: a slot is `size_of::<T>() + 8` bytes for an 8-aligned `T`.
/// Shared with `holey_skip`, which adds a live-slot bitmask on top of this design, and with
/// `holey32`, whose holes form a queue.
#[derive(Debug, Clone)]
pub(crate) enum Slot<T> {
    /// A live object; IDs with this `generation` name it.
    Occupied { generation: u32, value: T },
    /// A hole; `next_free` is the next hole on the design's free list or queue (or its end
    /// marker). `generation` is the generation the next object in this slot will get; it is one
    /// more than the last occupant's (wrapped), so that occupant's IDs are stale.
    Vacant { generation: u32, next_free: u32 },
}

impl<T> Slot<T> {
    /// The live object, if any: what iteration yields.
    #[inline]
    pub(crate) fn value(&self) -> Option<&T> {
        match self {
            Slot::Occupied { value, .. } => Some(value),
            Slot::Vacant { .. } => None,
        }
    }

    /// The live object, mutably, if any.
    #[inline]
    pub(crate) fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            Slot::Occupied { value, .. } => Some(value),
            Slot::Vacant { .. } => None,
        }
    }
}

/// Array with holes, 64-bit IDs, LIFO free list through the holes.
#[derive(Debug, Clone)]
pub struct Holey<T> {
    /// Invariant: `Occupied` count == `len`; every `Vacant` slot with generation < `u32::MAX`
    /// is on the free list exactly once; retired slots (generation `u32::MAX`) are on no list.
    slots: Vec<Slot<T>>,
    /// Most recently freed slot, or `NIL`.
    free_head: u32,
    len: usize,
}

impl<T> Holey<T> {
    /// The slots, for designs layered on this one (`holey_skip` iterates them by bitmask).
    pub(crate) fn slots(&self) -> &[Slot<T>] {
        &self.slots
    }

    /// The slots, mutably; callers may change values but never a slot's variant.
    pub(crate) fn slots_mut(&mut self) -> &mut [Slot<T>] {
        &mut self.slots
    }

    /// Sets the generation of the vacant slot `index` (its place on the free list unchanged),
    /// so tests reach a generation's end without 2^32 reuses.
    #[cfg(test)]
    pub(crate) fn fast_forward_vacant(&mut self, index: usize, to: u32) {
        let Slot::Vacant { generation, .. } = &mut self.slots[index] else {
            panic!("slot {index} is occupied");
        };
        *generation = to;
    }

    /// Appends `n` copies of `value` in fresh slots at the end, generation 0, when no freed
    /// slot waits on the free list: then this is what `n` calls of `insert` do, with one
    /// reservation. Returns the new slots' indices (the IDs are `Id64::new(index, 0)`), or
    /// `None`, changing nothing, when the free list is not empty (`insert` would fill its
    /// holes first: the caller inserts one by one).
    ///
    /// # Errors
    /// [`TableError::IdSpaceExhausted`] if the last new index would reach `u32::MAX` (nothing
    /// changes).
    pub(crate) fn insert_fresh_run(
        &mut self,
        n: usize,
        value: T,
    ) -> Result<Option<std::ops::Range<u32>>, TableError>
    where
        T: Clone,
    {
        if self.free_head != NIL {
            return Ok(None);
        }
        let start = Self::slot_index(self.slots.len())?;
        let end = match n {
            0 => start,
            _ => Self::slot_index(self.slots.len() + n - 1)? + 1,
        };
        self.slots.extend(std::iter::repeat_n(
            Slot::Occupied {
                generation: 0,
                value,
            },
            n,
        ));
        self.len += n;
        Ok(Some(start..end))
    }

    fn slot_index(index: usize) -> Result<u32, TableError> {
        u32::try_from(index)
            .ok()
            .filter(|&i| i != NIL)
            .ok_or(TableError::IdSpaceExhausted {
                created: index as u64,
            })
    }
}

impl<T: 'static> IdTable<T> for Holey<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "holey",
            description: "array with holes, LIFO free list through the holes, 32-bit index + 32-bit generation",
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
            let Slot::Vacant {
                generation,
                next_free,
            } = *slot
            else {
                unreachable!("free list points at an occupied slot");
            };
            self.free_head = next_free;
            *slot = Slot::Occupied { generation, value };
            self.len += 1;
            return Ok(Id64::new(index, generation));
        }
        let index = Self::slot_index(self.slots.len())?;
        self.slots.push(Slot::Occupied {
            generation: 0,
            value,
        });
        self.len += 1;
        Ok(Id64::new(index, 0))
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        match self.slots.get(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        match self.slots.get_mut(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    #[inline]
    fn remove(&mut self, id: Id64) -> Option<T> {
        let index = id.index();
        let slot = self.slots.get_mut(index as usize)?;
        match slot {
            Slot::Occupied { generation, .. } if *generation == id.generation() => {}
            _ => return None,
        }
        let next_generation = id.generation().wrapping_add(1);
        let retired = next_generation == u32::MAX;
        let vacant = Slot::Vacant {
            generation: next_generation,
            next_free: if retired { NIL } else { self.free_head },
        };
        let Slot::Occupied { value, .. } = std::mem::replace(slot, vacant) else {
            unreachable!()
        };
        if !retired {
            self.free_head = index;
        }
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(Slot::value)
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(Slot::value_mut)
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot<T>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let occupied = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Occupied { .. }))
            .count();
        if occupied != self.len {
            return Err(format!("len {} but {} occupied slots", self.len, occupied));
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            match self.slots.get(i) {
                Some(Slot::Vacant {
                    generation,
                    next_free,
                }) => {
                    if on_list[i] {
                        return Err(format!("free list has a cycle through slot {i}"));
                    }
                    if *generation == u32::MAX {
                        return Err(format!("retired slot {i} is on the free list"));
                    }
                    on_list[i] = true;
                    cursor = *next_free;
                }
                _ => return Err(format!("free list reaches non-vacant slot {i}")),
            }
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if let Slot::Vacant { generation, .. } = slot
                && *generation != u32::MAX
                && !on_list[i]
            {
                return Err(format!("vacant slot {i} is not on the free list"));
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
    fn slot_is_payload_plus_one_word() {
        assert_eq!(std::mem::size_of::<Slot<[u64; 4]>>(), 40);
    }

    #[test]
    fn a_fresh_run_is_n_inserts_and_waits_for_an_empty_free_list() {
        let mut t = Holey::<u32>::new();
        let mut one_by_one = Holey::<u32>::new();
        one_by_one.insert(9).unwrap();
        t.insert(9).unwrap();
        assert_eq!(t.insert_fresh_run(3, 7), Ok(Some(1..4)));
        for _ in 0..3 {
            one_by_one.insert(7).unwrap();
        }
        assert_eq!(format!("{t:?}"), format!("{one_by_one:?}"));
        assert_eq!(t.get(Id64::new(3, 0)), Some(&7));
        t.check_invariants().unwrap();
        t.remove(Id64::new(2, 0)).unwrap();
        assert_eq!(t.insert_fresh_run(2, 5), Ok(None));
        assert_eq!(t.len(), 3);
        t.check_invariants().unwrap();
    }

    #[test]
    fn free_list_is_lifo() {
        checks::holes_are_reused_newest_first::<Holey<u32>>([1, 2], Id64::index);
    }

    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        checks::slot_is_retired_at_its_last_generation::<Holey<u32>>(
            Id64::index,
            Id64::new(0, u32::MAX - 1),
            |t| t.fast_forward_vacant(0, u32::MAX - 1),
        );
    }
}
