//! The crate calls of the family's `ref-direct-<design>` loops
//! ([`DirectKv`](super::reference::DirectKv), whose module docs give the loop): per design, the
//! map one entity's data is in and the calls the design's adapter makes on it for each op
//! (get, insert, remove, the snapshot's copy and its read-back), so the loop makes the same
//! calls without the adapter around them.

use std::sync::Arc;

use impls::data_component::heap_value::HeapValue;
use impls::data_component::keyed_map::{KeyMap, MapComponent};
use impls::data_component::peers::litemap::{EntityMap, LiteMapPeer};
use impls::data_component::peers::serde_json::SerdeJsonPeer;
use impls::data_component::{DataStore, Entities, Key, ValueRef, serial};
use serde_json::{Map, Number, Value};
use workloads::data_component::EntityHandle;

use super::mix_entry;

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

    /// The crate's remove of `key` (the value dropped): whether the map held it.
    fn remove_key(map: &mut Self::Map, key: &Self::Key) -> bool;

    /// Appends the map's copy to `out` (empty on entry), in the bytes the adapter's snapshot
    /// writes.
    fn write_snapshot(map: &Self::Map, out: &mut Vec<u8>);

    /// Reads a copy [`write_snapshot`](Self::write_snapshot) wrote back as the adapter's decoder does:
    /// the entries and the wrapping sum of their [`mix_entry`] under `handle`; `None` for bytes
    /// that do not decode.
    fn read_snapshot(bytes: &[u8], handle: EntityHandle) -> Option<(u64, u64)>;
}

/// Reads back the adapters' own serialisation ([`serial`], which the `litemap`, `std_hashmap`
/// and `map_hashed` adapters write a snapshot in): as [`DirectMaps::read_snapshot`].
fn read_serial(bytes: &[u8], handle: EntityHandle) -> Option<(u64, u64)> {
    let (mut entries, mut sum) = (0u64, 0u64);
    serial::visit(bytes, |key, value| {
        entries += 1;
        sum = sum.wrapping_add(mix_entry(handle, key, &value));
    })
    .ok()?;
    Some((entries, sum))
}

/// The boxed value the `litemap` and `std_hashmap` peers store.
fn heap_value(value: ValueRef<'_>) -> HeapValue {
    HeapValue::new(value, &mut 0)
}

/// The [`DirectMaps`] items of the maps that keep the trace's keys as they are and each value
/// boxed as a [`HeapValue`] (the `litemap`, `std_hashmap` and `map_hashed` adapters), whose
/// snapshots are in [`serial`]'s format.
macro_rules! heap_entries {
    () => {
        type Key = Key;
        type Value = HeapValue;

        fn key(key: Key) -> Key {
            key
        }

        fn value(value: ValueRef<'_>) -> Option<HeapValue> {
            Some(heap_value(value))
        }

        #[inline]
        fn term(handle: EntityHandle, key: Key, value: &HeapValue) -> Option<u64> {
            Some(mix_entry(handle, key, &value.as_ref()))
        }

        fn read_snapshot(bytes: &[u8], handle: EntityHandle) -> Option<(u64, u64)> {
            read_serial(bytes, handle)
        }
    };
}

impl DirectMaps for LiteMapPeer {
    type Map = EntityMap;
    heap_entries!();

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

    fn len(map: &EntityMap) -> usize {
        map.len()
    }

    /// `LiteMap::remove` (shifting the pairs after it).
    #[inline]
    fn remove_key(map: &mut EntityMap, key: &Key) -> bool {
        map.remove(key).is_some()
    }

    /// `LiteMap::iter` (key order), each pair written by [`serial::write_entry`] as the
    /// adapter writes it.
    fn write_snapshot(map: &EntityMap, out: &mut Vec<u8>) {
        for (&key, value) in map.iter() {
            serial::write_entry(out, key, value.as_ref());
        }
    }
}

/// `std_hashmap` (a `HashMap` per entity) and our `map_hashed` (a `BTreeMap`): the same
/// [`MapComponent`] over a [`KeyMap`], whose `get` and `insert` are the std map's, called
/// directly.
impl<K: KeyMap + Clone + 'static> DirectMaps for Entities<MapComponent<K>> {
    type Map = K;
    heap_entries!();

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

    fn len(map: &K) -> usize {
        map.len()
    }

    /// `HashMap::remove` / `BTreeMap::remove`.
    #[inline]
    fn remove_key(map: &mut K, key: &Key) -> bool {
        map.remove(*key).is_some()
    }

    /// `HashMap::iter` / `BTreeMap::iter`, each entry written by [`serial::write_entry`] as the
    /// adapter writes it.
    fn write_snapshot(map: &K, out: &mut Vec<u8>) {
        for (key, value) in map.entries() {
            serial::write_entry(out, key, value.as_ref());
        }
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

    /// `Map::remove` by the key's name.
    #[inline]
    fn remove_key(map: &mut Map<String, Value>, key: &Arc<str>) -> bool {
        map.remove(&**key).is_some()
    }

    /// `serde_json::to_writer` of the map: its JSON text, as the adapter's snapshot.
    fn write_snapshot(map: &Map<String, Value>, out: &mut Vec<u8>) {
        serde_json::to_writer(out, map).expect("a map of strings to JSON values serialises");
    }

    /// `serde_json::from_slice` into a `Map`, each key's name parsed back to its hash and
    /// each value read as [`term`](Self::term) reads it, as the adapter's decoder does.
    fn read_snapshot(bytes: &[u8], handle: EntityHandle) -> Option<(u64, u64)> {
        let object: Map<String, Value> = serde_json::from_slice(bytes).ok()?;
        let (mut entries, mut sum) = (0u64, 0u64);
        for (name, value) in &object {
            let key = Key::from_str_radix(name, 16).ok()?;
            if let Some(term) = Self::term(handle, key, value) {
                entries += 1;
                sum = sum.wrapping_add(term);
            }
        }
        Some((entries, sum))
    }
}
