//! Array with holes and a 32-bit ID: the article's suggested variant of its second design, with
//! a FIFO free list that always keeps `MIN_FREE` holes in reserve.
//!
//! Objects live in one `Vec` of slots and never move. The ID is an [`Id32<INDEX_BITS>`]: the
//! slot index in the low `INDEX_BITS` bits and the slot's generation in the other
//! `G = 32 - INDEX_BITS` bits (16/16 by default: "if you never have more than 64 K objects live
//! at the same time, you can get by with 16 bits for the index"). A slot's generation is
//! incremented, wrapping at 2^G, each time its object is removed.
//!
//! The holes form a FIFO queue threaded through the vacant slots (no side allocation): a removed
//! slot joins the tail, and insert takes the oldest hole from the head, but only while more than
//! `MIN_FREE` holes are queued; otherwise it appends a new slot. This is the article's fix for
//! LIFO reuse, which puts quickly created and deleted objects in one slot and runs through its
//! 2^G generations fast: "always have a certain number of elements in the free list (allocate
//! more if you run low) and rewrite it as a FIFO".
//!
//! # Guarantee
//! Once the object of an ID `x` is removed, at least `(MIN_FREE + 1) * 2^G - 1` further removals
//! (of any objects) happen before an insert can hand out an ID equal to `x`; until then `get(x)`
//! is `None`. Proof: an ID equal to `x` needs `x`'s slot to come back to `x`'s generation, so the
//! slot is removed 2^G times in all (the first of them is `x`'s own removal) and taken from the
//! queue 2^G times. Each time the slot is taken it was at the head of a queue of more than
//! `MIN_FREE` holes, so at least `MIN_FREE` other holes joined the queue behind it since it was
//! queued: `MIN_FREE` removals of other objects in each of the 2^G disjoint waits, plus the
//! slot's own `2^G - 1` later removals. The bound is exact: inserting and removing one object
//! over and over with `MIN_FREE` holes queued reaches it (tested below). Defaults: 1025 * 65536
//! - 1, about 67 million removals (the article says "N * 64 K" for N free objects).
//!
//! The free-list policy is a parameter too: `LIFO = true` with `MIN_FREE = 0` is
//! [`Holey32Lifo`](super::holey32_lifo::Holey32Lifo), the LIFO reuse the article warns against
//! (removed holes are pushed at the head of the list, which insert takes from, and no reserve
//! is kept); the guarantee above is the FIFO policy's.
//!
//! Other splits of the 32 bits are registry lines of this type (`holey32_20_12`,
//! `holey32_24_8`): each index bit doubles the capacity and halves the stale-ID horizon
//! (4,198,399 and 262,399 removals). A split outside the registry is named `holey32_custom`.
//!
//! Capacity: the table is full at `2^INDEX_BITS - MIN_FREE` live objects, the point where a new
//! slot would leave no room in the index space for the `MIN_FREE` reserve; `insert` then returns
//! [`TableError::Full`]. `MIN_FREE < 2^INDEX_BITS` is checked at compile time.
//!
//! Cost: insert, get, remove O(1) with one slot access. Compared with [`Holey`](super::holey):
//! half the ID size, at most `2^INDEX_BITS` slots, and up to `MIN_FREE` extra holes that
//! iteration walks over (each `size_of::<T>() + 8` bytes for an 8-aligned `T`).

use super::holey::Slot;
use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id32;

/// End of the free queue.
const NIL: u32 = u32::MAX;

/// Array with holes, 32-bit [`Id32<INDEX_BITS>`] IDs, FIFO free queue keeping `MIN_FREE` holes
/// (or, with `LIFO`, a LIFO free list: the article's warning).
///
/// ```
/// use impls::id_table::{IdTable, holey32::Holey32};
///
/// let mut table = Holey32::<&str>::new();
/// let id = table.insert("tree").unwrap();
/// assert_eq!(table.get(id), Some(&"tree"));
/// assert_eq!(table.remove(id), Some("tree"));
/// assert_eq!(table.get(id), None);
/// ```
///
/// The reserve must leave room for at least one object:
///
/// ```compile_fail
/// use impls::id_table::{IdTable, holey32::Holey32};
///
/// let table = <Holey32<u32, 4, 16> as IdTable<u32>>::new(); // 16 holes in 2^4 slots
/// ```
#[derive(Debug, Clone)]
pub struct Holey32<
    T,
    const INDEX_BITS: u32 = 16,
    const MIN_FREE: u32 = 1024,
    const LIFO: bool = false,
> {
    /// Invariants: `len() <= 2^INDEX_BITS`; `Occupied` count == `len`; every `Vacant` slot is on
    /// the free queue exactly once; every generation is below 2^G.
    slots: Vec<Slot<T>>,
    /// The holes, linked through their `next_free`.
    free: FreeQueue,
    /// Live objects. Invariant: `len <= CAPACITY`.
    len: usize,
}

/// The bounds of a table of [`Id32<INDEX_BITS>`] IDs whose FIFO free queue keeps `MIN_FREE`
/// holes in reserve: [`Holey32`] and [`Packed`](super::packed::Packed)'s index, whose queues
/// differ only in what they thread through.
pub struct FifoReserve<const INDEX_BITS: u32, const MIN_FREE: u32>;

impl<const INDEX_BITS: u32, const MIN_FREE: u32> FifoReserve<INDEX_BITS, MIN_FREE> {
    /// The most live objects: all `2^INDEX_BITS` slots but the `MIN_FREE` reserve.
    pub const CAPACITY: usize = {
        assert!(
            MIN_FREE < Id32::<INDEX_BITS>::INDEX_COUNT,
            "MIN_FREE must be below 2^INDEX_BITS"
        );
        (Id32::<INDEX_BITS>::INDEX_COUNT - MIN_FREE) as usize
    };

    /// Removals after an ID's own removal before an equal ID can be handed out (the module
    /// doc's guarantee): `(MIN_FREE + 1) * 2^G - 1`.
    pub const STALE_BOUND: u64 = (MIN_FREE as u64 + 1) * Id32::<INDEX_BITS>::GENERATION_COUNT - 1;
}

/// A free queue threaded through vacant slots (or index entries), as [`Holey32`] and
/// [`Packed`](super::packed::Packed)'s index keep one: from `oldest`, each vacant slot's link
/// leads to the next newer one, ending at `newest`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FreeQueue {
    /// The slot insert takes next (FIFO: the oldest; `Holey32`'s LIFO: the newest), or `NIL`
    /// when the queue is empty.
    pub(crate) oldest: u32,
    /// The slot at the far end of the queue (its link is `NIL`), or `NIL` when the queue is
    /// empty: FIFO appends here.
    pub(crate) newest: u32,
    /// Slots on the queue.
    pub(crate) len: u32,
}

impl FreeQueue {
    /// No slot on the queue.
    pub(crate) const EMPTY: Self = Self {
        oldest: NIL,
        newest: NIL,
        len: 0,
    };

    /// Walks the queue through `next_vacant` (a vacant slot's link; `None` for a slot that is
    /// not vacant) and checks that it holds `len` distinct vacant slots ending at `newest`,
    /// which with the `live` occupied ones are all `slots`.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub(crate) fn check(
        &self,
        slots: usize,
        live: usize,
        next_vacant: impl Fn(usize) -> Option<u32>,
    ) -> Result<(), String> {
        let mut on_queue = vec![false; slots];
        let mut queued = 0;
        let mut last = NIL;
        let mut cursor = self.oldest;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(next) = next_vacant(i) else {
                return Err(format!("free queue reaches non-vacant slot {i}"));
            };
            if std::mem::replace(&mut on_queue[i], true) {
                return Err(format!("free queue has a cycle through slot {i}"));
            }
            queued += 1;
            last = cursor;
            cursor = next;
        }
        if queued != self.len {
            return Err(format!("free_len {} but {queued} queued", self.len));
        }
        if last != self.newest {
            return Err(format!("queue ends at {last}, newest is {}", self.newest));
        }
        if slots != live + queued as usize {
            return Err(format!(
                "a vacant slot is not on the free queue ({queued} queued)"
            ));
        }
        Ok(())
    }
}

impl<T, const INDEX_BITS: u32, const MIN_FREE: u32, const LIFO: bool>
    Holey32<T, INDEX_BITS, MIN_FREE, LIFO>
{
    /// The most live objects: [`FifoReserve::CAPACITY`].
    pub const CAPACITY: usize = FifoReserve::<INDEX_BITS, MIN_FREE>::CAPACITY;

    /// The stale-ID bound of the FIFO policy, [`FifoReserve::STALE_BOUND`]: 67,174,399 at the
    /// defaults.
    pub const STALE_BOUND: u64 = FifoReserve::<INDEX_BITS, MIN_FREE>::STALE_BOUND;

    /// Puts the vacant slot `index` on the free queue: at the tail (FIFO), or at the head, to
    /// be taken next (LIFO).
    fn enqueue_free(&mut self, index: u32) {
        if LIFO {
            if let Slot::Vacant { next_free, .. } = &mut self.slots[index as usize] {
                *next_free = self.free.oldest;
            }
            if self.free.newest == NIL {
                self.free.newest = index;
            }
            self.free.oldest = index;
            self.free.len += 1;
            return;
        }
        if self.free.newest == NIL {
            self.free.oldest = index;
        } else if let Slot::Vacant { next_free, .. } = &mut self.slots[self.free.newest as usize] {
            *next_free = index;
        } else {
            unreachable!("newest hole {} is occupied", self.free.newest);
        }
        self.free.newest = index;
        self.free.len += 1;
    }

    /// Takes the oldest hole off the free queue: its index and the generation its next object
    /// gets. The queue must not be empty.
    fn dequeue_free(&mut self) -> (u32, u32) {
        let index = self.free.oldest;
        let Slot::Vacant {
            generation,
            next_free,
        } = self.slots[index as usize]
        else {
            unreachable!("oldest hole {index} is occupied");
        };
        self.free.oldest = next_free;
        self.free.len -= 1;
        if self.free.len == 0 {
            self.free.newest = NIL;
        }
        (index, generation)
    }
}

impl<T: 'static, const INDEX_BITS: u32, const MIN_FREE: u32, const LIFO: bool> IdTable<T>
    for Holey32<T, INDEX_BITS, MIN_FREE, LIFO>
{
    type Id = Id32<INDEX_BITS>;

    const INFO: DesignInfo = DesignInfo {
        demonstrates: if LIFO {
            Some(
                "a LIFO free list with a 16-bit generation puts quickly created and deleted objects in one slot, whose generation wraps after 65,536 reuses",
            )
        } else {
            None
        },
        capacity: Some(Self::CAPACITY),
        ..DesignInfo::new::<Id32<INDEX_BITS>>(
            DesignMeta {
                name: match (INDEX_BITS, MIN_FREE, LIFO) {
                    (16, 1024, false) => "holey32",
                    (20, 1024, false) => "holey32_20_12",
                    (24, 1024, false) => "holey32_24_8",
                    (16, 0, true) => "holey32_lifo",
                    _ => "holey32_custom",
                },
                description: match (INDEX_BITS, MIN_FREE, LIFO) {
                    (_, _, true) => {
                        "array with holes, 32-bit ID (16-bit index + 16-bit generation), LIFO free list: the article's warning, a hot slot wraps its generation"
                    }
                    (20, 1024, _) => {
                        "holey32 with a 20-bit index + 12-bit generation: 16x the capacity, a 16x shorter stale-ID horizon"
                    }
                    (24, 1024, _) => {
                        "holey32 with a 24-bit index + 8-bit generation: 256x the capacity, a 256x shorter stale-ID horizon"
                    }
                    _ => {
                        "array with holes, 32-bit ID (16-bit index + 16-bit generation), FIFO free list through the holes keeping 1024 in reserve"
                    }
                },
                kind: DesignKind::Article,
            },
            if LIFO {
                StaleDetection::UntilSlotReuses(Id32::<INDEX_BITS>::GENERATION_COUNT)
            } else {
                StaleDetection::UntilRemovals(Self::STALE_BOUND)
            },
        )
    };

    fn new() -> Self {
        const { assert!(Self::CAPACITY > 0) };
        Self {
            slots: Vec::new(),
            free: FreeQueue::EMPTY,
            len: 0,
        }
    }

    #[inline]
    fn insert(&mut self, value: T) -> Result<Self::Id, TableError> {
        let (index, generation) = if self.free.len > MIN_FREE {
            let (index, generation) = self.dequeue_free();
            self.slots[index as usize] = Slot::Occupied { generation, value };
            (index, generation)
        } else if self.len < Self::CAPACITY {
            // Here `slots.len() = len + free_len < 2^INDEX_BITS`, so the index fits.
            let index = self.slots.len() as u32;
            self.slots.push(Slot::Occupied {
                generation: 0,
                value,
            });
            (index, 0)
        } else {
            return Err(TableError::Full {
                capacity: Self::CAPACITY,
            });
        };
        self.len += 1;
        Ok(Id32::new(index, generation))
    }

    #[inline]
    fn get(&self, id: Self::Id) -> Option<&T> {
        match self.slots.get(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    #[inline]
    fn get_mut(&mut self, id: Self::Id) -> Option<&mut T> {
        match self.slots.get_mut(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    #[inline]
    fn remove(&mut self, id: Self::Id) -> Option<T> {
        let index = id.index();
        let slot = self.slots.get_mut(index as usize)?;
        match slot {
            Slot::Occupied { generation, .. } if *generation == id.generation() => {}
            _ => return None,
        }
        let vacant = Slot::Vacant {
            generation: Id32::<INDEX_BITS>::next_generation(id.generation()),
            next_free: NIL,
        };
        let Slot::Occupied { value, .. } = std::mem::replace(slot, vacant) else {
            unreachable!()
        };
        self.enqueue_free(index);
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
        if self.slots.len() as u64 > u64::from(Id32::<INDEX_BITS>::INDEX_COUNT) {
            return Err(format!(
                "{} slots overflow the index space",
                self.slots.len()
            ));
        }
        if self.len > Self::CAPACITY {
            return Err(format!(
                "len {} above capacity {}",
                self.len,
                Self::CAPACITY
            ));
        }
        let mut occupied = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            let (Slot::Occupied { generation, .. } | Slot::Vacant { generation, .. }) = slot;
            if u64::from(*generation) >= Id32::<INDEX_BITS>::GENERATION_COUNT {
                return Err(format!("slot {i} generation {generation} out of range"));
            }
            occupied += usize::from(matches!(slot, Slot::Occupied { .. }));
        }
        if occupied != self.len {
            return Err(format!("len {} but {occupied} occupied slots", self.len));
        }
        self.free
            .check(self.slots.len(), self.len, |i| match self.slots.get(i) {
                Some(Slot::Vacant { next_free, .. }) => Some(*next_free),
                _ => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::id_table::checks;

    /// 28-bit index, so G = 4 (16 generations), and 3 holes in reserve.
    type Small = Holey32<u64, 28, 3>;
    /// `(MIN_FREE + 1) * 2^G - 1` for [`Small`]: the stated bound, spelled out.
    const SMALL_BOUND: u64 = (3 + 1) * 16 - 1;

    #[test]
    fn registered_splits_reissue_exactly_at_their_stated_bound() {
        assert_eq!(SMALL_BOUND, Small::STALE_BOUND);
        // 24/8 and 20/12 with the default reserve: 262,399 and 4,198,399 removals, cheap
        // enough to reach here; 16/16 (67 million) is the same formula, checked by `Small`.
        assert_eq!(Holey32::<u64, 24>::STALE_BOUND, 262_399);
        assert_eq!(
            checks::removals_until_reissued::<Holey32<u64, 24>>(1024),
            262_399
        );
        assert_eq!(Holey32::<u64, 20>::STALE_BOUND, 4_198_399);
        assert_eq!(Holey32::<u64>::STALE_BOUND, 67_174_399);
        // The adversarial pattern (see `checks::removals_until_reissued`) reaches the bound
        // exactly: no ID comes back earlier.
        assert_eq!(checks::removals_until_reissued::<Small>(3), SMALL_BOUND);
    }

    #[test]
    fn registered_splits_state_their_capacity() {
        assert_eq!(Holey32::<u64, 20>::CAPACITY, (1 << 20) - 1024);
        assert_eq!(Holey32::<u64, 24>::CAPACITY, (1 << 24) - 1024);
        assert_eq!(
            <Holey32<u64, 24> as IdTable<u64>>::INFO.meta.name,
            "holey32_24_8"
        );
    }

    #[test]
    fn slot_is_payload_plus_one_word() {
        assert_eq!(std::mem::size_of::<Slot<[u64; 4]>>(), 40);
    }

    #[test]
    fn free_queue_is_fifo_and_keeps_min_free_holes() {
        let (mut t, ids) = checks::filled::<Holey32<u32, 16, 2>>(5);
        t.remove(ids[3]).unwrap();
        t.remove(ids[1]).unwrap();
        // Two holes queued, none spare: append.
        assert_eq!(t.insert(10).unwrap().index(), 5);
        t.remove(ids[4]).unwrap();
        // Three holes queued: take the oldest, slot 3, then append again.
        assert_eq!(t.insert(11).unwrap(), Id32::new(3, 1));
        assert_eq!(t.insert(12).unwrap().index(), 6);
        t.check_invariants().unwrap();
    }

    #[test]
    fn no_stale_id_collides_before_the_bound_under_random_churn() {
        let mut t = Small::new();
        let mut live: Vec<Id32<28>> = Vec::new();
        // Removed IDs, with the removal count when they were removed.
        let mut removed_at: HashMap<Id32<28>, u64> = HashMap::new();
        let mut removals = 0;
        let mut collisions = 0;
        let mut closest = u64::MAX;
        let mut rng = 0x2545_F491_4F6C_DD1D_u64;
        for value in 0..200_000 {
            rng = crate::xorshift::step(rng);
            // Drift the population between 0 and about 40 live objects.
            let insert = live.is_empty() || (rng % 40) as usize >= live.len() / 2 + 10;
            if insert {
                let id = t.insert(value).unwrap();
                if let Some(at) = removed_at.remove(&id) {
                    collisions += 1;
                    closest = closest.min(removals - at);
                    assert!(removals - at >= SMALL_BOUND, "{id:?} reissued early");
                }
                live.push(id);
            } else {
                let id = live.swap_remove((rng >> 32) as usize % live.len());
                t.remove(id).unwrap();
                removals += 1;
                removed_at.insert(id, removals);
            }
        }
        t.check_invariants().unwrap();
        assert!(collisions > 0, "the churn never wrapped a generation");
        assert!(closest >= SMALL_BOUND);
    }

    #[test]
    fn default_split_holds_64k_minus_reserve_then_is_full() {
        let mut t = Holey32::<u32>::new();
        let capacity = 65536 - 1024;
        assert_eq!(Holey32::<u32>::CAPACITY, capacity);
        let ids: Vec<_> = (0..capacity as u32).map(|i| t.insert(i).unwrap()).collect();
        assert_eq!(t.insert(0), Err(TableError::Full { capacity }));
        // Freeing the reserve's worth refills the index space up to 2^16 slots.
        for &id in &ids[..1024] {
            t.remove(id).unwrap();
        }
        for i in 0..1024 {
            assert_eq!(t.insert(i).unwrap().index(), capacity as u32 + i);
        }
        assert_eq!(t.insert(0), Err(TableError::Full { capacity }));
        assert_eq!(t.slots.len(), 65536);
        // With more than the reserve queued, a hole is reused: the oldest, slot 0.
        t.remove(ids[2000]).unwrap();
        assert_eq!(t.insert(7).unwrap(), Id32::new(0, 1));
        assert_eq!(t.get(ids[0]), None);
        assert_eq!(t.get(ids[1024]), Some(&1024));
        assert_eq!(t.len(), capacity);
        t.check_invariants().unwrap();
    }

    #[test]
    fn check_invariants_catches_a_lost_hole() {
        let (mut t, ids) = checks::filled::<Holey32<u32, 16, 2>>(2);
        t.remove(ids[0]).unwrap();
        checks::check_invariants_catches(t, |t| t.free = FreeQueue::EMPTY);
    }
}
