//! The article's multiple indices (I10): the records stay `{a, b, payload}` and each index is
//! its own `index_t {pointers_t *pointers; chash32_t first;}`: a side array of `prev`/`next`
//! links, one entry per record slot, plus a hash key → first record. Two indices, on `a` and on
//! `b`, so "entity B has been deleted" (`a == B or b == B`) walks two cycles instead of
//! scanning.
//!
//! Per record: 12 bytes of record plus 8 bytes of links per index (the article: "two extra
//! uint32_t to each item", per index), 28 bytes with two indices. Add and remove update both
//! indices (two O(1) list operations and up to two hash updates); visits are O(m) as in
//! [`super::intrusive`], but read the record and the index's link array (two arrays instead of
//! one record).
//!
//! [`Intrusive2IdxOpen`] (`intrusive_2idx_open`, tuned) is the same two indices with each
//! first map the tuned open-addressing table of [`super::intrusive`]'s `intrusive_open`, the
//! fast hash that `hashbrown_smallvec`'s map has and std's SipHash `HashMap` has not. The two
//! designs differ in the first map alone, so their ratio on `idx-entity-delete` ("entity B has
//! been deleted": two hash lookups and the first maps' updates beside the two cycles' walks)
//! is what the map costs there.

use super::arena::RecordArena;
use super::first_map::{FirstMap, OpenFirstMap, StdFirstMap};
use super::intrusive::{index_check, index_insert, index_unlink};
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};
use crate::DesignMeta;
use crate::intrusive_list::{Link, for_each_in_cycle};

/// One index: the article's `index_t`.
#[derive(Debug, Clone, Default)]
struct Index<M> {
    /// `links[id]`: record `id`'s neighbours in its key's cycle. Invariant: as long as the
    /// arena's slots (entries of free slots are meaningless).
    links: Vec<Link>,
    /// Key → a member of its cycle, present exactly for keys with live records.
    first: M,
}

impl<M: FirstMap> Index<M> {
    fn memory_bytes(&self) -> usize {
        self.links.capacity() * size_of::<Link>() + self.first.memory_bytes()
    }
}

/// Records plus an `a` index and a `b` index, each a side link array and a first map.
#[derive(Debug, Clone, Default)]
pub struct Intrusive2Idx<M = StdFirstMap> {
    arena: RecordArena<()>,
    by_a: Index<M>,
    by_b: Index<M>,
}

impl<M: FirstMap> Intrusive2Idx<M> {
    fn unlink_record(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let r = self.arena.get(id)?;
        index_unlink(&mut self.by_a.links[..], &mut self.by_a.first, r.a, id);
        index_unlink(&mut self.by_b.links[..], &mut self.by_b.first, r.b, id);
        Ok(r)
    }

    fn visit(
        arena: &RecordArena<()>,
        index: &Index<M>,
        key: Key,
        mut f: impl FnMut(RecordId, Record),
    ) {
        if let Some(first) = index.first.get(key) {
            for_each_in_cycle(&index.links[..], first, |x| {
                f(x, arena.slots[x as usize].record);
            });
        }
    }
}

const STD_INFO: RelationDesignInfo = RelationDesignInfo {
    meta: DesignMeta {
        name: "intrusive_2idx",
        description: "the article's two indices: a and b each a side prev/next array plus a std HashMap key → first",
        kind: RelationDesignKind::Article,
    },
    indexes_b: true,
    max_live_records: None,
    max_set_size: None,
};

const OPEN_INFO: RelationDesignInfo = RelationDesignInfo {
    meta: DesignMeta {
        name: "intrusive_2idx_open",
        description: "the article's two indices with each first map the tuned open-addressing u64 → u32 table of intrusive_open",
        kind: RelationDesignKind::Tuned,
    },
    ..STD_INFO
};

/// The article's two indices with the tuned open-addressing first maps.
pub type Intrusive2IdxOpen = Intrusive2Idx<OpenFirstMap>;

impl<M: FirstMap> RelationIndex for Intrusive2Idx<M> {
    const INFO: RelationDesignInfo = if M::TUNED { OPEN_INFO } else { STD_INFO };

    fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        if self.by_a.links.len() < self.arena.id_bound() {
            self.by_a.links.push(Link::default());
            self.by_b.links.push(Link::default());
        }
        index_insert(&mut self.by_a.links[..], &mut self.by_a.first, record.a, id);
        index_insert(&mut self.by_b.links[..], &mut self.by_b.first, record.b, id);
        Ok(id)
    }

    #[inline]
    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.unlink_record(id)?;
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record)) {
        Self::visit(&self.arena, &self.by_a, a, f);
    }

    #[inline]
    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        Self::visit(&self.arena, &self.by_b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let id = self.by_a.first.get(a)?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        let mut n = 0;
        Self::visit(&self.arena, &self.by_a, a, |_, _| n += 1);
        n
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes() + self.by_a.memory_bytes() + self.by_b.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let arena = &self.arena;
        arena.check_invariants()?;
        for (name, index, key) in [
            ("a", &self.by_a, (|r: Record| r.a) as fn(Record) -> Key),
            ("b", &self.by_b, |r: Record| r.b),
        ] {
            if index.links.len() != arena.id_bound() {
                return Err(format!(
                    "index {name}: {} links for {} slots",
                    index.links.len(),
                    arena.id_bound()
                ));
            }
            index_check(
                &index.links[..],
                &index.first,
                arena.id_bound(),
                arena.len(),
                |id| arena.get(id).ok().map(key),
            )
            .map_err(|e| format!("index {name}: {e}"))?;
        }
        Ok(())
    }
}
