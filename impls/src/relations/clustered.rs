//! The article's clustered index (I9), the option it rejects: "we could incrementally sort the
//! array – a little bit every frame. However, note that this would mean that items would move
//! around in memory and we would no longer have permanent indices ... I don't think it's worth
//! doing". Built here to measure what the rejection costs.
//!
//! Layout: the records are packed in `rows` (no holes) with the article's cyclic `prev`/`next`
//! list per key `a` ([`super::intrusive`]'s index), but the links are **positions** in `rows`,
//! so a walk over a clustered set reads consecutive rows. Records move, so the user's
//! permanent [`RecordId`] goes through an ID → position table (`pos_of`, the article's I4
//! indirection) and each row carries its ID back; the first map holds IDs (permanent, so a move
//! never touches the hash). 24 bytes per row (record 12, links 8, ID 4) plus 4 per ID.
//!
//! Clustering: a cursor walks the rows, [`STEPS_PER_ACCESS`] steps per operation (add, remove,
//! visit, first, count). A step at row `c` looks at its list successor `s`: if `s` lies past
//! `c + 1`, rows `c + 1` and `s` are swapped (patching at most four neighbours' links and two
//! `pos_of` entries), so `c`'s set grows as a run behind the cursor. One full pass with no
//! churn leaves every set contiguous and in list order; adds land at the end and removals
//! swap the last row into the hole, which later passes repair. All operations stay O(1) (plus
//! O(m) to walk a set) with a bounded extra of [`STEPS_PER_ACCESS`] swaps each.
//!
//! The trade-off: find-all walks consecutive rows once clustered (fewer cache misses on
//! scattered sets), paid for by the ID indirection on every ID-based operation, 4 more bytes
//! per record than [`super::intrusive`], and the sorting work. One index (on `a`): `visit_by_b`
//! and the `b` side of `remove_entity` scan every row.

use super::first_map::{FirstMap, StdFirstMap};
use super::intrusive::index_check;
use super::{
    Key, Record, RecordId, RelationDesignInfo, RelationDesignKind, RelationError, RelationIndex,
};
use crate::DesignMeta;
use crate::intrusive_list::{Link, Links, for_each_in_cycle, insert_after, make_singleton, unlink};

/// Cursor steps (each at most one row swap) done by every operation.
pub const STEPS_PER_ACCESS: usize = 4;

/// `pos_of` entry of an ID that is free.
const FREE: u32 = u32::MAX;

/// One record at its current position.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Row {
    /// The record.
    pub record: Record,
    /// Positions of its neighbours in its key's cycle.
    pub link: Link,
    /// The record's permanent ID. Invariant: `pos_of[id]` is this row's position.
    pub id: RecordId,
}

impl Links for [Row] {
    #[inline]
    fn link(&self, x: u32) -> Link {
        self[x as usize].link
    }

    #[inline]
    fn link_mut(&mut self, x: u32) -> &mut Link {
        &mut self[x as usize].link
    }
}

/// Packed rows kept clustered by key `a` with an ID → position table.
#[derive(Debug, Clone, Default)]
pub struct Clustered {
    /// The live records, packed (no holes), in no guaranteed order.
    rows: Vec<Row>,
    /// `pos_of[id]`: the position of live record `id`, [`FREE`] for a freed ID. Invariant: as
    /// long as the number of IDs ever handed out.
    pos_of: Vec<u32>,
    /// Freed IDs, most recently freed last (the family's reuse rule). Invariant: exactly the
    /// IDs whose `pos_of` is [`FREE`], each once.
    free: Vec<RecordId>,
    /// Key `a` → the ID of a member of its cycle, present exactly for keys with live records.
    first: StdFirstMap,
    /// The row the next clustering step looks at. Rows before it were passed in this pass.
    cursor: usize,
}

impl Clustered {
    /// The position of live record `id`.
    #[inline]
    fn position(&self, id: RecordId) -> Result<u32, RelationError> {
        match self.pos_of.get(id as usize) {
            Some(&p) if p != FREE => Ok(p),
            _ => Err(RelationError::NoSuchRecord { id }),
        }
    }

    /// Moves the rows at positions `x` and `y` (distinct) into each other's place, patching
    /// their neighbours' links and their `pos_of` entries.
    fn swap_rows(&mut self, x: u32, y: u32) {
        let moved = |p: u32| {
            if p == x {
                y
            } else if p == y {
                x
            } else {
                p
            }
        };
        let mut neighbours = [FREE; 4];
        let (lx, ly) = (self.rows[x as usize].link, self.rows[y as usize].link);
        for (slot, n) in neighbours
            .iter_mut()
            .zip([lx.prev, lx.next, ly.prev, ly.next])
        {
            if n != x && n != y {
                *slot = n;
            }
        }
        self.rows.swap(x as usize, y as usize);
        for p in [x, y] {
            let row = &mut self.rows[p as usize];
            row.link = Link {
                prev: moved(row.link.prev),
                next: moved(row.link.next),
            };
            self.pos_of[row.id as usize] = p;
        }
        for (i, &n) in neighbours.iter().enumerate() {
            if n != FREE && !neighbours[..i].contains(&n) {
                let link = &mut self.rows[n as usize].link;
                *link = Link {
                    prev: moved(link.prev),
                    next: moved(link.next),
                };
            }
        }
    }

    /// Up to [`STEPS_PER_ACCESS`] clustering steps: pull the cursor row's list successor next
    /// to it when it lies further on.
    #[inline]
    fn cluster_steps(&mut self) {
        for _ in 0..STEPS_PER_ACCESS {
            if self.cursor + 1 >= self.rows.len() {
                self.cursor = 0;
                return;
            }
            let c = self.cursor as u32;
            let s = self.rows[c as usize].link.next;
            if s > c + 1 {
                self.swap_rows(c + 1, s);
            }
            self.cursor += 1;
        }
    }

    /// Unlinks and drops live record `id` at position `p`: the last row moves into the hole.
    fn take(&mut self, id: RecordId, p: u32) -> Record {
        let record = self.rows[p as usize].record;
        if let Some(next) = unlink(&mut self.rows[..], p) {
            if FirstMap::get(&self.first, record.a) == Some(id) {
                let next_id = self.rows[next as usize].id;
                self.first.set(record.a, next_id);
            }
        } else {
            FirstMap::remove(&mut self.first, record.a);
        }
        let last = (self.rows.len() - 1) as u32;
        if p != last {
            self.swap_rows(p, last);
        }
        self.rows.pop();
        self.pos_of[id as usize] = FREE;
        self.free.push(id);
        record
    }
}

impl RelationIndex for Clustered {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "clustered",
            description: "the article's rejected clustered index: packed rows with position links, sorted by key a a few swaps per access, ID → position table (one index)",
            kind: RelationDesignKind::Article,
        },
        indexes_b: false,
        max_live_records: None,
        max_set_size: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn add(&mut self, record: Record) -> Result<RecordId, RelationError> {
        let p = u32::try_from(self.rows.len())
            .ok()
            .filter(|&p| p < FREE)
            .ok_or(RelationError::IdSpaceExhausted {
                limit: u64::from(u32::MAX),
            })?;
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.pos_of.push(FREE);
                (self.pos_of.len() - 1) as RecordId
            }
        };
        self.pos_of[id as usize] = p;
        self.rows.push(Row {
            record,
            link: Link::default(),
            id,
        });
        match FirstMap::get(&self.first, record.a) {
            Some(f) => {
                let at = self.pos_of[f as usize];
                insert_after(&mut self.rows[..], at, p);
            }
            None => {
                make_singleton(&mut self.rows[..], p);
                self.first.set(record.a, id);
            }
        }
        self.cluster_steps();
        Ok(id)
    }

    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError> {
        let p = self.position(id)?;
        let record = self.take(id, p);
        self.cluster_steps();
        Ok(record)
    }

    #[inline]
    fn visit_by_a(&mut self, a: Key, mut f: impl FnMut(RecordId, Record)) {
        self.cluster_steps();
        if let Some(first) = FirstMap::get(&self.first, a) {
            let rows = &self.rows[..];
            for_each_in_cycle(rows, self.pos_of[first as usize], |p| {
                let row = &rows[p as usize];
                f(row.id, row.record);
            });
        }
    }

    fn visit_by_b(&mut self, b: Key, mut f: impl FnMut(RecordId, Record)) {
        self.cluster_steps();
        for row in &self.rows {
            if row.record.b == b {
                f(row.id, row.record);
            }
        }
    }

    #[inline]
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)> {
        self.cluster_steps();
        let id = FirstMap::get(&self.first, a)?;
        Some((id, self.rows[self.pos_of[id as usize] as usize].record))
    }

    fn count_by_a(&mut self, a: Key) -> usize {
        let mut n = 0;
        self.visit_by_a(a, |_, _| n += 1);
        n
    }

    fn len(&self) -> usize {
        self.rows.len()
    }

    fn memory_bytes(&self) -> usize {
        self.rows.capacity() * size_of::<Row>()
            + self.pos_of.capacity() * size_of::<u32>()
            + self.free.capacity() * size_of::<RecordId>()
            + self.first.memory_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        for (p, row) in self.rows.iter().enumerate() {
            if self.pos_of.get(row.id as usize) != Some(&(p as u32)) {
                return Err(format!(
                    "row {p} holds id {} whose pos_of disagrees",
                    row.id
                ));
            }
        }
        let free = self.pos_of.iter().filter(|&&p| p == FREE).count();
        if free != self.free.len() || self.rows.len() + free != self.pos_of.len() {
            return Err(format!(
                "{free} free ids, {} listed, {} rows, {} ids",
                self.free.len(),
                self.rows.len(),
                self.pos_of.len()
            ));
        }
        for &id in &self.free {
            if self.pos_of.get(id as usize) != Some(&FREE) {
                return Err(format!("free list holds live or unknown id {id}"));
            }
        }
        let mut by_position = StdFirstMap::default();
        for (key, id) in &self.first {
            let p = self
                .position(*id)
                .map_err(|_| format!("key {key}: first {id} is not live"))?;
            by_position.insert(*key, p);
        }
        index_check(
            &self.rows[..],
            &by_position,
            self.rows.len(),
            self.rows.len(),
            |p| self.rows.get(p as usize).map(|r| r.record.a),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_without_churn_leaves_every_set_contiguous() {
        let mut d = Clustered::new();
        for i in 0..400u32 {
            d.add(Record {
                a: (i * 7919) % 37,
                b: i,
                payload: i,
            })
            .unwrap();
        }
        for _ in 0..(2 * 400 / STEPS_PER_ACCESS) {
            d.first_by_a(0);
        }
        d.check_invariants().unwrap();
        for a in 0..37 {
            let mut positions = Vec::new();
            let first = d.pos_of[FirstMap::get(&d.first, a).unwrap() as usize];
            for_each_in_cycle(&d.rows[..], first, |p| positions.push(p));
            positions.sort_unstable();
            assert!(
                positions.windows(2).all(|w| w[1] == w[0] + 1),
                "set {a} not contiguous: {positions:?}"
            );
        }
    }
}
