//! Array with holes, tuned: the article's [`holey`](super::holey) design with the slot layout of
//! the fastest crates.
//!
//! The algorithm is `holey`'s, unchanged: objects live in one `Vec` of slots and never move, an
//! ID is the slot index plus the slot's version, and the holes form a LIFO free list threaded
//! through the vacant slots. What changes is only how a slot is stored:
//!
//! * **no enum**: a slot is a `union` of the object and the 32-bit free-list link, beside a
//!   32-bit version whose parity says which of the two the union holds (odd: an object, even:
//!   the link). There is no discriminant to test or rewrite, and a slot is `size_of::<T>() + 4`
//!   bytes rounded up to `T`'s alignment: 40 bytes for the 32-byte, 8-aligned payload (as
//!   `holey`), 12 for the 8-byte, 4-aligned one (`holey`: 16);
//! * **one comparison per lookup**: the ID is a [`ParityId`], whose version is odd by
//!   construction, so `slot.version == id.version()` alone proves the slot is occupied by that
//!   object, where `holey` tests the variant and then the generation;
//! * **one branch for "free list empty or not"**: the list's end `NIL` is `u32::MAX`, never a
//!   slot index, so looking the head up in the slots is the emptiness test.
//!
//! The version advances on every insert and every removal, so a slot serves 2^31 objects; the
//! removal that would wrap it retires the slot (never reused), so a stale ID never matches
//! again. This is the layout of `slotmap`'s `SlotMap`, written for this trait: the point of the
//! design is to show how much of the gap between the article's `holey` and the crates is the
//! implementation, not the idea.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, testing the version's low bit.

use std::mem::ManuallyDrop;

use super::{DesignInfo, DesignKind, IdTable, StaleDetection, id_bytes};
use crate::TableError;
use crate::id::ParityId;

/// End of the free list; never a slot index (the table refuses to grow to it).
const NIL: u32 = u32::MAX;

/// The version of a retired slot: vacant (even) and on no list. Live and free slots never have
/// it: a slot's first object gets version 1, and only the removal of an object with version
/// `u32::MAX` would wrap to it.
const RETIRED: u32 = 0;

/// What a slot holds; its [`Slot::version`]'s parity says which field is valid.
union Content<T> {
    /// Valid when the version is odd: the live object.
    value: ManuallyDrop<T>,
    /// Valid when the version is even: the next hole on the free list, or `NIL` (also for a
    /// retired slot).
    next_free: u32,
}

/// One slot: the object or the free-list link, and the version.
struct Slot<T> {
    content: Content<T>,
    /// Odd: occupied, and IDs with exactly this version name the object. Even: vacant, and the
    /// next object gets `version + 1`; `RETIRED` slots are never reused.
    version: u32,
}

impl<T> Slot<T> {
    /// An occupied slot.
    #[inline]
    fn occupied(value: T, version: u32) -> Self {
        debug_assert!(version & 1 == 1);
        Self {
            content: Content {
                value: ManuallyDrop::new(value),
            },
            version,
        }
    }

    #[inline]
    fn is_occupied(&self) -> bool {
        self.version & 1 == 1
    }

    /// The object, if the slot holds one.
    #[inline]
    fn value(&self) -> Option<&T> {
        if self.is_occupied() {
            // SAFETY: an odd version means the union holds the object (the invariant of
            // `Slot::version`, kept by every write in this file).
            Some(unsafe { &self.content.value })
        } else {
            None
        }
    }

    /// The object, mutably, if the slot holds one.
    #[inline]
    fn value_mut(&mut self) -> Option<&mut T> {
        if self.is_occupied() {
            // SAFETY: as in `value`: an odd version means the union holds the object.
            Some(unsafe { &mut self.content.value })
        } else {
            None
        }
    }

    /// The object `id` names, if the slot still holds it.
    #[inline]
    fn get(&self, id: ParityId) -> Option<&T> {
        if self.version == id.version() {
            // SAFETY: a `ParityId`'s version is odd (`ParityId::new` sets the low bit; the tables
            // give `from_odd` only versions they just made odd), so the
            // slot's version is odd: the union holds the object.
            Some(unsafe { &self.content.value })
        } else {
            None
        }
    }

    /// The object `id` names, mutably, if the slot still holds it.
    #[inline]
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T> {
        if self.version == id.version() {
            // SAFETY: as in `get`: the version equals an odd `ParityId` version.
            Some(unsafe { &mut self.content.value })
        } else {
            None
        }
    }
}

impl<T> Drop for Slot<T> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<T>() && self.is_occupied() {
            // SAFETY: an odd version means the union holds the object; the slot is going away,
            // so the object is dropped exactly once, here.
            unsafe { ManuallyDrop::drop(&mut self.content.value) }
        }
    }
}

/// Array with holes, union slots with version parity, 32-bit free link, LIFO free list.
///
/// ```
/// use impls::id_table::{IdTable, holey_tuned::HoleyTuned};
///
/// let mut table = HoleyTuned::<String>::new();
/// let a = table.insert("a".to_string()).unwrap();
/// assert_eq!(table.remove(a).as_deref(), Some("a"));
/// let b = table.insert("b".to_string()).unwrap(); // same slot, next version
/// assert_eq!(a.index(), b.index());
/// assert_eq!(table.get(a), None); // stale
/// assert_eq!(table.get(b).map(String::as_str), Some("b"));
/// ```
pub struct HoleyTuned<T> {
    /// Invariant: occupied (odd-version) slots == `len`; every vacant slot whose version is not
    /// `RETIRED` is on the free list exactly once, and only those are; `slots.len() < NIL`.
    slots: Vec<Slot<T>>,
    /// Most recently freed slot, or `NIL`.
    free_head: u32,
    len: usize,
}

impl<T> std::fmt::Debug for HoleyTuned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HoleyTuned")
            .field("slots", &self.slots.len())
            .field("len", &self.len)
            .field("free_head", &self.free_head)
            .finish()
    }
}

impl<T> HoleyTuned<T> {
    /// Sets the version of the vacant slot `index` (its place on the free list unchanged) to
    /// the even `to`, so tests reach the end of a slot's versions without 2^31 reuses.
    #[cfg(test)]
    fn fast_forward_vacant(&mut self, index: usize, to: u32) {
        assert!(!self.slots[index].is_occupied() && to & 1 == 0 && to != RETIRED);
        self.slots[index].version = to;
    }
}

impl<T: 'static> IdTable<T> for HoleyTuned<T> {
    type Id = ParityId;

    const INFO: DesignInfo = DesignInfo {
        name: "holey_tuned",
        description: "holey with slotmap's slot: union of object and 32-bit free link, version parity instead of an enum tag (one compare per lookup, T + 4 bytes per slot)",
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
            debug_assert!(!slot.is_occupied());
            // SAFETY: the free list holds only vacant slots (invariant of `slots`), and a
            // vacant slot's union holds its link.
            self.free_head = unsafe { slot.content.next_free };
            // Vacant versions on the list are even and below `u32::MAX`: no overflow.
            let version = slot.version + 1;
            // Writing a union field is safe; the old content is a `u32`: nothing to drop.
            slot.content.value = ManuallyDrop::new(value);
            slot.version = version;
            self.len += 1;
            return Ok(ParityId::from_odd(index, version));
        }
        let index = u32::try_from(self.slots.len())
            .ok()
            .filter(|&i| i != NIL)
            .ok_or(TableError::IdSpaceExhausted {
                created: self.slots.len() as u64,
            })?;
        self.slots.push(Slot::occupied(value, 1));
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
        // SAFETY: the version equals an odd `ParityId` version, so the union holds the object;
        // the slot turns vacant (even version, link written) right below, before anything can
        // read or drop the object again.
        let value = unsafe { ManuallyDrop::take(&mut slot.content.value) };
        let next = slot.version.wrapping_add(1);
        // Only the link's 4 bytes are written (a field write, not a whole-union assignment).
        if next == RETIRED {
            slot.content.next_free = NIL;
        } else {
            slot.content.next_free = self.free_head;
            self.free_head = index;
        }
        slot.version = next;
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
        let occupied = self.slots.iter().filter(|s| s.is_occupied()).count();
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
            if slot.is_occupied() {
                return Err(format!("free list reaches occupied slot {i}"));
            }
            if slot.version == RETIRED {
                return Err(format!("retired slot {i} is on the free list"));
            }
            if std::mem::replace(&mut on_list[i], true) {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            // SAFETY: checked just above that the slot is vacant: the union holds the link.
            cursor = unsafe { slot.content.next_free };
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if !slot.is_occupied() && slot.version != RETIRED && !on_list[i] {
                return Err(format!("vacant slot {i} is not on the free list"));
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
    fn slot_is_payload_plus_four_bytes_rounded_to_alignment() {
        assert_eq!(std::mem::size_of::<Slot<[u64; 4]>>(), 40);
        assert_eq!(std::mem::size_of::<Slot<[u32; 2]>>(), 12);
        assert_eq!(std::mem::size_of::<Slot<u8>>(), 8);
    }

    #[test]
    fn free_list_is_lifo_and_versions_alternate_parity() {
        let mut t = HoleyTuned::<u32>::new();
        let ids: Vec<_> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        assert!(ids.iter().all(|id| id.version() == 1));
        t.remove(ids[1]).unwrap();
        t.remove(ids[2]).unwrap();
        assert_eq!(t.slots[1].version, 2);
        let c = t.insert(10).unwrap();
        assert_eq!((c.index(), c.version()), (2, 3));
        assert_eq!(t.insert(11).unwrap().index(), 1);
        assert_eq!(t.insert(12).unwrap().index(), 4);
        assert_eq!(t.get(ids[2]), None);
        assert_eq!(t.get_mut(ids[1]), None);
        assert_eq!(t.remove(ids[1]), None);
        assert_eq!(t.get(c), Some(&10));
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [0, 11, 10, 3, 12]);
        t.check_invariants().unwrap();
    }

    #[test]
    fn an_id_naming_a_vacant_slots_version_resolves_to_nothing() {
        let mut t = HoleyTuned::<u32>::new();
        let a = t.insert(1).unwrap();
        t.remove(a).unwrap();
        // Slot 0 is vacant with version 2; an ID built from that number is odd (3), so it
        // names the next occupant, not the hole's link.
        let forged = ParityId::new(0, 2);
        assert_eq!(forged.version(), 3);
        assert_eq!(t.get(forged), None);
        assert_eq!(t.remove(forged), None);
        assert_eq!(t.get(ParityId::new(7, 1)), None);
        t.check_invariants().unwrap();
    }

    #[test]
    fn every_object_is_dropped_exactly_once() {
        let token = Rc::new(());
        let mut t = HoleyTuned::<Rc<()>>::new();
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
        let mut t = HoleyTuned::<u32>::new();
        let first = t.insert(0).unwrap();
        t.remove(first).unwrap();
        t.fast_forward_vacant(0, u32::MAX - 1);
        let last = t.insert(1).unwrap();
        assert_eq!(last, ParityId::new(0, u32::MAX));
        assert_eq!(t.remove(last), Some(1));
        t.check_invariants().unwrap();
        let fresh = t.insert(2).unwrap();
        assert_eq!(fresh.index(), 1, "the retired slot is never reused");
        assert_eq!(t.get(first), None);
        assert_eq!(t.get(last), None);
        assert_eq!(t.len(), 1);
        t.check_invariants().unwrap();
    }
}
