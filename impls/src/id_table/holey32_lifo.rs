//! Array with holes, 32-bit ID, LIFO free list: the combination the article warns against,
//! registered to show its failure, not to be used.
//!
//! "The problem with this approach [a LIFO free list] is that if you create and delete objects
//! in quick succession they will all be assigned to the same index slot which means you
//! quickly run out of inner_ids for that slot." This design is the article's 32-bit ID
//! ([`Id32<16>`]: 16-bit slot index, 16-bit generation) over `holey`'s slots and LIFO free list,
//! with no reserve of holes and no retirement: a slot's generation is incremented on removal
//! and wraps at 2^16. Creating and deleting one object over and over reuses one slot, so the
//! 65,536th reuse hands out exactly the ID of the object removed 65,536 reuses earlier, and a
//! stale lookup of that ID resolves to the live object. `churn-hot-stale` does this; its
//! verification reports "stale ID resolved after generation wrap at op N" for this design
//! (status `unsupported`: the trace passes the design's documented stale-ID horizon), while
//! [`Holey32`](super::holey32)'s FIFO queue with 1024 holes in reserve passes.
//!
//! Capacity: all 2^16 slots. Cost: as `holey` (insert, get, remove O(1), one slot access;
//! iteration walks every slot), with half the ID size. Trade-off against `holey32`: no reserve
//! of holes (a slot of `size_of::<T>() + 8` bytes each), paid for with a stale-ID horizon of
//! 2^16 reuses of one slot, which a hot slot reaches in microseconds.

use super::holey::Slot;
use super::{DesignInfo, DesignKind, IdTable, StaleDetection, id_bytes};
use crate::TableError;
use crate::id::Id32;

/// End of the free list.
const NIL: u32 = u32::MAX;

/// Array with holes, 32-bit [`Id32<16>`] IDs, LIFO free list through the holes, generations
/// wrapping at 2^16.
///
/// ```
/// use impls::id_table::{IdTable, holey32_lifo::Holey32Lifo};
///
/// let mut table = Holey32Lifo::<u32>::new();
/// let stale = table.insert(0).unwrap();
/// table.remove(stale).unwrap();
/// // 65,536 quick create/delete pairs reuse the one hole and wrap its generation...
/// for i in 1..65_536 {
///     let id = table.insert(i).unwrap();
///     table.remove(id).unwrap();
/// }
/// let live = table.insert(7).unwrap();
/// // ...so the stale ID names the live object again: the article's warning.
/// assert_eq!(live, stale);
/// assert_eq!(table.get(stale), Some(&7));
/// ```
#[derive(Debug, Clone)]
pub struct Holey32Lifo<T> {
    /// Invariants: at most 2^16 slots; `Occupied` count == `len`; every `Vacant` slot is on the
    /// free list exactly once; every generation is below 2^16.
    slots: Vec<Slot<T>>,
    /// Most recently freed slot (taken next), or `NIL`.
    free_head: u32,
    /// Live objects.
    len: usize,
}

impl<T> Holey32Lifo<T> {
    /// The most live objects: the 2^16 slots of the 16-bit index.
    pub const CAPACITY: usize = Id32::<16>::INDEX_COUNT as usize;
}

impl<T: 'static> IdTable<T> for Holey32Lifo<T> {
    type Id = Id32<16>;

    const INFO: DesignInfo = DesignInfo {
        name: "holey32_lifo",
        description: "array with holes, 32-bit ID (16-bit index + 16-bit generation), LIFO free list: the article's warning, a hot slot wraps its generation",
        kind: DesignKind::Article,
        id_bytes: id_bytes::<Id32<16>>(),
        stale: StaleDetection::UntilSlotReuses(Id32::<16>::GENERATION_COUNT),
        demonstrates: Some(
            "a LIFO free list with a 16-bit generation puts quickly created and deleted objects in one slot, whose generation wraps after 65,536 reuses",
        ),
        capacity: Some(Self::CAPACITY),
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
    fn insert(&mut self, value: T) -> Result<Self::Id, TableError> {
        let (index, generation) = if self.free_head != NIL {
            let index = self.free_head;
            let slot = &mut self.slots[index as usize];
            let Slot::Vacant {
                generation,
                next_free,
            } = *slot
            else {
                unreachable!("free list points at an occupied slot");
            };
            self.free_head = next_free;
            *slot = Slot::Occupied { generation, value };
            (index, generation)
        } else if self.slots.len() < Self::CAPACITY {
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
            generation: Id32::<16>::next_generation(id.generation()),
            next_free: self.free_head,
        };
        let Slot::Occupied { value, .. } = std::mem::replace(slot, vacant) else {
            unreachable!()
        };
        self.free_head = index;
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|slot| match slot {
            Slot::Occupied { value, .. } => Some(value),
            Slot::Vacant { .. } => None,
        })
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|slot| match slot {
            Slot::Occupied { value, .. } => Some(value),
            Slot::Vacant { .. } => None,
        })
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot<T>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.slots.len() > Self::CAPACITY {
            return Err(format!(
                "{} slots overflow the 16-bit index",
                self.slots.len()
            ));
        }
        let mut occupied = 0;
        for (i, slot) in self.slots.iter().enumerate() {
            let (Slot::Occupied { generation, .. } | Slot::Vacant { generation, .. }) = slot;
            if u64::from(*generation) >= Id32::<16>::GENERATION_COUNT {
                return Err(format!("slot {i} generation {generation} out of range"));
            }
            occupied += usize::from(matches!(slot, Slot::Occupied { .. }));
        }
        if occupied != self.len {
            return Err(format!("len {} but {occupied} occupied slots", self.len));
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut listed = 0;
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            let Some(Slot::Vacant { next_free, .. }) = self.slots.get(i) else {
                return Err(format!("free list reaches non-vacant slot {i}"));
            };
            if on_list[i] {
                return Err(format!("free list has a cycle through slot {i}"));
            }
            on_list[i] = true;
            listed += 1;
            cursor = *next_free;
        }
        if self.slots.len() != self.len + listed {
            return Err(format!(
                "a vacant slot is not on the free list ({listed} listed)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The design's stated horizon, exactly: the 2^16-th reuse of a hot slot reissues the ID
    /// removed before the first, and no earlier reuse does.
    #[test]
    fn stale_id_is_reissued_at_exactly_the_stated_reuse() {
        let StaleDetection::UntilSlotReuses(bound) = Holey32Lifo::<u64>::INFO.stale else {
            panic!("the horizon is counted in reuses of a slot");
        };
        let mut t = Holey32Lifo::<u64>::new();
        for i in 0..10 {
            t.insert(i).unwrap();
        }
        let stale = t.insert(100).unwrap();
        t.remove(stale).unwrap();
        for reuse in 1..=bound {
            let id = t.insert(reuse).unwrap();
            assert_eq!(id.index(), stale.index(), "LIFO reuses the hot slot");
            if reuse < bound {
                assert_ne!(id, stale, "reissued at reuse {reuse}");
                assert_eq!(t.get(stale), None);
                t.remove(id).unwrap();
            } else {
                assert_eq!(id, stale);
                assert_eq!(t.get(stale), Some(&reuse), "the stale ID resolves");
            }
        }
        t.check_invariants().unwrap();
    }

    #[test]
    fn full_at_two_pow_16_slots() {
        let mut t = Holey32Lifo::<u32>::new();
        for i in 0..65_536 {
            t.insert(i).unwrap();
        }
        assert_eq!(t.insert(0), Err(TableError::Full { capacity: 65_536 }));
        t.remove(Id32::new(9, 0)).unwrap();
        assert_eq!(t.insert(1).unwrap(), Id32::new(9, 1));
        t.check_invariants().unwrap();
    }

    #[test]
    fn check_invariants_catches_a_lost_hole() {
        let mut t = Holey32Lifo::<u32>::new();
        let a = t.insert(0).unwrap();
        t.insert(1).unwrap();
        t.remove(a).unwrap();
        t.check_invariants().unwrap();
        t.free_head = NIL;
        assert!(t.check_invariants().is_err());
    }
}
