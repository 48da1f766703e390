//! The family's reference loops, verified like a replay:
//!
//! * [`DirectKv`] (`ref-direct-<design>`, for the peers `serde_json`, `litemap` and
//!   `std_hashmap`, and our article design `map_hashed`): the read bodies written against the
//!   map itself, no [`DataStore`] in between: one map per entity in a plain `Vec` indexed by
//!   the design's entity handle (what an application keeps), the map's own `get` per read
//!   (`Map::get` by key name for `serde_json`, `LiteMap::get`, `HashMap::get` and
//!   `BTreeMap::get` by key hash), over a plain `Vec` of the body's ops as the application
//!   holds them (entity index and key; for `serde_json` the key's name, one shared string per
//!   key, the same 8-hex-digit name the adapter uses).
//!   Covers the bodies of `Get`, `GetOr` and `Set` ops: `kv-keys-sweep` (Gets), `kv-overrides`
//!   (`GetOr`: the instance's map, then the defaults' map) and `kv-sheet` (90 % Get, 10 % Set of
//!   a value built beforehand, inserted as a copy: the allocation and copy the application
//!   makes), and `kv-grow-strings` (Sets); `None` for bodies with `Spawn`, `Despawn`,
//!   `Remove` or `Snapshot` (`kv-health-only`, `kv-snapshot`). A body with Sets runs on a
//!   copy of the maps made before each timed pass (outside the timed region); a read body on
//!   the maps built once.
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
//!   for a component). [`ReferenceLoop::mirrors`] names the peer, so the results' `overhead`
//!   (replay ÷ this loop) is what the replay driver and the adapter add to the crate.
//!   Verified: the reads found, the wrapping sum of [`mix_entry`] of (handle, key, value content)
//!   over them, and the keys held after the body must equal the model's.

use std::collections::HashMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use impls::data_component::heap_value::HeapValue;
use impls::data_component::keyed_map::{KeyMap, MapComponent};
use impls::data_component::map_hashed::MapHashed;
use impls::data_component::peers::hashmap::HashMapPeer;
use impls::data_component::peers::litemap::{EntityMap, LiteMapPeer};
use impls::data_component::peers::serde_json::SerdeJsonPeer;
use impls::data_component::{DataStore, Entities, Entity, Key, ValueRef};
use serde_json::{Map, Number, Value};
use workloads::data_component::EntityHandle;
use workloads::{DataOp, Trace};

use super::{DataComponentDigest, DataComponentFamily, DataComponentReplay, mix_entry, value_of};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer};

/// A design whose map the `ref-direct-<design>` loop calls directly: one map per entity, used
/// as an application uses it.
pub trait DirectMaps: DataStore + 'static {
    /// One entity's data: the crate's map.
    type Map: Clone + Default;
    /// A key as the application holds it (what it hands to the map's `get`).
    type Key: Clone;
    /// A value as the map stores it.
    type Value: Clone;

    /// The application's form of the trace's key `key` (made once per distinct key).
    fn key(key: Key) -> Self::Key;

    /// The stored form of `value`; `None` if the crate cannot hold it.
    fn value(value: ValueRef<'_>) -> Option<Self::Value>;

    /// The crate's insert (or replace) of `key`.
    fn put(map: &mut Self::Map, key: &Self::Key, value: Self::Value);

    /// The crate's get of `key`.
    fn lookup<'m>(map: &'m Self::Map, key: &Self::Key) -> Option<&'m Self::Value>;

    /// The digest term of a value read under (`handle`, `key`): [`mix_entry`] of its content,
    /// `None` for a value outside the family's types.
    fn term(handle: EntityHandle, key: Key, value: &Self::Value) -> Option<u64>;

    /// Keys the map holds.
    fn len(map: &Self::Map) -> usize;
}

/// The boxed value the `litemap` and `std_hashmap` peers store.
fn heap_value(value: ValueRef<'_>) -> HeapValue {
    HeapValue::new(value, &mut 0)
}

impl DirectMaps for LiteMapPeer {
    type Map = EntityMap;
    type Key = Key;
    type Value = HeapValue;

    fn key(key: Key) -> Key {
        key
    }

    fn value(value: ValueRef<'_>) -> Option<HeapValue> {
        Some(heap_value(value))
    }

    /// `LiteMap::insert`.
    #[inline]
    fn put(map: &mut EntityMap, key: &Key, value: HeapValue) {
        map.insert(*key, value);
    }

    /// `LiteMap::get` (a binary search of the sorted pairs).
    #[inline]
    fn lookup<'m>(map: &'m EntityMap, key: &Key) -> Option<&'m HeapValue> {
        map.get(key)
    }

    #[inline]
    fn term(handle: EntityHandle, key: Key, value: &HeapValue) -> Option<u64> {
        Some(mix_entry(handle, key, &value.as_ref()))
    }

    fn len(map: &EntityMap) -> usize {
        map.len()
    }
}

/// `std_hashmap` (a `HashMap` per entity) and our `map_hashed` (a `BTreeMap`): the same
/// [`MapComponent`] over a [`KeyMap`], whose `get` and `insert` are the std map's, called
/// directly.
impl<K: KeyMap + Clone + 'static> DirectMaps for Entities<MapComponent<K>> {
    type Map = K;
    type Key = Key;
    type Value = HeapValue;

    fn key(key: Key) -> Key {
        key
    }

    fn value(value: ValueRef<'_>) -> Option<HeapValue> {
        Some(heap_value(value))
    }

    /// `HashMap::insert` / `BTreeMap::insert`.
    #[inline]
    fn put(map: &mut K, key: &Key, value: HeapValue) {
        map.insert(*key, value);
    }

    /// `HashMap::get` (SipHash of the key, a probe of the table) / `BTreeMap::get` (a search
    /// of each node's sorted keys, top down).
    #[inline]
    fn lookup<'m>(map: &'m K, key: &Key) -> Option<&'m HeapValue> {
        map.get(*key)
    }

    #[inline]
    fn term(handle: EntityHandle, key: Key, value: &HeapValue) -> Option<u64> {
        Some(mix_entry(handle, key, &value.as_ref()))
    }

    fn len(map: &K) -> usize {
        map.len()
    }
}

/// The JSON number of `f`; `None` for NaN and infinities (JSON has neither).
fn json_number(f: f32) -> Option<Value> {
    Number::from_f64(f64::from(f)).map(Value::Number)
}

impl DirectMaps for SerdeJsonPeer {
    /// A `Value::Object`'s map.
    type Map = Map<String, Value>;
    /// The key's name: the 8 hex digits of its hash, as the adapter names it.
    type Key = Arc<str>;
    type Value = Value;

    fn key(key: Key) -> Arc<str> {
        format!("{key:08x}").into()
    }

    fn value(value: ValueRef<'_>) -> Option<Value> {
        Some(match value {
            ValueRef::Bool(b) => Value::Bool(b),
            ValueRef::F32(f) => json_number(f)?,
            ValueRef::Str(s) => Value::String(std::str::from_utf8(s).ok()?.to_owned()),
            ValueRef::F32s(bytes) => Value::Array(
                bytes
                    .chunks_exact(4)
                    .map(|c| json_number(f32::from_ne_bytes(c.try_into().expect("4 bytes"))))
                    .collect::<Option<_>>()?,
            ),
        })
    }

    /// `Map::get_mut` to replace, `Map::insert` of a new key (its name allocated only then).
    #[inline]
    fn put(map: &mut Map<String, Value>, key: &Arc<str>, value: Value) {
        match map.get_mut(&**key) {
            Some(slot) => *slot = value,
            None => {
                map.insert(key.to_string(), value);
            }
        }
    }

    /// `Map::get` by the key's name.
    #[inline]
    fn lookup<'m>(map: &'m Map<String, Value>, key: &Arc<str>) -> Option<&'m Value> {
        map.get(&**key)
    }

    /// Reads the value back as the family's types: `as_f64` of a number, the `f32`s of an
    /// array (as native-endian bytes, on the stack up to 64 of them).
    #[inline]
    fn term(handle: EntityHandle, key: Key, value: &Value) -> Option<u64> {
        Some(match value {
            Value::Bool(b) => mix_entry(handle, key, &ValueRef::Bool(*b)),
            Value::Number(n) => mix_entry(handle, key, &ValueRef::F32(n.as_f64()? as f32)),
            Value::String(s) => mix_entry(handle, key, &ValueRef::Str(s.as_bytes())),
            Value::Array(items) => {
                let floats = items.iter().map(|x| x.as_f64().unwrap_or(0.0) as f32);
                if items.len() <= 64 {
                    let mut stack = [0u8; 256];
                    for (i, x) in floats.enumerate() {
                        stack[4 * i..4 * i + 4].copy_from_slice(&x.to_ne_bytes());
                    }
                    mix_entry(handle, key, &ValueRef::F32s(&stack[..4 * items.len()]))
                } else {
                    let heap: Vec<u8> = floats.flat_map(f32::to_ne_bytes).collect();
                    mix_entry(handle, key, &ValueRef::F32s(&heap))
                }
            }
            Value::Null | Value::Object(_) => return None,
        })
    }

    fn len(map: &Map<String, Value>) -> usize {
        map.len()
    }
}

/// A read of the body as the application holds it.
#[derive(Debug, Clone)]
enum Read<K> {
    /// `Get`: the handle (for the digest), its entity, the key's hash (for the digest) and
    /// the key.
    Get(EntityHandle, Entity, Key, K),
    /// `GetOr`: as `Get`, then the defaults' entity.
    GetOr(EntityHandle, Entity, Entity, Key, K),
}

/// An op of a body with writes.
#[derive(Debug, Clone)]
enum Op<K> {
    /// A read.
    Read(Read<K>),
    /// `Set`: the entity, the key and the index of the value in [`Body::Mixed`]'s values.
    Set(Entity, K, u32),
}

/// The body, pre-decoded.
enum Body<K, V> {
    /// Reads only: run on the maps built once.
    Reads(Vec<Read<K>>),
    /// Reads and Sets: run on a fresh copy of the maps per pass.
    Mixed {
        /// The ops in order.
        ops: Vec<Op<K>>,
        /// The values the Sets insert (a copy each), built before timing.
        values: Vec<V>,
    },
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

/// Runs a body with Sets (each inserting a copy of its value): as [`read_all`].
#[inline(never)]
fn apply_all<P: DirectMaps>(
    maps: &mut [P::Map],
    ops: &[Op<P::Key>],
    values: &[P::Value],
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
        }
    }
    (found, sum)
}

/// Keys held by all maps.
fn keys_held<P: DirectMaps>(maps: &[P::Map]) -> u64 {
    maps.iter().map(|m| P::len(m) as u64).sum()
}

/// A body of reads and Sets run on the maps of design `P` directly (`ref-direct-<design>`, see
/// the [module docs](self)).
pub struct DirectKv<P: DirectMaps> {
    /// The map of every entity after the setup, indexed by the design's entity handle.
    maps: Vec<P::Map>,
    /// The body.
    body: Body<P::Key, P::Value>,
    /// The model's reads found and their sum.
    expected: (u64, u64),
    /// The model's keys held after the body.
    expected_keys: u64,
}

impl<P: DirectMaps> DirectKv<P> {
    /// Checks one pass's answers and keys held against the model's.
    fn check(&self, answers: (u64, u64), keys: u64) -> Result<(), String> {
        if black_box(answers) != self.expected || keys != self.expected_keys {
            return Err(format!(
                "{} called directly found {} values (sum {:#x}) and held {keys} keys, the model {} (sum {:#x}) and {}",
                P::INFO.meta.name,
                answers.0,
                answers.1,
                self.expected.0,
                self.expected.1,
                self.expected_keys
            ));
        }
        Ok(())
    }
}

impl<P: DirectMaps> ReferenceLoop for DirectKv<P> {
    type Family = DataComponentFamily;

    fn name() -> String {
        format!("ref-direct-{}", P::INFO.meta.name)
    }

    fn mirrors() -> Option<&'static str> {
        Some(P::INFO.meta.name)
    }

    /// For a trace whose setup is `Spawn`s and `Set`s and whose body is `Get`, `GetOr` and
    /// `Set` ops; `None` otherwise, or if the design refuses the setup or a value.
    fn for_trace(trace: &Trace<DataOp>, expected: &DataComponentDigest) -> Option<Self> {
        let stats = trace.validate().ok()?;
        if DataComponentReplay::<P>::unsupported_before(&stats).is_some() {
            return None;
        }
        let mut peer = DataComponentReplay::<P>::after_setup(trace).ok()?;
        let entities = peer.handles().ids().to_vec();
        drop(peer);
        let entity = |h: EntityHandle| entities.get(h as usize).copied();
        let mut names: HashMap<Key, P::Key> = HashMap::new();
        let mut name = |key: Key| names.entry(key).or_insert_with(|| P::key(key)).clone();

        let slots = entities.iter().max().map_or(0, |&e| e as usize + 1);
        let mut maps = vec![P::Map::default(); slots];
        for &op in &trace.setup {
            match op {
                DataOp::Spawn => {}
                DataOp::Set(h, key, spec) => P::put(
                    &mut maps[entity(h)? as usize],
                    &name(key),
                    P::value(value_of(spec))?,
                ),
                _ => return None,
            }
        }

        let (mut ops, mut values) = (Vec::with_capacity(trace.body.len()), Vec::new());
        for &op in &trace.body {
            ops.push(match op {
                DataOp::Get(h, key) => Op::Read(Read::Get(h, entity(h)?, key, name(key))),
                DataOp::GetOr(h, base, key) => {
                    Op::Read(Read::GetOr(h, entity(h)?, entity(base)?, key, name(key)))
                }
                DataOp::Set(h, key, spec) => {
                    values.push(P::value(value_of(spec))?);
                    Op::Set(entity(h)?, name(key), u32::try_from(values.len() - 1).ok()?)
                }
                _ => return None,
            });
        }
        if ops.is_empty() {
            return None;
        }
        let body = if values.is_empty() {
            Body::Reads(
                ops.into_iter()
                    .map(|op| match op {
                        Op::Read(r) => Some(r),
                        Op::Set(..) => None,
                    })
                    .collect::<Option<_>>()?,
            )
        } else {
            Body::Mixed { ops, values }
        };
        Some(Self {
            maps,
            body,
            expected: (expected.gets_found, expected.get_sum),
            expected_keys: expected.keys_held,
        })
    }

    /// Times `iters` runs of the body (a body with Sets on a copy of the maps made outside the
    /// timed region).
    ///
    /// # Errors
    /// The reads found, their sum or the keys held after the body differ from the model's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            match &self.body {
                Body::Reads(reads) => {
                    let start = Stopwatch::start();
                    let answers = read_all::<P>(black_box(&self.maps), black_box(reads));
                    total += start.elapsed();
                    self.check(answers, keys_held::<P>(&self.maps))?;
                }
                Body::Mixed { ops, values } => {
                    let mut maps = self.maps.clone();
                    let start = Stopwatch::start();
                    let answers =
                        apply_all::<P>(black_box(&mut maps), black_box(ops), black_box(values));
                    total += start.elapsed();
                    self.check(answers, keys_held::<P>(&maps))?;
                }
            }
        }
        Ok(total)
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
    use crate::verify::Expected;

    fn trace(workload: &str) -> Trace<DataOp> {
        workloads::registry::generate_for::<DataOp>(workload, 300, 7, None).unwrap()
    }

    /// Every `ref-direct-<design>` loop reads what the model reads on the read bodies (Gets,
    /// `GetOr`s, Gets mixed with Sets, Sets alone), fails a corrupted expectation and has no
    /// loop for bodies of another shape.
    #[test]
    fn direct_loops_read_like_the_model() {
        fn check<P: DirectMaps>(trace: &Trace<DataOp>) {
            let expected = Expected::<DataComponentFamily>::of(trace).unwrap();
            let looped = DirectKv::<P>::for_trace(trace, &expected.body).unwrap_or_else(|| {
                panic!(
                    "{}: no loop for {}",
                    P::INFO.meta.name,
                    trace.header.generator
                )
            });
            assert_eq!(DirectKv::<P>::mirrors(), Some(P::INFO.meta.name));
            looped.run(2).unwrap_or_else(|e| {
                panic!("{} on {}: {e}", P::INFO.meta.name, trace.header.generator)
            });
            let mut wrong = DirectKv::<P>::for_trace(trace, &expected.body).unwrap();
            wrong.expected.1 ^= 1;
            assert!(wrong.run(1).is_err(), "{}", P::INFO.meta.name);
            let mut wrong = DirectKv::<P>::for_trace(trace, &expected.body).unwrap();
            wrong.expected_keys += 1;
            assert!(wrong.run(1).is_err(), "{}", P::INFO.meta.name);
        }
        fn refuses<P: DirectMaps>(trace: &Trace<DataOp>) {
            let expected = Expected::<DataComponentFamily>::of(trace).unwrap();
            assert!(DirectKv::<P>::for_trace(trace, &expected.body).is_none());
        }
        for workload in [
            "kv-sheet",
            "kv-keys-sweep",
            "kv-overrides",
            "kv-grow-strings",
        ] {
            let trace = trace(workload);
            check::<SerdeJsonPeer>(&trace);
            check::<LiteMapPeer>(&trace);
            check::<HashMapPeer>(&trace);
            check::<MapHashed>(&trace);
        }
        for workload in ["kv-snapshot", "kv-health-only"] {
            let trace = trace(workload);
            refuses::<SerdeJsonPeer>(&trace);
            refuses::<LiteMapPeer>(&trace);
            refuses::<HashMapPeer>(&trace);
            refuses::<MapHashed>(&trace);
        }
    }

    /// The read and mixed bodies take their shapes: the sheet has Sets, the sweep none.
    #[test]
    fn bodies_with_sets_run_on_a_copy() {
        let sheet = trace("kv-sheet");
        let expected = Expected::<DataComponentFamily>::of(&sheet).unwrap();
        let looped = DirectStdHashMap::for_trace(&sheet, &expected.body).unwrap();
        assert!(matches!(looped.body, Body::Mixed { .. }));
        looped.run(3).unwrap();
        let sweep = trace("kv-keys-sweep");
        let expected = Expected::<DataComponentFamily>::of(&sweep).unwrap();
        let looped = DirectLiteMap::for_trace(&sweep, &expected.body).unwrap();
        assert!(matches!(looped.body, Body::Reads(_)));
    }
}
