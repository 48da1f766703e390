//! The article's design (I8): a hash from key `a` to the first record of its set, and the set
//! as a cyclic doubly linked list through `prev`/`next` `u32` links kept **in the record**
//! (`observation_t {observed, observer, prev, next}`: 12 + 8 = 20 bytes per record).
//!
//! Add inserts the new record after the key's first (or makes it the first); remove unlinks it
//! and, if it was the first, points the hash at its successor or removes the key: add, remove
//! and first are O(1), find-all is O(m) in the set's size, and records never move (IDs and
//! indices stay permanent). The price: a set's records are wherever they were added, so a visit
//! jumps through the array (the article: "this is the access pattern we will have, no matter
//! what kind of search index we use").
//!
//! One index only (on `a`): `visit_by_b` and the `b` side of `remove_entity` scan every record,
//! and the harness marks traces needing them unsupported ([`super::intrusive_2idx`] adds the
//! second index).
//!
//! Fixed from the article's listing: `add_observation` and `delete_observation` maintain
//! `first_observation_by_observer` while `find_observations_by_observed` reads
//! `…_by_observed` (one key, `a`, throughout here); `chash32_get` is called with two arguments
//! in `delete_observation` (no "missing" default; here `Option`); `chash32_remove` gets a third
//! argument; and the `observeration_t` typo. The list code itself (insert after first; unlink;
//! move or drop the hash entry) is the article's, in the shared [`crate::intrusive_list`].
//!
//! `intrusive_open` is the same with the first map a tuned open-addressing `u64 → u32` table
//! ([`OpenFirstMap`](super::first_map::OpenFirstMap)) instead of std's SipHash `HashMap`.

use super::arena::RecordArena;
use super::first_map::{FirstMap, OpenFirstMap, StdFirstMap};
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};
use crate::DesignMeta;
use crate::intrusive_list::{
    Link, Links, check_cycle, for_each_in_cycle, insert_after, make_singleton, unlink,
};

/// Adds record `id` (key `key`) to the key's cycle: after the first, or as a new first.
#[inline]
pub(crate) fn index_insert<L: Links + ?Sized, M: FirstMap>(
    links: &mut L,
    first: &mut M,
    key: Key,
    id: RecordId,
) {
    match first.get(key) {
        Some(f) => insert_after(links, f, id),
        None => {
            make_singleton(links, id);
            first.set(key, id);
        }
    }
}

/// Takes record `id` (key `key`) out of its cycle, moving or dropping the key's first entry.
#[inline]
pub(crate) fn index_unlink<L: Links + ?Sized, M: FirstMap>(
    links: &mut L,
    first: &mut M,
    key: Key,
    id: RecordId,
) {
    match unlink(links, id) {
        Some(next) => {
            if first.get(key) == Some(id) {
                first.set(key, next);
            }
        }
        None => first.remove(key),
    }
}

/// Checks one index: every key's first is a live record with that key, its cycle is
/// consistent and holds only live records of that key, and the cycles cover `live` records.
pub(crate) fn index_check<L: Links + ?Sized, M: FirstMap>(
    links: &L,
    first: &M,
    bound: usize,
    live: usize,
    key_of: impl Fn(RecordId) -> Option<Key>,
) -> Result<(), String> {
    let mut covered = 0usize;
    let mut broken = None;
    first.for_each(|key, f| {
        if broken.is_some() {
            return;
        }
        match check_cycle(links, f, bound) {
            Err(e) => broken = Some(format!("key {key}: {e}")),
            Ok(len) => {
                covered += len;
                for_each_in_cycle(links, f, |x| {
                    if broken.is_none() && key_of(x) != Some(key) {
                        broken = Some(format!(
                            "key {key}: record {x} in its cycle is {:?}",
                            key_of(x)
                        ));
                    }
                });
            }
        }
    });
    if let Some(b) = broken {
        return Err(b);
    }
    if covered != live {
        return Err(format!("cycles hold {covered} records, {live} are live"));
    }
    Ok(())
}

/// Hash `a` → first record, links inline in the records.
#[derive(Debug, Clone, Default)]
pub struct Intrusive<M> {
    /// Records with their `prev`/`next` links (meaningful while live).
    arena: RecordArena<Link>,
    /// `first.get(a)`: a member of `a`'s cycle, present exactly for keys with live records.
    first: M,
}

impl<M: FirstMap> Intrusive<M> {
    fn unlink_record(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let record = self.arena.get(id)?;
        index_unlink(&mut self.arena.slots[..], &mut self.first, record.a, id);
        Ok(record)
    }
}

const STD_INFO: RelationDesignInfo = RelationDesignInfo {
    meta: DesignMeta {
        name: "intrusive",
        description: "the article's design: std HashMap a → first record, prev/next u32 links in the record, cyclic (one index)",
        kind: RelationDesignKind::Article,
    },
    indexes_b: false,
    max_live_records: None,
    max_set_size: None,
};

const OPEN_INFO: RelationDesignInfo = RelationDesignInfo {
    meta: DesignMeta {
        name: "intrusive_open",
        description: "the article's design with the first map a tuned open-addressing u64 → u32 table (chash32-like)",
        kind: RelationDesignKind::Tuned,
    },
    indexes_b: false,
    max_live_records: None,
    max_set_size: None,
};

/// The article's design with std's `HashMap`.
pub type IntrusiveStd = Intrusive<StdFirstMap>;
/// The article's design with the tuned open-addressing first map.
pub type IntrusiveOpen = Intrusive<OpenFirstMap>;

impl<M: FirstMap> RelationIndex for Intrusive<M> {
    const INFO: RelationDesignInfo = if M::TUNED { OPEN_INFO } else { STD_INFO };

    fn new() -> Self {
        Self {
            arena: RecordArena::default(),
            first: M::default(),
        }
    }

    #[inline]
    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let id = self.arena.insert(record)?;
        index_insert(&mut self.arena.slots[..], &mut self.first, record.a, id);
        Ok(id)
    }

    #[inline]
    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        self.unlink_record(id)?;
        self.arena.free(id)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, mut f: impl FnMut(RecordId, Record)) {
        if let Some(first) = self.first.get(a) {
            let slots = &self.arena.slots[..];
            for_each_in_cycle(slots, first, |x| f(x, slots[x as usize].record));
        }
    }

    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record)) {
        self.arena.scan_for(|r| r.b, b, f);
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        let id = self.first.get(a)?;
        Some((id, self.arena.slots[id as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        let mut n = 0;
        if let Some(first) = self.first.get(a) {
            for_each_in_cycle(&self.arena.slots[..], first, |_| n += 1);
        }
        n
    }

    fn len(&self) -> usize {
        self.arena.len()
    }

    fn memory_bytes(&self) -> usize {
        self.arena.memory_bytes() + self.first.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.arena.check_invariants()?;
        let arena = &self.arena;
        index_check(
            &arena.slots[..],
            &self.first,
            arena.id_bound(),
            arena.len(),
            |id| arena.get(id).ok().map(|r| r.a),
        )
    }
}
