//! The family's reference loops, verified like a replay:
//!
//! * [`DirectKv`] (`ref-direct-<design>`, for the peers `serde_json`, `litemap` and
//!   `std_hashmap`, and our article design `map_hashed`): any body written against the map
//!   itself, no [`DataStore`](impls::data_component::DataStore) in between: one map per entity
//!   in a plain `Vec` indexed by the design's entity handle (what an application keeps), per
//!   op the call the design's adapter makes on its map (`direct_maps.rs`), over a plain `Vec`
//!   of the body's ops as the application holds them (entity index and key; for `serde_json`
//!   the key's name, one shared string per key, the same 8-hex-digit name the adapter uses).
//!   Each op's entity is the one the design's dry run named or got, the IDs its timed replays
//!   read (taken from the cell when it holds them, [`CellStates::recorded_ids`]).
//!   - `Get` and `GetOr`: the map's own `get` (`Map::get` by key name for `serde_json`,
//!     `LiteMap::get`, `HashMap::get` and `BTreeMap::get` by key hash; a `GetOr` reads the
//!     instance's map, then the defaults'): `kv-keys-sweep` and its points, `kv-overrides`
//!     and its points, on the maps built once.
//!   - `Set`: the map's insert of a copy of a value built beforehand (the allocation and copy
//!     the application makes): `kv-sheet` (90 % Get, 10 % Set), `kv-grow-strings`.
//!   - `Remove`: the map's `remove`, the value dropped as the adapter frees it.
//!   - `Snapshot`: what the adapter's snapshot does, on the map: `serde_json::to_writer` of the
//!     entity's `Map` read back by `serde_json::from_slice`; for the other three, the map's
//!     entries in its own order, each written by
//!     [`serial::write_entry`](impls::data_component::serial::write_entry) and read back by
//!     [`serial::visit`](impls::data_component::serial::visit) (the crate has no copy of its own: iterating the map and writing each
//!     entry is the adapter's snapshot too). The copy goes into one buffer reused by every
//!     snapshot, as the replay reuses its own: `kv-snapshot`, on the maps built once.
//!   - `Spawn`: the most recently released entity off a stack, else a new entity whose empty
//!     map is pushed, as the shared [`Entities`](impls::data_component::Entities) wrapper
//!     hands entities out; an entity other than the one the dry run recorded fails the run,
//!     since the later ops would name other maps. `Despawn`: the entity's map taken (dropped
//!     with its values, as the wrapper's `release` frees them) and the entity pushed on the
//!     stack. Of the wrapper's bookkeeping the loop keeps that stack alone, the least an
//!     application that reuses slots keeps: the `Option` per slot that answers
//!     `NoSuchEntity` for a released entity it does without, as it never names one.
//!     `kv-health-only` (spawns, each with a Set, then Gets).
//!
//!   A body other than only reads or only snapshots runs on a copy of the maps (and an empty
//!   stack) made before each timed pass, outside the timed region.
//!
//!   `map_hashed` is a `BTreeMap<u32, HeapValue>` per entity behind the same shared
//!   [`Entities`](impls::data_component::Entities) wrapper and map component as the
//!   `std_hashmap` peer, so its overhead over its own maps is every design's share (the
//!   driver, the wrapper's liveness check, the counts the contract keeps): a peer's overhead
//!   above it is its adapter's own.
//!
//!   The maps are the peer's after the trace's setup in content and entity handles: the
//!   peer's replay of the setup gives the handles (and must accept it), and the setup's
//!   `Set`s are inserted into the crate's maps directly (the adapter's own maps sit behind
//!   the shared [`Entities`](impls::data_component::Entities) wrapper, which has no accessor
//!   for a component); a setup of other ops than `Spawn` and `Set` (no registered workload
//!   has one) has no loop. [`ReferenceLoop::mirrors`] names the peer, so the results'
//!   `overhead` (replay ÷ this loop) is what the replay driver and the adapter add to the
//!   crate. Verified: the whole body digest (the reads found and the wrapping sum of
//!   [`mix_entry`](super::mix_entry) of (handle, key, value content) over them, the removes
//!   found, the snapshot entries read back and their sum, and the keys held after the body,
//!   counted outside the timed region) must equal the model's.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use impls::data_component::map_hashed::MapHashed;
use impls::data_component::peers::hashmap::HashMapPeer;
use impls::data_component::peers::litemap::LiteMapPeer;
use impls::data_component::peers::serde_json::SerdeJsonPeer;
use impls::data_component::{Entity, Key};
use workloads::data_component::EntityHandle;
use workloads::{DataOp, Trace};

use super::direct_maps::DirectMaps;
use super::{DataComponentDigest, DataComponentFamily, DataComponentReplay, value_of};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, describe_mismatch, runs_trace, sum_passes};
use crate::replay::pass_states::spawn_slot;
use crate::replay::shared::CellStates;

/// A read of the body as the application holds it.
#[derive(Debug, Clone)]
enum Read<K> {
    /// `Get`: the handle (for the digest), its entity, the key's hash (for the digest) and
    /// the key.
    Get(EntityHandle, Entity, Key, K),
    /// `GetOr`: as `Get`, then the defaults' entity.
    GetOr(EntityHandle, Entity, Entity, Key, K),
}

/// An op of the body as the application holds it, with the entity it names or gets as the
/// design's dry run recorded it.
#[derive(Debug, Clone)]
enum Op<K> {
    /// A read.
    Read(Read<K>),
    /// `Set`: the entity, the key and the index of the value in [`Body::Mixed`]'s values.
    Set(Entity, K, u32),
    /// `Remove`: the entity and the key.
    Remove(Entity, K),
    /// `Snapshot`: the handle (for the digest) and the entity.
    Snapshot(EntityHandle, Entity),
    /// `Spawn`: the entity the dry run got.
    Spawn(Entity),
    /// `Despawn`.
    Despawn(Entity),
}

/// The body, pre-decoded.
enum Body<K, V> {
    /// Only `Get`s and `GetOr`s: run on the maps built once.
    Reads(Vec<Read<K>>),
    /// Only `Snapshot`s, (handle, entity) each: run on the maps built once.
    Snapshots(Vec<(EntityHandle, Entity)>),
    /// Only reads and `Set`s (`kv-sheet`, `kv-grow-strings`): run on a fresh copy of the maps
    /// per pass by a loop of those two alone ([`read_and_set_all`]).
    ReadsAndSets {
        /// The ops in order.
        ops: Vec<Op<K>>,
        /// The values the Sets insert (a copy each), built before timing.
        values: Vec<V>,
    },
    /// Any other body: run on a fresh copy of the maps per pass.
    Mixed {
        /// The ops in order.
        ops: Vec<Op<K>>,
        /// The values the Sets insert (a copy each), built before timing.
        values: Vec<V>,
    },
}

impl<K, V> Body<K, V> {
    /// The shape of `ops` (with the values its Sets insert); `None` for an empty body.
    fn of(ops: Vec<Op<K>>, values: Vec<V>) -> Option<Self> {
        if ops.is_empty() {
            return None;
        }
        if ops.iter().all(|op| matches!(op, Op::Read(_))) {
            let reads = ops.into_iter().filter_map(|op| match op {
                Op::Read(r) => Some(r),
                _ => None,
            });
            return Some(Body::Reads(reads.collect()));
        }
        if ops.iter().all(|op| matches!(op, Op::Snapshot(..))) {
            let snapshots = ops.into_iter().filter_map(|op| match op {
                Op::Snapshot(h, e) => Some((h, e)),
                _ => None,
            });
            return Some(Body::Snapshots(snapshots.collect()));
        }
        if ops.iter().all(|op| matches!(op, Op::Read(_) | Op::Set(..))) {
            return Some(Body::ReadsAndSets { ops, values });
        }
        Some(Body::Mixed { ops, values })
    }
}

/// Why a pass over a body stopped, at the op (index into the body): a spawn got another
/// entity than the design's dry run, or a snapshot did not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopped {
    /// A spawn's entity differs from the recorded one.
    OtherEntity(usize),
    /// A snapshot's bytes did not decode.
    Undecodable(usize),
}

/// One read: the digest term of the value found, if any.
#[inline(always)]
fn read<P: DirectMaps>(maps: &[P::Map], read: &Read<P::Key>) -> Option<u64> {
    match read {
        Read::Get(h, e, key, k) => {
            P::lookup(&maps[*e as usize], k).and_then(|v| P::term(*h, *key, v))
        }
        Read::GetOr(h, e, base, key, k) => P::lookup(&maps[*e as usize], k)
            .or_else(|| P::lookup(&maps[*base as usize], k))
            .and_then(|v| P::term(*h, *key, v)),
    }
}

/// Runs a read body: the reads found and the wrapping sum of their terms. Out of line, so
/// every call runs the same machine code whatever the caller.
#[inline(never)]
fn read_all<P: DirectMaps>(maps: &[P::Map], reads: &[Read<P::Key>]) -> (u64, u64) {
    let (mut found, mut sum) = (0u64, 0u64);
    for r in reads {
        if let Some(term) = read::<P>(maps, r) {
            found += 1;
            sum = sum.wrapping_add(term);
        }
    }
    (found, sum)
}

/// One snapshot of `map` into `buffer` (cleared first, its capacity kept, as the replay's
/// buffer is reused), read back under `handle`: as [`DirectMaps::read_snapshot`].
#[inline(always)]
fn snapshot<P: DirectMaps>(
    map: &P::Map,
    buffer: &mut Vec<u8>,
    handle: EntityHandle,
) -> Option<(u64, u64)> {
    buffer.clear();
    P::write_snapshot(map, buffer);
    P::read_snapshot(buffer, handle)
}

/// Runs a body of snapshots: the entries read back and the wrapping sum of their terms, or
/// the op whose copy did not decode. Out of line, as [`read_all`].
#[inline(never)]
fn snapshot_all<P: DirectMaps>(
    maps: &[P::Map],
    buffer: &mut Vec<u8>,
    snapshots: &[(EntityHandle, Entity)],
) -> Result<(u64, u64), Stopped> {
    let (mut entries, mut sum) = (0u64, 0u64);
    for (at, &(h, e)) in snapshots.iter().enumerate() {
        let (n, s) = snapshot::<P>(&maps[e as usize], buffer, h).ok_or(Stopped::Undecodable(at))?;
        entries += n;
        sum = sum.wrapping_add(s);
    }
    Ok((entries, sum))
}

/// Runs a body of reads and `Set`s on a fresh copy of the maps, each Set inserting a copy of
/// its value: (reads found, wrapping sum of their terms). The loop of those two ops alone:
/// [`apply_all`]'s arms for the other kinds and its digest in memory cost a body of reads and
/// Sets instructions of their own (the cache pass's `ir` of `kv-sheet`'s loops).
#[inline(never)]
fn read_and_set_all<P: DirectMaps>(
    maps: &mut [P::Map],
    (ops, values): (&[Op<P::Key>], &[P::Value]),
) -> (u64, u64) {
    let (mut found, mut sum) = (0u64, 0u64);
    for op in ops {
        match op {
            Op::Read(r) => {
                if let Some(term) = read::<P>(maps, r) {
                    found += 1;
                    sum = sum.wrapping_add(term);
                }
            }
            Op::Set(e, k, value) => {
                P::put(&mut maps[*e as usize], k, values[*value as usize].clone());
            }
            _ => unreachable!("a body of reads and Sets holds no other op"),
        }
    }
    (found, sum)
}

/// Runs any body on a fresh copy of the maps (`maps`) and an empty stack of released
/// entities (`released`, most recently released last; the setup releases none), each Set
/// inserting a copy of its value: the digest but `keys_held`, or where it stopped.
#[inline(never)]
fn apply_all<P: DirectMaps>(
    maps: &mut Vec<P::Map>,
    released: &mut Vec<Entity>,
    buffer: &mut Vec<u8>,
    (ops, values): (&[Op<P::Key>], &[P::Value]),
) -> Result<DataComponentDigest, Stopped> {
    let mut d = DataComponentDigest::default();
    for (at, op) in ops.iter().enumerate() {
        match op {
            Op::Read(r) => {
                if let Some(term) = read::<P>(maps, r) {
                    d.gets_found += 1;
                    d.get_sum = d.get_sum.wrapping_add(term);
                }
            }
            Op::Set(e, k, value) => {
                P::put(&mut maps[*e as usize], k, values[*value as usize].clone());
            }
            Op::Remove(e, k) => {
                d.removes_found += u64::from(P::remove_key(&mut maps[*e as usize], k))
            }
            Op::Snapshot(h, e) => {
                let (n, s) = snapshot::<P>(&maps[*e as usize], buffer, *h)
                    .ok_or(Stopped::Undecodable(at))?;
                d.snapshot_entries += n;
                d.snapshot_sum = d.snapshot_sum.wrapping_add(s);
            }
            Op::Spawn(recorded) => {
                if spawn_slot(maps, released) != *recorded {
                    return Err(Stopped::OtherEntity(at));
                }
            }
            Op::Despawn(e) => {
                drop(std::mem::take(&mut maps[*e as usize]));
                released.push(*e);
            }
        }
    }
    Ok(d)
}

/// Keys held by all maps.
fn keys_held<P: DirectMaps>(maps: &[P::Map]) -> u64 {
    maps.iter().map(|m| P::len(m) as u64).sum()
}

/// The application's form of each key of the trace, made once per distinct key.
struct KeyNames<K>(HashMap<Key, K>);

impl<K: Clone> KeyNames<K> {
    /// The form of `key` by `make`, made on its first use.
    fn of(&mut self, key: Key, make: impl FnOnce(Key) -> K) -> K {
        self.0.entry(key).or_insert_with(|| make(key)).clone()
    }
}

/// The map of every entity after `trace`'s setup (only `Spawn`s and `Set`s), `entities[h]`
/// the design's entity of handle `h`; `None` for a setup with another op or a value the crate
/// cannot hold.
fn setup_maps<P: DirectMaps>(
    trace: &Trace<DataOp>,
    entities: &[Entity],
    names: &mut KeyNames<P::Key>,
) -> Option<Vec<P::Map>> {
    let slots = entities.iter().max().map_or(0, |&e| e as usize + 1);
    let mut maps = vec![P::Map::default(); slots];
    for &op in &trace.setup {
        match op {
            DataOp::Spawn => {}
            DataOp::Set(h, key, spec) => P::put(
                &mut maps[*entities.get(h as usize)? as usize],
                &names.of(key, P::key),
                P::value(value_of(spec))?,
            ),
            _ => return None,
        }
    }
    Some(maps)
}

/// `trace`'s body as ops holding `ids`, the entities the design's dry run recorded in op order
/// (two for a `GetOr`, one for any other op), with the values its Sets insert, in its shape
/// ([`Body::of`]); `None` for an empty body, or if the IDs do not fit the body or the crate
/// cannot hold a value.
fn decode<P: DirectMaps>(
    trace: &Trace<DataOp>,
    ids: &[Entity],
    names: &mut KeyNames<P::Key>,
) -> Option<Body<P::Key, P::Value>> {
    let mut ids = ids.iter().copied();
    let (mut ops, mut values) = (Vec::with_capacity(trace.body.len()), Vec::new());
    for &op in &trace.body {
        ops.push(match op {
            DataOp::Get(h, key) => Op::Read(Read::Get(h, ids.next()?, key, names.of(key, P::key))),
            DataOp::GetOr(h, _, key) => {
                let (e, base) = (ids.next()?, ids.next()?);
                Op::Read(Read::GetOr(h, e, base, key, names.of(key, P::key)))
            }
            DataOp::Set(_, key, spec) => {
                values.push(P::value(value_of(spec))?);
                let at = u32::try_from(values.len() - 1).ok()?;
                Op::Set(ids.next()?, names.of(key, P::key), at)
            }
            DataOp::Remove(_, key) => Op::Remove(ids.next()?, names.of(key, P::key)),
            DataOp::Snapshot(h) => Op::Snapshot(h, ids.next()?),
            DataOp::Spawn => Op::Spawn(ids.next()?),
            DataOp::Despawn(_) => Op::Despawn(ids.next()?),
        });
    }
    if ids.next().is_some() {
        return None;
    }
    Body::of(ops, values)
}

/// Any body run on the maps of design `P` directly (`ref-direct-<design>`, see the
/// [module docs](self)).
pub struct DirectKv<P: DirectMaps> {
    /// The map of every entity after the setup, indexed by the design's entity handle.
    maps: Vec<P::Map>,
    /// The body.
    body: Body<P::Key, P::Value>,
    /// The snapshots' buffer, reused by every pass as the replay reuses its own.
    buffer: RefCell<Vec<u8>>,
    /// The model's body digest.
    expected: DataComponentDigest,
}

impl<P: DirectMaps> DirectKv<P> {
    /// Checks one pass's digest (`keys_held` read after it) against the model's.
    fn check(&self, digest: Result<DataComponentDigest, Stopped>) -> Result<(), String> {
        let name = P::INFO.meta.name;
        let digest = black_box(digest).map_err(|stopped| match stopped {
            Stopped::OtherEntity(at) => format!(
                "{name} called directly: the spawn of op {at} of the body got another entity \
                 than the design's dry run of the same ops"
            ),
            Stopped::Undecodable(at) => {
                format!(
                    "{name} called directly: the snapshot of op {at} of the body did not decode"
                )
            }
        })?;
        if digest != self.expected {
            return Err(format!(
                "{name} called directly: {}",
                describe_mismatch(&self.expected, &digest)
            ));
        }
        Ok(())
    }

    /// One timed pass: its digest (or where it stopped) and the time of the body alone.
    fn pass(&self) -> (Result<DataComponentDigest, Stopped>, Duration) {
        let buffer = &mut *self.buffer.borrow_mut();
        let held = |maps: &[P::Map]| DataComponentDigest {
            keys_held: keys_held::<P>(maps),
            ..DataComponentDigest::default()
        };
        match &self.body {
            Body::Reads(reads) => {
                let start = Stopwatch::start();
                let (gets_found, get_sum) = read_all::<P>(black_box(&self.maps), black_box(reads));
                let elapsed = start.elapsed();
                let d = held(&self.maps);
                (
                    Ok(DataComponentDigest {
                        gets_found,
                        get_sum,
                        ..d
                    }),
                    elapsed,
                )
            }
            Body::Snapshots(snapshots) => {
                let start = Stopwatch::start();
                let found = snapshot_all::<P>(black_box(&self.maps), buffer, black_box(snapshots));
                let elapsed = start.elapsed();
                let d = held(&self.maps);
                let digest = found.map(|(snapshot_entries, snapshot_sum)| DataComponentDigest {
                    snapshot_entries,
                    snapshot_sum,
                    ..d
                });
                (digest, elapsed)
            }
            Body::ReadsAndSets { ops, values } => {
                let mut maps = self.maps.clone();
                crate::host::fresh_time_slice();
                let start = Stopwatch::start();
                let (gets_found, get_sum) =
                    read_and_set_all::<P>(black_box(&mut maps), black_box((ops, values)));
                let elapsed = start.elapsed();
                let d = held(&maps);
                (
                    Ok(DataComponentDigest {
                        gets_found,
                        get_sum,
                        ..d
                    }),
                    elapsed,
                )
            }
            Body::Mixed { ops, values } => {
                let (mut maps, mut released) = (self.maps.clone(), Vec::new());
                crate::host::fresh_time_slice();
                let start = Stopwatch::start();
                let digest = apply_all::<P>(
                    black_box(&mut maps),
                    black_box(&mut released),
                    buffer,
                    black_box((ops, values)),
                );
                let elapsed = start.elapsed();
                let keys_held = keys_held::<P>(&maps);
                (
                    digest.map(|d| DataComponentDigest { keys_held, ..d }),
                    elapsed,
                )
            }
        }
    }
}

impl<P: DirectMaps> ReferenceLoop for DirectKv<P> {
    type Family = DataComponentFamily;
    const MIRRORS: Option<&'static str> = Some(P::INFO.meta.name);

    /// For a trace whose setup is `Spawn`s and `Set`s and whose body is not empty; `None`
    /// otherwise, or if the design refuses the setup, the dry run or a value. The body's
    /// entities are taken from the dry run of the design's timed replay when the cell holds it,
    /// else from a dry run of its own.
    fn in_cell(
        trace: &Trace<DataOp>,
        expected: &DataComponentDigest,
        designs: &CellStates,
    ) -> Option<Self> {
        runs_trace::<DataComponentReplay<P>>(trace)?;
        let mut peer = DataComponentReplay::<P>::after_setup(trace).ok()?;
        let entities = peer.handles().ids().to_vec();
        let ids = designs.body_ids::<DataComponentReplay<P>>(trace)?;
        let mut names = KeyNames(HashMap::new());
        let maps = setup_maps::<P>(trace, &entities, &mut names)?;
        Some(Self {
            maps,
            body: decode::<P>(trace, &ids, &mut names)?,
            buffer: RefCell::new(Vec::with_capacity(1 << 16)),
            expected: *expected,
        })
    }

    /// Times `iters` runs of the body (a body other than reads or snapshots on a copy of the
    /// maps made outside the timed region).
    ///
    /// # Errors
    /// The body's digest differs from the model's, a spawn got another entity than the
    /// design's dry run, or a snapshot did not decode.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        sum_passes(iters, || {
            let (digest, elapsed) = self.pass();
            self.check(digest)?;
            Ok(elapsed)
        })
    }
}

/// `ref-direct-serde_json`.
pub type DirectSerdeJson = DirectKv<SerdeJsonPeer>;
/// `ref-direct-litemap`.
pub type DirectLiteMap = DirectKv<LiteMapPeer>;
/// `ref-direct-std_hashmap`.
pub type DirectStdHashMap = DirectKv<HashMapPeer>;
/// `ref-direct-map_hashed`: our article design's own maps, every design's share.
pub type DirectMapHashed = DirectKv<MapHashed>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::{check_mirroring_loop, trace};
    use crate::verify::Expected;

    /// The loop of design `P` on `trace` answers like the model and fails a corrupted
    /// expectation (a sum, the keys held).
    fn check<P: DirectMaps>(trace: &Trace<DataOp>) -> DirectKv<P> {
        check_mirroring_loop(
            trace,
            &[
                |d: &mut DataComponentDigest| d.get_sum ^= 1,
                |d| d.snapshot_sum ^= 1,
                |d| d.keys_held += 1,
            ],
            "expected",
        )
    }

    /// Every `ref-direct-<design>` loop answers like the model on every body of every
    /// registered workload: reads, Sets, spawns with their Sets (`kv-health-only`) and
    /// snapshots (`kv-snapshot`).
    #[test]
    fn direct_loops_answer_like_the_model_on_every_workload() {
        let workloads = workloads::registry::workloads_of("data_component");
        assert!(workloads.iter().any(|w| w.name == "kv-snapshot"));
        for workload in workloads {
            let trace = trace(workload.name);
            check::<SerdeJsonPeer>(&trace);
            check::<LiteMapPeer>(&trace);
            check::<HashMapPeer>(&trace);
            check::<MapHashed>(&trace);
        }
    }

    /// Each body takes its shape: reads and snapshots on the maps built once, reads and Sets by
    /// their own loop and anything else by the general one, each on a copy per pass.
    #[test]
    fn each_body_runs_the_loop_of_its_shape() {
        fn shape(workload: &str) -> &'static str {
            match check::<HashMapPeer>(&trace(workload)).body {
                Body::Reads(_) => "reads",
                Body::Snapshots(_) => "snapshots",
                Body::ReadsAndSets { .. } => "reads and sets",
                Body::Mixed { .. } => "mixed",
            }
        }
        assert_eq!(shape("kv-keys-sweep"), "reads");
        assert_eq!(shape("kv-overrides"), "reads");
        assert_eq!(shape("kv-snapshot"), "snapshots");
        assert_eq!(shape("kv-sheet"), "reads and sets");
        assert_eq!(shape("kv-grow-strings"), "reads and sets");
        assert_eq!(shape("kv-health-only"), "mixed");
    }

    /// A body of every op kind on `kv-sheet`'s setup: removes (found and not), a despawn whose
    /// entity the next spawn reuses, new entities, Sets, reads and snapshots of them.
    #[test]
    fn removes_despawns_and_snapshots_answer_like_the_model() {
        let mut trace = trace("kv-sheet");
        let (fresh, new) = (trace.handle_count() as EntityHandle, DataOp::Spawn);
        let Some(&DataOp::Set(_, key, value)) = trace.setup.get(1) else {
            panic!("the sheet's setup sets a key after a spawn");
        };
        trace.body = vec![
            DataOp::Remove(0, key),
            DataOp::Remove(0, key),
            DataOp::Get(0, key),
            DataOp::Despawn(1),
            DataOp::Despawn(2),
            new,
            DataOp::Set(fresh, key, value),
            DataOp::GetOr(fresh, 3, key),
            DataOp::Snapshot(fresh),
            DataOp::Snapshot(4),
            new,
            new,
            DataOp::Snapshot(fresh + 2),
            DataOp::Despawn(fresh),
            DataOp::Get(5, key),
        ];
        let looped = check::<SerdeJsonPeer>(&trace);
        let Body::Mixed { ops, .. } = &looped.body else {
            panic!("a mixed body");
        };
        let spawned: Vec<Entity> = ops
            .iter()
            .filter_map(|op| match op {
                Op::Spawn(e) => Some(*e),
                _ => None,
            })
            .collect();
        assert_eq!(spawned, [2, 1, fresh]);
        check::<LiteMapPeer>(&trace);
        check::<HashMapPeer>(&trace);
        check::<MapHashed>(&trace);
    }

    /// A spawn that gets another entity than the design's dry run recorded fails the run,
    /// naming the op.
    #[test]
    fn a_spawn_with_another_entity_than_the_dry_runs_fails() {
        let trace = trace("kv-health-only");
        let expected = Expected::<DataComponentFamily>::of(&trace).unwrap();
        let mut looped = DirectLiteMap::for_trace(&trace, &expected.body).unwrap();
        let Body::Mixed { ops, .. } = &mut looped.body else {
            panic!("a mixed body");
        };
        let Op::Spawn(recorded) = &mut ops[2] else {
            panic!("the third op spawns");
        };
        *recorded += 1;
        let error = looped.run(1).unwrap_err();
        assert!(error.contains("op 2 of the body"), "{error}");
    }

    /// In a cell whose design's timed replay resolved a body that writes, the loop decodes its
    /// ops from those very entities (no dry run of its own) and answers like the model.
    #[test]
    fn a_body_that_writes_takes_its_entities_from_the_designs_dry_run() {
        let trace = trace("kv-health-only");
        let expected = Expected::<DataComponentFamily>::of(&trace).unwrap();
        let mut timed =
            crate::timing::TimedReplay::of::<DataComponentReplay<MapHashed>>(&trace, &expected);
        assert!(timed.shared().unwrap().is_none(), "a body that writes");
        let mut designs = CellStates::default();
        designs.insert_resolved(
            DataComponentReplay::<MapHashed>::design_name(),
            timed.resolved().unwrap().clone(),
        );
        let recorded = designs
            .recorded_ids::<DataComponentReplay<MapHashed>>()
            .unwrap();
        assert_eq!(recorded.len(), trace.body.len());
        let looped = DirectMapHashed::in_cell(&trace, &expected.body, &designs).unwrap();
        looped.run(2).unwrap();
    }
}
