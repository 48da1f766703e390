//! Stable-pointer pool, tuned: the Blue Moon Games pool ([`pool`](super::pool)) with its alive
//! flag folded into the generation.
//!
//! The design is `pool`'s, element for element: objects live in one `Vec` of slots and never
//! move; each slot keeps the object, the alive state, the generation and the article's
//! `nextEmpty` link as fields of their own (the link does not share storage with the object, as
//! in the article's element); insert pops the most recently made hole (LIFO `firstEmpty`). What
//! changes:
//!
//! * **no `Option` tag**: the alive flag is the low bit of a version (odd: alive, even: hole),
//!   and the object sits in a `MaybeUninit<T>` that the version's parity says is initialised.
//!   A slot is `size_of::<T>() + 8` rounded to `T`'s alignment: 40 bytes for the 32-byte,
//!   8-aligned payload where `pool` needs 48 (the `Option` tag costs a word there);
//! * **one comparison per lookup**: the ID is a [`ParityId`] (odd version by construction),
//!   so `slot.version == id.version()` alone proves the slot is alive with that object;
//! * `NIL` (`u32::MAX`) is never a slot index, so looking the free head up is the emptiness
//!   test.
//!
//! The version advances on every insert and removal, so a slot serves 2^31 objects; the removal
//! that would wrap it retires the slot, so a stale ID never matches again. Beside
//! [`holey_tuned`](super::holey_tuned), which stores the link inside the hole, it shows what the
//! article's separate link field costs once the flag is gone: nothing at 32-byte objects, 4
//! bytes per slot at 8-byte ones.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, testing the version's low bit.

use std::mem::MaybeUninit;

use super::{DesignInfo, DesignKind, IdTable, StaleDetection, id_bytes};
use crate::TableError;
use crate::id::ParityId;

/// End of the free list, and the link of every slot not on it; never a slot index.
const NIL: u32 = u32::MAX;

/// The version of a retired hole (never reused): a slot's first object gets version 1, and only
/// the removal of an object with version `u32::MAX` wraps to it.
const RETIRED: u32 = 0;

/// One pool element: the object, its version (alive flag in the low bit), the free link.
struct Slot<T> {
    /// Initialised exactly when `version` is odd.
    value: MaybeUninit<T>,
    /// Odd: alive, and IDs with exactly this version name the object. Even: a hole, and the
    /// next object gets `version + 1`; `RETIRED` holes are never reused.
    version: u32,
    /// A hole on the free list: the next hole on it, or `NIL`. `NIL` otherwise.
    next_free: u32,
}

impl<T> Slot<T> {
    #[inline]
    fn is_alive(&self) -> bool {
        self.version & 1 == 1
    }

    /// The object, if alive.
    #[inline]
    fn value(&self) -> Option<&T> {
        // SAFETY: an odd version means `value` is initialised (the invariant of `version`,
        // kept by every write in this file).
        self.is_alive()
            .then(|| unsafe { self.value.assume_init_ref() })
    }

    /// The object mutably, if alive.
    #[inline]
    fn value_mut(&mut self) -> Option<&mut T> {
        if self.is_alive() {
            // SAFETY: as in `value`: odd version, initialised object.
            Some(unsafe { self.value.assume_init_mut() })
        } else {
            None
        }
    }

    /// The object `id` names, if the slot still holds it.
    #[inline]
    fn get(&self, id: ParityId) -> Option<&T> {
        if self.version == id.version() {
            // SAFETY: a `ParityId`'s version is odd, so this slot's is: the object is
            // initialised.
            Some(unsafe { self.value.assume_init_ref() })
        } else {
            None
        }
    }

    /// The object `id` names, mutably, if the slot still holds it.
    #[inline]
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T> {
        if self.version == id.version() {
            // SAFETY: as in `get`: the version equals an odd `ParityId` version.
            Some(unsafe { self.value.assume_init_mut() })
        } else {
            None
        }
    }
}

impl<T> Drop for Slot<T> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<T>() && self.is_alive() {
            // SAFETY: an odd version means the object is initialised; the slot is going away,
            // so it is dropped exactly once, here.
            unsafe { self.value.assume_init_drop() }
        }
    }
}

/// Pool with the alive flag in the version's parity and a LIFO free list; 64-bit IDs.
///
/// ```
/// use impls::id_table::{IdTable, pool_tuned::PoolTuned};
///
/// let mut table = PoolTuned::<u32>::new();
/// let a = table.insert(1).unwrap();
/// let b = table.insert(2).unwrap();
/// assert_eq!(table.remove(a), Some(1));
/// let c = table.insert(3).unwrap(); // reuses a's slot, one version on
/// assert_eq!((c.index(), table.get(a)), (a.index(), None));
/// assert_eq!(table.iter().copied().collect::<Vec<_>>(), [3, 2]);
/// # let _ = b;
/// ```
pub struct PoolTuned<T> {
    /// Invariant: alive slots == `len`; every hole that is not `RETIRED` is on the free list
    /// exactly once, and only those are; `slots.len() < NIL`.
    slots: Vec<Slot<T>>,
    /// Most recently made hole, or `NIL`.
    free_head: u32,
    len: usize,
}

impl<T> std::fmt::Debug for PoolTuned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PoolTuned")
            .field("slots", &self.slots.len())
            .field("len", &self.len)
            .field("free_head", &self.free_head)
            .finish()
    }
}

impl<T: 'static> IdTable<T> for PoolTuned<T> {
    type Id = ParityId;

    const INFO: DesignInfo = DesignInfo {
        name: "pool_tuned",
        description: "pool with the alive flag folded into an odd/even version (no Option tag, one compare per lookup), separate nextEmpty link, LIFO free list",
        kind: DesignKind::Tuned,
        id_bytes: id_bytes::<ParityId>(),
        stale: StaleDetection::Never,
        demonstrates: None,
        capacity: None,
        remove_shift_cap: None,
    };

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_head: NIL,
            len: 0,
        }
    }

    #[inline]
    fn insert(&mut self, value: T) -> Result<ParityId, TableError> {
        let index = self.free_head;
        // `NIL` is never a slot index, so this lookup is also the "free list empty" test.
        if let Some(slot) = self.slots.get_mut(index as usize) {
            debug_assert!(!slot.is_alive());
            self.free_head = std::mem::replace(&mut slot.next_free, NIL);
            // The hole's object is uninitialised: writing does not drop anything.
            slot.value.write(value);
            // Holes on the list have even versions below `u32::MAX`: no overflow, now odd.
            slot.version += 1;
            self.len += 1;
            return Ok(ParityId::from_odd(index, slot.version));
        }
        let index = u32::try_from(self.slots.len())
            .ok()
            .filter(|&i| i != NIL)
            .ok_or(TableError::IdSpaceExhausted {
                created: self.slots.len() as u64,
            })?;
        self.slots.push(Slot {
            value: MaybeUninit::new(value),
            version: 1,
            next_free: NIL,
        });
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
        if slot.version != id.version() {
            return None;
        }
        // The version turns even on the next line, before anything can read or drop the object
        // again, so it is moved out exactly once.
        slot.version = slot.version.wrapping_add(1);
        // SAFETY: the version was equal to an odd `ParityId` version, so the object is
        // initialised; the slot is now a hole, whose object is never read.
        let value = unsafe { slot.value.assume_init_read() };
        if slot.version != RETIRED {
            slot.next_free = self.free_head;
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
        let alive = self.slots.iter().filter(|s| s.is_alive()).count();
        if alive != self.len {
            return Err(format!("len {} but {alive} alive slots", self.len));
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            match self.slots.get(i) {
                Some(s) if !s.is_alive() && s.version != RETIRED => {
                    if std::mem::replace(&mut on_list[i], true) {
                        return Err(format!("free list has a cycle through slot {i}"));
                    }
                    cursor = s.next_free;
                }
                _ => return Err(format!("free list reaches slot {i}, not a reusable hole")),
            }
        }
        for (i, s) in self.slots.iter().enumerate() {
            if !s.is_alive() && s.version != RETIRED && !on_list[i] {
                return Err(format!("hole {i} is not on the free list"));
            }
            if !on_list[i] && s.next_free != NIL {
                return Err(format!("slot {i} is off the free list but links to one"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    #[test]
    fn slot_is_payload_plus_two_words_rounded_to_alignment() {
        assert_eq!(std::mem::size_of::<Slot<[u64; 4]>>(), 40);
        assert_eq!(std::mem::size_of::<Slot<[u32; 2]>>(), 16);
    }

    #[test]
    fn free_list_is_lifo_and_stale_ids_miss() {
        let mut t = PoolTuned::<u32>::new();
        let ids: Vec<_> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        t.remove(ids[1]).unwrap();
        t.remove(ids[2]).unwrap();
        let c = t.insert(10).unwrap();
        assert_eq!((c.index(), c.version()), (2, 3));
        assert_eq!(t.insert(11).unwrap().index(), 1);
        assert_eq!(t.insert(12).unwrap().index(), 4);
        assert_eq!(t.get(ids[2]), None);
        assert_eq!(t.get_mut(ids[1]), None);
        assert_eq!(t.remove(ids[1]), None);
        assert_eq!(t.get(ParityId::new(9, 1)), None);
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [0, 11, 10, 3, 12]);
        t.check_invariants().unwrap();
    }

    #[test]
    fn every_object_is_dropped_exactly_once() {
        let token = Rc::new(());
        let mut t = PoolTuned::<Rc<()>>::new();
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

    #[test]
    fn slot_is_retired_when_its_version_would_wrap() {
        let mut t = PoolTuned::<u32>::new();
        let first = t.insert(0).unwrap();
        t.remove(first).unwrap();
        t.slots[0].version = u32::MAX - 1;
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
        t.check_invariants().unwrap();
    }
}
