//! Array with holes, tuned: the article's [`holey`](super::holey) design with the slot layout of
//! the fastest crates, and the version moved in front of the object.
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
//! * **the version in front of the object** (`repr(C)`; `slotmap`, like Rust's default layout,
//!   puts it after): a lookup reads the version and then the object's first fields, and
//!   adjacent they share a cache line more often (below). Same slot size;
//! * **one branch for "free list empty or not"**: the list's end `NIL` is `u32::MAX`, never a
//!   slot index, so looking the head up in the slots is the emptiness test.
//!
//! The table around the slots (free list, versions, retirement of a slot whose version would
//! wrap, so a stale ID never matches again) is [`ParityTable`], shared with
//! [`pool_tuned`](super::pool_tuned); this file is the slot. Apart from the version's place this
//! is the layout of `slotmap`'s `SlotMap`, written for this trait: the point of the design is to
//! show how much of the gap between the article's `holey` and the crates is the implementation,
//! not the idea.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, testing the version's low bit.
//!
//! Cost per lookup at 1M (cache pass, callgrind, 32-byte objects, per op). A live lookup reads
//! the ID (sequential, 1/8 line) and one slot: the version, and the object's first 16 bytes
//! (the replay's digest), whose address comes from the ID alone, so both loads issue at once: one
//! miss deep. A stale lookup reads the 4-byte version only: one line, vacant or reused slot
//! alike. With the version after the object, `holey_tuned`, `pool_tuned` and `slotmap` gave the
//! same counts to the third decimal: `lookup-uniform` 17 instructions, 5 data reads, 1.624 D1
//! and 1.446 LL misses (the version and the object's head are on two lines in 4 of the 8
//! positions a 40-byte slot takes in a line), `lookup-stale` 12, 3, 1.124, 0.738: a tie by
//! construction, never a lead. With the version first, 2 of 8 positions split:
//! `lookup-uniform` 1.375 D1 / 1.256 LL, `lookup-uniform-p128` 1.375 / 1.375 (slotmap: 2.250 /
//! 2.149, its version 128 bytes from the object's head), `remove-random` 1.375 / 1.244
//! (slotmap: 1.624 / 1.434); `lookup-stale`, 8-byte objects, `churn` and `iterate-holes`
//! unchanged (measured by a dev build's cache pass: misses follow the layout, not the
//! optimiser; an `-O` copy of the loops executes the same instructions in both orders). A reader of the whole 32-byte object gains
//! nothing: 40 bytes split in 4 of 8 positions in either order.

use crate::DesignMeta;
use std::mem::ManuallyDrop;

use super::parity::{ParitySlot, ParityTable};
use super::{DesignInfo, DesignKind, StaleDetection};
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

/// One `holey_tuned` slot: the version, then the object or the free-list link in one union.
///
/// `repr(C)` with the version first (Rust's own layout puts it after the object, as in
/// `slotmap`'s slot): a lookup reads the version and then the object's first fields, and with
/// the two adjacent that pair crosses a cache line in 1 of 8 positions of a 40-byte slot for an
/// 8-byte read and 2 of 8 for a 16-byte one, where the version 32 bytes further on makes it 4
/// of 8 (and always, for objects of 64 bytes or more). The slot's size is the same either way.
#[repr(C)]
pub struct UnionSlot<T> {
    /// Odd: occupied, and IDs with exactly this version name the object. Even: vacant.
    version: u32,
    content: Content<T>,
}

// SAFETY: every method below keeps the parity invariant: the union holds the object exactly
// while the version is odd (`occupied` and `fill` write the object and make it odd, `vacate`
// writes the link and makes it even), and `next_free` answers only for even versions.
unsafe impl<T> ParitySlot<T> for UnionSlot<T> {
    const INFO: DesignInfo = DesignInfo::new::<ParityId>(
        DesignMeta {
            name: "holey_tuned",
            description: "holey with slotmap's slot: union of object and 32-bit free link, version parity instead of an enum tag (one compare per lookup, T + 4 bytes per slot)",
            kind: DesignKind::Tuned,
        },
        StaleDetection::Never,
    );

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
    fn version_comes_before_the_object() {
        assert_eq!(std::mem::offset_of!(UnionSlot<[u64; 4]>, version), 0);
        assert_eq!(std::mem::offset_of!(UnionSlot<[u64; 4]>, content), 8);
        assert_eq!(std::mem::offset_of!(UnionSlot<[u32; 2]>, content), 4);
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
