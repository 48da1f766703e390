//! Step 1, hash the keys: `BTreeMap<u32, value>` (the article's `std::map<unsigned,
//! DataValue>`). Strings and arrays stay boxed, one allocation each.
//!
//! Cost: get/set/remove O(log k) integer comparisons, a pointer chase per tree level.
//! Trade-off against `tree_strings`: no key strings (one allocation and a string comparison per
//! key gone); still B-tree nodes and one allocation per string or array value. The component
//! is the shared [`MapComponent`] (also the `std_hashmap` peer's); B-tree nodes are estimated
//! ([`btree_nodes`](super::heap_value::btree_nodes)).

use crate::DesignMeta;
use std::collections::BTreeMap;

use super::heap_value::{HeapValue, btree_bytes, count_btree_change};
use super::keyed_map::{KeyMap, MapComponent, std_map_methods};
use super::{Entities, Key, KvDesignInfo, KvDesignKind};

/// One entity's B-tree of hashed keys.
#[derive(Debug, Clone, Default)]
pub struct HashedKeys(BTreeMap<Key, HeapValue>);

/// Hashed keys in a B-tree.
pub type MapHashed = Entities<MapComponent<HashedKeys>>;

impl KeyMap for HashedKeys {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "map_hashed",
            description: "BTreeMap<u32, boxed value>: keys hashed, strings and arrays still one allocation each (the article's step 1)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };

    std_map_methods!();

    /// The length: the node estimate depends on it alone.
    fn shape(&self) -> usize {
        self.0.len()
    }

    fn count_reshape(before: usize, after: usize, calls: &mut u64) {
        count_btree_change(before, after, calls);
    }

    fn table_bytes(&self) -> usize {
        btree_bytes(self.0.len(), size_of::<Key>(), size_of::<HeapValue>())
    }
}
