//! The op vocabulary of the one-to-many index family ("Data Structures Part 2: Indices"),
//! its validation and its bytes in trace files.
//!
//! Record handle `k` names the record made by the trace's `k`-th [`RelationOp::Add`]; handles
//! are never reused by a trace (the replayer maps them to the record IDs a design hands out).
//! Keys (`a`, `b`, entities) are plain `u32` values. `RemoveEntity(e)` removes every live
//! record with `a == e` or `b == e`, so the handles of those records die with it.
//!
//! Work units: one per op, except the visits (`VisitByA`, `VisitByB`), which count one per
//! record they visit (so a visit-only body is reported per visited record). `RemoveEntity` is
//! one unit however many records it removes (`idx-entity-delete` is reported per entity).
//!
//! | tag | op             | fields          |
//! |-----|----------------|-----------------|
//! | 0   | `Add`          | a, b, payload   |
//! | 1   | `Remove`       | record          |
//! | 2   | `VisitByA`     | key             |
//! | 3   | `VisitByB`     | key             |
//! | 4   | `FirstByA`     | key             |
//! | 5   | `CountByA`     | key             |
//! | 6   | `RemoveEntity` | entity          |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// A record handle: handle `k` is the `k`-th `Add` of the trace.
pub type RecordHandle = u32;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = RelationOp;

/// One operation on a relation index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RelationOp {
    /// Add the record `{a, b, payload}` (the next handle).
    Add {
        /// The observed entity (first index key).
        a: u32,
        /// The observer (second index key).
        b: u32,
        /// Data carried with the record.
        payload: u32,
    },
    /// Remove a live record.
    Remove(RecordHandle),
    /// Visit every record with this `a`.
    VisitByA(u32),
    /// Visit every record with this `b` (needs a second index).
    VisitByB(u32),
    /// Ask for some record with this `a`.
    FirstByA(u32),
    /// Count the records with this `a`.
    CountByA(u32),
    /// Remove every record with `a` or `b` equal to this entity (needs a second index).
    RemoveEntity(u32),
}

/// Counts of a relation trace's body (and peaks over the whole trace), from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelationStats {
    /// `Add` ops.
    pub adds: u64,
    /// `Remove` ops.
    pub removes: u64,
    /// `VisitByA` ops.
    pub visits_a: u64,
    /// `VisitByB` ops.
    pub visits_b: u64,
    /// Records visited by all visits.
    pub visited: u64,
    /// `FirstByA` ops.
    pub firsts: u64,
    /// `FirstByA` ops whose key has a record.
    pub firsts_found: u64,
    /// `CountByA` ops.
    pub counts: u64,
    /// `RemoveEntity` ops.
    pub entity_removals: u64,
    /// Records removed by `RemoveEntity` ops.
    pub entity_removed: u64,
    /// Live records after the setup.
    pub live_at_start: u64,
    /// Most live records at any point of the trace.
    pub peak_live: u64,
    /// Most live records one key held on either side at any point of the trace (the set a
    /// removal by search scans).
    pub max_set_size: u64,
    /// Body ops that need the `b` side (`VisitByB`, `RemoveEntity`).
    pub b_side_ops: u64,
}

trace_stats!(RelationStats: adds, removes, visited, firsts, counts, entity_removals);

crate::codec::op_tags! {
    ADD, REMOVE, VISIT_BY_A, VISIT_BY_B, FIRST_BY_A, COUNT_BY_A, REMOVE_ENTITY
}

/// The live records of a trace being checked or built, with per-key counts and per-entity
/// member lists, so `RemoveEntity` finds its records without a scan.
///
/// Invariant: `records[h]` is `Some` exactly while handle `h` is live; `count_a[k]` /
/// `count_b[k]` count the live records with that key (no zero entries); `members[e]` lists
/// (lazily: dead handles are skipped and dropped later) every live handle with `a == e` or
/// `b == e`.
#[derive(Debug, Default)]
pub(crate) struct LiveRecords {
    pub(crate) records: Vec<Option<(u32, u32)>>,
    count_a: HashMap<u32, u64>,
    count_b: HashMap<u32, u64>,
    members: HashMap<u32, Vec<RecordHandle>>,
    pub(crate) live: u64,
    pub(crate) max_set_size: u64,
}

impl LiveRecords {
    /// Adds a record and returns its handle.
    pub(crate) fn add(&mut self, a: u32, b: u32) -> RecordHandle {
        let h = self.records.len() as RecordHandle;
        self.records.push(Some((a, b)));
        for (counts, key) in [(&mut self.count_a, a), (&mut self.count_b, b)] {
            let c = counts.entry(key).or_default();
            *c += 1;
            self.max_set_size = self.max_set_size.max(*c);
        }
        self.members.entry(a).or_default().push(h);
        if b != a {
            self.members.entry(b).or_default().push(h);
        }
        self.live += 1;
        h
    }

    /// Whether handle `h` names a live record.
    pub(crate) fn is_live(&self, h: RecordHandle) -> bool {
        matches!(self.records.get(h as usize), Some(Some(_)))
    }

    /// Removes live record `h`.
    pub(crate) fn remove(&mut self, h: RecordHandle) {
        let (a, b) = self.records[h as usize]
            .take()
            .expect("removing a live record");
        for (counts, key) in [(&mut self.count_a, a), (&mut self.count_b, b)] {
            let c = counts.get_mut(&key).expect("counted key");
            *c -= 1;
            if *c == 0 {
                counts.remove(&key);
            }
        }
        self.live -= 1;
    }

    /// Live records with `a == key`.
    pub(crate) fn count_a(&self, key: u32) -> u64 {
        self.count_a.get(&key).copied().unwrap_or(0)
    }

    /// Live records with `b == key`.
    pub(crate) fn count_b(&self, key: u32) -> u64 {
        self.count_b.get(&key).copied().unwrap_or(0)
    }

    /// Removes every live record with `a == e` or `b == e`, calling `on_removed` with each
    /// handle; returns how many.
    pub(crate) fn remove_entity(
        &mut self,
        e: u32,
        mut on_removed: impl FnMut(RecordHandle),
    ) -> u64 {
        let mut removed = 0;
        for h in self.members.remove(&e).unwrap_or_default() {
            if self.is_live(h) {
                self.remove(h);
                on_removed(h);
                removed += 1;
            }
        }
        removed
    }
}

impl TraceOp for RelationOp {
    const FAMILY: &'static str = "relations";
    type Stats = RelationStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<RelationStats, InvalidTrace> {
        let mut live = LiveRecords::default();
        let mut stats = RelationStats::default();
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            let in_body = part == Part::Body;
            if in_body {
                stats.live_at_start = live.live;
            }
            let counted = |n: u64| if in_body { n } else { 0 };
            for (at, op) in part.steps(ops) {
                match op {
                    RelationOp::Add { a, b, .. } => {
                        if live.records.len() >= u32::MAX as usize {
                            return Err(at.bad(op, "adds more than 2^32 - 1 records"));
                        }
                        live.add(a, b);
                        stats.adds += counted(1);
                        stats.peak_live = stats.peak_live.max(live.live);
                    }
                    RelationOp::Remove(h) => {
                        if !live.is_live(h) {
                            let reason = if (h as usize) < live.records.len() {
                                format!("removes record {h}, which was removed")
                            } else {
                                format!("removes record {h}, not added yet")
                            };
                            return Err(at.bad(op, reason));
                        }
                        live.remove(h);
                        stats.removes += counted(1);
                    }
                    RelationOp::VisitByA(k) => {
                        stats.visits_a += counted(1);
                        stats.visited += counted(live.count_a(k));
                    }
                    RelationOp::VisitByB(k) => {
                        stats.visits_b += counted(1);
                        stats.visited += counted(live.count_b(k));
                        stats.b_side_ops += counted(1);
                    }
                    RelationOp::FirstByA(k) => {
                        stats.firsts += counted(1);
                        stats.firsts_found += counted(u64::from(live.count_a(k) > 0));
                    }
                    RelationOp::CountByA(_) => stats.counts += counted(1),
                    RelationOp::RemoveEntity(e) => {
                        let removed = live.remove_entity(e, |_| {});
                        stats.entity_removals += counted(1);
                        stats.entity_removed += counted(removed);
                        stats.b_side_ops += counted(1);
                    }
                }
            }
        }
        stats.max_set_size = live.max_set_size;
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, RelationOp::Add { .. })
    }

    fn is_read_only(self) -> bool {
        matches!(
            self,
            RelationOp::VisitByA(_)
                | RelationOp::VisitByB(_)
                | RelationOp::FirstByA(_)
                | RelationOp::CountByA(_)
        )
    }

    /// The record a `Remove` names, or the key a keyed op visits (relations name their sets by
    /// key: the working set of a visit-heavy body is its keys).
    fn touches(self) -> Option<u32> {
        match self {
            RelationOp::Remove(h) => Some(h),
            RelationOp::VisitByA(k)
            | RelationOp::VisitByB(k)
            | RelationOp::FirstByA(k)
            | RelationOp::CountByA(k)
            | RelationOp::RemoveEntity(k) => Some(k),
            RelationOp::Add { .. } => None,
        }
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, fields): (u8, &[u32]) = match self {
            RelationOp::Add { a, b, payload } => (tag::ADD, &[a, b, payload]),
            RelationOp::Remove(h) => (tag::REMOVE, &[h]),
            RelationOp::VisitByA(k) => (tag::VISIT_BY_A, &[k]),
            RelationOp::VisitByB(k) => (tag::VISIT_BY_B, &[k]),
            RelationOp::FirstByA(k) => (tag::FIRST_BY_A, &[k]),
            RelationOp::CountByA(k) => (tag::COUNT_BY_A, &[k]),
            RelationOp::RemoveEntity(e) => (tag::REMOVE_ENTITY, &[e]),
        };
        OpFields::write_op(out, tag, fields.iter().copied());
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::ADD => RelationOp::Add {
                a: f.u32()?,
                b: f.u32()?,
                payload: f.u32()?,
            },
            tag::REMOVE => RelationOp::Remove(f.u32()?),
            tag::VISIT_BY_A => RelationOp::VisitByA(f.u32()?),
            tag::VISIT_BY_B => RelationOp::VisitByB(f.u32()?),
            tag::FIRST_BY_A => RelationOp::FirstByA(f.u32()?),
            tag::COUNT_BY_A => RelationOp::CountByA(f.u32()?),
            tag::REMOVE_ENTITY => RelationOp::RemoveEntity(f.u32()?),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    fn add(a: u32, b: u32) -> RelationOp {
        RelationOp::Add {
            a,
            b,
            payload: a ^ b,
        }
    }

    #[test]
    fn counts_units_and_kills_entity_records() {
        use RelationOp::*;
        let t = Trace::for_test(
            vec![add(1, 2), add(1, 3), add(2, 1), add(4, 4)],
            vec![
                VisitByA(1),
                VisitByB(1),
                FirstByA(9),
                FirstByA(4),
                CountByA(1),
                RemoveEntity(1),
                Remove(3),
                add(5, 5),
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.live_at_start, s.peak_live, s.max_set_size), (4, 4, 2));
        assert_eq!((s.visits_a, s.visits_b, s.visited), (1, 1, 3));
        assert_eq!((s.firsts, s.firsts_found), (2, 1));
        assert_eq!((s.entity_removals, s.entity_removed), (1, 3));
        assert_eq!(s.b_side_ops, 2);
        assert_eq!(s.work_units(), 1 + 1 + 3 + 2 + 1 + 1);
        Trace::assert_invalid(
            vec![add(1, 2)],
            vec![RemoveEntity(2), Remove(0)],
            "was removed",
        );
        Trace::assert_invalid(vec![], vec![Remove(0)], "not added");
    }

    #[test]
    fn round_trips_through_the_file_format() {
        use RelationOp::*;
        let t = Trace::for_test(
            vec![add(u32::MAX, 0), add(7, 8)],
            vec![
                VisitByA(7),
                VisitByB(8),
                FirstByA(1),
                CountByA(u32::MAX),
                RemoveEntity(8),
                Remove(0),
            ],
        );
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<RelationOp>(&bytes).unwrap(), t);
        let err = crate::format::from_bytes::<crate::id_table::IdTableOp>(&bytes).unwrap_err();
        assert!(err.to_string().contains("family `relations`"), "{err}");
    }
}
