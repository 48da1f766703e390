//! The reference model: an obviously correct relation index whose answers every design's
//! replay must reproduce (`bench-harness` verification, `impls/tests/integration/relations_model.rs`).
//! Not a benchmarked design: it is not in the registry.
//!
//! Layout: `Vec<Option<Record>>` (`Some` exactly for live records), a stack of freed IDs (the
//! family's ID rule written out again with plain `Vec`s, so a bug in the shared arena shows as a
//! disagreement), and per side a `BTreeMap<key, BTreeSet<id>>`. Brute-force scans alone
//! would make verification at 1M records quadratic; the per-key sets keep it linear, and the
//! property test checks them against a brute-force scan of the `Vec` after
//! every op ([`ModelIndex::scan_by_a`], [`ModelIndex::scan_by_b`]).

use crate::DesignMeta;
use std::collections::{BTreeMap, BTreeSet};

use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};

/// Reference model of the [`RelationIndex`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelIndex {
    /// `records[id]` is `Some` exactly while record `id` is live.
    records: Vec<Option<Record>>,
    /// Freed IDs, most recently freed last; exactly the `None` entries, each once.
    freed: Vec<RecordId>,
    by_a: BTreeMap<Key, BTreeSet<RecordId>>,
    by_b: BTreeMap<Key, BTreeSet<RecordId>>,
}

impl ModelIndex {
    /// The live records with `a == key`, by a scan of every record, in ID order.
    pub fn scan_by_a(&self, key: Key) -> Vec<(RecordId, Record)> {
        self.scan(|r| r.a == key)
    }

    /// The live records with `b == key`, by a scan of every record, in ID order.
    pub fn scan_by_b(&self, key: Key) -> Vec<(RecordId, Record)> {
        self.scan(|r| r.b == key)
    }

    /// Every live record, in ID order.
    pub fn all(&self) -> Vec<(RecordId, Record)> {
        self.scan(|_| true)
    }

    /// IDs ever handed out.
    pub fn id_bound(&self) -> usize {
        self.records.len()
    }

    fn scan(&self, keep: impl Fn(&Record) -> bool) -> Vec<(RecordId, Record)> {
        self.records
            .iter()
            .enumerate()
            .filter_map(|(id, r)| r.filter(&keep).map(|r| (id as RecordId, r)))
            .collect()
    }

    fn visit(
        &self,
        index: &BTreeMap<Key, BTreeSet<RecordId>>,
        key: Key,
        mut f: impl FnMut(RecordId, Record),
    ) {
        for &id in index.get(&key).into_iter().flatten() {
            f(
                id,
                self.records[id as usize].expect("indexed records are live"),
            );
        }
    }

    fn unindex(&mut self, id: RecordId, r: Record) {
        for (index, key) in [(&mut self.by_a, r.a), (&mut self.by_b, r.b)] {
            let set = index.get_mut(&key).expect("indexed key");
            set.remove(&id);
            if set.is_empty() {
                index.remove(&key);
            }
        }
    }
}

impl RelationIndex for ModelIndex {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: Vec<Option<Record>>, a freed-ID stack, BTreeMap key → BTreeSet of IDs per side (verification only)",
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
        let id = match self.freed.pop() {
            Some(id) => id,
            None => {
                let id = RecordId::try_from(self.records.len())
                    .ok()
                    .filter(|&id| id < u32::MAX)
                    .ok_or(RelationError::IdSpaceExhausted {
                        limit: u64::from(u32::MAX),
                    })?;
                self.records.push(None);
                id
            }
        };
        self.records[id as usize] = Some(record);
        self.by_a.entry(record.a).or_default().insert(id);
        self.by_b.entry(record.b).or_default().insert(id);
        Ok(id)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self
            .records
            .get_mut(id as usize)
            .and_then(Option::take)
            .ok_or(RelationError::NoSuchRecord { id })?;
        self.unindex(id, r);
        self.freed.push(id);
        Ok(r)
    }

    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record)) {
        self.visit(&self.by_a, a, f);
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        self.visit(&self.by_b, b, f);
    }

    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let &id = self.by_a.get(&a)?.first()?;
        Some((id, self.records[id as usize]?))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        self.by_a.get(&a).map_or(0, BTreeSet::len)
    }

    fn remove_entity(&mut self, entity: Key, mut f: impl FnMut(RecordId, Record)) {
        let ids: BTreeSet<RecordId> = [&self.by_a, &self.by_b]
            .into_iter()
            .filter_map(|index| index.get(&entity))
            .flatten()
            .copied()
            .collect();
        for id in ids {
            let r = self.remove(id).expect("indexed records are live");
            f(id, r);
        }
    }

    fn len(&self) -> usize {
        self.records.len() - self.freed.len()
    }

    fn memory_bytes(&self) -> usize {
        self.records.capacity() * size_of::<Option<Record>>()
            + self.freed.capacity() * size_of::<RecordId>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut freed = self.freed.clone();
        freed.sort_unstable();
        let dead: Vec<RecordId> = (0..self.records.len())
            .filter(|&id| self.records[id].is_none())
            .map(|id| id as RecordId)
            .collect();
        if freed != dead {
            return Err(format!("freed {freed:?} are not exactly the dead {dead:?}"));
        }
        for (side, index, key) in [
            ("a", &self.by_a, (|r: &Record| r.a) as fn(&Record) -> Key),
            ("b", &self.by_b, |r: &Record| r.b),
        ] {
            let total: usize = index.values().map(BTreeSet::len).sum();
            if total != self.len() {
                return Err(format!("side {side}: {total} indexed, {} live", self.len()));
            }
            for (&k, ids) in index {
                for &id in ids {
                    if self.records[id as usize].as_ref().map(key) != Some(k) {
                        return Err(format!("side {side}: key {k} lists id {id}"));
                    }
                }
            }
        }
        Ok(())
    }
}
