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
//! * **version and link in front of the object** (`repr(C)`), as `holey_tuned` orders its slot:
//!   a lookup's version and the object's first fields share a cache line more often;
//! * `NIL` (`u32::MAX`) is never a slot index, so looking the free head up is the emptiness
//!   test.
//!
//! The table around the slots (free list, versions, retirement of a slot whose version would
//! wrap, so a stale ID never matches again) is [`ParityTable`], shared with `holey_tuned`; this
//! file is the slot. Beside
//! [`holey_tuned`](super::holey_tuned), which stores the link inside the hole, it shows what the
//! article's separate link field costs once the flag is gone: nothing at 32-byte objects, 4
//! bytes per slot at 8-byte ones.
//!
//! Cost: insert, get, remove O(1) with one slot access; iteration walks every slot, holes
//! included, testing the version's low bit.
//!
//! Cost per lookup at 1M (cache pass, callgrind, per op): `holey_tuned`'s in every miss count
//! at 32 and 128 bytes (the link sits in the 4 bytes `holey_tuned` pads between its version and
//! object), the same load chain (the version and the object from one slot, one miss deep; a
//! stale ID reads the version only); see there. At 8-byte objects the 16-byte slot never
//! crosses a line: 1.124 D1 misses on `lookup-uniform-p8` against `holey_tuned`'s and
//! `slotmap`'s 1.248 (12-byte slots, 1 of 8 split), for 4 more bytes per slot.

use crate::DesignMeta;
use std::mem::MaybeUninit;

use super::parity::{NIL, ParitySlot, ParityTable};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::id::ParityId;

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
pub type PoolTuned<T> = ParityTable<T, PoolSlot<T>>;

/// One `pool_tuned` element: its version (alive flag in the low bit), the link, the object.
///
/// `repr(C)` with the version first, so a lookup's version and the object's first fields are
/// adjacent (see [`UnionSlot`](super::holey_tuned::UnionSlot): fewer lookups cross a cache
/// line than with the version after the object, Rust's own order); the size is the same.
#[repr(C)]
pub struct PoolSlot<T> {
    /// Odd: alive, and IDs with exactly this version name the object. Even: a hole.
    version: u32,
    /// A hole: the next hole on the free list (or the list's end). `NIL` while alive.
    next_free: u32,
    /// Initialised exactly when `version` is odd.
    value: MaybeUninit<T>,
}

// SAFETY: every method below keeps the parity invariant: `value` is initialised exactly while
// the version is odd (`occupied` and `fill` write it and make the version odd, `vacate` moves it
// out and makes the version even), and `next_free` answers only for even versions.
unsafe impl<T> ParitySlot<T> for PoolSlot<T> {
    const INFO: DesignInfo = DesignInfo::new::<ParityId>(
        DesignMeta {
            name: "pool_tuned",
            description: "pool with the alive flag folded into an odd/even version (no Option tag, one compare per lookup), separate nextEmpty link, LIFO free list",
            kind: DesignKind::Tuned,
        },
        StaleDetection::Never,
    );

    #[inline]
    fn occupied(value: T, version: u32) -> Self {
        debug_assert!(version & 1 == 1);
        Self {
            value: MaybeUninit::new(value),
            version,
            next_free: NIL,
        }
    }

    #[inline]
    fn version(&self) -> u32 {
        self.version
    }

    #[inline]
    fn value(&self) -> Option<&T> {
        if self.version & 1 == 1 {
            // SAFETY: an odd version means `value` is initialised (trait invariant).
            Some(unsafe { self.value.assume_init_ref() })
        } else {
            None
        }
    }

    #[inline]
    fn value_mut(&mut self) -> Option<&mut T> {
        if self.version & 1 == 1 {
            // SAFETY: as in `value`: odd version, initialised object.
            Some(unsafe { self.value.assume_init_mut() })
        } else {
            None
        }
    }

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

    #[inline]
    fn get_mut(&mut self, id: ParityId) -> Option<&mut T> {
        if self.version == id.version() {
            // SAFETY: as in `get`: the version equals an odd `ParityId` version.
            Some(unsafe { self.value.assume_init_mut() })
        } else {
            None
        }
    }

    #[inline]
    fn next_free(&self) -> Option<u32> {
        (self.version & 1 == 0).then_some(self.next_free)
    }

    #[inline]
    unsafe fn fill(&mut self, value: T) -> (u32, u32) {
        debug_assert!(self.version & 1 == 0);
        // The caller guarantees a hole: its object is uninitialised, so writing drops nothing.
        self.value.write(value);
        // An unretired hole's version is even and below `u32::MAX`: no overflow, now odd.
        self.version += 1;
        (std::mem::replace(&mut self.next_free, NIL), self.version)
    }

    #[inline]
    unsafe fn vacate(&mut self, next_free: u32) -> T {
        debug_assert!(self.version & 1 == 1);
        // SAFETY: the caller guarantees an odd version, so the object is initialised; the
        // version turns even right below, so it is never read or dropped again.
        let value = unsafe { self.value.assume_init_read() };
        self.version = self.version.wrapping_add(1);
        self.next_free = next_free;
        value
    }

    #[cfg(test)]
    fn set_vacant_version(&mut self, version: u32) {
        assert!(self.version & 1 == 0 && version & 1 == 0);
        self.version = version;
    }
}

impl<T> Drop for PoolSlot<T> {
    fn drop(&mut self) {
        if std::mem::needs_drop::<T>() && self.version & 1 == 1 {
            // SAFETY: an odd version means the object is initialised; the slot is going away,
            // so it is dropped exactly once, here.
            unsafe { self.value.assume_init_drop() }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parity::tests;
    use super::*;

    #[test]
    fn slot_is_payload_plus_two_words_rounded_to_alignment() {
        assert_eq!(std::mem::size_of::<PoolSlot<[u64; 4]>>(), 40);
        assert_eq!(std::mem::size_of::<PoolSlot<[u32; 2]>>(), 16);
    }

    #[test]
    fn version_and_link_come_before_the_object() {
        assert_eq!(std::mem::offset_of!(PoolSlot<[u64; 4]>, version), 0);
        assert_eq!(std::mem::offset_of!(PoolSlot<[u64; 4]>, next_free), 4);
        assert_eq!(std::mem::offset_of!(PoolSlot<[u64; 4]>, value), 8);
    }

    #[test]
    fn free_list_is_lifo_and_stale_ids_miss() {
        tests::free_list_is_lifo_and_stale_ids_miss::<PoolSlot<u32>>();
    }

    #[test]
    fn every_object_is_dropped_exactly_once() {
        tests::every_object_is_dropped_exactly_once::<PoolSlot<std::rc::Rc<()>>>();
    }

    #[test]
    fn slot_is_retired_when_its_version_would_wrap() {
        tests::slot_is_retired_when_its_version_would_wrap::<PoolSlot<u32>>();
    }
}
