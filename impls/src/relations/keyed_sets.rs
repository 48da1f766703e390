//! The algorithm of the article's multimap analogues and of the peers that are maps of small
//! vectors, written once: the records in the shared [`RecordArena`], and two indices (on `a`
//! and on `b`), each keeping, per key, the set of IDs of its live records. Adding puts the ID
//! into both keys' sets, removing takes it out of both, a visit walks the key's set and reads
//! each record from the arena.
//!
//! What differs between the designs is the index alone, an [`IdSets`] each: a map from key to
//! a vector of IDs searched on removal (O(m) in the key's set, the article's O(n²) star), std's
//! `HashMap<u32, Vec<u32>>` ([`multimap_scan_remove`](super::multimap_scan_remove)),
//! hashbrown's `HashMap<u32, SmallVec<[u32; 4]>>` and the `multimap` crate's `MultiMap<u32,
//! u32>` ([`peers`](super::peers)), each called as its documentation shows; our own
//! open-addressing table with sets of up to four inline in its buckets, searched on removal
//! too ([`small_sets`](super::small_sets)); or an ordered set of `(key, id)` pairs, O(log n)
//! per removal ([`btree_pairs`](super::btree_pairs)).

use std::fmt::Debug;
use std::ops::DerefMut;

use super::arena::RecordArena;
use super::{Key, Record, RecordId, RelationDesignInfo, RelationError, RelationIndex};

/// One index of a [`KeyedSets`] design: key → the IDs of its live records. Invariant: it holds
/// exactly the live records' `(key, id)` pairs, and no key with an empty set.
pub trait IdSets: Default + Debug + Clone {
    /// The record of the design this map makes.
    const INFO: RelationDesignInfo;

    /// Adds `id` to `key`'s set.
    fn add(&mut self, key: Key, id: RecordId);

    /// Removes `id` (a member) from `key`'s set, dropping the key when its set empties.
    fn remove(&mut self, key: Key, id: RecordId);

    /// Calls `f` with every ID in `key`'s set.
    fn for_each_id(&self, key: Key, f: impl FnMut(RecordId));

    /// Some ID in `key`'s set.
    fn first(&self, key: Key) -> Option<RecordId>;

    /// The size of `key`'s set.
    fn count(&self, key: Key) -> usize;

    /// Every `(key, id)` pair held (for the invariant check).
    fn pairs(&self) -> impl Iterator<Item = (Key, RecordId)>;

    /// A key held with an empty set, if any (breaks the invariant; the default: none can be).
    fn empty_key(&self) -> Option<Key> {
        None
    }

    /// Heap bytes of the index: a map's buckets and its sets' own buffers.
    fn bytes(&self) -> usize;

    /// The map's own layout rules beyond its pairs (where each set lives, probe reachability),
    /// for the invariant check; the default (a published map, checked by its crate): none.
    ///
    /// # Errors
    /// A description of the first broken rule.
    fn check_layout(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The records and their two indices, each an `M` (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct KeyedSets<M> {
    arena: RecordArena<()>,
    by_a: M,
    by_b: M,
}

impl<M> KeyedSets<M> {
    /// The records, by ID, for the harness's direct loop, which uses the crates directly.
    pub fn arena(&self) -> &RecordArena<()> {
        &self.arena
    }

    /// The map on `a`.
    pub fn by_a(&self) -> &M {
        &self.by_a
    }

    /// The map on `b`.
    pub fn by_b(&self) -> &M {
        &self.by_b
    }

    /// The records and both maps taken out of the index (a reference loop's throwaway state).
    pub fn into_parts(self) -> (RecordArena<()>, M, M) {
        (self.arena, self.by_a, self.by_b)
    }
}

impl<M: IdSets> KeyedSets<M> {
    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        self.by_a.remove(r.a, id);
        self.by_b.remove(r.b, id);
        Ok(r)
    }

    fn visit(&self, index: &M, key: Key, mut f: impl FnMut(RecordId, Record)) {
        index.for_each_id(key, |id| f(id, self.arena.slots[id as usize].record));
    }
}

impl<M: IdSets> RelationIndex for KeyedSets<M> {
    const INFO: RelationDesignInfo = M::INFO;

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        self.by_a.add(record.a, id);
        self.by_b.add(record.b, id);
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
        let id = self.by_a.first(a)?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.count(a)
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes() + self.by_a.bytes() + self.by_b.bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        for (name, index, key) in [
            ("a", &self.by_a, (|r: Record| r.a) as fn(Record) -> Key),
            ("b", &self.by_b, |r: Record| r.b),
        ] {
            if let Some(k) = index.empty_key() {
                return Err(format!("index {name}: key {k} maps to no records"));
            }
            index
                .check_layout()
                .map_err(|e| format!("index {name}: {e}"))?;
            let mut total = 0;
            for (k, id) in index.pairs() {
                if self.arena.get(id).map(key) != Ok(k) {
                    return Err(format!("index {name}: key {k} lists id {id}"));
                }
                total += 1;
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

/// The removal of the maps from key to a vector of IDs: a linear search of `ids` (the key's
/// vector) for `id`, a member, then `erase` of the position found (a `swap_remove`, or an
/// order-keeping `remove`); whether the vector is empty now (the caller then drops the key).
#[inline]
pub(crate) fn erase_by_search<V: DerefMut<Target = [RecordId]>>(
    ids: &mut V,
    id: RecordId,
    erase: impl FnOnce(&mut V, usize),
) -> bool {
    let at = ids.iter().position(|&x| x == id).expect("indexed record");
    erase(ids, at);
    ids.is_empty()
}

/// The [`IdSets`] methods a hash map from key to a vector of IDs answers through std's
/// `HashMap` API (`entry`, `get`, `get_mut`, `remove`), removal by [`erase_by_search`] with a
/// `swap_remove` of the found position: std's map of `Vec`s and hashbrown's of `SmallVec`s
/// alike. Expands inside the map's `impl IdSets`.
macro_rules! hash_map_of_ids {
    () => {
        #[inline]
        fn add(&mut self, key: Key, id: RecordId) {
            self.entry(key).or_default().push(id);
        }

        fn remove(&mut self, key: Key, id: RecordId) {
            let ids = self.get_mut(&key).expect("indexed key");
            if $crate::relations::keyed_sets::erase_by_search(ids, id, |ids, at| {
                ids.swap_remove(at);
            }) {
                self.remove(&key);
            }
        }

        #[inline]
        fn first(&self, key: Key) -> Option<RecordId> {
            Some(*self.get(&key)?.first()?)
        }

        fn count(&self, key: Key) -> usize {
            self.get(&key).map_or(0, |ids| ids.len())
        }

        fn pairs(&self) -> impl Iterator<Item = (Key, RecordId)> {
            self.iter()
                .flat_map(|(&key, ids)| ids.iter().map(move |&id| (key, id)))
        }

        fn empty_key(&self) -> Option<Key> {
            self.iter()
                .find(|(_, ids)| ids.is_empty())
                .map(|(&key, _)| key)
        }
    };
}
pub(crate) use hash_map_of_ids;
