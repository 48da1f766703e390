//! The slot and the table shared by the Blue Moon Games stable-pointer pools
//! ([`pool`](super::pool), [`pool_sorted_vec`](super::pool_sorted_vec),
//! [`pool_lowest`](super::pool_lowest); [`pool_linked`](super::pool_linked) shares the slot).
//!
//! The article's element keeps, as fields of their own, the object behind an alive flag, and a
//! link for the free list; we add a generation per slot so stale IDs are detected. The pools
//! differ only in how they keep the free slots and which one insert reuses (the article's
//! LIFO list, its vector sorted high to low, our two-level bitset), so each design file is its
//! free-slot policy (a [`FreeSlots`]), and this module is the rest, written once:
//!
//! * objects live in one `Vec` of [`PoolSlot`]s and never move; an ID is the slot index plus
//!   the slot's generation ([`Id64`]), so a lookup is a bounds check, one generation compare
//!   and the object from the same slot;
//! * removing an object clears its flag and moves the slot to the next generation; a slot
//!   whose generation would wrap is retired (never reused), so a stale ID never matches again;
//!   every other freed slot goes to the policy ([`FreeSlots::release`]);
//! * insert is the policy's ([`FreeSlots::insert`]): it fills a free slot of its choosing or
//!   appends one;
//! * iteration walks every slot and tests the alive flag, holes included.

use std::fmt::Debug;

use super::{DesignInfo, IdTable};
use crate::TableError;
use crate::id::Id64;

/// End of a free list, and the link of every slot that is not on a free list.
pub(crate) const NIL: u32 = u32::MAX;

/// The generation of a retired hole: one that is never reused, because reusing it would let a
/// 2^32-old ID match again.
pub(crate) const RETIRED: u32 = u32::MAX;

/// One pool element: object behind an alive flag, generation, free-list link.
#[derive(Debug, Clone)]
pub struct PoolSlot<T> {
    /// `Some` iff the slot is alive (the alive flag is `Option`'s tag).
    pub(crate) value: Option<T>,
    /// Alive: the generation IDs of the occupant carry. Hole: the generation the next occupant
    /// gets, one more than the last occupant's; [`RETIRED`] for a hole that is never reused.
    pub(crate) generation: u32,
    /// Hole on `pool`'s free list: the next hole on it (or [`NIL`]). [`NIL`] otherwise, and
    /// always `NIL` in the designs whose free set lives outside the slots.
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

    /// Whether this is a hole that may be reused: on its design's free set.
    pub(crate) fn is_reusable(&self) -> bool {
        !self.is_alive() && !self.is_retired()
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

/// A pool's free-slot policy: which freed slots it keeps and which one insert fills.
pub trait FreeSlots: Sized + Debug + Clone {
    /// Name, kind and capabilities of the design.
    const INFO: DesignInfo;

    /// No free slots.
    fn new() -> Self;

    /// Stores `value` in a free slot of the policy's choosing (taking it off the set), or in a
    /// new slot appended to `table.slots`, and counts it in `table.len`.
    ///
    /// # Errors
    /// [`TableError::IdSpaceExhausted`] when a new slot's index would reach `u32::MAX`, the list
    /// end.
    fn insert<T>(table: &mut PoolTable<T, Self>, value: T) -> Result<Id64, TableError>;

    /// Puts the hole `index` (just vacated, not retired) on the set.
    fn release<T>(&mut self, slot: &mut PoolSlot<T>, index: u32);

    /// Bytes of heap memory the set holds.
    fn memory_bytes(&self) -> usize;

    /// Checks the set against the slots: it holds exactly the reusable holes.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants<T>(&self, slots: &[PoolSlot<T>]) -> Result<(), String>;
}

/// A stable-pointer pool whose free slots the policy `F` keeps; 64-bit IDs.
#[derive(Debug, Clone)]
pub struct PoolTable<T, F> {
    /// Invariant: alive slots == `len`; the reusable holes are exactly those on `free`.
    pub(crate) slots: Vec<PoolSlot<T>>,
    /// Live objects.
    pub(crate) len: usize,
    /// The design's free-slot policy.
    pub(crate) free: F,
}

impl<T, F> PoolTable<T, F> {
    /// Appends `value` in a new slot at generation 0: insert when no free slot is reused.
    ///
    /// # Errors
    /// [`TableError::IdSpaceExhausted`] when the new slot's index would reach [`NIL`].
    #[inline]
    pub(crate) fn push(&mut self, value: T) -> Result<Id64, TableError> {
        let index = slot_index(self.slots.len())?;
        self.slots.push(PoolSlot::fresh(value));
        self.len += 1;
        Ok(Id64::new(index, 0))
    }
}

impl<T: 'static, F: FreeSlots> IdTable<T> for PoolTable<T, F> {
    type Id = Id64;

    const INFO: DesignInfo = F::INFO;

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            len: 0,
            free: F::new(),
        }
    }

    // Insert is the policy's, inlined as the policy marks it.
    #[inline(always)]
    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        F::insert(self, value)
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
            self.free.release(slot, id.index());
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
        self.slots.capacity() * std::mem::size_of::<PoolSlot<T>>() + self.free.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let alive = self.slots.iter().filter(|s| s.is_alive()).count();
        if alive != self.len {
            return Err(format!("len {} but {alive} alive slots", self.len));
        }
        self.free.check_invariants(&self.slots)
    }
}

/// The stated horizon of every pool (`StaleDetection::Never`), run by each design's tests:
/// slot 0's last generation retires it, so the next object goes to slot 1 and both IDs slot 0
/// handed out stay stale. Returns the table for the design's own checks.
#[cfg(test)]
pub(crate) fn slot_is_retired_when_its_generation_would_wrap<F: FreeSlots>() -> PoolTable<u32, F> {
    super::checks::slot_is_retired_at_its_last_generation::<PoolTable<u32, F>>(
        Id64::index,
        Id64::new(0, RETIRED - 1),
        |t| t.slots[0].generation = RETIRED - 1,
    )
}
