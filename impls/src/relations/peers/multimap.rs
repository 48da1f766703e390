//! Peer: the `multimap` crate's `MultiMap<u32, RecordId>` (a std `HashMap<K, Vec<V>>` behind
//! a multimap API), one per index (on `a` and on `b`). Removal finds the record with
//! `get_vec_mut` + `position` and erases it with `Vec::remove` (keeping the order of the rest,
//! as `unordered_multimap::erase` does), dropping the key when its vector empties: O(m) per
//! removal, the article's O(n²) star. Capped at [`MAX_SET`] records per key.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use multimap::MultiMap;

use crate::relations::arena::RecordArena;
use crate::relations::vec_of_vecs::MAX_SET;
use crate::relations::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// One index: key → the IDs of its live records (no key maps to an empty vector).
pub type Index = MultiMap<Key, RecordId>;

/// Two `MultiMap<u32, u32>` indices over the records.
#[derive(Debug, Clone, Default)]
pub struct MultimapPeer {
    arena: RecordArena<()>,
    by_a: MultiMap<Key, RecordId>,
    by_b: MultiMap<Key, RecordId>,
}

fn erase(index: &mut MultiMap<Key, RecordId>, key: Key, id: RecordId) {
    let ids = index.get_vec_mut(&key).expect("indexed key");
    let at = ids.iter().position(|&x| x == id).expect("indexed record");
    ids.remove(at);
    if ids.is_empty() {
        index.remove(&key);
    }
}

fn bytes(index: &MultiMap<Key, RecordId>) -> usize {
    hash_map_bytes::<Key, Vec<RecordId>>(index.capacity())
        + index
            .iter_all()
            .map(|(_, v)| v.capacity() * size_of::<RecordId>())
            .sum::<usize>()
}

records_and_two_indices!(MultimapPeer);

impl MultimapPeer {
    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        erase(&mut self.by_a, r.a, id);
        erase(&mut self.by_b, r.b, id);
        Ok(r)
    }

    fn visit(
        &self,
        index: &MultiMap<Key, RecordId>,
        key: Key,
        mut f: impl FnMut(RecordId, Record),
    ) {
        for &id in index.get_vec(&key).into_iter().flatten() {
            f(id, self.arena.slots[id as usize].record);
        }
    }
}

impl RelationIndex for MultimapPeer {
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

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        self.by_a.insert(record.a, id);
        self.by_b.insert(record.b, id);
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
        let &id = self.by_a.get(&a)?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.get_vec(&a).map_or(0, Vec::len)
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes() + bytes(&self.by_a) + bytes(&self.by_b)
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        for (name, index, key) in [
            ("a", &self.by_a, (|r: Record| r.a) as fn(Record) -> Key),
            ("b", &self.by_b, |r: Record| r.b),
        ] {
            let mut total = 0;
            for (&k, ids) in index.iter_all() {
                if ids.is_empty() {
                    return Err(format!("index {name}: key {k} maps to no records"));
                }
                for &id in ids {
                    if self.arena.get(id).map(key) != Ok(k) {
                        return Err(format!("index {name}: key {k} lists id {id}"));
                    }
                }
                total += ids.len();
            }
            if total != self.arena.len() {
                return Err(format!(
                    "index {name}: {total} ids, {} live",
                    self.arena.len()
                ));
            }
        }
        Ok(())
    }
}
