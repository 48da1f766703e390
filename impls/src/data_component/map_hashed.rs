//! Step 1, hash the keys: `BTreeMap<u32, value>` (the article's `std::map<unsigned,
//! DataValue>`). Strings and arrays stay boxed, one allocation each.
//!
//! Cost: get/set/remove O(log k) integer comparisons, a pointer chase per tree level.
//! Trade-off against `tree_strings`: no key strings (one allocation and a string comparison per
//! key gone); still B-tree nodes and one allocation per string or array value.

use std::collections::BTreeMap;

use super::heap_value::{HeapValue, btree_bytes, count_btree_change};
use super::{
    Component, Entities, Entity, Key, KvDesignInfo, KvDesignKind, KvError, SnapshotError, ValueRef,
    serial,
};

/// One entity's map of hashed keys.
#[derive(Debug, Default)]
pub struct MapComponent {
    map: BTreeMap<Key, HeapValue>,
}

/// Hashed keys in a B-tree.
pub type MapHashed = Entities<MapComponent>;

impl Component for MapComponent {
    type Shared = ();
    const INFO: KvDesignInfo = KvDesignInfo {
        name: "map_hashed",
        description: "BTreeMap<u32, boxed value>: keys hashed, strings and arrays still one allocation each (the article's step 1)",
        kind: KvDesignKind::Article,
        bytes_per_entity_cap: None,
    };

    fn set(
        &mut self,
        _: &mut (),
        _: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError> {
        let value = HeapValue::new(value, calls);
        let before = self.map.len();
        if let Some(old) = self.map.insert(key, value) {
            old.free(calls);
        }
        count_btree_change(before, self.map.len(), calls);
        Ok(())
    }

    #[inline]
    fn read<R>(&self, _: &(), key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, _: &mut (), key: Key, calls: &mut u64) -> bool {
        let before = self.map.len();
        let Some(old) = self.map.remove(&key) else {
            return false;
        };
        old.free(calls);
        count_btree_change(before, self.map.len(), calls);
        true
    }

    fn release(&mut self, _: &mut (), calls: &mut u64) {
        let before = self.map.len();
        for (_, v) in std::mem::take(&mut self.map) {
            v.free(calls);
        }
        count_btree_change(before, 0, calls);
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn memory_bytes(&self, _: &()) -> usize {
        btree_bytes(self.map.len(), size_of::<Key>(), size_of::<HeapValue>())
            + self.map.values().map(HeapValue::heap_bytes).sum::<usize>()
    }

    fn snapshot(&self, _: &(), out: &mut Vec<u8>) {
        for (&k, v) in &self.map {
            serial::write_entry(out, k, v.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self, _: &()) -> Result<(), String> {
        Ok(())
    }
}

impl MapComponent {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        self.map.get(&key).map(HeapValue::as_ref)
    }
}
