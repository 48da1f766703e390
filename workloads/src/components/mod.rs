//! The op vocabulary of the component-manager family (the point-mass component of "Building a
//! Data-Oriented Entity System Part 2: Components"), its validation and its bytes in trace
//! files.
//!
//! Entity handle `k` names the entity made by the trace's `k`-th [`ComponentOp::Spawn`];
//! handles are never reused by a trace. [`Attach`](ComponentOp::Attach) gives an entity
//! without one a point mass initialised from a 32-bit seed (the replayer turns the seed into
//! field values, the same for every design); [`AttachAnother`](ComponentOp::AttachAnother)
//! gives an entity that has one a further instance (the article's `next_instance` chain:
//! designs holding one instance per entity are unsupported on traces using it). Lookups,
//! writes and copies act on an entity's first instance.
//!
//! Work units: one per single-entity op (`Spawn`, `Kill`, `Attach`, `Detach`, `Lookup`,
//! `Write`, `AttachAnother`, `CopyPosition`), one per `DestroyStep` (one frame's GC step),
//! and one per instance simulated by
//! `Simulate` (live instances at the time), so `comp-simulate` is reported per instance
//! updated.
//!
//! | tag | op            | fields       |
//! |-----|---------------|--------------|
//! | 0   | `Spawn`       | -            |
//! | 1   | `Kill`        | entity       |
//! | 2   | `Attach`      | entity, seed |
//! | 3   | `Detach`      | entity       |
//! | 4   | `Lookup`      | entity       |
//! | 5   | `Write`       | entity, seed |
//! | 6   | `Simulate`    | -            |
//! | 7   | `DestroyStep` | -            |
//! | 8   | `AttachAnother` | entity, seed |
//! | 9   | `CopyPosition`  | from, to     |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// An entity handle: handle `k` is the `k`-th `Spawn` of the trace.
pub type EntityHandle = u32;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = ComponentOp;

/// One operation on a component store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComponentOp {
    /// Create an entity without a point mass (the next handle).
    Spawn,
    /// Destroy a live entity; its point mass is destroyed now or left as garbage (by design).
    Kill(EntityHandle),
    /// Give a live entity without one a point mass initialised from the seed.
    Attach(EntityHandle, u32),
    /// Destroy a live entity's point mass (it may have none).
    Detach(EntityHandle),
    /// Look a live entity's point mass up and read its position (it may have none).
    Lookup(EntityHandle),
    /// Look a live entity's point mass up and write its velocity, derived from the seed.
    Write(EntityHandle, u32),
    /// The article's `simulate(dt)` over every instance.
    Simulate,
    /// One frame's destruction step (the article's `gc`, or a sweep, or nothing).
    DestroyStep,
    /// Give a live entity that has a point mass one more, initialised from the seed (several
    /// instances per entity).
    AttachAnother(EntityHandle, u32),
    /// Read the first entity's position and write it as the second's (000's reader comment
    /// 11: `Node[bone_to_node[i]].tm = tm`); both live, either may lack a point mass (then
    /// nothing is copied).
    CopyPosition(EntityHandle, EntityHandle),
}

impl ComponentOp {
    /// The entity the op names, if any.
    pub const fn entity(self) -> Option<EntityHandle> {
        match self {
            ComponentOp::Kill(e)
            | ComponentOp::Attach(e, _)
            | ComponentOp::Detach(e)
            | ComponentOp::Lookup(e)
            | ComponentOp::Write(e, _)
            | ComponentOp::AttachAnother(e, _)
            | ComponentOp::CopyPosition(e, _) => Some(e),
            ComponentOp::Spawn | ComponentOp::Simulate | ComponentOp::DestroyStep => None,
        }
    }

    /// The second entity an op names (the target of `CopyPosition`), if any.
    pub const fn second_entity(self) -> Option<EntityHandle> {
        match self {
            ComponentOp::CopyPosition(_, to) => Some(to),
            _ => None,
        }
    }
}

/// Counts of a component trace's body (and a few of the whole trace), computed by validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentStats {
    /// `Spawn` ops.
    pub spawns: u64,
    /// `Kill` ops.
    pub kills: u64,
    /// `Kill` ops of entities with a point mass (instances that become garbage or die).
    pub kills_with_instance: u64,
    /// `Attach` ops.
    pub attaches: u64,
    /// `Detach` ops.
    pub detaches: u64,
    /// `Lookup` ops.
    pub lookups: u64,
    /// `Write` ops.
    pub writes: u64,
    /// `Simulate` ops.
    pub simulates: u64,
    /// Instances updated by all `Simulate` ops (live instances at each).
    pub simulated: u64,
    /// `DestroyStep` ops.
    pub destroy_steps: u64,
    /// Live entities after the setup.
    pub live_at_start: u64,
    /// Live instances after the setup.
    pub instances_at_start: u64,
    /// Most live entities at any point of the trace.
    pub peak_live: u64,
    /// `AttachAnother` ops of the whole trace, setup included (a design with one instance per
    /// entity cannot replay a trace with any).
    #[serde(default)]
    pub attach_another_ops: u64,
    /// `CopyPosition` ops.
    #[serde(default)]
    pub copies: u64,
}

trace_stats!(
    ComponentStats: spawns, kills, attaches, detaches, lookups, writes, simulated, destroy_steps,
    copies,
);

crate::codec::op_tags! {
    SPAWN, KILL, ATTACH, DETACH, LOOKUP, WRITE, SIMULATE, DESTROY_STEP, ATTACH_ANOTHER,
    COPY_POSITION
}

/// A handle's state during validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Alive with this many point masses.
    Live {
        instances: u64,
    },
    Dead,
}

impl TraceOp for ComponentOp {
    const FAMILY: &'static str = "components";
    type Stats = ComponentStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<ComponentStats, InvalidTrace> {
        let mut entities: Vec<State> = Vec::new();
        let (mut live, mut instances) = (0u64, 0u64);
        let mut stats = ComponentStats::default();
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            if part == Part::Body {
                stats.live_at_start = live;
                stats.instances_at_start = instances;
            }
            let in_body = u64::from(part == Part::Body);
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                let mut held = 0;
                for (k, e) in [op.entity(), op.second_entity()].into_iter().enumerate() {
                    let Some(e) = e else { continue };
                    match entities.get(e as usize) {
                        Some(State::Live { instances }) if k == 0 => held = *instances,
                        Some(State::Live { .. }) => {}
                        Some(State::Dead) => {
                            return Err(bad(format!("uses entity {e}, which was killed")));
                        }
                        None => return Err(bad(format!("uses entity {e}, not spawned yet"))),
                    }
                }
                let has_instance = held > 0;
                match op {
                    ComponentOp::Spawn => {
                        if entities.len() > u32::MAX as usize {
                            return Err(bad("spawns more than 2^32 entities".into()));
                        }
                        entities.push(State::Live { instances: 0 });
                        live += 1;
                        stats.peak_live = stats.peak_live.max(live);
                        stats.spawns += in_body;
                    }
                    ComponentOp::Kill(e) => {
                        entities[e as usize] = State::Dead;
                        live -= 1;
                        instances -= held;
                        stats.kills += in_body;
                        stats.kills_with_instance += in_body * u64::from(has_instance);
                    }
                    ComponentOp::Attach(e, _) => {
                        if has_instance {
                            return Err(bad(format!("entity {e} already has a point mass")));
                        }
                        entities[e as usize] = State::Live { instances: 1 };
                        instances += 1;
                        stats.attaches += in_body;
                    }
                    ComponentOp::Detach(e) => {
                        entities[e as usize] = State::Live { instances: 0 };
                        instances -= held;
                        stats.detaches += in_body;
                    }
                    ComponentOp::Lookup(_) => stats.lookups += in_body,
                    ComponentOp::Write(..) => stats.writes += in_body,
                    ComponentOp::Simulate => {
                        stats.simulates += in_body;
                        stats.simulated += in_body * instances;
                    }
                    ComponentOp::DestroyStep => stats.destroy_steps += in_body,
                    ComponentOp::AttachAnother(e, _) => {
                        if !has_instance {
                            return Err(bad(format!("entity {e} has no point mass yet")));
                        }
                        entities[e as usize] = State::Live {
                            instances: held + 1,
                        };
                        instances += 1;
                        stats.attaches += in_body;
                        stats.attach_another_ops += 1;
                    }
                    ComponentOp::CopyPosition(..) => stats.copies += in_body,
                }
            }
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, ComponentOp::Spawn)
    }

    fn is_read_only(self) -> bool {
        matches!(self, ComponentOp::Lookup(_))
    }

    fn visits_many(self) -> bool {
        matches!(self, ComponentOp::Simulate)
    }

    const RENAMES_HANDLES: bool = true;

    /// An op on an entity that no longer exists is dropped (a copy if either side is gone).
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            ComponentOp::Kill(h) => ComponentOp::Kill(rename(h)?),
            ComponentOp::Attach(h, c) => ComponentOp::Attach(rename(h)?, c),
            ComponentOp::Detach(h) => ComponentOp::Detach(rename(h)?),
            ComponentOp::Lookup(h) => ComponentOp::Lookup(rename(h)?),
            ComponentOp::Write(h, v) => ComponentOp::Write(rename(h)?, v),
            ComponentOp::AttachAnother(h, c) => ComponentOp::AttachAnother(rename(h)?, c),
            ComponentOp::CopyPosition(from, to) => {
                ComponentOp::CopyPosition(rename(from)?, rename(to)?)
            }
            ComponentOp::Spawn | ComponentOp::Simulate | ComponentOp::DestroyStep => self,
        })
    }

    fn touches(self) -> Option<u32> {
        self.second_entity().or(self.entity())
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, a, b) = match self {
            ComponentOp::Spawn => (tag::SPAWN, None, None),
            ComponentOp::Kill(e) => (tag::KILL, Some(e), None),
            ComponentOp::Attach(e, s) => (tag::ATTACH, Some(e), Some(s)),
            ComponentOp::Detach(e) => (tag::DETACH, Some(e), None),
            ComponentOp::Lookup(e) => (tag::LOOKUP, Some(e), None),
            ComponentOp::Write(e, s) => (tag::WRITE, Some(e), Some(s)),
            ComponentOp::Simulate => (tag::SIMULATE, None, None),
            ComponentOp::DestroyStep => (tag::DESTROY_STEP, None, None),
            ComponentOp::AttachAnother(e, s) => (tag::ATTACH_ANOTHER, Some(e), Some(s)),
            ComponentOp::CopyPosition(a, b) => (tag::COPY_POSITION, Some(a), Some(b)),
        };
        OpFields::write_op(out, tag, [a, b].into_iter().flatten());
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::SPAWN => ComponentOp::Spawn,
            tag::KILL => ComponentOp::Kill(f.u32()?),
            tag::ATTACH => ComponentOp::Attach(f.u32()?, f.u32()?),
            tag::DETACH => ComponentOp::Detach(f.u32()?),
            tag::LOOKUP => ComponentOp::Lookup(f.u32()?),
            tag::WRITE => ComponentOp::Write(f.u32()?, f.u32()?),
            tag::SIMULATE => ComponentOp::Simulate,
            tag::DESTROY_STEP => ComponentOp::DestroyStep,
            tag::ATTACH_ANOTHER => ComponentOp::AttachAnother(f.u32()?, f.u32()?),
            tag::COPY_POSITION => ComponentOp::CopyPosition(f.u32()?, f.u32()?),
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
    fn counts_units_and_instances() {
        use ComponentOp::*;
        let t = Trace::for_test(
            vec![Spawn, Spawn, Spawn, Attach(0, 1), Attach(1, 2)],
            vec![
                Simulate,
                Lookup(2),
                Kill(1),
                Simulate,
                DestroyStep,
                Detach(0),
                Write(2, 3),
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.live_at_start, s.instances_at_start), (3, 2));
        assert_eq!((s.simulates, s.simulated), (2, 3));
        assert_eq!((s.kills, s.kills_with_instance), (1, 1));
        assert_eq!(s.work_units(), 3 + 1 + 1 + 1 + 1 + 1);
        assert!(!t.body_is_read_only());
    }

    #[test]
    fn rejects_dead_entities_and_double_attaches() {
        use ComponentOp::*;
        Trace::assert_invalid(vec![Spawn, Kill(0)], vec![Lookup(0)], "killed");
        Trace::assert_invalid(vec![], vec![Lookup(3)], "not spawned");
        Trace::assert_invalid(vec![Spawn, Attach(0, 1)], vec![Attach(0, 2)], "already");
    }

    #[test]
    fn round_trips_through_the_file_format() {
        use ComponentOp::*;
        let t = Trace::for_test(
            vec![Spawn, Attach(0, u32::MAX), Spawn, Spawn],
            vec![
                Simulate,
                Write(0, 7),
                Lookup(1),
                DestroyStep,
                Detach(0),
                Kill(1),
                Attach(0, 3),
                AttachAnother(0, 4),
                CopyPosition(0, 2),
            ],
        );
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<ComponentOp>(&bytes).unwrap(), t);
    }
}
