//! The article's brute force (I2): the bulk array and nothing else; every query is a loop over
//! all records (`for (o = observations; ...) if (o->observed == a)`).
//!
//! Add and remove are O(1) (the arena's free list); every visit, first, count and entity
//! delete is O(n) in the records (live bits skip freed slots a word at a time). No memory beyond
//! the records: 12 bytes each plus one live bit. Both keys are "indexed" the same way, by the
//! scan. Capped: traces with more than [`MAX_LIVE`] live records are unsupported, since a
//! 100K-op body over 1M records would take minutes.

use super::arena::RecordArena;
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};
use crate::DesignMeta;

/// Most live records a benchmark replays on the scan.
pub const MAX_LIVE: usize = 16_384;

/// Records only; queries scan.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    arena: RecordArena<()>,
}

impl RelationIndex for Scan {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "scan",
            description: "brute force: the bulk array only, every query scans all records (O(n))",
            kind: RelationDesignKind::Article,
        },
        indexes_b: true,
        max_live_records: Some(MAX_LIVE),
        max_set_size: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        self.arena.insert(record)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record)) {
        self.arena.scan_for(|r| r.a, a, f);
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        self.arena.scan_for(|r| r.b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let mut found = None;
        self.arena.for_each_live(|id, s| {
            if found.is_none() && s.record.a == a {
                found = Some((id, s.record));
            }
        });
        found
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        let mut n = 0;
        self.visit_by_a(a, |_, _| n += 1);
        n
    }

    fn remove_entity(&mut self, entity: Key, mut f: impl FnMut(RecordId, Record)) {
        let mut ids = Vec::new();
        self.arena.for_each_live(|id, s| {
            if s.record.a == entity || s.record.b == entity {
                ids.push(id);
                f(id, s.record);
            }
        });
        self.arena.free_sorted(&mut ids);
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()
    }
}
