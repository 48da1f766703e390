//! Behaviour checks that several designs' unit tests share, each written once against
//! [`IdTable`]: a design's test calls one with its own table type and, where a check needs it,
//! the design's way to read an ID's slot or to reach inside the table. What a design does
//! differently (its exact IDs, its own counters) its test asserts on what the check returns.

use super::IdTable;

/// A fresh table holding `0..n`, and their IDs in insertion order.
pub(crate) fn filled<D: IdTable<u32>>(n: u32) -> (D, Vec<D::Id>) {
    let mut t = D::new();
    let ids = (0..n).map(|i| t.insert(i).unwrap()).collect();
    (t, ids)
}

/// LIFO reuse: in a table of `0..4`, the objects in the slots `holes` are removed in that
/// order; the next inserts fill those slots newest hole first, then a fresh slot 4. Returns the
/// IDs of the refills, in insertion order.
pub(crate) fn holes_are_reused_newest_first<D: IdTable<u32>>(
    holes: [usize; 2],
    slot: fn(D::Id) -> u32,
) -> Vec<D::Id> {
    let (mut t, ids) = filled::<D>(4);
    for hole in holes {
        t.remove(ids[hole]).unwrap();
    }
    let refills: Vec<D::Id> = (10..12).map(|v| t.insert(v).unwrap()).collect();
    let slots: Vec<u32> = refills.iter().map(|&id| slot(id)).collect();
    assert_eq!(
        slots,
        [holes[1] as u32, holes[0] as u32],
        "newest hole first"
    );
    assert_eq!(slot(t.insert(12).unwrap()), 4, "then a fresh slot");
    t.check_invariants().unwrap();
    refills
}

/// Lowest-hole-first reuse, the article's example: in a table of `0..10` the objects in slots
/// 3, 8, 5 and 4 are removed (the invariants checked after each); the next inserts fill 3, 4, 5
/// and 8, whatever the removal order (a LIFO list would refill 4, 5, 8, 3), then a fresh slot.
pub(crate) fn holes_are_refilled_lowest_first<D: IdTable<u32>>(slot: fn(D::Id) -> u32) {
    let (mut t, ids) = filled::<D>(10);
    for i in [3, 8, 5, 4] {
        t.remove(ids[i]).unwrap();
        t.check_invariants().unwrap();
    }
    let refilled: Vec<u32> = (0..5).map(|v| slot(t.insert(v).unwrap())).collect();
    assert_eq!(refilled, [3, 4, 5, 8, 10]);
    t.check_invariants().unwrap();
}

/// The stated horizon of a design that retires a slot when its generation would wrap: slot 0
/// is freed, `fast_forward` moves it to its last generation, the next object there gets the ID
/// `last`; once that object is removed the slot is never reused and both its IDs stay stale.
/// Returns the table, holding one object (`2`, in slot 1), for the design's own checks.
pub(crate) fn slot_is_retired_at_its_last_generation<D: IdTable<u32>>(
    slot: fn(D::Id) -> u32,
    last: D::Id,
    fast_forward: impl FnOnce(&mut D),
) -> D {
    let mut t = D::new();
    let first = t.insert(0).unwrap();
    t.remove(first).unwrap();
    fast_forward(&mut t);
    assert_eq!(t.insert(1).unwrap(), last);
    assert_eq!(t.remove(last), Some(1));
    t.check_invariants().unwrap();
    assert_eq!(
        slot(t.insert(2).unwrap()),
        1,
        "the retired slot is never reused"
    );
    assert_eq!(t.get(first), None);
    assert_eq!(t.get(last), None);
    t.check_invariants().unwrap();
    t
}

/// The stale-ID horizon of a design with a FIFO free queue, reached the adversarial way:
/// `reserve` holes queued (the design's reserve), then one object inserted and removed over
/// and over, so every removal cycles one slot through the queue. Returns how many removals
/// after the stale ID's own it took until an equal ID came back (and names the new object);
/// until then the stale ID misses.
pub(crate) fn removals_until_reissued<D: IdTable<u64>>(reserve: usize) -> u64 {
    let mut t = D::new();
    let keep: Vec<_> = (0..reserve as u64 + 10)
        .map(|i| t.insert(i).unwrap())
        .collect();
    for &id in &keep[..reserve] {
        t.remove(id).unwrap();
    }
    let stale = t.insert(100).unwrap();
    t.remove(stale).unwrap();
    for removals_since in 0.. {
        let id = t.insert(removals_since).unwrap();
        if id == stale {
            assert_eq!(t.get(stale), Some(&removals_since));
            t.check_invariants().unwrap();
            return removals_since;
        }
        assert_eq!(t.get(stale), None, "after {removals_since} removals");
        t.remove(id).unwrap();
    }
    unreachable!()
}

/// A hot slot with no reserve: `stale` was just removed from `t`, and every insert reuses its
/// slot. The `reuses`-th reuse hands out exactly `stale` again (which then resolves), and no
/// earlier one does.
pub(crate) fn stale_id_is_reissued_at_reuse<D: IdTable<u64>>(
    mut t: D,
    stale: D::Id,
    reuses: u64,
    slot: fn(D::Id) -> u32,
) {
    for reuse in 1..=reuses {
        let id = t.insert(reuse).unwrap();
        assert_eq!(slot(id), slot(stale), "the hot slot is reused");
        if reuse < reuses {
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

/// `check_invariants` accepts `t` as it is, and reports the damage `corrupt` does to it.
pub(crate) fn check_invariants_catches<T: 'static, D: IdTable<T>>(
    mut t: D,
    corrupt: impl FnOnce(&mut D),
) {
    t.check_invariants().unwrap();
    corrupt(&mut t);
    assert!(t.check_invariants().is_err(), "the damage went unnoticed");
}
