//! Peer: `std::collections::HashMap<u32, value>` per entity (SipHash, hashbrown's SwissTable),
//! strings and arrays boxed as in steps 1 to 3. The hash map a Rust programmer reaches for
//! first; listed with the peers although it is the standard library.
//!
//! Cost: get/set/remove O(1) expected, one hash of the key and a probe of the control bytes.
//! Allocations: one table per entity (growing by doubling) plus one per string or array. The
//! component is the shared [`MapComponent`] (also `map_hashed`'s).

use crate::DesignMeta;
use std::collections::HashMap;

use crate::data_component::heap_value::HeapValue;
use crate::data_component::keyed_map::{KeyMap, MapComponent, std_map_methods};
use crate::data_component::{Entities, Key, KvDesignInfo, KvDesignKind};

/// One entity's hash map.
#[derive(Debug, Clone, Default)]
pub struct HashKeys(HashMap<Key, HeapValue>);

/// A `HashMap` per entity.
pub type HashMapPeer = Entities<MapComponent<HashKeys>>;

impl KeyMap for HashKeys {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "std_hashmap",
            description: "std HashMap<u32, boxed value> per entity: O(1) lookups, a table allocation per entity",
            kind: KvDesignKind::Peer {
                crate_name: "std",
                version: "toolchain",
                idiom: "HashMap<u32, Box<value>> per entity: get / insert / remove by key",
                docs: "https://doc.rust-lang.org/std/collections/struct.HashMap.html",
                adapter: "A read is `HashMap::get` plus the shared `Entities` wrapper's check that the caller's entity is live (`slots.get(e)` is `Some`, else `NoSuchEntity`). A set builds the boxed `HeapValue` from the trace's bytes and counts allocator calls (value buffer, table `capacity()` before and after) and keys for the metrics, as our designs do behind the same `Entities` (`map_hashed` the same `MapComponent`).",
            },
        },
        bytes_per_entity_cap: None,
    };

    std_map_methods!();

    /// The capacity: the table is reallocated exactly when it changes.
    fn shape(&self) -> usize {
        self.0.capacity()
    }

    /// A growth allocates the new table, moves the entries and frees the old one: two calls;
    /// the first table and the last free one each.
    fn count_reshape(before: usize, after: usize, calls: &mut u64) {
        if before != after {
            *calls += 1 + u64::from(before > 0 && after > 0);
        }
    }

    fn table_bytes(&self) -> usize {
        // Buckets (capacity rounded up to 8/7 of it, a power of two) plus a control byte each.
        let buckets = if self.0.capacity() == 0 {
            0
        } else {
            (self.0.capacity() * 8 / 7).next_power_of_two()
        };
        buckets * (size_of::<(Key, HeapValue)>() + 1)
    }
}
