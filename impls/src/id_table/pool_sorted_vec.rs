//! Stable-pointer pool with a sorted free-index vector: the Blue Moon Games pool's "lowest hole
//! first" variant as the article wrote it (seed 004, v2c).
//!
//! Same slots and IDs as `pool` (alive flag, generation, free-list link unused; `Id64`: 32-bit
//! index + 32-bit generation). The article keeps the free indices in a vector sorted high to
//! low, "so that the last element is the smallest free index": insert pops it (O(1)), so holes
//! fill lowest first and live objects stay packed towards the front; remove finds the freed
//! index's place with a binary search (`std::lower_bound`) and inserts it there
//! (`freeList.insert`). The article calls that removal O(log n); the `Vec::insert` shifts every
//! free index below the new one, so it is O(F) in the number of free slots F (a `memmove` of up
//! to 4·F bytes), which `remove-random` at growing sizes shows. Our article port keeps the
//! vector; `pool_lowest` is the tuned alternative (a two-level bitset, O(1) remove).
//!
//! Cost: get O(1), one slot access; insert O(1); remove O(log F) search + O(F) shift.
//! Iteration walks every slot and tests the alive flag, as `pool`. Memory: `pool`'s slots plus
//! 4 bytes per free slot. A slot whose generation would wrap is retired (never reused, never on
//! the vector), so a stale ID never matches again.

use super::pool_table::{FreeSlots, NIL, PoolSlot, PoolTable};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// The stated cap on a trace's bound of free-index shifts ([`DesignInfo::remove_shift_cap`]:
/// the free slots there are at each remove, summed over the setup's and the body's): 2^35,
/// about 3.4·10^10. `remove-random` at 65,536 objects (32,768 removes into 0 to 32,767 free
/// slots: 5.4·10^8) and `churn` at 1M (10^5 removes, few free slots) stay under it;
/// `remove-random` at 1M (500,000 removes: 1.25·10^11, about 7 s per body) and the 1M traces
/// whose setup frees half the slots or more are reported unsupported (`lookup-stale*`, 500,000
/// removes; `iterate-holes`, 10^6 removes: 5·10^11): their untimed builds, at least two per
/// cell, would take seconds to most of a minute of each such cell in a default run. The remove
/// cost at 10K/100K/500K free slots is measured by
/// `cargo run --release -p impls --example sorted_free_remove`.
pub const REMOVE_SHIFT_CAP: u64 = 1 << 35;

/// Pool with lowest-hole-first reuse through a free-index vector sorted high to low.
///
/// ```
/// use impls::id_table::{IdTable, pool_sorted_vec::PoolSortedVec};
///
/// let mut table = PoolSortedVec::<u32>::new();
/// let ids: Vec<_> = (0..5).map(|i| table.insert(i).unwrap()).collect();
/// table.remove(ids[3]).unwrap();
/// table.remove(ids[1]).unwrap();
/// // The lowest hole is filled first, whatever the removal order.
/// assert_eq!(table.insert(10).unwrap().index(), 1);
/// assert_eq!(table.insert(11).unwrap().index(), 3);
/// ```
pub type PoolSortedVec<T> = PoolTable<T, SortedFree>;

/// The article's free-index vector, sorted high to low. Every slot's `next_free` stays `NIL`.
#[derive(Debug, Clone)]
pub struct SortedFree {
    /// The reusable holes (not retired), each once, strictly decreasing: the last is the
    /// lowest.
    indices: Vec<u32>,
}

impl FreeSlots for SortedFree {
    const INFO: DesignInfo = DesignInfo {
        remove_shift_cap: Some(REMOVE_SHIFT_CAP),
        ..DesignInfo::new::<Id64>(
            DesignMeta {
                name: "pool_sorted_vec",
                description: "stable-pointer pool filling the lowest hole first from a free-index vector sorted high to low (binary search + Vec::insert on remove: O(free)), the article's own version",
                kind: DesignKind::Article,
            },
            StaleDetection::Never,
        )
    };

    fn new() -> Self {
        Self {
            indices: Vec::new(),
        }
    }

    #[inline]
    fn insert<T>(table: &mut PoolTable<T, Self>, value: T) -> Result<Id64, TableError> {
        if let Some(i) = table.free.indices.pop() {
            let generation = table.slots[i as usize].occupy(value);
            table.len += 1;
            return Ok(Id64::new(i, generation));
        }
        table.push(value)
    }

    #[inline]
    fn release<T>(&mut self, _: &mut PoolSlot<T>, index: u32) {
        // Free indices above `index` come first (the vector decreases).
        let at = self.indices.partition_point(|&f| f > index);
        self.indices.insert(at, index);
    }

    fn memory_bytes(&self) -> usize {
        self.indices.capacity() * std::mem::size_of::<u32>()
    }

    fn check_invariants<T>(&self, slots: &[PoolSlot<T>]) -> Result<(), String> {
        if let Some(w) = self.indices.windows(2).find(|w| w[0] <= w[1]) {
            return Err(format!("free vector not decreasing at {} {}", w[0], w[1]));
        }
        for &i in &self.indices {
            if !slots.get(i as usize).is_some_and(PoolSlot::is_reusable) {
                return Err(format!("free index {i} is not a reusable hole"));
            }
        }
        let reusable = slots.iter().filter(|s| s.is_reusable()).count();
        if reusable != self.indices.len() {
            return Err(format!(
                "{reusable} reusable holes but {} free indices",
                self.indices.len()
            ));
        }
        if let Some(i) = slots.iter().position(|s| s.next_free != NIL) {
            return Err(format!("slot {i} has a free-list link"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::{IdTable, checks, pool_table};

    #[test]
    fn refills_lowest_first_after_any_removal_order() {
        // `check_invariants` holds the free vector to decreasing order after every removal.
        checks::holes_are_refilled_lowest_first::<PoolSortedVec<u32>>(Id64::index);
    }

    /// The stated horizon (`StaleDetection::Never`): a slot whose generation would wrap is
    /// retired, never put back on the vector.
    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        let t = pool_table::slot_is_retired_when_its_generation_would_wrap::<SortedFree>();
        assert!(t.free.indices.is_empty(), "a retired slot is not reusable");
    }

    #[test]
    fn check_invariants_catches_an_unsorted_vector() {
        let (mut t, ids) = checks::filled::<PoolSortedVec<u32>>(3);
        t.remove(ids[0]).unwrap();
        t.remove(ids[2]).unwrap();
        checks::check_invariants_catches(t, |t| t.free.indices.reverse());
    }
}
