//! Peer: hashbrown's `HashMap<u32, SmallVec<[u32; 4]>>` (foldhash, SwissTable) per index (on
//! `a` and on `b`): sets of up to 4 records live inline in the bucket, larger ones spill to
//! the heap. Removal finds the record's position by a linear search and swap-removes it: O(m),
//! quadratic on the star. Capped at [`MAX_SET`] records per key. The algorithm is
//! [`KeyedSets`]'s; this file is its map.

use crate::DesignMeta;
use crate::hashing::hash_map_bytes;
use hashbrown::HashMap;
use smallvec::SmallVec;

use crate::relations::keyed_sets::{IdSets, KeyedSets, hash_map_of_ids};
use crate::relations::vec_of_vecs::MAX_SET;
use crate::relations::{Key, RecordId, RelationDesignInfo, RelationDesignKind};

/// One key's record IDs: up to 4 inline.
pub type Ids = SmallVec<[RecordId; 4]>;

/// One index: key → the IDs of its live records (no key maps to an empty set).
pub type Index = HashMap<Key, Ids>;

/// Two `hashbrown::HashMap<u32, SmallVec<[u32; 4]>>` indices over the records.
pub type HashbrownSmallVec = KeyedSets<Index>;

impl IdSets for Index {
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

    hash_map_of_ids!();

    #[inline]
    fn for_each_id(&self, key: Key, mut f: impl FnMut(RecordId)) {
        for &id in self.get(&key).into_iter().flatten() {
            f(id);
        }
    }

    /// Its buckets and the sets spilled to the heap.
    fn bytes(&self) -> usize {
        hash_map_bytes::<Key, Ids>(self.capacity())
            + self
                .values()
                .filter(|v| v.spilled())
                .map(|v| v.capacity() * size_of::<RecordId>())
                .sum::<usize>()
    }
}
