//! The op vocabulary of the tag-store family (per-entity lists of `u32` tags, "Allocation
//! Adventures 2: Arrays of Arrays"), its validation and its bytes in trace files.
//!
//! Entity handle `k` names the entity made by the trace's `k`-th [`TagOp::Spawn`]; handles are
//! never reused by a trace (the replayer maps them to whatever entity IDs a store hands out).
//! An entity's tags are a multiset: `AddTag` appends, `RemoveTag` removes one occurrence if
//! there is one (the expected answer, found or not, comes from the model).
//!
//! Work units: one per single-entity op (`Spawn`, `Despawn`, `AddTag`, `RemoveTag`, `HasTag`,
//! `VisitEntity`, `Clear`) and one per tag visited by `VisitAll`, so `visit-all` is reported
//! per (entity, tag) pair and `visit-entity` per entity visited. Heap-preconditioning ops
//! (`Foreign`, `ForeignFree`) are setup-only and count nothing.
//!
//! | tag | op            | fields             |
//! |-----|---------------|--------------------|
//! | 0   | `Spawn`       | -                  |
//! | 1   | `Despawn`     | entity             |
//! | 2   | `AddTag`      | entity, tag        |
//! | 3   | `RemoveTag`   | entity, tag        |
//! | 4   | `HasTag`      | entity, tag        |
//! | 5   | `VisitEntity` | entity             |
//! | 6   | `VisitAll`    | -                  |
//! | 7   | `Clear`       | entity             |
//! | 8   | `Foreign`     | bytes              |
//! | 9   | `ForeignFree` | foreign allocation |

pub mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// An entity handle: handle `k` is the `k`-th `Spawn` of the trace.
pub type EntityHandle = u32;

/// The largest `Foreign` buffer (bytes; the replay writes every byte): 1 MiB, far above what
/// heap preconditioning asks (the generators' buffers are 16..=256 bytes), so one 5-byte op
/// cannot make a replay write 4 GiB. The total held still grows with the number of ops.
pub const MAX_FOREIGN_BYTES: u32 = 1 << 20;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = TagOp;

/// One operation on a tag store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TagOp {
    /// Create an entity with no tags (the next handle).
    Spawn,
    /// Destroy a live entity and its tags.
    Despawn(EntityHandle),
    /// Append a tag to a live entity.
    AddTag(EntityHandle, u32),
    /// Remove one occurrence of a tag from a live entity (it may have none).
    RemoveTag(EntityHandle, u32),
    /// Ask whether a live entity has a tag.
    HasTag(EntityHandle, u32),
    /// Visit every tag of a live entity.
    VisitEntity(EntityHandle),
    /// Visit every (entity, tag) pair of the store.
    VisitAll,
    /// Remove every tag of a live entity (it stays live).
    Clear(EntityHandle),
    /// Setup only: allocate a foreign heap buffer of this many bytes (at most
    /// [`MAX_FOREIGN_BYTES`]) and hold it (heap
    /// preconditioning, so per-entity heap buffers interleave with other allocations as in a
    /// real program).
    Foreign(u32),
    /// Setup only: release the `k`-th `Foreign` buffer (leaving a hole in the heap).
    ForeignFree(u32),
}

impl TagOp {
    /// The entity the op names, if any.
    pub const fn entity(self) -> Option<EntityHandle> {
        match self {
            TagOp::Despawn(e)
            | TagOp::AddTag(e, _)
            | TagOp::RemoveTag(e, _)
            | TagOp::HasTag(e, _)
            | TagOp::VisitEntity(e)
            | TagOp::Clear(e) => Some(e),
            TagOp::Spawn | TagOp::VisitAll | TagOp::Foreign(_) | TagOp::ForeignFree(_) => None,
        }
    }
}

/// Counts of a tag trace's body (and a few of the whole trace), computed by validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TagStats {
    /// `Spawn` ops.
    pub spawns: u64,
    /// `Despawn` ops.
    pub despawns: u64,
    /// `AddTag` ops.
    pub adds: u64,
    /// `RemoveTag` ops.
    pub removes: u64,
    /// `RemoveTag` ops that find their tag.
    pub removes_found: u64,
    /// `HasTag` ops.
    pub has: u64,
    /// `HasTag` ops that find their tag.
    pub has_found: u64,
    /// `VisitEntity` ops.
    pub entity_visits: u64,
    /// Tags visited by all `VisitEntity` ops.
    pub entity_visit_tags: u64,
    /// `VisitAll` ops.
    pub full_visits: u64,
    /// Tags visited by all `VisitAll` ops.
    pub full_visit_tags: u64,
    /// `Clear` ops.
    pub clears: u64,
    /// Live entities after the setup.
    pub live_at_start: u64,
    /// Tags of live entities after the setup.
    pub tags_at_start: u64,
    /// Most live entities at any point of the trace.
    pub peak_live: u64,
    /// Most tags one entity holds at any point of the trace (for fixed-capacity designs).
    pub max_tags_per_entity: u64,
    /// `Foreign` ops (setup).
    pub foreign_allocs: u64,
    /// Bytes of foreign buffers still held after the setup.
    pub foreign_bytes_at_start: u64,
}

trace_stats!(
    TagStats: spawns, despawns, adds, removes, has, entity_visits, clears, full_visit_tags,
);

crate::codec::op_tags! {
    SPAWN, DESPAWN, ADD_TAG, REMOVE_TAG, HAS_TAG, VISIT_ENTITY, VISIT_ALL, CLEAR, FOREIGN,
    FOREIGN_FREE
}

/// The tag list of the entity `op` names (`None` if none); an error if that entity is not live.
fn named_tags(
    entities: &mut [Option<Vec<u32>>],
    op: TagOp,
) -> Result<Option<&mut Vec<u32>>, String> {
    let list = match op.entity() {
        Some(e) => match entities.get_mut(e as usize) {
            Some(Some(list)) => Some(list),
            Some(None) => {
                return Err(format!("uses entity {e}, which was despawned"));
            }
            None => return Err(format!("uses entity {e}, not spawned yet")),
        },
        None => None,
    };
    Ok(list)
}

/// Checks and applies a setup-only `Foreign(bytes)`: one more foreign buffer.
fn foreign_alloc(
    bytes: u32,
    in_body: bool,
    foreign: &mut Vec<Option<u32>>,
    foreign_bytes: &mut u64,
    stats: &mut TagStats,
) -> Result<(), String> {
    if in_body {
        return Err("heap preconditioning belongs in the setup".into());
    }
    if bytes > MAX_FOREIGN_BYTES {
        return Err(format!(
            "a foreign buffer of more than {MAX_FOREIGN_BYTES} bytes"
        ));
    }
    foreign.push(Some(bytes));
    *foreign_bytes += u64::from(bytes);
    stats.foreign_allocs += 1;
    Ok(())
}

/// Checks and applies a setup-only `ForeignFree(k)`: frees foreign buffer `k`.
fn foreign_free(
    k: u32,
    in_body: bool,
    foreign: &mut [Option<u32>],
    foreign_bytes: &mut u64,
) -> Result<(), String> {
    if in_body {
        return Err("heap preconditioning belongs in the setup".into());
    }
    match foreign.get_mut(k as usize) {
        Some(slot @ Some(_)) => {
            *foreign_bytes -= u64::from(slot.take().expect("matched Some"));
        }
        Some(None) => {
            return Err(format!("frees foreign buffer {k} twice"));
        }
        None => {
            return Err(format!("frees foreign buffer {k}, not made yet"));
        }
    }
    Ok(())
}

impl TraceOp for TagOp {
    const FAMILY: &'static str = "tags";
    type Stats = TagStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<TagStats, InvalidTrace> {
        // `entities[k]` is `Some(tags)` while handle `k` is live: the multiset as a Vec.
        let mut entities: Vec<Option<Vec<u32>>> = Vec::new();
        let mut foreign: Vec<Option<u32>> = Vec::new();
        let (mut live, mut tags, mut foreign_bytes) = (0u64, 0u64, 0u64);
        let mut stats = TagStats::default();
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            if part == Part::Body {
                stats.live_at_start = live;
                stats.tags_at_start = tags;
                stats.foreign_bytes_at_start = foreign_bytes;
            }
            let in_body = part == Part::Body;
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                let list = named_tags(&mut entities, op).map_err(bad)?;
                match (op, list) {
                    (TagOp::Spawn, _) => {
                        if entities.len() > u32::MAX as usize {
                            return Err(bad("spawns more than 2^32 entities".into()));
                        }
                        entities.push(Some(Vec::new()));
                        live += 1;
                        stats.peak_live = stats.peak_live.max(live);
                        stats.spawns += u64::from(in_body);
                    }
                    (TagOp::Despawn(e), Some(list)) => {
                        tags -= list.len() as u64;
                        entities[e as usize] = None;
                        live -= 1;
                        stats.despawns += u64::from(in_body);
                    }
                    (TagOp::AddTag(_, t), Some(list)) => {
                        list.push(t);
                        tags += 1;
                        stats.max_tags_per_entity =
                            stats.max_tags_per_entity.max(list.len() as u64);
                        stats.adds += u64::from(in_body);
                    }
                    (TagOp::RemoveTag(_, t), Some(list)) => {
                        let found = list.iter().position(|&x| x == t);
                        if let Some(i) = found {
                            list.swap_remove(i);
                            tags -= 1;
                        }
                        if in_body {
                            stats.removes += 1;
                            stats.removes_found += u64::from(found.is_some());
                        }
                    }
                    (TagOp::HasTag(_, t), Some(list)) => {
                        if in_body {
                            stats.has += 1;
                            stats.has_found += u64::from(list.contains(&t));
                        }
                    }
                    (TagOp::VisitEntity(_), Some(list)) => {
                        if in_body {
                            stats.entity_visits += 1;
                            stats.entity_visit_tags += list.len() as u64;
                        }
                    }
                    (TagOp::VisitAll, _) => {
                        if in_body {
                            stats.full_visits += 1;
                            stats.full_visit_tags += tags;
                        }
                    }
                    (TagOp::Clear(_), Some(list)) => {
                        tags -= list.len() as u64;
                        list.clear();
                        stats.clears += u64::from(in_body);
                    }
                    (TagOp::Foreign(bytes), _) => {
                        foreign_alloc(bytes, in_body, &mut foreign, &mut foreign_bytes, &mut stats)
                            .map_err(bad)?;
                    }
                    (TagOp::ForeignFree(k), _) => {
                        foreign_free(k, in_body, &mut foreign, &mut foreign_bytes).map_err(bad)?;
                    }
                    (_, None) => unreachable!("every op naming an entity got its list above"),
                }
            }
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, TagOp::Spawn)
    }

    fn is_read_only(self) -> bool {
        matches!(
            self,
            TagOp::HasTag(..) | TagOp::VisitEntity(_) | TagOp::VisitAll
        )
    }

    fn visits_many(self) -> bool {
        matches!(self, TagOp::VisitAll)
    }

    const RENAMES_HANDLES: bool = true;

    /// An op on an entity that no longer exists is dropped; a foreign ID is not a handle.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            TagOp::Despawn(h) => TagOp::Despawn(rename(h)?),
            TagOp::AddTag(h, t) => TagOp::AddTag(rename(h)?, t),
            TagOp::RemoveTag(h, t) => TagOp::RemoveTag(rename(h)?, t),
            TagOp::HasTag(h, t) => TagOp::HasTag(rename(h)?, t),
            TagOp::VisitEntity(h) => TagOp::VisitEntity(rename(h)?),
            TagOp::Clear(h) => TagOp::Clear(rename(h)?),
            TagOp::Spawn | TagOp::VisitAll | TagOp::Foreign(_) | TagOp::ForeignFree(_) => self,
        })
    }

    fn touches(self) -> Option<u32> {
        self.entity()
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, a, b) = match self {
            TagOp::Spawn => (tag::SPAWN, None, None),
            TagOp::Despawn(e) => (tag::DESPAWN, Some(e), None),
            TagOp::AddTag(e, t) => (tag::ADD_TAG, Some(e), Some(t)),
            TagOp::RemoveTag(e, t) => (tag::REMOVE_TAG, Some(e), Some(t)),
            TagOp::HasTag(e, t) => (tag::HAS_TAG, Some(e), Some(t)),
            TagOp::VisitEntity(e) => (tag::VISIT_ENTITY, Some(e), None),
            TagOp::VisitAll => (tag::VISIT_ALL, None, None),
            TagOp::Clear(e) => (tag::CLEAR, Some(e), None),
            TagOp::Foreign(bytes) => (tag::FOREIGN, Some(bytes), None),
            TagOp::ForeignFree(k) => (tag::FOREIGN_FREE, Some(k), None),
        };
        OpFields::write_op(out, tag, [a, b].into_iter().flatten());
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::SPAWN => TagOp::Spawn,
            tag::DESPAWN => TagOp::Despawn(f.u32()?),
            tag::ADD_TAG => TagOp::AddTag(f.u32()?, f.u32()?),
            tag::REMOVE_TAG => TagOp::RemoveTag(f.u32()?, f.u32()?),
            tag::HAS_TAG => TagOp::HasTag(f.u32()?, f.u32()?),
            tag::VISIT_ENTITY => TagOp::VisitEntity(f.u32()?),
            tag::VISIT_ALL => TagOp::VisitAll,
            tag::CLEAR => TagOp::Clear(f.u32()?),
            tag::FOREIGN => TagOp::Foreign(f.u32()?),
            tag::FOREIGN_FREE => TagOp::ForeignFree(f.u32()?),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    #[test]
    fn counts_units_and_tracks_multisets() {
        use TagOp::*;
        let t = Trace::for_test(
            vec![
                Spawn,
                Spawn,
                AddTag(0, 5),
                AddTag(0, 5),
                AddTag(1, 7),
                Foreign(64),
            ],
            vec![
                RemoveTag(0, 5),
                RemoveTag(1, 9),
                HasTag(0, 5),
                VisitEntity(0),
                VisitAll,
                Clear(1),
                Despawn(0),
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.live_at_start, s.tags_at_start), (2, 3));
        assert_eq!((s.removes, s.removes_found), (2, 1));
        assert_eq!((s.has, s.has_found), (1, 1));
        assert_eq!((s.entity_visits, s.entity_visit_tags), (1, 1));
        assert_eq!(s.full_visit_tags, 2);
        assert_eq!(s.max_tags_per_entity, 2);
        assert_eq!(s.foreign_bytes_at_start, 64);
        assert_eq!(s.work_units(), 2 + 1 + 1 + 2 + 1 + 1);
        assert!(!t.body_is_read_only());
    }

    #[test]
    fn rejects_dead_entities_and_foreign_ops_in_the_body() {
        use TagOp::*;
        Trace::assert_invalid(vec![Spawn, Despawn(0)], vec![HasTag(0, 1)], "despawned");
        Trace::assert_invalid(vec![], vec![VisitEntity(3)], "not spawned");
        Trace::assert_invalid(
            vec![Foreign(MAX_FOREIGN_BYTES + 1)],
            vec![],
            "foreign buffer of more",
        );
        Trace::assert_invalid(vec![], vec![Foreign(3)], "setup");
        Trace::assert_invalid(
            vec![Foreign(3), ForeignFree(0), ForeignFree(0)],
            vec![],
            "twice",
        );
    }

    #[test]
    fn round_trips_through_the_file_format() {
        use TagOp::*;
        let t = Trace::for_test(
            vec![
                Spawn,
                Foreign(1 << 20),
                Spawn,
                AddTag(1, u32::MAX),
                ForeignFree(0),
            ],
            vec![
                HasTag(1, u32::MAX),
                VisitAll,
                RemoveTag(1, 3),
                Clear(0),
                Despawn(1),
            ],
        );
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<TagOp>(&bytes).unwrap(), t);
        let err = crate::format::from_bytes::<crate::id_table::IdTableOp>(&bytes).unwrap_err();
        assert!(err.to_string().contains("family `tags`"), "{err}");
    }
}
