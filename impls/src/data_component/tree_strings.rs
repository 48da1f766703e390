//! Step 0, the naive tree: `BTreeMap<String, value>` with each string and array boxed on its
//! own (the article's `std::map<std::string, DataValue>` with `std::string *` and
//! `std::vector<float> *` values).
//!
//! What differs from the article: traces carry keys already hashed (the generator hashes the
//! paths), so the object nesting of the tree cannot be rebuilt; the design spells each key as
//! its 8-hex-digit name and keeps the naive tree's per-key costs at one level: an owned `String`
//! key per entry (one allocation), string comparisons on every lookup (the name is formatted on
//! the stack, no allocation), B-tree nodes, and one allocation per string or array value.
//!
//! Cost: get/set/remove O(log k) string comparisons. Allocations per entity: one per key, one
//! per string/array value, plus the B-tree's nodes ([`btree_nodes`], estimated).

use crate::DesignMeta;
use std::collections::BTreeMap;

use super::heap_value::{HeapValue, btree_bytes, count_btree_change};
use super::{
    Entities, Key, KvDesignInfo, KvDesignKind, KvError, LocalComponent, SnapshotError, ValueRef,
    count_capacity_change, key_digits, key_of, key_str, serial,
};

/// One entity's tree: string keys to boxed values.
#[derive(Debug, Default)]
pub struct TreeComponent {
    /// Invariant: every key is `key_digits` of a `Key` (8 hex digits).
    map: BTreeMap<String, HeapValue>,
}

/// The naive tree of string maps.
pub type TreeStrings = Entities<TreeComponent>;

impl LocalComponent for TreeComponent {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "tree_strings",
            description: "BTreeMap<String, boxed value>: string keys, one allocation per key and per string (the article's naive tree, one level)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let digits = key_digits(key);
        let name = key_str(&digits);
        let value = HeapValue::new(value, calls);
        if let Some(slot) = self.map.get_mut(name) {
            std::mem::replace(slot, value).free(calls);
        } else {
            let before = self.map.len();
            let owned = name.to_owned();
            count_capacity_change(0, owned.len(), calls);
            self.map.insert(owned, value);
            count_btree_change(before, self.map.len(), calls);
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        let digits = key_digits(key);
        let name = key_str(&digits);
        let before = self.map.len();
        match self.map.remove_entry(name) {
            Some((owned, value)) => {
                count_capacity_change(owned.len(), 0, calls);
                value.free(calls);
                count_btree_change(before, self.map.len(), calls);
                true
            }
            None => false,
        }
    }

    fn release(&mut self, calls: &mut u64) {
        let before = self.map.len();
        for (owned, value) in std::mem::take(&mut self.map) {
            count_capacity_change(owned.len(), 0, calls);
            value.free(calls);
        }
        count_btree_change(before, 0, calls);
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn memory_bytes(&self) -> usize {
        btree_bytes(self.map.len(), size_of::<String>(), size_of::<HeapValue>())
            + self
                .map
                .iter()
                .map(|(k, v)| k.capacity() + v.heap_bytes())
                .sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        for (name, value) in &self.map {
            serial::write_entry(out, key_of(name).unwrap_or(0), value.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self) -> Result<(), String> {
        for name in self.map.keys() {
            match key_of(name) {
                Some(k) if key_digits(k) == name.as_bytes() => {}
                _ => return Err(format!("key {name:?} is not a key's hex name")),
            }
        }
        Ok(())
    }
}

impl TreeComponent {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        let digits = key_digits(key);
        let name = key_str(&digits);
        self.map.get(name).map(HeapValue::as_ref)
    }
}
