//! Peer: the `multimap` crate's `MultiMap<u32, RecordId>` (a std `HashMap<K, Vec<V>>` behind
//! a multimap API), one per index (on `a` and on `b`). Removal finds the record with
//! `get_vec_mut` + `position` and erases it with `Vec::remove` (keeping the order of the rest,
//! as `unordered_multimap::erase` does), dropping the key when its vector empties: O(m) per
//! removal, the article's O(n²) star. Capped at [`MAX_SET`] records per key. The algorithm
//! is [`KeyedSets`]'s; this file is its map.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use multimap::MultiMap;

use crate::relations::keyed_sets::{IdSets, KeyedSets, erase_by_search};
use crate::relations::vec_of_vecs::MAX_SET;
use crate::relations::{Key, RecordId, RelationDesignInfo, RelationDesignKind};

/// One index: key → the IDs of its live records (no key maps to an empty vector).
pub type Index = MultiMap<Key, RecordId>;

/// Two `MultiMap<u32, u32>` indices over the records.
pub type MultimapPeer = KeyedSets<Index>;

impl IdSets for Index {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "multimap",
            description: "the multimap crate: MultiMap<u32, u32> per index, removal by get_vec_mut + position + Vec::remove",
            kind: RelationDesignKind::Peer {
                crate_name: "multimap",
                version: "0.10.1",
                idiom: "MultiMap<u32, u32>: insert to add, get_vec(&parent) and slice iteration to visit, get_vec_mut + position + Vec::remove to remove",
                docs: "https://docs.rs/multimap/0.10.1/multimap/struct.MultiMap.html",
                adapter: "Nothing beyond the idiom: `add` and `remove` take record IDs from the family's `RecordArena` (a live bit per ID, LIFO reuse, the `NoSuchRecord` check) and visits read each record from `arena.slots` by ID, as the direct loop does over the same arena. Our designs keep the same `RecordArena` (`clustered` its own ID table), so they pay the same ID contract.",
            },
        },
        indexes_b: true,
        max_live_records: None,
        max_set_size: Some(MAX_SET),
    };

    #[inline]
    fn add(&mut self, key: Key, id: RecordId) {
        self.insert(key, id);
    }

    /// `get_vec_mut` + `position` + `Vec::remove` (the order of the rest kept, as
    /// `unordered_multimap::erase` does).
    fn remove(&mut self, key: Key, id: RecordId) {
        let ids = self.get_vec_mut(&key).expect("indexed key");
        if erase_by_search(ids, id, |ids, at| {
            ids.remove(at);
        }) {
            self.remove(&key);
        }
    }

    #[inline]
    fn for_each_id(&self, key: Key, mut f: impl FnMut(RecordId)) {
        for &id in self.get_vec(&key).into_iter().flatten() {
            f(id);
        }
    }

    /// `MultiMap::get`: the key's first value.
    #[inline]
    fn first(&self, key: Key) -> Option<RecordId> {
        self.get(&key).copied()
    }

    fn count(&self, key: Key) -> usize {
        self.get_vec(&key).map_or(0, Vec::len)
    }

    fn pairs(&self) -> impl Iterator<Item = (Key, RecordId)> {
        self.flat_iter().map(|(&key, &id)| (key, id))
    }

    fn empty_key(&self) -> Option<Key> {
        self.iter_all()
            .find(|(_, ids)| ids.is_empty())
            .map(|(&key, _)| key)
    }

    /// Its buckets and every value vector.
    fn bytes(&self) -> usize {
        hash_map_bytes::<Key, Vec<RecordId>>(self.capacity())
            + self
                .iter_all()
                .map(|(_, v)| v.capacity() * size_of::<RecordId>())
                .sum::<usize>()
    }
}
