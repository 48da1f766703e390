//! The table shared by the tuned slot designs ([`holey_tuned`](super::holey_tuned),
//! [`pool_tuned`](super::pool_tuned)): slots that never move, a LIFO free list through the
//! vacant ones, and a version per slot whose parity says whether the slot holds an object.
//!
//! The designs differ only in how a slot stores the object and the free-list link, so each
//! design file is its slot type (a [`ParitySlot`]) and this module is the algorithm, written
//! once:
//!
//! * a slot's version is odd while it holds an object and even while it is vacant, and grows
//!   by one on every insert and removal; the ID is a [`ParityId`] (odd version by
//!   construction), so `slot.version == id.version()` alone proves the slot holds that object;
//! * insert pops the most recently freed slot; `NIL` (`u32::MAX`) is never a slot index, so
//!   looking the free head up in the slots is the "free list empty" test;
//! * the removal that would wrap a version to 0 retires the slot (never reused, on no list), so
//!   a slot serves 2^31 objects and a stale ID never matches again;
//! * a lookup is a bounds check of the ID's index, one comparison of the slot's version, then
//!   the object from the same slot; a stale ID stops at the version (4 bytes, one cache line,
//!   whether the slot is vacant or reused). How many lines a live lookup touches depends on the
//!   slot's size and where it keeps its version: each design file's "Cost per lookup" gives
//!   the cache pass's counts.

use super::{DesignInfo, IdTable};
use crate::TableError;
use crate::id::ParityId;

/// End of the free list; never a slot index (the table refuses to grow to it).
pub const NIL: u32 = u32::MAX;

/// The version of a retired slot: vacant (even) and on no list. A slot's first object gets
/// version 1, and only the removal of an object with version `u32::MAX` wraps to it.
pub const RETIRED: u32 = 0;

/// One slot of a [`ParityTable`]: an object or a free-list link, and a version whose parity
/// says which (odd: the object).
///
/// # Safety
/// Implementations keep that invariant in every method: the version is odd exactly while the
/// slot holds an initialised object, `next_free` is `Some` exactly while it is even, `fill`
/// and `vacate` change the version by one. [`ParityTable`] relies on it when it calls `fill` on
/// the slot its free list names.
pub unsafe trait ParitySlot<T>: Sized {
    /// The design's name, kind and guarantees.
    const INFO: DesignInfo;

    /// A slot holding `value`, with the odd version `version`.
    fn occupied(value: T, version: u32) -> Self;

    /// Odd: the slot holds an object; even: it is vacant.
    fn version(&self) -> u32;

    /// The object, if the version is odd.
    fn value(&self) -> Option<&T>;

    /// The object mutably, if the version is odd.
    fn value_mut(&mut self) -> Option<&mut T>;

    /// The object `id` names: the slot's version equals the ID's (odd) one.
    fn get(&self, id: ParityId) -> Option<&T>;

    /// The object `id` names, mutably.
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T>;

    /// A vacant slot's free-list link; `None` for a slot holding an object.
    fn next_free(&self) -> Option<u32>;

    /// Puts `value` in this vacant slot, makes its version odd (one more) and returns its
    /// former free-list link and the new version.
    ///
    /// # Safety
    /// The slot must be vacant (even version) and not retired.
    unsafe fn fill(&mut self, value: T) -> (u32, u32);

    /// Takes the object out, stores `next_free` as the link and makes the version even (one
    /// more, wrapping to [`RETIRED`]).
    ///
    /// # Safety
    /// The slot must hold an object (odd version).
    unsafe fn vacate(&mut self, next_free: u32) -> T;

    /// Sets the version of a vacant slot (tests: reach a version's end without 2^31 reuses).
    #[cfg(test)]
    fn set_vacant_version(&mut self, version: u32);
}

/// Slots of layout `S` that never move, a LIFO free list through the vacant ones, 64-bit
/// [`ParityId`]s.
pub struct ParityTable<T, S> {
    /// Invariant: slots with odd versions == `len`; every vacant slot whose version is not
    /// `RETIRED` is on the free list exactly once, and only those are; `slots.len() < NIL`.
    slots: Vec<S>,
    /// Most recently freed slot, or `NIL`.
    free_head: u32,
    len: usize,
    _objects: std::marker::PhantomData<T>,
}

impl<T, S> std::fmt::Debug for ParityTable<T, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParityTable")
            .field("slots", &self.slots.len())
            .field("len", &self.len)
            .field("free_head", &self.free_head)
            .finish()
    }
}

impl<T: 'static, S: ParitySlot<T> + 'static> IdTable<T> for ParityTable<T, S> {
    type Id = ParityId;

    const INFO: DesignInfo = S::INFO;

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_head: NIL,
            len: 0,
            _objects: std::marker::PhantomData,
        }
    }

    #[inline]
    fn insert(&mut self, value: T) -> Result<ParityId, TableError> {
        let index = self.free_head;
        // `NIL` is never a slot index, so this lookup is also the "free list empty" test.
        if let Some(slot) = self.slots.get_mut(index as usize) {
            // SAFETY: the free list holds only vacant, unretired slots (invariant of `slots`).
            let (next_free, version) = unsafe { slot.fill(value) };
            self.free_head = next_free;
            self.len += 1;
            return Ok(ParityId::from_odd(index, version));
        }
        let index = u32::try_from(self.slots.len())
            .ok()
            .filter(|&i| i != NIL)
            .ok_or(TableError::IdSpaceExhausted {
                created: self.slots.len() as u64,
            })?;
        self.slots.push(S::occupied(value, 1));
        self.len += 1;
        Ok(ParityId::from_odd(index, 1))
    }

    #[inline]
    fn get(&self, id: ParityId) -> Option<&T> {
        self.slots.get(id.index() as usize)?.get(id)
    }

    #[inline]
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T> {
        self.slots.get_mut(id.index() as usize)?.get_mut(id)
    }

    #[inline]
    fn remove(&mut self, id: ParityId) -> Option<T> {
        let index = id.index();
        let slot = self.slots.get_mut(index as usize)?;
        if slot.version() != id.version() {
            return None;
        }
        // The table's bookkeeping first, from values in registers: the slot's new version is
        // `id.version() + 1`, which wraps to `RETIRED` exactly for the last odd version.
        let free_head = self.free_head;
        if id.version() != u32::MAX {
            self.free_head = index;
        }
        self.len -= 1;
        // SAFETY: the slot's version equals the ID's, which is odd: the slot holds an object.
        Some(unsafe { slot.vacate(free_head) })
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(S::value)
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(S::value_mut)
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<S>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let occupied = self.slots.iter().filter(|s| s.version() & 1 == 1).count();
        if occupied != self.len {
            return Err(format!("len {} but {occupied} occupied slots", self.len));
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(slot) = self.slots.get(i) else {
                return Err(format!("free list reaches slot {i} past the end"));
            };
            let Some(next) = slot.next_free() else {
                return Err(format!("free list reaches occupied slot {i}"));
            };
            if slot.version() == RETIRED {
                return Err(format!("retired slot {i} is on the free list"));
            }
            if std::mem::replace(&mut on_list[i], true) {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            cursor = next;
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if slot.version() & 1 == 0 && slot.version() != RETIRED && !on_list[i] {
                return Err(format!("vacant slot {i} is not on the free list"));
            }
        }
        Ok(())
    }
}

/// The behaviour every [`ParitySlot`] layout must show in a [`ParityTable`]; each design's
/// tests call these with its slot type.
#[cfg(test)]
pub(crate) mod tests {
    use std::rc::Rc;

    use super::*;

    /// LIFO reuse, versions alternating parity, stale and foreign IDs missing.
    pub(crate) fn free_list_is_lifo_and_stale_ids_miss<S: ParitySlot<u32> + 'static>() {
        let mut t = ParityTable::<u32, S>::new();
        let ids: Vec<_> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        assert!(ids.iter().all(|id| id.version() == 1));
        t.remove(ids[1]).unwrap();
        t.remove(ids[2]).unwrap();
        assert_eq!(t.slots[1].version(), 2);
        let c = t.insert(10).unwrap();
        assert_eq!((c.index(), c.version()), (2, 3));
        assert_eq!(t.insert(11).unwrap().index(), 1);
        assert_eq!(t.insert(12).unwrap().index(), 4);
        assert_eq!(t.get(ids[2]), None);
        assert_eq!(t.get_mut(ids[1]), None);
        assert_eq!(t.remove(ids[1]), None);
        assert_eq!(t.get(c), Some(&10));
        *t.get_mut(c).unwrap() += 1;
        assert_eq!(t.get(ParityId::new(9, 1)), None);
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [0, 11, 11, 3, 12]);
        t.check_invariants().unwrap();
        // A vacant slot's version, even, makes an ID of the next occupant's (odd) version.
        t.remove(c).unwrap();
        let forged = ParityId::new(2, 4);
        assert_eq!(forged.version(), 5);
        assert_eq!(t.get(forged), None);
        assert_eq!(t.remove(forged), None);
        t.check_invariants().unwrap();
    }

    /// Objects removed, overwritten through `iter_mut`, or left in the table at its drop are
    /// each dropped exactly once.
    pub(crate) fn every_object_is_dropped_exactly_once<S: ParitySlot<Rc<()>> + 'static>() {
        let token = Rc::new(());
        let mut t = ParityTable::<Rc<()>, S>::new();
        let ids: Vec<_> = (0..6)
            .map(|_| t.insert(Rc::clone(&token)).unwrap())
            .collect();
        drop(t.remove(ids[0]));
        drop(t.remove(ids[3]));
        for value in t.iter_mut() {
            *value = Rc::clone(&token);
        }
        assert_eq!(Rc::strong_count(&token), 5);
        t.insert(Rc::clone(&token)).unwrap();
        assert_eq!(Rc::strong_count(&token), 6);
        drop(t);
        assert_eq!(Rc::strong_count(&token), 1);
    }

    /// The removal that would wrap a version retires the slot: never reused, old IDs stale.
    pub(crate) fn slot_is_retired_when_its_version_would_wrap<S: ParitySlot<u32> + 'static>() {
        let mut t = ParityTable::<u32, S>::new();
        let first = t.insert(0).unwrap();
        t.remove(first).unwrap();
        t.slots[0].set_vacant_version(u32::MAX - 1);
        let last = t.insert(1).unwrap();
        assert_eq!(last, ParityId::new(0, u32::MAX));
        assert_eq!(t.remove(last), Some(1));
        t.check_invariants().unwrap();
        assert_eq!(
            t.insert(2).unwrap().index(),
            1,
            "the retired slot is never reused"
        );
        assert_eq!(t.get(first), None);
        assert_eq!(t.get(last), None);
        assert_eq!(t.len(), 1);
        t.check_invariants().unwrap();
    }
}
