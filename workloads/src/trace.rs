//! A trace: header, untimed setup prefix, timed body; and its validation.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::family::TraceOp;
use crate::{Handle, Op};

/// Where a trace came from, stored as the JSON header of a trace file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// The generator's registry name (or `recording` for a recorded trace).
    pub generator: String,
    /// Live size the generator was asked for.
    pub n: u64,
    /// The generator's seed.
    pub seed: u64,
    /// The generator's parameters, as its typed parameter struct serialised to JSON.
    pub params: serde_json::Value,
}

/// A trace: replaying `setup` builds the starting state (untimed), `body` is what is timed.
/// Handles are numbered across both parts: the body's first handle-creating op continues after
/// the setup's. `O` is the family's op vocabulary ([`Op`] for ID tables by default).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace<O = Op> {
    /// Provenance.
    pub header: TraceHeader,
    /// Untimed prefix.
    pub setup: Vec<O>,
    /// Timed part.
    pub body: Vec<O>,
}

/// Which part of a trace an op is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// The untimed setup prefix.
    Setup,
    /// The timed body.
    Body,
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Part::Setup => "setup",
            Part::Body => "body",
        })
    }
}

/// Why a trace is not valid. Names the op by part and index.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InvalidTrace {
    /// An op names a handle no `Add` has created yet.
    #[error("{part} op {index} ({op:?}) uses handle {handle}, which is not added yet")]
    NotYetAdded {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The op.
        op: Op,
        /// The handle.
        handle: Handle,
    },
    /// An op that needs a live handle names a removed one.
    #[error("{part} op {index} ({op:?}) uses handle {handle}, which was removed")]
    AlreadyRemoved {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The op.
        op: Op,
        /// The handle.
        handle: Handle,
    },
    /// `GetStale` names a handle that is still live.
    #[error("{part} op {index} (GetStale({handle})) names a live handle; it expects a miss")]
    StaleOfLive {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The handle.
        handle: Handle,
    },
    /// More than `u32::MAX` adds.
    #[error("{part} op {index} adds more than 2^32 objects")]
    TooManyAdds {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
    },
    /// An op of another family's vocabulary is invalid where it stands.
    #[error("{part} op {index} ({op}) {reason}")]
    BadOp {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The op, as `Debug` prints it.
        op: String,
        /// Why it is invalid, e.g. "uses entity 3, which is not live".
        reason: String,
    },
}

impl<O: TraceOp> Trace<O> {
    /// Total number of handle-creating ops (`Add` for ID tables) in setup and body: one more
    /// than the largest handle.
    pub fn handle_count(&self) -> usize {
        self.setup
            .iter()
            .chain(&self.body)
            .filter(|op| op.creates_handle())
            .count()
    }

    /// Whether the body leaves the design unchanged (for ID tables only lookups and
    /// `Iterate`), so it can be timed repeatedly on one state built once.
    pub fn body_is_read_only(&self) -> bool {
        self.body.iter().all(|op| op.is_read_only())
    }

    /// Checks every op against the handle states (for ID tables: not added / live / removed)
    /// and returns the body's counts.
    ///
    /// # Errors
    /// The first invalid op, named by part and index.
    pub fn validate(&self) -> Result<O::Stats, InvalidTrace> {
        O::validate(&self.setup, &self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(setup: Vec<Op>, body: Vec<Op>) -> Trace {
        Trace {
            header: TraceHeader {
                generator: "test".into(),
                n: 0,
                seed: 0,
                params: serde_json::Value::Null,
            },
            setup,
            body,
        }
    }

    #[test]
    fn counts_work_units_of_the_body_only() {
        let t = trace(
            vec![Op::Add, Op::Add, Op::Add],
            vec![
                Op::Get(0),
                Op::Remove(1),
                Op::GetStale(1),
                Op::Iterate,
                Op::Add,
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!(s.live_at_start, 3);
        assert_eq!(s.iterated_objects, 2);
        assert_eq!(s.work_units(), 1 + 1 + 1 + 2 + 1);
        assert_eq!(s.peak_live, 3);
        assert!(!t.body_is_read_only());
    }

    #[test]
    fn names_the_first_bad_op() {
        let t = trace(
            vec![Op::Add],
            vec![Op::Get(0), Op::Remove(0), Op::Mutate(0)],
        );
        assert_eq!(
            t.validate(),
            Err(InvalidTrace::AlreadyRemoved {
                part: Part::Body,
                index: 2,
                op: Op::Mutate(0),
                handle: 0
            })
        );
        let t = trace(vec![Op::Get(0)], vec![]);
        assert!(matches!(
            t.validate(),
            Err(InvalidTrace::NotYetAdded {
                index: 0,
                part: Part::Setup,
                ..
            })
        ));
        let t = trace(vec![Op::Add], vec![Op::GetStale(0)]);
        assert!(matches!(
            t.validate(),
            Err(InvalidTrace::StaleOfLive { .. })
        ));
    }
}
