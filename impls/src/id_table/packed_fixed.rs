//! Fixed-capacity packed array: the article's third design as it wrote it, with its
//! off-by-one fixed.
//!
//! All storage is allocated once, up front: room for `CAPACITY` dense objects, their owning
//! entry numbers, and `CAPACITY` index entries (`MAX_OBJECTS` in the article). The ID is an
//! [`Id32<16>`]: the index entry in the low 16 bits, the entry's generation in the high 16
//! (`INDEX_MASK 0xffff`, `NEW_OBJECT_ID_ADD 0x10000`). As in the article, every index entry
//! starts on a FIFO free list (`_freelist_dequeue` .. `_freelist_enqueue`, linked through each
//! entry's `next`), insert takes the oldest entry and adds one to its generation, remove swaps
//! the last object into the hole, patches the moved object's entry, marks its own entry vacant
//! and appends it to the list.
//!
//! The fix: the article's list runs dry after `MAX_OBJECTS` inserts and its `remove` never
//! restarts it, so it holds only `MAX_OBJECTS - 1` objects safely and corrupts memory when full
//! (reader comments 14-15). Here the list is known to be empty exactly when `CAPACITY` objects
//! are live; `insert` then returns [`TableError::Full`], and the next `remove` restarts the list
//! with the freed entry. So the table holds exactly `CAPACITY` objects (`<= 2^16`, checked at
//! compile time).
//!
//! Stale IDs: an entry's generation wraps after 2^16 inserts into it, and while at most `L`
//! objects are live a freed entry waits behind at least `CAPACITY - L` others, so an ID equal
//! to a stale one is handed out no sooner than `2^16 * (CAPACITY - L + 1)` creations after the
//! stale one. A table kept full gives no reserve: its one free entry is reused at once and only
//! the 2^16 generations protect (tested below).
//!
//! Cost: get is two dependent array reads; with the default `CAPACITY = 2^16` the entry read
//! needs no bounds check, as a 16-bit index always fits. Insert and remove O(1), never
//! allocating. Iteration is a slice walk over exactly the live objects. Memory is fixed at
//! `CAPACITY * (size_of::<T>() + 2 + 8)` bytes, however few objects are live.

use super::dense::{Dense, DenseIndex, DenseTable};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::{Id32, SlotVersion};

/// The article's `struct Index`, 8 bytes.
#[derive(Debug, Clone, Copy)]
struct IndexEntry {
    /// The generation of the entry's current (occupied) or last (vacant) object: the article's
    /// `id` minus its index bits, with `index == USHRT_MAX` replaced by the vacant flag.
    version: SlotVersion,
    /// Occupied: the object's dense position.
    dense: u16,
    /// On the free list: the next newer entry. Meaningless for the newest entry and for
    /// occupied ones.
    next: u16,
}

/// Fixed-capacity packed array with 32-bit IDs (16-bit index, 16-bit generation). Its dense
/// objects and owners (`u16` entry numbers; the article stores the ID in the object itself) are
/// allocated with room for `CAPACITY` and never grow.
///
/// ```
/// use impls::TableError;
/// use impls::id_table::{IdTable, packed_fixed::PackedFixed};
///
/// let mut table = PackedFixed::<u32, 2>::new();
/// let a = table.insert(1).unwrap();
/// table.insert(2).unwrap();
/// assert_eq!(table.insert(3), Err(TableError::Full { capacity: 2 }));
/// assert_eq!(table.remove(a), Some(1));
/// assert!(table.insert(3).is_ok());
/// ```
///
/// More than 2^16 objects do not fit a 16-bit index:
///
/// ```compile_fail
/// use impls::id_table::{IdTable, packed_fixed::PackedFixed};
///
/// let table = <PackedFixed<u32, 65537> as IdTable<u32>>::new();
/// ```
pub type PackedFixed<T, const CAPACITY: usize = 65536> = DenseTable<T, FixedIndex<CAPACITY>>;

/// The index of [`PackedFixed`]: `CAPACITY` entries allocated up front, the vacant ones on a
/// FIFO list.
#[derive(Debug, Clone)]
pub struct FixedIndex<const CAPACITY: usize = 65536> {
    /// Invariants: occupied entries are exactly those named in the table's `owners`; the
    /// vacant ones, `CAPACITY - len` of them, form the free list from `freelist_dequeue`
    /// through `next` to `freelist_enqueue`, each once.
    indices: Box<[IndexEntry; CAPACITY]>,
    /// Oldest free entry (taken next). Meaningless while the table is full.
    freelist_dequeue: u16,
    /// Newest free entry (freed last). Meaningless while the table is full.
    freelist_enqueue: u16,
}

impl<const CAPACITY: usize> FixedIndex<CAPACITY> {
    /// `CAPACITY`, checked: at least 1 and at most 2^16, the 16-bit index space.
    const CHECKED_CAPACITY: usize = {
        assert!(
            CAPACITY >= 1 && CAPACITY <= Id32::<16>::INDEX_COUNT as usize,
            "CAPACITY must be in 1..=65536"
        );
        CAPACITY
    };

    /// Removals after an ID's own removal before an equal ID can be handed out, in the worst
    /// case (a full table, whose one free entry is reused at once): `2^16 - 1`.
    pub const STALE_BOUND: u64 = Id32::<16>::GENERATION_COUNT - 1;

    /// Number of entries on the free list while `dense` holds the live objects.
    fn free_len<T>(dense: &Dense<T, u16>) -> usize {
        CAPACITY - dense.objects.len()
    }
}

impl<T, const CAPACITY: usize> DenseIndex<T> for FixedIndex<CAPACITY> {
    type Id = Id32<16>;
    type Owner = u16;

    const INFO: DesignInfo = DesignInfo {
        capacity: Some(Self::CHECKED_CAPACITY),
        ..DesignInfo::new::<Id32<16>>(
            DesignMeta {
                name: "packed_fixed",
                description: "article's fixed-capacity packed array (default 65536 objects), 32-bit ID (16-bit index + 16-bit generation), FIFO free list over all index entries, all storage allocated up front",
                kind: DesignKind::Article,
            },
            StaleDetection::UntilRemovals(Self::STALE_BOUND),
        )
    };

    const UP_FRONT: usize = Self::CHECKED_CAPACITY;

    fn new() -> Self {
        let capacity = Self::CHECKED_CAPACITY;
        // Entry i holds generation 0 (the article's `id = i`) and links to i + 1; the newest
        // entry's link is never read.
        let indices: Vec<IndexEntry> = (0..capacity)
            .map(|i| IndexEntry {
                version: SlotVersion::vacant(0),
                dense: 0,
                next: ((i + 1) % capacity) as u16,
            })
            .collect();
        Self {
            indices: indices
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("built with CAPACITY entries")),
            freelist_dequeue: 0,
            freelist_enqueue: (capacity - 1) as u16,
        }
    }

    #[inline]
    fn insert(&mut self, dense: &mut Dense<T, u16>, value: T) -> Result<Self::Id, TableError> {
        if dense.objects.len() == CAPACITY {
            return Err(TableError::Full { capacity: CAPACITY });
        }
        let index = self.freelist_dequeue;
        let entry = &mut self.indices[usize::from(index)];
        self.freelist_dequeue = entry.next;
        let generation = Id32::<16>::next_generation(entry.version.generation());
        entry.version = SlotVersion::occupied(generation);
        entry.dense = dense.objects.len() as u16;
        dense.objects.push(value);
        dense.owners.push(index);
        Ok(Id32::new(u32::from(index), generation))
    }

    #[inline]
    fn get<'a>(&self, dense: &'a Dense<T, u16>, id: Self::Id) -> Option<&'a T> {
        let entry = self.indices.get(id.index() as usize)?;
        if entry.version.is_occupied_by(id.generation()) {
            dense.objects.get(usize::from(entry.dense))
        } else {
            None
        }
    }

    #[inline]
    fn get_mut<'a>(&self, dense: &'a mut Dense<T, u16>, id: Self::Id) -> Option<&'a mut T> {
        let entry = self.indices.get(id.index() as usize)?;
        if entry.version.is_occupied_by(id.generation()) {
            dense.objects.get_mut(usize::from(entry.dense))
        } else {
            None
        }
    }

    #[inline]
    fn remove(&mut self, dense: &mut Dense<T, u16>, id: Self::Id) -> Option<T> {
        let entry = self.indices.get_mut(id.index() as usize)?;
        if !entry.version.is_occupied_by(id.generation()) {
            return None;
        }
        // `id.index()` names an existing entry, so it is below CAPACITY <= 2^16.
        let index = id.index() as u16;
        let position = entry.dense;
        entry.version = SlotVersion::vacant(id.generation());
        let value = dense.objects.swap_remove(usize::from(position));
        dense.owners.swap_remove(usize::from(position));
        if let Some(&moved) = dense.owners.get(usize::from(position)) {
            self.indices[usize::from(moved)].dense = position;
        }
        if Self::free_len(dense) == 1 {
            // The list was empty (the table was full): restart it with this entry. The
            // article skips this step.
            self.freelist_dequeue = index;
        } else {
            self.indices[usize::from(self.freelist_enqueue)].next = index;
        }
        self.freelist_enqueue = index;
        Some(value)
    }

    fn relink(&mut self, owner: u16, position: usize) {
        self.indices[usize::from(owner)].dense = position as u16;
    }

    fn position_of(&self, owner: u16) -> Option<usize> {
        let entry = self.indices.get(usize::from(owner))?;
        entry
            .version
            .is_occupied()
            .then_some(usize::from(entry.dense))
    }

    fn memory_bytes(&self, _: &Dense<T, u16>) -> usize {
        CAPACITY * std::mem::size_of::<IndexEntry>()
    }

    fn check_invariants(&self, dense: &Dense<T, u16>) -> Result<(), String> {
        let len = dense.objects.len();
        if len > CAPACITY {
            return Err(format!("{len} objects, capacity {CAPACITY}"));
        }
        if dense.objects.capacity() < CAPACITY || dense.owners.capacity() < CAPACITY {
            return Err("storage was not allocated up front".to_string());
        }
        // Walk the list: `CAPACITY - len` distinct vacant entries, ending at the enqueue end.
        // With the `len` distinct occupied entries named in `owners` (distinct, as their
        // `dense` differ) that accounts for all `CAPACITY` entries: none is lost or unowned.
        // Plain slices and field reads keep this O(CAPACITY) walk quick in unoptimised test
        // builds, where the property tests call it after every operation.
        let indices: &[IndexEntry] = &self.indices[..];
        let on_list: &mut [bool] = &mut vec![false; CAPACITY];
        let mut cursor = usize::from(self.freelist_dequeue);
        let free_len = Self::free_len(dense);
        for step in 0..free_len {
            if cursor >= CAPACITY || on_list[cursor] || indices[cursor].version.is_occupied() {
                return Err(format!("free list step {step} reaches bad entry {cursor}"));
            }
            on_list[cursor] = true;
            if step + 1 < free_len {
                cursor = indices[cursor].next as usize;
            } else if cursor != self.freelist_enqueue as usize {
                return Err(format!(
                    "free list ends at {cursor}, enqueue end is {}",
                    self.freelist_enqueue
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::{IdTable, checks};

    #[test]
    fn index_entry_is_the_articles_eight_bytes() {
        assert_eq!(std::mem::size_of::<IndexEntry>(), 8);
    }

    /// Fills with `n` objects and checks each is stored or refused as the capacity says.
    fn fill<const C: usize>(n: usize) -> PackedFixed<u64, C> {
        let mut t = PackedFixed::<u64, C>::new();
        let memory = t.memory_bytes();
        let mut ids = Vec::new();
        for i in 0..n as u64 {
            match t.insert(i) {
                Ok(id) => ids.push(id),
                Err(e) => {
                    assert_eq!(e, TableError::Full { capacity: C });
                    assert_eq!(i as usize, C, "refused before full");
                }
            }
        }
        assert_eq!(t.len(), n.min(C));
        assert_eq!(t.memory_bytes(), memory, "storage grew");
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(t.get(*id), Some(&(i as u64)));
        }
        t.check_invariants().unwrap();
        t
    }

    #[test]
    fn holds_exactly_capacity_objects() {
        for n in [0, 7, 8, 9] {
            fill::<8>(n);
        }
        for n in [0, 65535, 65536, 65537] {
            fill::<65536>(n);
        }
    }

    /// The article's bug (comment 14): fill, remove any, add. Here the add reuses the freed
    /// entry, and the table keeps working at and around full.
    #[test]
    fn remove_then_insert_when_full_works() {
        fn check<const C: usize>() {
            let mut t = fill::<C>(C);
            let victim = Id32::new((C / 2) as u32, 1);
            assert_eq!(t.remove(victim), Some((C / 2) as u64));
            let id = t.insert(1000).unwrap();
            assert_eq!(id, Id32::new((C / 2) as u32, 2));
            assert_eq!(t.get(victim), None);
            assert_eq!(t.get(id), Some(&1000));
            assert_eq!(t.insert(0), Err(TableError::Full { capacity: C }));
            // Free two, then refill: FIFO order over the freed entries.
            t.remove(Id32::new(0, 1)).unwrap();
            t.remove(Id32::new(1, 1)).unwrap();
            assert_eq!(t.insert(1).unwrap(), Id32::new(0, 2));
            assert_eq!(t.insert(2).unwrap(), Id32::new(1, 2));
            assert_eq!(t.len(), C);
            t.check_invariants().unwrap();
        }
        check::<8>();
        check::<65536>();
    }

    #[test]
    fn freed_entries_wait_behind_the_never_used_ones() {
        let mut t = PackedFixed::<u32, 8>::new();
        let a = t.insert(0).unwrap();
        assert_eq!(a, Id32::new(0, 1)); // the article's `id += NEW_OBJECT_ID_ADD` on add
        t.remove(a).unwrap();
        let indices: Vec<u32> = (1..=8).map(|i| t.insert(i).unwrap().index()).collect();
        assert_eq!(indices, [1, 2, 3, 4, 5, 6, 7, 0]);
        t.check_invariants().unwrap();
    }

    /// With the table kept full there is no reserve: the one free entry is reused at once, and
    /// a stale ID matches again after exactly 2^16 reuses of its entry.
    #[test]
    fn a_full_table_reissues_a_stale_id_after_2_pow_16_reuses() {
        let mut t = fill::<8>(8);
        let stale = Id32::new(3, 1);
        t.remove(stale).unwrap();
        // The stated bound counts removals after the stale ID's own: one fewer than reuses.
        let reuses = FixedIndex::<8>::STALE_BOUND + 1;
        assert_eq!(reuses, 65536);
        checks::stale_id_is_reissued_at_reuse(t, stale, reuses, Id32::index);
    }

    #[test]
    fn check_invariants_catches_a_cut_free_list() {
        checks::check_invariants_catches(fill::<8>(3), |t| t.index.freelist_enqueue = 5);
    }
}
