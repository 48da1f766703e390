//! The `std::unordered_multimap` analogue (I6): `HashMap<u32, Vec<RecordId>>` per index (on `a`
//! and on `b`), removal by a linear search of the key's values (`equal_range` then compare
//! each value with the record).
//!
//! Add and lookups are O(1) hash operations; removing a record is O(m) in its key's set, so
//! the article's star (n enemies observing the player, all removed) is O(n²): "O(n²) is bad,
//! m'kay!". Capped at [`MAX_SET`](super::vec_of_vecs::MAX_SET) records per key. Unlike a
//! node-based multimap, the values of one key are contiguous, so the search itself is a fast
//! linear scan: the quadratic term shows, but with a small constant. The algorithm is
//! [`KeyedSets`]'s; this file is its map.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use std::collections::HashMap;

use super::keyed_sets::{IdSets, KeyedSets, hash_map_of_ids};
use super::vec_of_vecs::MAX_SET;
use super::{Key, RecordId, RelationDesignInfo, RelationDesignKind};

/// One index: key → the IDs of its records. Invariant: no key maps to an empty vector.
pub(crate) type KeyedVecs = HashMap<Key, Vec<RecordId>, crate::hashing::FixedSipHash>;

/// Two `HashMap<u32, Vec<RecordId>>` indices over the records.
pub type MultimapScanRemove = KeyedSets<KeyedVecs>;

impl IdSets for KeyedVecs {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "multimap_scan_remove",
            description: "the unordered_multimap analogue: std HashMap<u32, Vec<u32>> per index, removal by linear search of the key's values",
            kind: RelationDesignKind::Article,
        },
        indexes_b: true,
        max_live_records: None,
        max_set_size: Some(MAX_SET),
    };

    hash_map_of_ids!();

    #[inline]
    fn for_each_id(&self, key: Key, mut f: impl FnMut(RecordId)) {
        if let Some(ids) = self.get(&key) {
            for &id in ids {
                f(id);
            }
        }
    }

    /// Its buckets and every value vector.
    fn bytes(&self) -> usize {
        hash_map_bytes::<Key, Vec<RecordId>>(self.capacity())
            + self
                .values()
                .map(|v| v.capacity() * size_of::<RecordId>())
                .sum::<usize>()
    }
}
