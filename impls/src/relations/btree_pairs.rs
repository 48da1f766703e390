//! The `std::multimap` analogue (I7): a `BTreeSet<(key, RecordId)>` per index (on `a` and on
//! `b`), so a key's records are the range `(key, 0)..=(key, u32::MAX)`.
//!
//! Add, remove and first are O(log n) (the article: "search-based, not hash-based, so lookups
//! are O(log n)"); removal needs no search of the set, so the star case stays O(n log n).
//! Visits walk B-tree leaves (11 pairs each), then read the records. The algorithm is
//! [`KeyedSets`]'s; this file is its index.

use crate::DesignMeta;
use std::collections::BTreeSet;

use super::keyed_sets::{IdSets, KeyedSets};
use super::{Key, RecordId, RelationDesignInfo, RelationDesignKind};

/// One index: `(key, id)` for every live record. Invariant: exactly those pairs.
pub type Pairs = BTreeSet<(Key, RecordId)>;

/// Two ordered sets of `(key, id)` pairs.
pub type BTreePairs = KeyedSets<Pairs>;

impl IdSets for Pairs {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "btree_pairs",
            description: "the std::multimap analogue: BTreeSet<(key, id)> per index, range scans (O(log n) add/remove/first)",
            kind: RelationDesignKind::Article,
        },
        indexes_b: true,
        max_live_records: None,
        max_set_size: None,
    };

    #[inline]
    fn add(&mut self, key: Key, id: RecordId) {
        self.insert((key, id));
    }

    fn remove(&mut self, key: Key, id: RecordId) {
        BTreeSet::remove(self, &(key, id));
    }

    #[inline]
    fn for_each_id(&self, key: Key, mut f: impl FnMut(RecordId)) {
        for &(_, id) in self.range((key, 0)..=(key, RecordId::MAX)) {
            f(id);
        }
    }

    #[inline]
    fn first(&self, key: Key) -> Option<RecordId> {
        let &(_, id) = self.range((key, 0)..=(key, RecordId::MAX)).next()?;
        Some(id)
    }

    fn count(&self, key: Key) -> usize {
        self.range((key, 0)..=(key, RecordId::MAX)).count()
    }

    fn pairs(&self) -> impl Iterator<Item = (Key, RecordId)> {
        self.iter().copied()
    }

    /// B-tree nodes estimated as 11 pairs per leaf, 2/3 full on average (std does not expose
    /// its node count): `len × 8 B × 3/2`.
    fn bytes(&self) -> usize {
        self.len() * size_of::<(Key, RecordId)>() * 3 / 2
    }
}
