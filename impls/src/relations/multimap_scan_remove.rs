//! The `std::unordered_multimap` analogue (I6): `HashMap<u32, Vec<RecordId>>` per index (on `a`
//! and on `b`), removal by a linear search of the key's values (`equal_range` then compare
//! each value with the record).
//!
//! Add and lookups are O(1) hash operations; removing a record is O(m) in its key's set, so
//! the article's star (n enemies observing the player, all removed) is O(n²): "O(n²) is bad,
//! m'kay!". Capped at [`MAX_SET`](super::vec_of_vecs::MAX_SET) records per key. Unlike a
//! node-based multimap, the values of one key are contiguous, so the search itself is a fast
//! linear scan: the quadratic term shows, but with a small constant.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use std::collections::HashMap;

use super::arena::RecordArena;
use super::vec_of_vecs::MAX_SET;
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// One index: key → the IDs of its records. Invariant: no key maps to an empty vector.
pub(crate) type KeyedVecs = HashMap<Key, Vec<RecordId>, crate::hashing::FixedSipHash>;

/// Removes `id` from `key`'s vector by linear search; drops the key when it empties.
pub(crate) fn remove_by_search(index: &mut KeyedVecs, key: Key, id: RecordId) {
    let ids = index.get_mut(&key).expect("indexed key");
    let at = ids.iter().position(|&x| x == id).expect("indexed record");
    ids.swap_remove(at);
    if ids.is_empty() {
        index.remove(&key);
    }
}

/// Checks that `index` holds exactly the live records under their keys.
pub(crate) fn check_keyed(
    index: &KeyedVecs,
    arena: &RecordArena<()>,
    key_of: fn(Record) -> Key,
) -> Result<(), String> {
    let mut total = 0;
    for (&key, ids) in index {
        if ids.is_empty() {
            return Err(format!("key {key} maps to no records"));
        }
        for &id in ids {
            if arena.get(id).map(key_of) != Ok(key) {
                return Err(format!("key {key}: id {id} is not a live record of it"));
            }
        }
        total += ids.len();
    }
    if total != arena.len() {
        return Err(format!("index holds {total} ids, {} live", arena.len()));
    }
    Ok(())
}

/// Bytes of a [`KeyedVecs`]: its buckets and every value vector.
pub(crate) fn keyed_bytes(index: &KeyedVecs) -> usize {
    hash_map_bytes::<Key, Vec<RecordId>>(index.capacity())
        + index
            .values()
            .map(|v| v.capacity() * size_of::<RecordId>())
            .sum::<usize>()
}

/// Two `HashMap<u32, Vec<RecordId>>` indices over the records.
#[derive(Debug, Clone, Default)]
pub struct MultimapScanRemove {
    arena: RecordArena<()>,
    by_a: KeyedVecs,
    by_b: KeyedVecs,
}

impl MultimapScanRemove {
    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        remove_by_search(&mut self.by_a, r.a, id);
        remove_by_search(&mut self.by_b, r.b, id);
        Ok(r)
    }

    fn visit(&self, index: &KeyedVecs, key: Key, mut f: impl FnMut(RecordId, Record)) {
        if let Some(ids) = index.get(&key) {
            for &id in ids {
                f(id, self.arena.slots[id as usize].record);
            }
        }
    }
}

impl RelationIndex for MultimapScanRemove {
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

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        self.by_a.entry(record.a).or_default().push(id);
        self.by_b.entry(record.b).or_default().push(id);
        Ok(id)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.unlink(id)?;
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record)) {
        self.visit(&self.by_a, a, f);
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        self.visit(&self.by_b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let id = *self.by_a.get(&a)?.first()?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.get(&a).map_or(0, Vec::len)
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes() + keyed_bytes(&self.by_a) + keyed_bytes(&self.by_b)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        check_keyed(&self.by_a, &self.arena, |r| r.a).map_err(|e| format!("index a: {e}"))?;
        check_keyed(&self.by_b, &self.arena, |r| r.b).map_err(|e| format!("index b: {e}"))
    }
}
