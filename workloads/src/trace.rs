//! A trace: header, untimed setup prefix, timed body; and its validation.

use serde::{Deserialize, Serialize};
use thiserror::Error;

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
/// the setup's. `O` is the family's op vocabulary (a [`TraceOp`](crate::family::TraceOp); the
/// methods that need it, such as validation, are in [`family`](crate::family)).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace<O> {
    /// Provenance.
    pub header: TraceHeader,
    /// Untimed prefix.
    pub setup: Vec<O>,
    /// Timed part.
    pub body: Vec<O>,
}

#[cfg(test)]
impl<O> Trace<O> {
    /// A trace of `setup` and `body` under a placeholder header: the unit tests' fixture for a
    /// hand-written op list.
    pub(crate) fn for_test(setup: Vec<O>, body: Vec<O>) -> Self {
        Trace {
            header: TraceHeader {
                generator: "test".into(),
                n: 2,
                seed: 0,
                params: serde_json::json!({}),
            },
            setup,
            body,
        }
    }
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

impl Part {
    /// The ops of this part, each with where it stands: what a vocabulary's validation walks.
    pub(crate) fn steps<O: Copy>(self, ops: &[O]) -> impl Iterator<Item = (At, O)> + '_ {
        ops.iter()
            .enumerate()
            .map(move |(index, &op)| (At { part: self, index }, op))
    }
}

/// Where an op stands in a trace, so validation can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct At {
    /// Part of the trace.
    pub(crate) part: Part,
    /// Index of the op within its part.
    pub(crate) index: usize,
}

impl At {
    /// The error naming `op`, standing here, as invalid for `reason` (e.g. "uses entity 3,
    /// which is not live").
    pub(crate) fn bad(self, op: impl std::fmt::Debug, reason: impl Into<String>) -> InvalidTrace {
        InvalidTrace::BadOp {
            part: self.part,
            index: self.index,
            op: format!("{op:?}"),
            reason: reason.into(),
        }
    }

    /// The error naming `op`, standing here, as using `handle` before any op created it.
    pub(crate) fn not_yet_added(self, op: impl std::fmt::Debug, handle: u32) -> InvalidTrace {
        InvalidTrace::NotYetAdded {
            part: self.part,
            index: self.index,
            op: format!("{op:?}"),
            handle,
        }
    }

    /// The error naming `op`, standing here, as using `handle` after it was removed.
    pub(crate) fn already_removed(self, op: impl std::fmt::Debug, handle: u32) -> InvalidTrace {
        InvalidTrace::AlreadyRemoved {
            part: self.part,
            index: self.index,
            op: format!("{op:?}"),
            handle,
        }
    }
}

/// Why a trace is not valid. Names the op by part and index, and the op as its `Debug` form
/// (this type is shared by every family's vocabulary).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InvalidTrace {
    /// An op names a handle no `Add` has created yet.
    #[error("{part} op {index} ({op}) uses handle {handle}, which is not added yet")]
    NotYetAdded {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The op, as `Debug` prints it.
        op: String,
        /// The handle.
        handle: u32,
    },
    /// An op that needs a live handle names a removed one.
    #[error("{part} op {index} ({op}) uses handle {handle}, which was removed")]
    AlreadyRemoved {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The op, as `Debug` prints it.
        op: String,
        /// The handle.
        handle: u32,
    },
    /// `GetStale` names a handle that is still live.
    #[error("{part} op {index} (GetStale({handle})) names a live handle; it expects a miss")]
    StaleOfLive {
        /// Part of the trace.
        part: Part,
        /// Index of the op within its part.
        index: usize,
        /// The handle.
        handle: u32,
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
