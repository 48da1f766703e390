//! The `std::multimap` analogue (I7): a `BTreeSet<(key, RecordId)>` per index (on `a` and on
//! `b`), so a key's records are the range `(key, 0)..=(key, u32::MAX)`.
//!
//! Add, remove and first are O(log n) (the article: "search-based, not hash-based, so lookups
//! are O(log n)"); removal needs no search of the set, so the star case stays O(n log n).
//! Visits walk B-tree leaves (11 pairs each), then read the records.

use crate::DesignMeta;
use std::collections::BTreeSet;

use super::arena::RecordArena;
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// Two ordered sets of `(key, id)` pairs.
#[derive(Debug, Clone, Default)]
pub struct BTreePairs {
    arena: RecordArena<()>,
    /// `(a, id)` for every live record. Invariant: exactly those pairs.
    by_a: BTreeSet<(Key, RecordId)>,
    /// `(b, id)` for every live record.
    by_b: BTreeSet<(Key, RecordId)>,
}

impl BTreePairs {
    fn visit(
        arena: &RecordArena<()>,
        index: &BTreeSet<(Key, RecordId)>,
        key: Key,
        mut f: impl FnMut(RecordId, Record),
    ) {
        for &(_, id) in index.range((key, 0)..=(key, RecordId::MAX)) {
            f(id, arena.slots[id as usize].record);
        }
    }

    fn unlink(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        self.by_a.remove(&(r.a, id));
        self.by_b.remove(&(r.b, id));
        Ok(r)
    }
}

impl RelationIndex for BTreePairs {
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

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        self.by_a.insert((record.a, id));
        self.by_b.insert((record.b, id));
        Ok(id)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.unlink(id)?;
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record)) {
        Self::visit(&self.arena, &self.by_a, a, f);
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        Self::visit(&self.arena, &self.by_b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let &(_, id) = self.by_a.range((a, 0)..=(a, RecordId::MAX)).next()?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.range((a, 0)..=(a, RecordId::MAX)).count()
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    /// B-tree nodes estimated as 11 pairs per leaf, 2/3 full on average (std does not expose
    /// its node count): `len × 8 B × 3/2`, plus the records.
    fn memory_bytes(&self) -> usize {
        let pairs = self.by_a.len() + self.by_b.len();
        self.arena.memory_bytes() + pairs * size_of::<(Key, RecordId)>() * 3 / 2
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        for (name, index, key) in [
            ("a", &self.by_a, (|r: Record| r.a) as fn(Record) -> Key),
            ("b", &self.by_b, |r: Record| r.b),
        ] {
            if index.len() != self.arena.len() {
                return Err(format!(
                    "index {name}: {} pairs, {} live",
                    index.len(),
                    self.arena.len()
                ));
            }
            for &(k, id) in index {
                if self.arena.get(id).map(key) != Ok(k) {
                    return Err(format!("index {name}: ({k}, {id}) is not a live record"));
                }
            }
        }
        Ok(())
    }
}
