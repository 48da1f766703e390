//! Peer: [`litemap::LiteMap`]`<u32, value>` per entity, a map over one sorted `Vec` of pairs
//! (binary search), strings and arrays boxed as in steps 1 to 3: the published version of the
//! `flat_sorted` ablation.
//!
//! Cost: get O(log k); set/remove O(k) (shifting the sorted pairs). Allocations: the pair
//! vector's growth plus one per string or array.

use crate::DesignMeta;
use litemap::LiteMap;

use crate::data_component::heap_value::HeapValue;
use crate::data_component::{
    Entities, Key, KvDesignInfo, KvDesignKind, KvError, LocalComponent, SnapshotError, ValueRef,
    serial,
};

/// One entity's sorted pair vector.
#[derive(Debug, Default)]
pub struct LiteMapComponent {
    map: LiteMap<Key, HeapValue>,
    /// The pair vector's capacity as last seen: `LiteMap` exposes no capacity, so the
    /// component tracks `Vec`'s doubling rule (4, 8, 16, ...) to count its allocator calls.
    cap: usize,
}

/// A `LiteMap` per entity.
pub type LiteMapPeer = Entities<LiteMapComponent>;

/// One entity's map as the crate holds it (for `ref-direct-litemap`, which calls `LiteMap`
/// directly without depending on the crate itself).
pub type EntityMap = LiteMap<Key, HeapValue>;

impl LocalComponent for LiteMapComponent {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "litemap",
            description: "litemap::LiteMap<u32, boxed value>: one sorted Vec of pairs, binary search",
            kind: KvDesignKind::Peer {
                crate_name: "litemap",
                version: "0.8.3",
                idiom: "LiteMap<u32, Box<value>> per entity: get / insert / remove by key (binary search over one sorted Vec)",
                docs: "https://docs.rs/litemap/0.8.3/litemap/struct.LiteMap.html",
                adapter: "A read is `LiteMap::get` plus the shared `Entities` wrapper's check that the caller's entity is live (`slots.get(e)` is `Some`, else `NoSuchEntity`). A set builds the boxed `HeapValue` from the trace's bytes and counts allocator calls (tracking the pair `Vec`'s doubling in `cap`: `LiteMap` has no capacity) and keys for the metrics; our designs pay the same `Entities` check and counting.",
            },
        },
        bytes_per_entity_cap: None,
    };

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let value = HeapValue::new(value, calls);
        if let Some(old) = self.map.insert(key, value) {
            old.free(calls);
        }
        if self.map.len() > self.cap {
            self.cap = (2 * self.cap).max(4);
            *calls += 1;
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        match self.map.remove(&key) {
            Some(old) => {
                old.free(calls);
                true
            }
            None => false,
        }
    }

    fn release(&mut self, calls: &mut u64) {
        for (_, v) in std::mem::take(&mut self.map).into_tuple_vec() {
            v.free(calls);
        }
        if self.cap > 0 {
            *calls += 1;
        }
        self.cap = 0;
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn memory_bytes(&self) -> usize {
        self.cap * size_of::<(Key, HeapValue)>()
            + self.map.values().map(HeapValue::heap_bytes).sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        for (&k, v) in self.map.iter() {
            serial::write_entry(out, k, v.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.map.len() > self.cap {
            return Err("more pairs than the tracked capacity".into());
        }
        Ok(())
    }
}

impl LiteMapComponent {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        self.map.get(&key).map(HeapValue::as_ref)
    }
}
