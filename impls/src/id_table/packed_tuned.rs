//! Packed array, tuned: the article's [`packed`](super::packed) design (dense objects, an index
//! table of entries naming them, swap-remove) with the index entry and ID of the fastest
//! crates.
//!
//! The design is `packed`'s: objects are dense in one `Vec<T>` with no holes, an ID names an
//! index entry that holds the object's dense position, and removal swaps the last object into
//! the hole and patches the moved object's entry through a parallel `Vec<u32>` of owners. What
//! changes:
//!
//! * **the ID is a [`ParityId`]** (32-bit entry + 32-bit odd version, 8 bytes) instead of an
//!   `Id32` (22-bit entry + 10-bit generation, 4 bytes): no masks or shifts to take an ID
//!   apart, and no reserve of 1024 free entries is needed to stretch a 10-bit generation;
//! * **the entry's version says by its parity whether the entry is live** (odd) or free
//!   (even), beside one 32-bit link that is the dense position of a live entry and the next free
//!   entry of a free one: a lookup is one comparison, then the object;
//! * **LIFO reuse of entries** (the most recently freed first, one head, no queue bookkeeping).
//!   Each reuse advances the version by two; the removal that would wrap it retires the entry
//!   (never reused), so a stale ID never matches again;
//! * `NIL` (`u32::MAX`) is never an entry number, so looking the free head up in the index is
//!   the "free list empty" test.
//!
//! This is the layout of `slotmap`'s `DenseSlotMap`, written for this trait; beside `packed` it
//! separates the cost of the article's idea (dense objects behind one indirection) from the
//! cost of its 32-bit ID.
//!
//! The object read after a live entry skips its bounds check (`get_unchecked`, argued where it
//! is): the invariant that a live entry's link is its object's position makes it redundant, and
//! the check cost 7% of a lookup at N = 1K (packed_tuned 1.05 ns vs DenseSlotMap 0.98 ns, which
//! skips it too).
//!
//! Cost: get is two dependent array reads (entry, then object); insert O(1) amortised; remove
//! O(1) with one object move. Iteration is a plain slice walk over exactly the live objects.
//! Memory per live object: `size_of::<T>() + 4` (owner) `+ 8` (entry), plus `Vec` slack.
//!
//! Cost per lookup at 1M (cache pass, callgrind, 32-byte objects, per op): the counts of
//! `slotmap`'s `DenseSlotMap` to the third decimal, as the entry and the chain are the same. A
//! live lookup is two dependent misses: the 8-byte entry (version and position), then the
//! object in the second array at that position, which cannot be fetched before the entry
//! arrives: `lookup-uniform` 17 instructions, 6 data reads, 2.123 D1 / 1.672 LL misses, against
//! one slot read one miss deep and 1.375-1.624 D1 misses for the slot designs. A stale lookup
//! reads the entry only, one line, vacant or reused alike: `lookup-stale` 11, 3, 1.121 / 0.344,
//! fewer LL misses than the slot designs' 0.738 because the index is 8 MB at 1M against 40 MB
//! of slots. `remove-random`: 48, 10 reads + 10 writes, 4.56 / 3.30 against `DenseSlotMap`'s
//! 53, 12 + 11, 4.62 / 3.60. No local change removes the second read of a live lookup: it is
//! the price of the dense objects that make iteration a slice walk. Every stale ID once per
//! shuffled pass (`lookup-stale-pass`, slots reused; `lookup-stale-vacant`, slots free): 11
//! instructions, 3 reads, 1.122 D1 / 0.320 LL misses on both, `DenseSlotMap`'s counts exactly,
//! so the two tie there by construction (paired time ratios within a few percent of 1 on
//! `lookup-stale-vacant` at 1M); the slot designs (`holey_tuned`, `SlotMap`) read a 40-byte
//! slot per stale ID, 1.034 LL misses.

use super::dense::{Dense, DenseIndex, DenseTable};
use super::parity::{NIL, RETIRED};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::ParityId;

/// One index entry, 8 bytes.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Odd: live, and IDs with exactly this version name its object. Even: free, and the next
    /// object gets `version + 1`; `RETIRED` entries are never reused.
    version: u32,
    /// Live: the object's position in the dense arrays. Free: the next free entry, or `NIL`
    /// (also for a retired entry).
    link: u32,
}

/// Packed array: dense objects, an index of parity-versioned entries, LIFO entry reuse.
///
/// ```
/// use impls::id_table::{IdTable, packed_tuned::PackedTuned};
///
/// let mut table = PackedTuned::<&str>::new();
/// let a = table.insert("a").unwrap();
/// let b = table.insert("b").unwrap();
/// assert_eq!(table.remove(a), Some("a")); // "b" moves into the hole; its ID still works
/// assert_eq!(table.get(b), Some(&"b"));
/// assert_eq!(table.as_slice(), ["b"]);
/// ```
pub type PackedTuned<T> = DenseTable<T, TunedIndex>;

/// The index of [`PackedTuned`]: parity-versioned entries, the free ones on a LIFO list.
#[derive(Debug, Clone)]
pub struct TunedIndex {
    /// Invariants: `entries.len() < NIL`; live entries are exactly those named in the table's
    /// `owners`; every free entry that is not `RETIRED` is on the free list exactly once, and
    /// only those are.
    entries: Vec<Entry>,
    /// Most recently freed entry, or `NIL`.
    free_head: u32,
}

impl TunedIndex {
    /// Appends `value` as the object of entry `number`, live with `version`.
    #[inline]
    fn place<T>(
        dense: &mut Dense<T, u32>,
        value: T,
        number: u32,
        version: u32,
    ) -> Result<ParityId, TableError> {
        dense.objects.push(value);
        dense.owners.push(number);
        Ok(ParityId::from_odd(number, version))
    }

    /// Sets the version of the free entry `entry` to the even `to` (its place on the free list
    /// unchanged), so tests reach the end of an entry's versions without 2^31 reuses.
    #[cfg(test)]
    fn fast_forward_free(&mut self, entry: usize, to: u32) {
        let e = &mut self.entries[entry];
        assert!(e.version & 1 == 0 && to & 1 == 0 && to != RETIRED);
        e.version = to;
    }
}

impl<T> DenseIndex<T> for TunedIndex {
    type Id = ParityId;
    type Owner = u32;

    const INFO: DesignInfo = DesignInfo::new::<ParityId>(
        DesignMeta {
            name: "packed_tuned",
            description: "packed with DenseSlotMap's index: 64-bit ID (32-bit entry + odd version), version parity marks live entries, LIFO entry reuse with no reserve",
            kind: DesignKind::Tuned,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            entries: Vec::new(),
            free_head: NIL,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, dense: &mut Dense<T, u32>, value: T) -> Result<ParityId, TableError> {
        // Every object owns a distinct entry and `entries.len() < NIL`, so the position fits.
        let position = dense.objects.len() as u32;
        let number = self.free_head;
        // `NIL` is never an entry number, so this lookup is also the "free list empty" test.
        let version = if let Some(entry) = self.entries.get_mut(number as usize) {
            self.free_head = entry.link;
            // Free versions on the list are even and below `u32::MAX`: no overflow.
            entry.version += 1;
            entry.link = position;
            entry.version
        } else {
            let len = self.entries.len();
            if len >= NIL as usize {
                return Err(TableError::IdSpaceExhausted {
                    created: len as u64,
                });
            }
            self.entries.push(Entry {
                version: 1,
                link: position,
            });
            return Self::place(dense, value, len as u32, 1);
        };
        Self::place(dense, value, number, version)
    }

    #[inline]
    fn get<'a>(&self, dense: &'a Dense<T, u32>, id: ParityId) -> Option<&'a T> {
        let entry = self.entries.get(id.index() as usize)?;
        if entry.version == id.version() {
            let position = entry.link as usize;
            debug_assert!(position < dense.objects.len());
            // SAFETY: the entry is live (its version equals an odd `ParityId` version), and a
            // live entry's link is its object's position in `objects` (the invariant of
            // `owners`, kept by insert, remove and sort_by_key), so it is in bounds. Unchecked
            // because the second bounds check cost 7% at N = 1K (1.05 ns vs 0.98 for DenseSlotMap,
            // which skips it: see the module doc).
            Some(unsafe { dense.objects.get_unchecked(position) })
        } else {
            None
        }
    }

    #[inline]
    fn get_mut<'a>(&self, dense: &'a mut Dense<T, u32>, id: ParityId) -> Option<&'a mut T> {
        let entry = self.entries.get(id.index() as usize)?;
        if entry.version == id.version() {
            let position = entry.link as usize;
            debug_assert!(position < dense.objects.len());
            // SAFETY: as in `get`: a live entry's link is in bounds of `objects`.
            Some(unsafe { dense.objects.get_unchecked_mut(position) })
        } else {
            None
        }
    }

    #[inline]
    fn remove(&mut self, dense: &mut Dense<T, u32>, id: ParityId) -> Option<T> {
        let number = id.index();
        let entry = self.entries.get_mut(number as usize)?;
        if entry.version != id.version() {
            return None;
        }
        let position = entry.link as usize;
        entry.version = entry.version.wrapping_add(1);
        if entry.version == RETIRED {
            entry.link = NIL;
        } else {
            entry.link = self.free_head;
            self.free_head = number;
        }
        let value = dense.objects.swap_remove(position);
        dense.owners.swap_remove(position);
        if let Some(&moved) = dense.owners.get(position) {
            self.entries[moved as usize].link = position as u32;
        }
        Some(value)
    }

    fn relink(&mut self, owner: u32, position: usize) {
        self.entries[owner as usize].link = position as u32;
    }

    fn position_of(&self, owner: u32) -> Option<usize> {
        let entry = self.entries.get(owner as usize)?;
        (entry.version & 1 == 1).then_some(entry.link as usize)
    }

    fn memory_bytes(&self, _: &Dense<T, u32>) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }

    fn check_invariants(&self, dense: &Dense<T, u32>) -> Result<(), String> {
        let len = dense.objects.len();
        let live = self.entries.iter().filter(|e| e.version & 1 == 1).count();
        // Each object names a distinct live entry (the links differ), so equal counts mean no
        // live entry is unowned.
        if live != len {
            return Err(format!("{live} live entries for {len} objects"));
        }
        let mut on_list = vec![false; self.entries.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            match self.entries.get(i) {
                Some(e) if e.version & 1 == 0 && e.version != RETIRED => {
                    if std::mem::replace(&mut on_list[i], true) {
                        return Err(format!("free list has a cycle through entry {i}"));
                    }
                    cursor = e.link;
                }
                other => return Err(format!("free list reaches entry {i}: {other:?}")),
            }
        }
        for (i, e) in self.entries.iter().enumerate() {
            if e.version & 1 == 0 && e.version != RETIRED && !on_list[i] {
                return Err(format!("free entry {i} is not on the free list"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::dense::tests::swap_remove_moves_the_last_object;
    use crate::id_table::{IdTable, checks};

    #[test]
    fn entry_is_two_words_of_four_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 8);
    }

    #[test]
    fn freed_entries_come_back_lifo() {
        let (mut t, ids) = swap_remove_moves_the_last_object::<TunedIndex>();
        // LIFO: entry 2, freed last, comes back first, one version on; then 3, then 1.
        assert_eq!(t.insert(9).unwrap(), ParityId::new(2, 3));
        assert_eq!(t.insert(10).unwrap(), ParityId::new(3, 3));
        assert_eq!(t.insert(11).unwrap(), ParityId::new(1, 3));
        assert_eq!(t.insert(12).unwrap(), ParityId::new(4, 1));
        assert_eq!(t.get(ids[1]), None);
        assert_eq!(t.remove(ids[3]), None);
        assert_eq!(t.as_slice(), [0, 9, 10, 11, 12]);
        t.check_invariants().unwrap();
    }

    #[test]
    fn entry_is_retired_when_its_version_would_wrap() {
        checks::slot_is_retired_at_its_last_generation::<PackedTuned<u32>>(
            ParityId::index,
            ParityId::new(0, u32::MAX),
            |t| t.index.fast_forward_free(0, u32::MAX - 1),
        );
    }
}
