//! Step 3, structure of arrays: keys, types and values in three `Vec`s (the article's
//! `std::vector<unsigned> keys; std::vector<DataType> types; std::vector<Value> values;`), so a
//! search loads only the keys ("the cache only contains useful data").
//!
//! Layout: `keys[i]`, `types[i]`, `values[i]` describe entry `i`. The value column still holds
//! Rust's tagged enum (24 bytes; its tag duplicates `types`, so `get` reads the value column
//! alone). Strings and arrays stay boxed.
//!
//! Cost: get/set/remove O(k) over 4-byte keys (remove swaps the last entry in). Allocations:
//! three arrays growing together (three calls per growth) plus one per string or array.

use super::heap_value::HeapValue;
use super::{
    Entities, Key, KvDesignInfo, KvDesignKind, KvError, LocalComponent, SnapshotError, ValueRef,
    ValueType, count_capacity_change, push_counted, serial,
};
use crate::DesignMeta;

/// One entity's three columns.
#[derive(Debug, Default)]
pub struct SoaComponent {
    /// Distinct keys. Invariant: the three columns have equal lengths.
    keys: Vec<Key>,
    /// `types[i]` is `values[i]`'s type.
    types: Vec<ValueType>,
    values: Vec<HeapValue>,
}

/// Three columns per entity.
pub type FlatSoa = Entities<SoaComponent>;

impl LocalComponent for SoaComponent {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "flat_soa",
            description: "keys, types and values in three Vecs: a search reads only keys; three allocations per entity (the article's step 3)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let ty = value.value_type();
        let value = HeapValue::new(value, calls);
        match self.keys.iter().position(|&k| k == key) {
            Some(i) => {
                self.types[i] = ty;
                std::mem::replace(&mut self.values[i], value).free(calls);
            }
            None => {
                push_counted(&mut self.keys, key, calls);
                push_counted(&mut self.types, ty, calls);
                push_counted(&mut self.values, value, calls);
            }
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        let Some(i) = self.keys.iter().position(|&k| k == key) else {
            return false;
        };
        self.keys.swap_remove(i);
        self.types.swap_remove(i);
        self.values.swap_remove(i).free(calls);
        true
    }

    fn release(&mut self, calls: &mut u64) {
        count_capacity_change(std::mem::take(&mut self.keys).capacity(), 0, calls);
        count_capacity_change(std::mem::take(&mut self.types).capacity(), 0, calls);
        let values = std::mem::take(&mut self.values);
        count_capacity_change(values.capacity(), 0, calls);
        for v in values {
            v.free(calls);
        }
    }

    fn len(&self) -> usize {
        self.keys.len()
    }

    fn memory_bytes(&self) -> usize {
        self.keys.capacity() * size_of::<Key>()
            + self.types.capacity() * size_of::<ValueType>()
            + self.values.capacity() * size_of::<HeapValue>()
            + self.values.iter().map(HeapValue::heap_bytes).sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        for (k, v) in self.keys.iter().zip(&self.values) {
            serial::write_entry(out, *k, v.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.keys.len() != self.types.len() || self.keys.len() != self.values.len() {
            return Err("columns of different lengths".into());
        }
        for (i, (t, v)) in self.types.iter().zip(&self.values).enumerate() {
            if *t != v.as_ref().value_type() {
                return Err(format!("entry {i}: type column disagrees with the value"));
            }
            if self.keys[i + 1..].contains(&self.keys[i]) {
                return Err(format!("key {} held twice", self.keys[i]));
            }
        }
        Ok(())
    }
}

impl SoaComponent {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        let i = self.keys.iter().position(|&k| k == key)?;
        Some(self.values[i].as_ref())
    }
}
