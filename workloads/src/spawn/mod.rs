//! The op vocabulary of the spawn family ("Building a Data-Oriented Entity System Part 4:
//! Entity Resources"), its validation and its bytes in trace files.
//!
//! The setup describes one level, op by op: [`SpawnOp::Entity`] starts the next entity (its
//! parent an earlier entity on the current ancestor path: the level is in pre-order),
//! [`SpawnOp::Component`] gives it a component (a kind identifier and four data words; at most
//! one per kind and entity), and [`SpawnOp::Compile`], the setup's last op, compiles the level
//! into the design's resource (untimed). The body spawns the compiled resource
//! ([`SpawnOp::Spawn`], `times` instances in a row) and resets the world
//! ([`SpawnOp::DespawnAll`]). Traces carry no handles.
//!
//! Work units: entities spawned (so times are per spawned entity).
//!
//! | tag | op           | fields                      |
//! |-----|--------------|-----------------------------|
//! | 0   | `Entity`     | parent (`u32::MAX`: a root) |
//! | 1   | `Component`  | kind, data × 4              |
//! | 2   | `Compile`    | —                           |
//! | 3   | `Spawn`      | times                       |
//! | 4   | `DespawnAll` | —                           |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// The parent field of a root entity.
pub const NO_PARENT: u32 = u32::MAX;

/// Component kind identifiers: the known kinds `0..KNOWN_KINDS` (transform, point mass, tags,
/// mesh), then the unknown ones up to `KINDS` (kinds the world does not know).
pub const KNOWN_KINDS: u32 = 4;
/// Number of component kinds.
pub const KINDS: u32 = 6;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = SpawnOp;

/// One operation of a spawn trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpawnOp {
    /// The next level entity, under `parent` ([`NO_PARENT`] for a root).
    Entity {
        /// The parent's level index.
        parent: u32,
    },
    /// A component of the last entity.
    Component {
        /// Kind identifier, `< KINDS`.
        kind: u32,
        /// The data words (their meaning is the kind's).
        data: [u32; 4],
    },
    /// Compile the level into the design's resource: the setup's last op.
    Compile,
    /// Spawn the resource `times` times.
    Spawn {
        /// Instances spawned in a row (a prefab spawned many times), at least 1.
        times: u32,
    },
    /// Despawn every entity (a world reset).
    DespawnAll,
}

/// Counts of a spawn trace, from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnStats {
    /// Entities of the level.
    pub level_entities: u64,
    /// Components of the level (unknown ones included).
    pub level_components: u64,
    /// Components of the level of unknown kinds.
    pub unknown_components: u64,
    /// Entities of the level with a parent.
    pub children: u64,
    /// `Spawn` ops of the body.
    pub spawns: u64,
    /// Entities the body spawns (`times` × level entities, summed).
    pub entities_spawned: u64,
    /// `DespawnAll` ops of the body.
    pub despawns: u64,
    /// Most live entities at any point.
    pub peak_live: u64,
}

trace_stats!(SpawnStats: entities_spawned; peak_live: peak_live, live_at_start: 0);

crate::codec::op_tags! { ENTITY, COMPONENT, COMPILE, SPAWN, DESPAWN_ALL }

impl TraceOp for SpawnOp {
    const FAMILY: &'static str = "spawn";
    type Stats = SpawnStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<SpawnStats, InvalidTrace> {
        let mut stats = SpawnStats::default();
        // The current ancestor path (level indices) and the kinds of the last entity.
        let mut path: Vec<u32> = Vec::new();
        let mut kinds_seen = 0u32;
        let mut compiled = false;
        for (at, op) in Part::Setup.steps(setup) {
            let bad = |reason: &str| at.bad(op, reason);
            if compiled {
                return Err(bad("Compile must be the setup's last op"));
            }
            match op {
                SpawnOp::Entity { parent } => {
                    if stats.level_entities >= u64::from(u32::MAX - 1) {
                        return Err(bad("more than 2^32 - 2 entities"));
                    }
                    if parent == NO_PARENT {
                        path.clear();
                    } else {
                        while path.last().is_some_and(|&top| top != parent) {
                            path.pop();
                        }
                        if path.is_empty() {
                            return Err(bad("the parent is not an ancestor on the current path"));
                        }
                        stats.children += 1;
                    }
                    path.push(stats.level_entities as u32);
                    stats.level_entities += 1;
                    kinds_seen = 0;
                }
                SpawnOp::Component { kind, .. } => {
                    if stats.level_entities == 0 {
                        return Err(bad("a component before any entity"));
                    }
                    if kind >= KINDS {
                        return Err(bad("unknown kind identifier (not below KINDS)"));
                    }
                    if kinds_seen & (1 << kind) != 0 {
                        return Err(bad("a second component of one kind on an entity"));
                    }
                    kinds_seen |= 1 << kind;
                    stats.level_components += 1;
                    if kind >= KNOWN_KINDS {
                        stats.unknown_components += 1;
                    }
                }
                SpawnOp::Compile => compiled = true,
                SpawnOp::Spawn { .. } | SpawnOp::DespawnAll => {
                    return Err(bad("Spawn and DespawnAll belong to the body"));
                }
            }
        }
        if !compiled && !body.is_empty() {
            return Err(InvalidTrace::BadOp {
                part: Part::Setup,
                index: setup.len(),
                op: "(end)".into(),
                reason: "a spawn trace's setup ends with Compile".into(),
            });
        }
        let mut live = 0u64;
        for (at, op) in Part::Body.steps(body) {
            match op {
                SpawnOp::Spawn { times } if times > 0 => {
                    let n = u64::from(times) * stats.level_entities;
                    stats.spawns += 1;
                    stats.entities_spawned += n;
                    live += n;
                    stats.peak_live = stats.peak_live.max(live);
                }
                SpawnOp::DespawnAll => {
                    stats.despawns += 1;
                    live = 0;
                }
                _ => {
                    return Err(at.bad(op, "the body holds Spawn (times >= 1) and DespawnAll only"));
                }
            }
        }
        if stats.peak_live > u64::from(u32::MAX / 2) {
            return Err(InvalidTrace::BadOp {
                part: Part::Body,
                index: body.len(),
                op: "(end)".into(),
                reason: "more than 2^31 live entities".into(),
            });
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        false
    }

    fn is_read_only(self) -> bool {
        false
    }

    fn touches(self) -> Option<u32> {
        None
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, fields): (u8, Vec<u32>) = match self {
            SpawnOp::Entity { parent } => (tag::ENTITY, vec![parent]),
            SpawnOp::Component { kind, data } => {
                let mut f = vec![kind];
                f.extend(data);
                (tag::COMPONENT, f)
            }
            SpawnOp::Compile => (tag::COMPILE, vec![]),
            SpawnOp::Spawn { times } => (tag::SPAWN, vec![times]),
            SpawnOp::DespawnAll => (tag::DESPAWN_ALL, vec![]),
        };
        OpFields::write_op(out, tag, fields);
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::ENTITY => SpawnOp::Entity { parent: f.u32()? },
            tag::COMPONENT => {
                let kind = f.u32()?;
                SpawnOp::Component {
                    kind,
                    data: [f.u32()?, f.u32()?, f.u32()?, f.u32()?],
                }
            }
            tag::COMPILE => SpawnOp::Compile,
            tag::SPAWN => SpawnOp::Spawn { times: f.u32()? },
            tag::DESPAWN_ALL => SpawnOp::DespawnAll,
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
    fn validates_counts_and_round_trips() {
        use SpawnOp::*;
        let comp = |kind| Component {
            kind,
            data: [1, 2, 3, 4],
        };
        let t = Trace::for_test(
            vec![
                Entity { parent: NO_PARENT },
                comp(0),
                comp(5),
                Entity { parent: 0 },
                comp(0),
                Compile,
            ],
            vec![Spawn { times: 3 }, DespawnAll, Spawn { times: 1 }],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.level_entities, s.level_components), (2, 3));
        assert_eq!((s.unknown_components, s.children), (1, 1));
        assert_eq!((s.spawns, s.entities_spawned, s.peak_live), (2, 8, 6));
        assert_eq!(s.work_units(), 8);
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<SpawnOp>(&bytes).unwrap(), t);
        Trace::assert_invalid(vec![Entity { parent: 0 }, Compile], vec![], "ancestor");
        // The live-entity bound holds at the peak, not only at the end of the body.
        Trace::assert_invalid(
            vec![Entity { parent: NO_PARENT }, Compile],
            vec![Spawn { times: u32::MAX }, DespawnAll],
            "2^31 live",
        );
        Trace::assert_invalid(
            vec![Entity { parent: NO_PARENT }, comp(1), comp(1)],
            vec![],
            "second component",
        );
        Trace::assert_invalid(
            vec![Entity { parent: NO_PARENT }],
            vec![Spawn { times: 1 }],
            "Compile",
        );
    }
}
