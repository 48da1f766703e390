//! Array with holes, 32-bit ID, LIFO free list: the combination the article warns against,
//! registered to show its failure, not to be used.
//!
//! "The problem with this approach [a LIFO free list] is that if you create and delete objects
//! in quick succession they will all be assigned to the same index slot which means you
//! quickly run out of inner_ids for that slot." This design is the article's 32-bit ID
//! ([`Id32<16>`](crate::id::Id32): 16-bit slot index, 16-bit generation) over `holey32`'s slots with a LIFO free list,
//! with no reserve of holes and no retirement: a slot's generation is incremented on removal
//! and wraps at 2^16. Creating and deleting one object over and over reuses one slot, so the
//! 65,536th reuse hands out exactly the ID of the object removed 65,536 reuses earlier, and a
//! stale lookup of that ID resolves to the live object. `churn-hot-stale` does this; its
//! verification reports "stale ID resolved after generation wrap at op N" for this design
//! (status `unsupported`: the trace passes the design's documented stale-ID horizon), while
//! [`Holey32`](super::holey32)'s FIFO queue with 1024 holes in reserve passes.
//!
//! It is [`Holey32`] with the LIFO free-list policy and no reserve
//! (`Holey32<T, 16, 0, true>`): one implementation, the policy a const parameter, so the two
//! differ only where the article says they do.
//!
//! Capacity: all 2^16 slots. Cost: as `holey` (insert, get, remove O(1), one slot access;
//! iteration walks every slot), with half the ID size. Trade-off against `holey32`: no reserve
//! of holes (a slot of `size_of::<T>() + 8` bytes each), paid for with a stale-ID horizon of
//! 2^16 reuses of one slot, which a hot slot reaches in microseconds.

use super::holey32::Holey32;

/// Array with holes, 32-bit [`Id32<16>`](crate::id::Id32) IDs, LIFO free list through the
/// holes, generations wrapping at 2^16: [`Holey32`] with the LIFO policy and no reserve.
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
pub type Holey32Lifo<T> = Holey32<T, 16, 0, true>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableError;
    use crate::id::Id32;
    use crate::id_table::{IdTable, StaleDetection, checks};

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
        checks::stale_id_is_reissued_at_reuse(t, stale, bound, Id32::index);
    }

    #[test]
    fn full_at_two_pow_16_slots() {
        let (mut t, _) = checks::filled::<Holey32Lifo<u32>>(65_536);
        assert_eq!(t.insert(0), Err(TableError::Full { capacity: 65_536 }));
        t.remove(Id32::new(9, 0)).unwrap();
        assert_eq!(t.insert(1).unwrap(), Id32::new(9, 1));
        t.check_invariants().unwrap();
    }

    #[test]
    fn holes_are_reused_newest_first() {
        checks::holes_are_reused_newest_first::<Holey32Lifo<u32>>([0, 2], Id32::index);
    }
}
