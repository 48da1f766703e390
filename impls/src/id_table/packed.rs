//! Packed array: the article's third design, growable, with a 32-bit ID and a FIFO free queue
//! of index entries keeping `MIN_FREE` in reserve.
//!
//! Objects are dense in one `Vec<T>` with no holes; IDs name an entry in a separate index table,
//! which holds the object's dense position ("an extra level of indirection, where the IDs point
//! to an array of indices that points to the objects themselves"). Removal swaps the last object
//! into the hole and patches the moved object's index entry, found through a parallel dense
//! `Vec<u32>` of owning entry numbers (the article keeps the ID inside the object instead; our
//! `T` is opaque).
//!
//! The ID is an [`Id32<INDEX_BITS>`]: the index entry in the low `INDEX_BITS` bits (22 by
//! default: up to 4 M entries) and the entry's generation in the other `G = 32 - INDEX_BITS`
//! bits (10 by default), incremented on removal and wrapping at 2^G. Vacant entries form a FIFO
//! queue threaded through the entries themselves, and insert reuses the oldest only while more
//! than `MIN_FREE` are queued (1024 by default), exactly as in [`Holey32`](super::holey32),
//! which gives the same guarantee: once an ID's object is removed, at least
//! `(MIN_FREE + 1) * 2^G - 1` further removals happen before an equal ID can be handed out
//! (1025 * 1024 - 1, about 1 million, at the defaults: the price of a 32-bit ID that also
//! addresses 4 M objects). Here the reserve only costs index entries (8 bytes each), not object
//! slots. The table is full at `2^INDEX_BITS - MIN_FREE` live objects.
//!
//! Cost: get is two dependent array reads (entry, then object); insert O(1) amortised; remove
//! O(1) with one object move. Iteration is a plain slice walk over exactly the live objects,
//! with no holes and no branches: the article's reason for the design. Memory per live object
//! is `size_of::<T>() + 4 + 8` bytes plus the reserve and `Vec` slack.

use super::dense::{Dense, DenseIndex, DenseTable};
use super::holey32::{FifoReserve, FreeQueue};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::{Id32, SlotVersion};

/// End of the free queue.
const NIL: u32 = u32::MAX;

/// One index entry, 8 bytes.
#[derive(Debug, Clone, Copy)]
struct IndexEntry {
    /// Occupied: the generation of the object's IDs. Vacant: the generation the next object
    /// gets (one more than the last occupant's, wrapped).
    version: SlotVersion,
    /// Occupied: the object's position in the dense arrays. Vacant: the next newer entry in
    /// the free queue, or `NIL` for the newest.
    link: u32,
}

/// Packed array: dense objects, an index table of 32-bit IDs, FIFO reuse of index entries.
///
/// ```
/// use impls::id_table::{IdTable, packed::Packed};
///
/// let mut table = Packed::<&str>::new();
/// let a = table.insert("a").unwrap();
/// let b = table.insert("b").unwrap();
/// assert_eq!(table.remove(a), Some("a")); // "b" moves into the hole; its ID still works
/// assert_eq!(table.get(b), Some(&"b"));
/// assert_eq!(table.as_slice(), ["b"]);
/// ```
pub type Packed<T, const INDEX_BITS: u32 = 22, const MIN_FREE: u32 = 1024> =
    DenseTable<T, PackedIndex<INDEX_BITS, MIN_FREE>>;

/// The index of [`Packed`]: entries naming the dense objects, the vacant ones on a FIFO queue.
#[derive(Debug, Clone)]
pub struct PackedIndex<const INDEX_BITS: u32 = 22, const MIN_FREE: u32 = 1024> {
    /// Invariants: `entries.len() <= 2^INDEX_BITS`; occupied entries are exactly those named in
    /// the table's `owners`; every vacant entry is on the free queue exactly once; generations
    /// are below 2^G.
    entries: Vec<IndexEntry>,
    /// The vacant entries, oldest (reused next) to newest, linked through their `link`.
    free: FreeQueue,
}

impl<const INDEX_BITS: u32, const MIN_FREE: u32> PackedIndex<INDEX_BITS, MIN_FREE> {
    /// The most live objects: all `2^INDEX_BITS` index entries but the `MIN_FREE` reserve.
    pub const CAPACITY: usize = FifoReserve::<INDEX_BITS, MIN_FREE>::CAPACITY;

    /// Removals after an ID's own removal before an equal ID can be handed out (the module
    /// doc's guarantee, as `holey32`'s): 1,049,599 at the defaults.
    pub const STALE_BOUND: u64 = FifoReserve::<INDEX_BITS, MIN_FREE>::STALE_BOUND;

    /// Appends the vacant entry `entry` to the free queue.
    fn enqueue_free(&mut self, entry: u32) {
        if self.free.newest == NIL {
            self.free.oldest = entry;
        } else {
            self.entries[self.free.newest as usize].link = entry;
        }
        self.free.newest = entry;
        self.free.len += 1;
    }

    /// Takes the oldest entry off the free queue, which must not be empty.
    fn dequeue_free(&mut self) -> u32 {
        let entry = self.free.oldest;
        self.free.oldest = self.entries[entry as usize].link;
        self.free.len -= 1;
        if self.free.len == 0 {
            self.free.newest = NIL;
        }
        entry
    }
}

impl<T, const INDEX_BITS: u32, const MIN_FREE: u32> DenseIndex<T>
    for PackedIndex<INDEX_BITS, MIN_FREE>
{
    type Id = Id32<INDEX_BITS>;
    type Owner = u32;

    const INFO: DesignInfo = DesignInfo {
        capacity: Some(Self::CAPACITY),
        ..DesignInfo::new::<Id32<INDEX_BITS>>(
            DesignMeta {
                name: "packed",
                description: "packed array: dense objects + index table, swap-remove, 32-bit ID (default 22-bit index + 10-bit generation), FIFO free queue of index entries keeping 1024 in reserve",
                kind: DesignKind::Article,
            },
            StaleDetection::UntilRemovals(Self::STALE_BOUND),
        )
    };

    fn new() -> Self {
        const { assert!(Self::CAPACITY > 0) };
        Self {
            entries: Vec::new(),
            free: FreeQueue::EMPTY,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, dense: &mut Dense<T, u32>, value: T) -> Result<Self::Id, TableError> {
        let entry = if self.free.len > MIN_FREE {
            self.dequeue_free()
        } else if dense.objects.len() < Self::CAPACITY {
            // Here `entries.len() = len + free_len < 2^INDEX_BITS`, so the entry number fits.
            self.entries.push(IndexEntry {
                version: SlotVersion::vacant(0),
                link: NIL,
            });
            (self.entries.len() - 1) as u32
        } else {
            return Err(TableError::Full {
                capacity: Self::CAPACITY,
            });
        };
        let slot = &mut self.entries[entry as usize];
        let generation = slot.version.generation();
        slot.version = SlotVersion::occupied(generation);
        slot.link = dense.objects.len() as u32;
        dense.objects.push(value);
        dense.owners.push(entry);
        Ok(Id32::new(entry, generation))
    }

    #[inline]
    fn get<'a>(&self, dense: &'a Dense<T, u32>, id: Self::Id) -> Option<&'a T> {
        let entry = self.entries.get(id.index() as usize)?;
        if entry.version.is_occupied_by(id.generation()) {
            dense.objects.get(entry.link as usize)
        } else {
            None
        }
    }

    #[inline]
    fn get_mut<'a>(&self, dense: &'a mut Dense<T, u32>, id: Self::Id) -> Option<&'a mut T> {
        let entry = self.entries.get(id.index() as usize)?;
        if entry.version.is_occupied_by(id.generation()) {
            dense.objects.get_mut(entry.link as usize)
        } else {
            None
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn remove(&mut self, dense: &mut Dense<T, u32>, id: Self::Id) -> Option<T> {
        let entry_number = id.index();
        let entry = self.entries.get_mut(entry_number as usize)?;
        if !entry.version.is_occupied_by(id.generation()) {
            return None;
        }
        let position = entry.link;
        entry.version = SlotVersion::vacant(Id32::<INDEX_BITS>::next_generation(id.generation()));
        entry.link = NIL;
        let value = dense.objects.swap_remove(position as usize);
        dense.owners.swap_remove(position as usize);
        if let Some(&moved) = dense.owners.get(position as usize) {
            self.entries[moved as usize].link = position;
        }
        self.enqueue_free(entry_number);
        Some(value)
    }

    fn relink(&mut self, owner: u32, position: usize) {
        self.entries[owner as usize].link = position as u32;
    }

    fn position_of(&self, owner: u32) -> Option<usize> {
        let entry = self.entries.get(owner as usize)?;
        entry.version.is_occupied().then_some(entry.link as usize)
    }

    fn memory_bytes(&self, _: &Dense<T, u32>) -> usize {
        self.entries.capacity() * std::mem::size_of::<IndexEntry>()
    }

    fn check_invariants(&self, dense: &Dense<T, u32>) -> Result<(), String> {
        let len = dense.objects.len();
        if len > Self::CAPACITY {
            return Err(format!("len {len} above capacity {}", Self::CAPACITY));
        }
        if self.entries.len() as u64 > u64::from(Id32::<INDEX_BITS>::INDEX_COUNT) {
            return Err(format!(
                "{} entries overflow the index space",
                self.entries.len()
            ));
        }
        let mut occupied = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if u64::from(e.version.generation()) >= Id32::<INDEX_BITS>::GENERATION_COUNT {
                return Err(format!("entry {i} generation out of range: {e:?}"));
            }
            occupied += usize::from(e.version.is_occupied());
        }
        // Each object names a distinct occupied entry (the links differ), so equal counts mean
        // no occupied entry is unowned.
        if occupied != len {
            return Err(format!("{occupied} occupied entries for {len} objects"));
        }
        self.free.check(self.entries.len(), len, |i| {
            let e = self.entries.get(i)?;
            (!e.version.is_occupied()).then_some(e.link)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::IdTable;
    use crate::id_table::checks;
    use crate::id_table::dense::tests::swap_remove_moves_the_last_object;

    #[test]
    fn index_entry_is_two_words_of_four_bytes() {
        assert_eq!(std::mem::size_of::<IndexEntry>(), 8);
    }

    #[test]
    fn freed_entries_come_back_oldest_first() {
        let (mut t, ids) = swap_remove_moves_the_last_object::<PackedIndex<16, 0>>();
        // MIN_FREE = 0: a plain FIFO, the oldest freed entry (1, then 3) comes back first.
        assert_eq!(t.insert(9).unwrap(), Id32::new(1, 1));
        assert_eq!(t.insert(10).unwrap(), Id32::new(3, 1));
        assert_eq!(t.get(ids[1]), None);
        t.check_invariants().unwrap();
    }

    #[test]
    fn full_at_index_space_minus_reserve() {
        let capacity = 14;
        assert_eq!(PackedIndex::<4, 2>::CAPACITY, capacity);
        let (mut t, ids) = checks::filled::<Packed<u32, 4, 2>>(capacity as u32);
        assert_eq!(t.insert(99), Err(TableError::Full { capacity }));
        t.remove(ids[5]).unwrap();
        t.remove(ids[6]).unwrap();
        t.remove(ids[7]).unwrap();
        // Three queued, above the reserve of 2: the oldest (entry 5) is reused.
        assert_eq!(t.insert(50).unwrap(), Id32::new(5, 1));
        // Two queued, none spare: fresh entries 14 and 15 fill the index space, then full.
        assert_eq!(t.insert(51).unwrap(), Id32::new(14, 0));
        assert_eq!(t.insert(52).unwrap(), Id32::new(15, 0));
        assert_eq!(t.insert(53), Err(TableError::Full { capacity }));
        assert_eq!(t.index.entries.len(), 16);
        assert_eq!(t.len(), capacity);
        t.check_invariants().unwrap();
    }

    /// Same pattern and bound as in `holey32`: `(MIN_FREE + 1) * 2^G - 1` removals, and the
    /// registered design's own bound (about a million insert/remove pairs).
    #[test]
    fn stale_ids_come_back_exactly_at_the_bound() {
        assert_eq!(PackedIndex::<28, 3>::STALE_BOUND, (3 + 1) * 16 - 1);
        assert_eq!(
            checks::removals_until_reissued::<Packed<u64, 28, 3>>(3),
            PackedIndex::<28, 3>::STALE_BOUND
        );
        assert_eq!(<PackedIndex>::STALE_BOUND, 1_049_599);
        assert_eq!(
            checks::removals_until_reissued::<Packed<u64>>(1024),
            <PackedIndex>::STALE_BOUND
        );
    }

    #[test]
    fn default_reserve_bounds_early_reuse() {
        let mut t = Packed::<u32>::new();
        let first = t.insert(0).unwrap();
        t.remove(first).unwrap();
        // 1024 more insert/remove pairs append entries; the next one reuses entry 0.
        for i in 1..=1024 {
            let id = t.insert(i).unwrap();
            assert_eq!(id.index(), i);
            t.remove(id).unwrap();
        }
        assert_eq!(t.insert(7).unwrap(), Id32::new(0, 1));
        assert_eq!(t.get(first), None);
        t.check_invariants().unwrap();
    }
}
