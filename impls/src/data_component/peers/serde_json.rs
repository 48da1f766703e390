//! Peer: one [`serde_json::Value`] object per entity (its `Map` is a `BTreeMap<String, Value>`
//! without the `preserve_order` feature), keys spelled as 8-hex-digit names like
//! `tree_strings`, numbers as `f64`, arrays as `Vec<Value>`. What a Rust program storing
//! "restricted JSON" would use off the shelf.
//!
//! Cost: get/set/remove O(log k) string comparisons; reading an array converts its `f64`s back
//! to `f32` bytes (on the stack up to 64 floats); a snapshot is `serde_json::to_writer`, decoded
//! by `serde_json::from_slice`. Allocations (estimated like `tree_strings`): one per key, one
//! per string, one per array, plus B-tree nodes. Refuses NaN, infinities and non-UTF-8
//! strings ([`KvError::Unrepresentable`]): JSON has neither.

use crate::DesignMeta;
use serde_json::{Map, Number, Value};

use crate::data_component::heap_value::{btree_bytes, count_btree_change};
use crate::data_component::{
    Entities, Key, KvDesignInfo, KvDesignKind, KvError, LocalComponent, SnapshotError, ValueRef,
    count_capacity_change, key_digits, key_of, key_str,
};

/// The `f32`s of an array's native-endian bytes.
fn floats(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_ne_bytes(c.try_into().expect("4 bytes")))
}

/// The JSON value of `v`. Checked before anything is allocated, so a refused value makes no
/// allocator call; a string or a non-empty array is then one allocation of its exact size.
fn to_json(v: ValueRef<'_>) -> Result<Value, KvError> {
    let number = |f: f32| {
        Number::from_f64(f64::from(f)).ok_or(KvError::Unrepresentable {
            reason: "JSON has no NaN or infinity",
        })
    };
    Ok(match v {
        ValueRef::Bool(b) => Value::Bool(b),
        ValueRef::F32(f) => Value::Number(number(f)?),
        ValueRef::Str(s) => Value::String(
            std::str::from_utf8(s)
                .map_err(|_| KvError::Unrepresentable {
                    reason: "JSON strings are UTF-8",
                })?
                .to_owned(),
        ),
        ValueRef::F32s(bytes) => {
            for f in floats(bytes) {
                number(f)?;
            }
            let mut items = Vec::with_capacity(bytes.len() / 4);
            items.extend(floats(bytes).map(|f| Value::Number(number(f).expect("checked above"))));
            Value::Array(items)
        }
    })
}

/// Calls `f` with the value `v` holds (arrays converted to `f32` bytes).
fn with_value<R>(v: &Value, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
    match v {
        Value::Bool(b) => f(Some(ValueRef::Bool(*b))),
        Value::Number(n) => f(Some(ValueRef::F32(n.as_f64().unwrap_or(0.0) as f32))),
        Value::String(s) => f(Some(ValueRef::Str(s.as_bytes()))),
        Value::Array(items) => {
            let floats = items.iter().map(|x| x.as_f64().unwrap_or(0.0) as f32);
            if items.len() <= 64 {
                let mut stack = [0u8; 256];
                for (i, x) in floats.enumerate() {
                    stack[4 * i..4 * i + 4].copy_from_slice(&x.to_ne_bytes());
                }
                f(Some(ValueRef::F32s(&stack[..4 * items.len()])))
            } else {
                let heap: Vec<u8> = floats.flat_map(f32::to_ne_bytes).collect();
                f(Some(ValueRef::F32s(&heap)))
            }
        }
        Value::Null | Value::Object(_) => f(None),
    }
}

/// Allocations a JSON value holds beyond its own slot.
fn heap_allocs(v: &Value) -> usize {
    match v {
        Value::String(s) => usize::from(s.capacity() > 0),
        Value::Array(a) => usize::from(a.capacity() > 0),
        _ => 0,
    }
}

fn heap_bytes(v: &Value) -> usize {
    match v {
        Value::String(s) => s.capacity(),
        Value::Array(a) => a.capacity() * size_of::<Value>(),
        _ => 0,
    }
}

/// One entity's JSON object.
#[derive(Debug, Default)]
pub struct JsonComponent {
    /// Invariant: every key is 8 hex digits, every value a bool, number, string or array of
    /// numbers.
    object: Map<String, Value>,
}

/// A `serde_json` object per entity.
pub type SerdeJsonPeer = Entities<JsonComponent>;

impl LocalComponent for JsonComponent {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "serde_json",
            description: "serde_json::Value object per entity: string keys, f64 numbers, Vec<Value> arrays; JSON text snapshot",
            kind: KvDesignKind::Peer {
                crate_name: "serde_json",
                version: "1.0.154",
                idiom: "a Value::Object (Map<String, Value>) per entity: get / insert / remove by key string, Value::Number and Value::Array; to_string for the snapshot",
                docs: "https://docs.rs/serde_json/1.0.154/serde_json/enum.Value.html",
                adapter: "Each get, set and remove spells the u32 key's 8-hex-digit name on the stack (`key_digits`, `key_str`'s `from_utf8` check), the family's keys being hashes, where the direct loop holds one shared string per key (a `GetOr` spells it once per map); `Entities` checks the entity is live per call. A set also checks the value fits JSON (`to_json`: UTF-8, finite floats) and counts allocator calls and keys for the metrics; our designs sit behind the same `Entities`, and `tree_strings` spells its keys the same way.",
            },
        },
        bytes_per_entity_cap: None,
    };

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let value = to_json(value)?;
        *calls += heap_allocs(&value) as u64;
        let digits = key_digits(key);
        let before = self.object.len();
        match self.object.get_mut(key_str(&digits)) {
            Some(slot) => {
                *calls += heap_allocs(slot) as u64;
                *slot = value;
            }
            None => {
                let name = key_str(&digits).to_owned();
                count_capacity_change(0, name.len(), calls);
                self.object.insert(name, value);
                count_btree_change(before, self.object.len(), calls);
            }
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        match self.object.get(key_str(&key_digits(key))) {
            Some(v) => with_value(v, f),
            None => f(None),
        }
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        let before = self.object.len();
        match self.object.remove(key_str(&key_digits(key))) {
            Some(v) => {
                *calls += 1 + heap_allocs(&v) as u64;
                count_btree_change(before, self.object.len(), calls);
                true
            }
            None => false,
        }
    }

    fn release(&mut self, calls: &mut u64) {
        let before = self.object.len();
        for (_, v) in std::mem::take(&mut self.object) {
            *calls += 1 + heap_allocs(&v) as u64;
        }
        count_btree_change(before, 0, calls);
    }

    fn len(&self) -> usize {
        self.object.len()
    }

    fn memory_bytes(&self) -> usize {
        btree_bytes(self.object.len(), size_of::<String>(), size_of::<Value>())
            + self
                .object
                .iter()
                .map(|(k, v)| k.capacity() + heap_bytes(v))
                .sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(out, &self.object)
            .expect("a map of strings to JSON values serialises");
    }

    fn visit_snapshot(
        bytes: &[u8],
        mut f: impl FnMut(Key, ValueRef<'_>),
    ) -> Result<(), SnapshotError> {
        let object: Map<String, Value> =
            serde_json::from_slice(bytes).map_err(|e| SnapshotError(e.to_string()))?;
        for (name, v) in &object {
            let key = key_of(name).ok_or_else(|| SnapshotError(format!("bad key {name:?}")))?;
            with_value(v, |v| v.map(|v| f(key, v)));
        }
        Ok(())
    }

    fn check_invariants(&self) -> Result<(), String> {
        for (name, v) in &self.object {
            if name.len() != 8 || key_of(name).is_none() {
                return Err(format!("key {name:?} is not a key's hex name"));
            }
            let ok = match v {
                Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
                Value::Array(a) => a.iter().all(Value::is_number),
                Value::Null | Value::Object(_) => false,
            };
            if !ok {
                return Err(format!("key {name}: {v} is outside the restricted JSON"));
            }
        }
        Ok(())
    }
}
