//! The crate calls of the peers' `ref-direct-<peer>` loops ([`super::direct_peer`]): the
//! steps a body is decoded into ([`Step`], [`ReadStep`]) and, per peer, one out-of-line loop
//! per body shape ([`CrateLoops`]), each written once by a macro with the crate's own call
//! names, the calls the peer's adapter makes (`forward_to_the_crate!` in
//! `impls/src/id_table/peers/mod.rs`).

use impls::id_table::Design;
use impls::id_table::peers::generational_arena::GenerationalArenaPeer;
use impls::id_table::peers::slab::SlabPeer;
use impls::id_table::peers::slotmap::SlotMapPeer;
use impls::id_table::peers::slotmap_dense::DenseSlotMapPeer;
use impls::id_table::peers::slotmap_hop::HopSlotMapPeer;
use impls::id_table::peers::thunderdome::ThunderdomePeer;
use impls::id_table::registry::ctors;
use workloads::Object;

use super::{IdTableDigest, mix_object};

/// One op of a body as an application holding the crate's keys replays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<K> {
    /// `Add`: the handle whose object is inserted, and the key the peer's dry run got for it.
    Add {
        /// The op's handle (its object is [`Object::for_handle`] of it).
        handle: u32,
        /// The key the dry run's insert returned.
        recorded: K,
    },
    /// `Get` of a live key.
    Get(K),
    /// `GetStale` of a removed key.
    GetStale(K),
    /// `Mutate` of a live key.
    Mutate(K),
    /// `Remove` of a live key.
    Remove(K),
    /// `Iterate`.
    Iterate,
    /// `IterateMut`.
    IterateMut,
    /// `Sort`: no call (no peer reorders its objects), kept so that step `i` is op `i`, the
    /// index [`IdTableDigest::first_stale_hit`] names.
    Sort,
}

/// One op of a body that only reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadStep<K> {
    /// `Get` of a live key.
    Get(K),
    /// `GetStale` of a removed key.
    GetStale(K),
    /// `Iterate`.
    Iterate,
}

impl<K> ReadStep<K> {
    /// `step` if it only reads.
    pub(super) fn of(step: Step<K>) -> Option<Self> {
        match step {
            Step::Get(key) => Some(ReadStep::Get(key)),
            Step::GetStale(key) => Some(ReadStep::GetStale(key)),
            Step::Iterate => Some(ReadStep::Iterate),
            Step::Add { .. }
            | Step::Mutate(_)
            | Step::Remove(_)
            | Step::IterateMut
            | Step::Sort => None,
        }
    }
}

/// A peer design whose crate the `ref-direct-<peer>` loop calls directly: each body shape's
/// loop as an application writes it with the crate, on the crate's map borrowed from the
/// peer's table (built untimed by the peer's replay). Every method is out of line, so each
/// call runs the same machine code whatever the caller.
pub trait CrateLoops: Design {
    /// Looks every key up with the crate's `get`: how many resolved, and the wrapping sum of
    /// [`mix_object`] over the objects found.
    fn lookup_all<P: Object>(table: &Self::Table<P>, keys: &[Self::Id]) -> (u64, u64);

    /// Looks every (stale) key up with the crate's `get`: how many resolved, and the index of
    /// the first that did.
    fn stale_lookups<P: Object>(table: &Self::Table<P>, keys: &[Self::Id]) -> (u64, Option<u64>);

    /// Runs `steps` in order with the crate's `get` and read-only iteration: the body's digest.
    fn read_steps<P: Object>(table: &Self::Table<P>, steps: &[ReadStep<Self::Id>])
    -> IdTableDigest;

    /// Removes every key with the crate's remove: how many objects came back, and the
    /// wrapping sum of [`mix_object`] over them.
    fn remove_all<P: Object>(table: &mut Self::Table<P>, keys: &[Self::Id]) -> (u64, u64);

    /// Applies [`Object::mutate`] to every key's object through the crate's `get_mut`: how
    /// many resolved, and the wrapping sum of [`mix_object`] over them after the change.
    fn mutate_all<P: Object>(table: &mut Self::Table<P>, keys: &[Self::Id]) -> (u64, u64);

    /// Applies `steps` in order with the crate's calls: the body's digest.
    ///
    /// # Errors
    /// The index of the first `Add` whose key differs from the one the dry run recorded; the
    /// steps before it were applied.
    fn apply_steps<P: Object>(
        table: &mut Self::Table<P>,
        steps: &[Step<Self::Id>],
    ) -> Result<IdTableDigest, usize>;
}

/// `Iterate`: the wrapping sum of `value` over the objects, and how many there are. Out of
/// line, as the replay's: it visits the whole table, so the call costs nothing next to it,
/// and inlined it would take registers from the single-object steps of a mixed body.
#[inline(never)]
fn sum_values<'a, P: Object>(values: impl Iterator<Item = &'a P>) -> (u64, u64) {
    values.fold((0u64, 0u64), |(sum, count), p| {
        (sum.wrapping_add(p.value()), count + 1)
    })
}

/// `IterateMut`: bumps every object; returns how many there are (out of line, as
/// [`sum_values`]).
#[inline(never)]
fn bump_values<'a, P: Object>(values: impl Iterator<Item = &'a mut P>) -> u64 {
    values.fold(0u64, |count, p| {
        p.bump();
        count + 1
    })
}

/// Index in `keys` of the first key `found` says resolved (out of line: only a failing run of
/// `GetStale`s asks).
#[cold]
#[inline(never)]
fn first_found<K: Copy>(keys: &[K], found: impl Fn(K) -> bool) -> Option<u64> {
    keys.iter().position(|&key| found(key)).map(|at| at as u64)
}

/// Writes [`CrateLoops`] for a peer: `crate_loops!(ctor, adapter, borrow, borrow_mut, remove:
/// the crate's remove, iterate: values | pairs)`, where `borrow` / `borrow_mut` are the
/// adapter's accessors to its crate map and `iterate` is the adapter's `forward_to_the_crate!`
/// choice (`values()` / `values_mut()`, or `iter()` / `iter_mut()` with the key dropped).
macro_rules! crate_loops {
    (@values values, $map:expr) => {
        $map.values()
    };
    (@values pairs, $map:expr) => {
        $map.iter().map(|(_, value)| value)
    };
    (@values_mut values, $map:expr) => {
        $map.values_mut()
    };
    (@values_mut pairs, $map:expr) => {
        $map.iter_mut().map(|(_, value)| value)
    };
    ($design:ty, $peer:ident, $map:ident, $map_mut:ident, remove: $remove:ident,
     iterate: $iterate:ident) => {
        impl CrateLoops for $design {
            #[inline(never)]
            fn lookup_all<P: Object>(table: &$peer<P>, keys: &[Self::Id]) -> (u64, u64) {
                let map = table.$map();
                let (mut hits, mut sum) = (0u64, 0u64);
                for &key in keys {
                    if let Some(p) = map.get(key) {
                        hits += 1;
                        sum = sum.wrapping_add(mix_object(p));
                    }
                }
                (hits, sum)
            }

            #[inline(never)]
            fn stale_lookups<P: Object>(
                table: &$peer<P>,
                keys: &[Self::Id],
            ) -> (u64, Option<u64>) {
                let map = table.$map();
                let mut stale_hits = 0u64;
                for &key in keys {
                    stale_hits += u64::from(map.get(key).is_some());
                }
                let first = if stale_hits > 0 {
                    first_found(keys, |key| map.get(key).is_some())
                } else {
                    None
                };
                (stale_hits, first)
            }

            #[inline(never)]
            fn read_steps<P: Object>(
                table: &$peer<P>,
                steps: &[ReadStep<Self::Id>],
            ) -> IdTableDigest {
                let map = table.$map();
                let (mut hits, mut stale_hits) = (0u64, 0u64);
                let (mut lookup_sum, mut iterate_sum, mut iterated) = (0u64, 0u64, 0u64);
                let mut first_stale_hit = None;
                for (index, &step) in steps.iter().enumerate() {
                    match step {
                        ReadStep::Get(key) => {
                            if let Some(p) = map.get(key) {
                                hits += 1;
                                lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                            }
                        }
                        ReadStep::GetStale(key) => {
                            if map.get(key).is_some() {
                                stale_hits += 1;
                                first_stale_hit.get_or_insert(index as u64);
                            }
                        }
                        ReadStep::Iterate => {
                            let (sum, count) = sum_values(crate_loops!(@values $iterate, map));
                            iterate_sum = iterate_sum.wrapping_add(sum);
                            iterated += count;
                        }
                    }
                }
                IdTableDigest {
                    hits,
                    stale_hits,
                    lookup_sum,
                    iterate_sum,
                    iterated,
                    ops: steps.len() as u64,
                    first_stale_hit,
                }
            }

            #[inline(never)]
            fn remove_all<P: Object>(table: &mut $peer<P>, keys: &[Self::Id]) -> (u64, u64) {
                let map = table.$map_mut();
                let (mut hits, mut sum) = (0u64, 0u64);
                for &key in keys {
                    if let Some(p) = map.$remove(key) {
                        hits += 1;
                        sum = sum.wrapping_add(mix_object(&p));
                    }
                }
                (hits, sum)
            }

            #[inline(never)]
            fn mutate_all<P: Object>(table: &mut $peer<P>, keys: &[Self::Id]) -> (u64, u64) {
                let map = table.$map_mut();
                let (mut hits, mut sum) = (0u64, 0u64);
                for &key in keys {
                    if let Some(p) = map.get_mut(key) {
                        p.mutate();
                        hits += 1;
                        sum = sum.wrapping_add(mix_object(p));
                    }
                }
                (hits, sum)
            }

            #[inline(never)]
            fn apply_steps<P: Object>(
                table: &mut $peer<P>,
                steps: &[Step<Self::Id>],
            ) -> Result<IdTableDigest, usize> {
                let map = table.$map_mut();
                let (mut hits, mut stale_hits) = (0u64, 0u64);
                let (mut lookup_sum, mut iterate_sum, mut iterated) = (0u64, 0u64, 0u64);
                let mut first_stale_hit = None;
                for (index, &step) in steps.iter().enumerate() {
                    match step {
                        Step::Add { handle, recorded } => {
                            if map.insert(P::for_handle(handle)) != recorded {
                                return Err(index);
                            }
                        }
                        Step::Get(key) => {
                            if let Some(p) = map.get(key) {
                                hits += 1;
                                lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                            }
                        }
                        Step::GetStale(key) => {
                            if map.get(key).is_some() {
                                stale_hits += 1;
                                first_stale_hit.get_or_insert(index as u64);
                            }
                        }
                        Step::Mutate(key) => {
                            if let Some(p) = map.get_mut(key) {
                                p.mutate();
                                hits += 1;
                                lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                            }
                        }
                        Step::Remove(key) => {
                            if let Some(p) = map.$remove(key) {
                                hits += 1;
                                lookup_sum = lookup_sum.wrapping_add(mix_object(&p));
                            }
                        }
                        Step::Iterate => {
                            let (sum, count) = sum_values(crate_loops!(@values $iterate, map));
                            iterate_sum = iterate_sum.wrapping_add(sum);
                            iterated += count;
                        }
                        Step::IterateMut => {
                            iterated += bump_values(crate_loops!(@values_mut $iterate, map));
                        }
                        Step::Sort => {}
                    }
                }
                Ok(IdTableDigest {
                    hits,
                    stale_hits,
                    lookup_sum,
                    iterate_sum,
                    iterated,
                    ops: steps.len() as u64,
                    first_stale_hit,
                })
            }
        }
    };
}

// `SlotMap::insert`, `get`, `get_mut`, `remove`, `values()` / `values_mut()`.
crate_loops!(ctors::SlotMap, SlotMapPeer, map, map_mut, remove: remove, iterate: values);
// `DenseSlotMap::insert`, `get`, `get_mut`, `remove`, `values()` / `values_mut()`.
crate_loops!(ctors::DenseSlotMap, DenseSlotMapPeer, map, map_mut, remove: remove, iterate: values);
// `HopSlotMap::insert`, `get`, `get_mut`, `remove`, `values()` / `values_mut()`.
crate_loops!(ctors::HopSlotMap, HopSlotMapPeer, map, map_mut, remove: remove, iterate: values);
// `thunderdome::Arena::insert`, `get`, `get_mut`, `remove`, `iter()` / `iter_mut()`.
crate_loops!(ctors::Thunderdome, ThunderdomePeer, arena, arena_mut, remove: remove, iterate: pairs);
// `generational_arena::Arena::insert`, `get`, `get_mut`, `remove`, `iter()` / `iter_mut()`.
crate_loops!(
    ctors::GenerationalArena, GenerationalArenaPeer, arena, arena_mut, remove: remove,
    iterate: pairs
);
// `Slab::insert`, `get`, `get_mut`, `try_remove`, `iter()` / `iter_mut()`.
crate_loops!(ctors::Slab, SlabPeer, slab, slab_mut, remove: try_remove, iterate: pairs);
