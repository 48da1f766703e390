//! The op vocabulary of the locking family ("Multithreaded Gameplay"), its validation and its
//! bytes in trace files.
//!
//! The setup builds the world: [`LockingOp::Script`] first (the script's work between calls,
//! the raycast radius, the batch size of the API-level lock designs), then one
//! [`LockingOp::Unit`] per unit (handle `k` is the `k`-th unit; positions are whole numbers).
//! The body is frames of gameplay jobs: [`LockingOp::Job`] runs one unit's script (read its
//! position, raycast, push itself by `(dx, dy)`, and push `other` by the same delta unless it
//! is [`NO_OTHER`]), and [`LockingOp::Frame`] ends a frame (every job before it has run;
//! physics catches up with the units). Jobs between two frames may run in any order and on any
//! thread: the replay verifies that the order did not matter.
//!
//! Exactness: positions live in `f32`; validation bounds every unit's starting coordinate plus
//! every push it can receive by 2^23, so every sum is exact in any order.
//!
//! Work units: jobs (so times are per job).
//!
//! | tag | op       | fields                          |
//! |-----|----------|---------------------------------|
//! | 0   | `Script` | compute, radius, batch          |
//! | 1   | `Unit`   | x, y (`i32`)                    |
//! | 2   | `Job`    | unit, other, dx, dy (`i32`)     |
//! | 3   | `Frame`  | —                               |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// The `other` of a job that pushes no other unit.
pub const NO_OTHER: u32 = u32::MAX;

/// Largest coordinate a unit may reach (its start plus every push it can receive): `f32`
/// holds every whole number up to 2^24, so sums stay exact.
pub const MAX_COORD: u64 = 1 << 23;

/// Most units in a trace.
pub const MAX_UNITS: u64 = 1 << 24;

/// Largest script work per call (iterations).
pub const MAX_COMPUTE: u32 = 1 << 20;

/// Largest raycast radius.
pub const MAX_RADIUS: u32 = 1 << 16;

/// Largest batch of the API-level lock designs.
pub const MAX_BATCH: u32 = 1024;

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = LockingOp;

/// One operation of a locking trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LockingOp {
    /// What every job shares: the setup's first op.
    Script {
        /// Iterations of the script's own work before each API call after the first.
        compute: u32,
        /// The raycast radius, `1..=`[`MAX_RADIUS`].
        radius: u32,
        /// Jobs per batch of the API-level lock designs, `1..=`[`MAX_BATCH`].
        batch: u32,
    },
    /// The next unit, at `(x, y)`.
    Unit {
        /// Its x coordinate.
        x: i32,
        /// Its y coordinate.
        y: i32,
    },
    /// One unit's gameplay script.
    Job {
        /// The unit (handle).
        unit: u32,
        /// The unit it also pushes (handle), or [`NO_OTHER`].
        other: u32,
        /// The push along x.
        dx: i32,
        /// The push along y.
        dy: i32,
    },
    /// The end of a frame: every job before it has run, physics moves to the units.
    Frame,
}

/// Counts of a locking trace, from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockingStats {
    /// Units of the world.
    pub units: u64,
    /// `Job` ops.
    pub jobs: u64,
    /// Jobs that also push another unit.
    pub foreign_jobs: u64,
    /// Most jobs pushing one unit as `other` (the hot unit's share).
    pub hottest_other: u64,
    /// `Frame` ops.
    pub frames: u64,
}

trace_stats!(LockingStats: jobs; peak_live: units, live_at_start: units);

crate::codec::op_tags! { SCRIPT, UNIT, JOB, FRAME }

/// Checks the setup (`Script`, then units); returns each unit's start reach and if `Script` came.
fn check_setup(
    setup: &[LockingOp],
    stats: &mut LockingStats,
) -> Result<(Vec<u64>, bool), InvalidTrace> {
    // Per unit: the largest coordinate it starts at plus every push it can receive.
    let mut reach: Vec<u64> = Vec::new();
    let mut scripted = false;
    for (at, op) in Part::Setup.steps(setup) {
        let bad = |reason: &str| at.bad(op, reason);
        match op {
            LockingOp::Script {
                compute,
                radius,
                batch,
            } => {
                if at.index != 0 {
                    return Err(bad("Script is the setup's first op, once"));
                }
                if compute > MAX_COMPUTE
                    || !(1..=MAX_RADIUS).contains(&radius)
                    || !(1..=MAX_BATCH).contains(&batch)
                {
                    return Err(bad(
                        "compute <= 2^20, radius in 1..=65536 and batch in 1..=1024",
                    ));
                }
                scripted = true;
            }
            LockingOp::Unit { x, y } => {
                if !scripted {
                    return Err(bad("a unit before the Script op"));
                }
                if stats.units >= MAX_UNITS {
                    return Err(bad("more than 2^24 units"));
                }
                let start = u64::from(x.unsigned_abs()).max(u64::from(y.unsigned_abs()));
                if start > MAX_COORD {
                    return Err(bad("a coordinate beyond 2^23"));
                }
                reach.push(start);
                stats.units += 1;
            }
            LockingOp::Job { .. } | LockingOp::Frame => {
                return Err(bad("Job and Frame belong to the body"));
            }
        }
    }
    Ok((reach, scripted))
}

/// Checks the body (jobs and frames) against each unit's `reach` and counts its work.
fn check_body(
    body: &[LockingOp],
    mut reach: Vec<u64>,
    stats: &mut LockingStats,
) -> Result<(), InvalidTrace> {
    let mut as_other: Vec<u64> = vec![0; reach.len()];
    for (at, op) in Part::Body.steps(body) {
        let bad = |reason: &str| at.bad(op, reason);
        match op {
            LockingOp::Job {
                unit,
                other,
                dx,
                dy,
            } => {
                let push = u64::from(dx.unsigned_abs()).max(u64::from(dy.unsigned_abs()));
                let mut reach_of = |u: u32| -> Result<(), InvalidTrace> {
                    let r = reach
                        .get_mut(u as usize)
                        .ok_or_else(|| bad("names a unit the setup did not create"))?;
                    *r += push;
                    if *r > MAX_COORD {
                        return Err(bad(
                            "a unit's start plus its pushes reach beyond 2^23 (f32 sums would round)",
                        ));
                    }
                    Ok(())
                };
                reach_of(unit)?;
                if other != NO_OTHER {
                    reach_of(other)?;
                    stats.foreign_jobs += 1;
                    let count = &mut as_other[other as usize];
                    *count += 1;
                    stats.hottest_other = stats.hottest_other.max(*count);
                }
                stats.jobs += 1;
            }
            LockingOp::Frame => stats.frames += 1,
            LockingOp::Script { .. } | LockingOp::Unit { .. } => {
                return Err(bad("Script and Unit belong to the setup"));
            }
        }
    }
    Ok(())
}

impl TraceOp for LockingOp {
    const FAMILY: &'static str = "locking";
    type Stats = LockingStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<LockingStats, InvalidTrace> {
        let mut stats = LockingStats::default();
        let (reach, scripted) = check_setup(setup, &mut stats)?;
        if !scripted && !body.is_empty() {
            return Err(InvalidTrace::BadOp {
                part: Part::Setup,
                index: 0,
                op: "(start)".into(),
                reason: "a locking trace's setup starts with Script".into(),
            });
        }
        check_body(body, reach, &mut stats)?;
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, LockingOp::Unit { .. })
    }

    fn is_read_only(self) -> bool {
        false
    }

    fn touches(self) -> Option<u32> {
        match self {
            LockingOp::Job { unit, .. } => Some(unit),
            _ => None,
        }
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, fields): (u8, Vec<u32>) = match self {
            LockingOp::Script {
                compute,
                radius,
                batch,
            } => (tag::SCRIPT, vec![compute, radius, batch]),
            LockingOp::Unit { x, y } => (tag::UNIT, vec![x as u32, y as u32]),
            LockingOp::Job {
                unit,
                other,
                dx,
                dy,
            } => (tag::JOB, vec![unit, other, dx as u32, dy as u32]),
            LockingOp::Frame => (tag::FRAME, vec![]),
        };
        OpFields::write_op(out, tag, fields);
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::SCRIPT => LockingOp::Script {
                compute: f.u32()?,
                radius: f.u32()?,
                batch: f.u32()?,
            },
            tag::UNIT => LockingOp::Unit {
                x: f.u32()? as i32,
                y: f.u32()? as i32,
            },
            tag::JOB => LockingOp::Job {
                unit: f.u32()?,
                other: f.u32()?,
                dx: f.u32()? as i32,
                dy: f.u32()? as i32,
            },
            tag::FRAME => LockingOp::Frame,
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    const SCRIPT: LockingOp = LockingOp::Script {
        compute: 4,
        radius: 8,
        batch: 16,
    };

    #[test]
    fn validates_counts_and_round_trips() {
        use LockingOp::*;
        let t = Trace::for_test(
            vec![SCRIPT, Unit { x: -3, y: 5 }, Unit { x: 7, y: 0 }],
            vec![
                Job {
                    unit: 0,
                    other: 1,
                    dx: -1,
                    dy: 2,
                },
                Job {
                    unit: 1,
                    other: NO_OTHER,
                    dx: 1,
                    dy: 0,
                },
                Frame,
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.units, s.jobs, s.foreign_jobs, s.frames), (2, 2, 1, 1));
        assert_eq!((s.hottest_other, s.work_units()), (1, 2));
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<LockingOp>(&bytes).unwrap(), t);
    }

    #[test]
    fn refuses_what_the_replay_cannot_keep_exact() {
        use LockingOp::*;
        let job = |unit, other, d| Job {
            unit,
            other,
            dx: d,
            dy: 0,
        };
        let cases = [
            (vec![Unit { x: 0, y: 0 }], vec![], "before the Script"),
            (vec![SCRIPT, SCRIPT], vec![], "first op"),
            (
                vec![SCRIPT, Unit { x: 1 << 24, y: 0 }],
                vec![],
                "beyond 2^23",
            ),
            (
                vec![SCRIPT, Unit { x: 0, y: 0 }],
                vec![job(1, NO_OTHER, 1)],
                "did not create",
            ),
            (
                vec![SCRIPT, Unit { x: 0, y: 0 }],
                vec![job(0, 3, 1)],
                "did not create",
            ),
            (
                vec![SCRIPT, Unit { x: 0, y: 0 }],
                vec![job(0, 0, 1 << 22), job(0, NO_OTHER, 1 << 22)],
                "would round",
            ),
            (
                vec![SCRIPT],
                vec![Unit { x: 0, y: 0 }],
                "belong to the setup",
            ),
            (
                vec![LockingOp::Script {
                    compute: 1,
                    radius: 0,
                    batch: 1,
                }],
                vec![],
                "radius",
            ),
        ];
        for (setup, body, reason) in cases {
            Trace::assert_invalid(setup, body, reason);
        }
    }
}
