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
//! The table around the slots (free list, versions, retirement of a slot whose version would
//! wrap, so a stale ID never matches again) is [`ParityTable`], shared with
//! [`pool_tuned`](super::pool_tuned); this file is the slot. This is the layout of `slotmap`'s
//! `SlotMap`, written for this trait: the point of the design is to show how much of the gap
//! between the article's `holey` and the crates is the implementation, not the idea.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, testing the version's low bit.

use std::mem::ManuallyDrop;

use super::parity::{ParitySlot, ParityTable};
use super::{DesignInfo, DesignKind, StaleDetection, id_bytes};
use crate::id::ParityId;

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
pub type HoleyTuned<T> = ParityTable<T, UnionSlot<T>>;

/// What a slot holds; its [`UnionSlot`]'s version parity says which field is valid.
union Content<T> {
    /// Valid when the version is odd: the live object.
    value: ManuallyDrop<T>,
    /// Valid when the version is even: the next hole on the free list (or the list's end).
    next_free: u32,
}

/// One `holey_tuned` slot: the object or the free-list link in one union, and the version.
pub struct UnionSlot<T> {
    content: Content<T>,
    /// Odd: occupied, and IDs with exactly this version name the object. Even: vacant.
    version: u32,
}

// SAFETY: every method below keeps the parity invariant: the union holds the object exactly
// while the version is odd (`occupied` and `fill` write the object and make it odd, `vacate`
// writes the link and makes it even), and `next_free` answers only for even versions.
unsafe impl<T> ParitySlot<T> for UnionSlot<T> {
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
    fn version(&self) -> u32 {
        self.version
    }

    #[inline]
    fn value(&self) -> Option<&T> {
        if self.version & 1 == 1 {
            // SAFETY: an odd version means the union holds the object (trait invariant).
            Some(unsafe { &self.content.value })
        } else {
            None
        }
    }

    #[inline]
    fn value_mut(&mut self) -> Option<&mut T> {
        if self.version & 1 == 1 {
            // SAFETY: as in `value`: odd version, the union holds the object.
            Some(unsafe { &mut self.content.value })
        } else {
            None
        }
    }

    #[inline]
    fn get(&self, id: ParityId) -> Option<&T> {
        if self.version == id.version() {
            // SAFETY: a `ParityId`'s version is odd (`ParityId::new` sets the low bit; the
            // table gives `from_odd` only versions a slot has just made odd), so this slot's
            // version is odd: the union holds the object.
            Some(unsafe { &self.content.value })
        } else {
            None
        }
    }

    #[inline]
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T> {
        if self.version == id.version() {
            // SAFETY: as in `get`: the version equals an odd `ParityId` version.
            Some(unsafe { &mut self.content.value })
        } else {
            None
        }
    }

    #[inline]
    fn next_free(&self) -> Option<u32> {
        if self.version & 1 == 0 {
            // SAFETY: an even version means the union holds the link.
            Some(unsafe { self.content.next_free })
        } else {
            // Not read eagerly: an occupied slot's union holds the object, whose first bytes
            // may be uninitialised padding.
            None
        }
    }

    #[inline]
    unsafe fn fill(&mut self, value: T) -> (u32, u32) {
        debug_assert!(self.version & 1 == 0);
        // SAFETY: the caller guarantees the slot is vacant, so the union holds the link.
        let next_free = unsafe { self.content.next_free };
        // Writing a union field is safe; the old content is a `u32`: nothing to drop.
        self.content.value = ManuallyDrop::new(value);
        // An unretired vacant version is even and below `u32::MAX`: no overflow, now odd.
        self.version += 1;
        (next_free, self.version)
    }

    #[inline]
    unsafe fn vacate(&mut self, next_free: u32) -> T {
        debug_assert!(self.version & 1 == 1);
        // SAFETY: the caller guarantees an odd version, so the union holds the object; the link
        // overwrites it and the version turns even right below, before anything can read or
        // drop the object again.
        let value = unsafe { ManuallyDrop::take(&mut self.content.value) };
        // Only the link's 4 bytes are written (a field write, not a whole-union assignment).
        self.content.next_free = next_free;
        self.version = self.version.wrapping_add(1);
        value
    }

    #[cfg(test)]
    fn set_vacant_version(&mut self, version: u32) {
        assert!(self.version & 1 == 0 && version & 1 == 0);
        self.version = version;
    }
}

impl<T> Drop for UnionSlot<T> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<T>() && self.version & 1 == 1 {
            // SAFETY: an odd version means the union holds the object; the slot is going away,
            // so the object is dropped exactly once, here.
            unsafe { ManuallyDrop::drop(&mut self.content.value) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parity::tests;
    use super::*;

    #[test]
    fn slot_is_payload_plus_four_bytes_rounded_to_alignment() {
        assert_eq!(std::mem::size_of::<UnionSlot<[u64; 4]>>(), 40);
        assert_eq!(std::mem::size_of::<UnionSlot<[u32; 2]>>(), 12);
        assert_eq!(std::mem::size_of::<UnionSlot<u8>>(), 8);
    }

    #[test]
    fn free_list_is_lifo_and_stale_ids_miss() {
        tests::free_list_is_lifo_and_stale_ids_miss::<UnionSlot<u32>>();
    }

    #[test]
    fn every_object_is_dropped_exactly_once() {
        tests::every_object_is_dropped_exactly_once::<UnionSlot<std::rc::Rc<()>>>();
    }

    #[test]
    fn slot_is_retired_when_its_version_would_wrap() {
        tests::slot_is_retired_when_its_version_would_wrap::<UnionSlot<u32>>();
    }
}
