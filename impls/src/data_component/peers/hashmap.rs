//! Peer: `std::collections::HashMap<u32, value>` per entity (SipHash, hashbrown's SwissTable),
//! strings and arrays boxed as in steps 1 to 3. The hash map a Rust programmer reaches for
//! first; listed with the peers although it is the standard library.
//!
//! Cost: get/set/remove O(1) expected, one hash of the key and a probe of the control bytes.
//! Allocations: one table per entity (growing by doubling) plus one per string or array.

use std::collections::HashMap;

use crate::data_component::heap_value::HeapValue;
use crate::data_component::{
    Component, Entities, Entity, Key, KvDesignInfo, KvDesignKind, KvError, SnapshotError, ValueRef,
    count_capacity_change, serial,
};

/// One entity's hash map.
#[derive(Debug, Default)]
pub struct HashMapComponent {
    map: HashMap<Key, HeapValue>,
}

/// A `HashMap` per entity.
pub type HashMapPeer = Entities<HashMapComponent>;

impl Component for HashMapComponent {
    type Shared = ();
    const INFO: KvDesignInfo = KvDesignInfo {
        name: "std_hashmap",
        description: "std HashMap<u32, boxed value> per entity: O(1) lookups, a table allocation per entity",
        kind: KvDesignKind::Peer {
            crate_name: "std",
            version: "toolchain",
        },
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
        let before = self.map.capacity();
        if let Some(old) = self.map.insert(key, value) {
            old.free(calls);
        }
        count_capacity_change(before, self.map.capacity(), calls);
        Ok(())
    }

    #[inline]
    fn read<R>(&self, _: &(), key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, _: &mut (), key: Key, calls: &mut u64) -> bool {
        match self.map.remove(&key) {
            Some(old) => {
                old.free(calls);
                true
            }
            None => false,
        }
    }

    fn release(&mut self, _: &mut (), calls: &mut u64) {
        let map = std::mem::take(&mut self.map);
        count_capacity_change(map.capacity(), 0, calls);
        for (_, v) in map {
            v.free(calls);
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn memory_bytes(&self, _: &()) -> usize {
        // Buckets (capacity rounded up to 8/7 of it, a power of two) plus a control byte each.
        let buckets = if self.map.capacity() == 0 {
            0
        } else {
            (self.map.capacity() * 8 / 7).next_power_of_two()
        };
        buckets * (size_of::<(Key, HeapValue)>() + 1)
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

impl HashMapComponent {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        self.map.get(&key).map(HeapValue::as_ref)
    }
}
