//! Peer: hashbrown's `HashMap<u32, SmallVec<[u32; 4]>>` (foldhash, SwissTable) per index (on
//! `a` and on `b`): sets of up to 4 records live inline in the bucket, larger ones spill to
//! the heap. Removal finds the record's position by a linear search and swap-removes it: O(m),
//! quadratic on the star. Capped at [`MAX_SET`] records per key.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use hashbrown::HashMap;
use smallvec::SmallVec;

use crate::relations::arena::RecordArena;
use crate::relations::vec_of_vecs::MAX_SET;
use crate::relations::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// One key's record IDs: up to 4 inline.
pub type Ids = SmallVec<[RecordId; 4]>;

/// One index: key → the IDs of its live records (no key maps to an empty set).
pub type Index = HashMap<Key, Ids>;

/// Two `hashbrown::HashMap<u32, SmallVec<[u32; 4]>>` indices over the records.
#[derive(Debug, Clone, Default)]
pub struct HashbrownSmallVec {
    arena: RecordArena<()>,
    /// Key → IDs of its live records; no key maps to an empty set.
    by_a: HashMap<Key, Ids>,
    by_b: HashMap<Key, Ids>,
}

fn swap_remove(index: &mut HashMap<Key, Ids>, key: Key, id: RecordId) {
    let ids = index.get_mut(&key).expect("indexed key");
    let at = ids.iter().position(|&x| x == id).expect("indexed record");
    ids.swap_remove(at);
    if ids.is_empty() {
        index.remove(&key);
    }
}

fn bytes(index: &HashMap<Key, Ids>) -> usize {
    hash_map_bytes::<Key, Ids>(index.capacity())
        + index
            .values()
            .filter(|v| v.spilled())
            .map(|v| v.capacity() * size_of::<RecordId>())
            .sum::<usize>()
}

records_and_two_indices!(HashbrownSmallVec);

impl HashbrownSmallVec {
    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        swap_remove(&mut self.by_a, r.a, id);
        swap_remove(&mut self.by_b, r.b, id);
        Ok(r)
    }

    fn visit(&self, index: &HashMap<Key, Ids>, key: Key, mut f: impl FnMut(RecordId, Record)) {
        for &id in index.get(&key).into_iter().flatten() {
            f(id, self.arena.slots[id as usize].record);
        }
    }
}

impl RelationIndex for HashbrownSmallVec {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "hashbrown_smallvec",
            description: "hashbrown HashMap<u32, SmallVec<[u32; 4]>> per index (sets of ≤ 4 inline), swap_remove by position",
            kind: RelationDesignKind::Peer {
                crate_name: "hashbrown",
                version: "0.17.1",
                idiom: "HashMap<u32, SmallVec<[u32; 4]>>: entry().or_default().push to add, get(&parent) and slice iteration to visit, get_mut + position + swap_remove to remove",
                docs: "https://docs.rs/hashbrown/0.17.1/hashbrown/struct.HashMap.html",
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
        let &id = self.by_a.get(&a)?.first()?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.get(&a).map_or(0, SmallVec::len)
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
            for (&k, ids) in index {
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
