//! What every family's op vocabulary provides, so one trace type, one file format, one registry
//! and (in the harness) one replay/verify/timing path serve all families.
//!
//! A family is named by its op type, which implements [`TraceOp`]: its name, its body
//! statistics, validation against handle states, and its byte encoding in trace files. Each
//! vocabulary is a module of its own; [`vocabularies`](crate::vocabularies) is the one list of
//! them. This module names none of them: [`AnyTrace`] holds a trace of any family where the
//! family is only known at run time (the CLI, the registry, loading a file) by erasing its op
//! type, and gives it back by downcasting.

use std::any::Any;
use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::codec::{FormatError, OpFields};
use crate::trace::{InvalidTrace, Trace, TraceHeader};

/// The body counts every family's statistics provide.
pub trait TraceStats:
    Copy + Debug + Default + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Work units of the body: what throughput and ns/op are divided by (the family's docs say
    /// what one unit is).
    fn work_units(&self) -> u64;

    /// Most live objects (IDs, entities, blocks) at any point of the trace, for designs with a
    /// fixed capacity.
    fn peak_live(&self) -> u64;

    /// Live objects when the body starts.
    fn live_at_start(&self) -> u64;
}

/// Writes the [`TraceStats`] of a family whose work units are the sum of the counts named and
/// whose statistics keep their live counts in fields `peak_live` and `live_at_start`:
/// `trace_stats!(AllocStats: allocs, frees, reallocs);`, or, after a `;`, in the fields (or
/// the constant) named: `trace_stats!(LockingStats: jobs; peak_live: units, live_at_start: units);`.
macro_rules! trace_stats {
    ($stats:ty: $($unit:ident),+ $(,)?) => {
        $crate::family::trace_stats!(
            $stats: $($unit),+; peak_live: peak_live, live_at_start: live_at_start
        );
    };
    ($stats:ty: $($unit:ident),+; peak_live: $peak:tt, live_at_start: $start:tt) => {
        impl $crate::family::TraceStats for $stats {
            fn work_units(&self) -> u64 {
                0 $(+ self.$unit)+
            }

            fn peak_live(&self) -> u64 {
                $crate::family::trace_stats!(@read self, $peak)
            }

            fn live_at_start(&self) -> u64 {
                $crate::family::trace_stats!(@read self, $start)
            }
        }
    };
    (@read $stats:ident, $field:ident) => {
        $stats.$field
    };
    (@read $stats:ident, $value:literal) => {
        $value
    };
}
pub(crate) use trace_stats;

/// An op vocabulary: one family's operations on logical handles.
///
/// Handles are positional: handle `k` names what the trace's `k`-th creating op
/// ([`creates_handle`](TraceOp::creates_handle)) made, so one trace replays on any design.
pub trait TraceOp: Copy + Debug + PartialEq + Eq + Send + Sync + 'static {
    /// The family name written in trace file headers and results (one of
    /// [`vocabularies::FAMILIES`](crate::vocabularies::FAMILIES)).
    const FAMILY: &'static str;

    /// The body's counts, computed by [`validate`](TraceOp::validate).
    type Stats: TraceStats;

    /// Checks every op against the handle states and returns the body's counts.
    ///
    /// # Errors
    /// The first invalid op, named by part and index.
    fn validate(setup: &[Self], body: &[Self]) -> Result<Self::Stats, InvalidTrace>;

    /// Whether this op creates the next handle.
    fn creates_handle(self) -> bool;

    /// Whether replaying the op leaves the design's contents unchanged (so a body made only of
    /// such ops can be timed repeatedly on one state).
    fn is_read_only(self) -> bool;

    /// Whether the op visits many objects (a whole-store iteration), so it is one latency
    /// batch on its own and its work units are the objects it visited.
    fn visits_many(self) -> bool {
        false
    }

    /// The object the op names, in the family's name space: a handle, or for ops that name a
    /// key (a relation index's visits by key), the key. `None` for ops that create an object
    /// or name none (whole-store visits: [`visits_many`](TraceOp::visits_many)). Counted by
    /// [`Trace::working_set`].
    fn touches(self) -> Option<u32>;

    /// Whether [`TraceOp::renamed`] renames this vocabulary's handles, so a shrinker may
    /// remove an op that creates a handle and rename the handles after it instead of only
    /// removing ops whose removal leaves every later handle valid.
    const RENAMES_HANDLES: bool = false;

    /// This op with every handle it names passed through `rename`, which answers `None` for a
    /// handle that no longer exists: `None` drops the op; a vocabulary may instead rewrite it
    /// without that handle where the result stays meaningful. Only called when
    /// [`TraceOp::RENAMES_HANDLES`]; the default keeps the op as it is.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        let _ = rename;
        Some(self)
    }

    /// Appends the op's bytes: a tag byte below `0xFF` then its fields as
    /// [`OpFields::write_u32`] varints ([`OpFields::write_op`] writes both).
    fn encode(self, out: &mut Vec<u8>);

    /// Decodes the op with tag byte `tag`, reading its fields from `fields`; `Ok(None)` for a
    /// tag byte the family does not use.
    ///
    /// # Errors
    /// A field is truncated or malformed.
    fn decode(tag: u8, fields: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError>;
}

/// The objects a trace's body touches ([`Trace::working_set`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkingSet {
    /// Distinct objects (or keys) named by the body's ops.
    pub distinct: u64,
    /// Whether some op visits the whole store (then every live object is touched).
    pub visits_store: bool,
}

impl<O: TraceOp> Trace<O> {
    /// Total number of handle-creating ops ([`TraceOp::creates_handle`]) in setup and body:
    /// one more than the largest handle.
    pub fn handle_count(&self) -> usize {
        self.setup
            .iter()
            .chain(&self.body)
            .filter(|op| op.creates_handle())
            .count()
    }

    /// What the body touches: the distinct objects (or keys) its ops name
    /// ([`TraceOp::touches`]) and whether an op visits the whole store.
    pub fn working_set(&self) -> WorkingSet {
        let mut named: Vec<u32> = self.body.iter().filter_map(|op| op.touches()).collect();
        named.sort_unstable();
        named.dedup();
        WorkingSet {
            distinct: named.len() as u64,
            visits_store: self.body.iter().any(|op| op.visits_many()),
        }
    }

    /// Whether the body leaves the design unchanged ([`TraceOp::is_read_only`], for ID tables
    /// only lookups and `Iterate`), so it can be timed repeatedly on one state built once.
    pub fn body_is_read_only(&self) -> bool {
        self.body.iter().all(|op| op.is_read_only())
    }

    /// Checks every op against the handle states ([`TraceOp::validate`]; for ID tables: not
    /// added / live / removed) and returns the body's counts.
    ///
    /// # Errors
    /// The first invalid op, named by part and index.
    pub fn validate(&self) -> Result<O::Stats, InvalidTrace> {
        O::validate(&self.setup, &self.body)
    }

    /// Checks that the trace of `setup` and `body` is invalid for a reason that mentions
    /// `reason`: the unit tests' check of a validation error.
    #[cfg(test)]
    pub(crate) fn assert_invalid(setup: Vec<O>, body: Vec<O>, reason: &str) {
        let err = Trace::for_test(setup, body).validate().unwrap_err();
        assert!(err.to_string().contains(reason), "{err} (want {reason:?})");
    }
}

/// A trace whose family is known only at run time: a [`Trace<O>`] of some [`TraceOp`] `O`,
/// with its op type erased. [`AnyTrace::new`] wraps one, [`AnyTrace::into_family`] unwraps it.
#[derive(Debug)]
pub struct AnyTrace(Box<dyn ErasedTrace>);

/// What [`AnyTrace`] asks of the trace behind the erasure (object safe, implemented once for
/// every `Trace<O>`).
trait ErasedTrace: Debug + Send + Sync {
    fn family(&self) -> &'static str;
    fn header(&self) -> &TraceHeader;
    fn op_counts(&self) -> (usize, usize);
    fn as_any(&self) -> &dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<O: TraceOp> ErasedTrace for Trace<O> {
    fn family(&self) -> &'static str {
        O::FAMILY
    }

    fn header(&self) -> &TraceHeader {
        &self.header
    }

    fn op_counts(&self) -> (usize, usize) {
        (self.setup.len(), self.body.len())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

impl AnyTrace {
    /// Wraps a trace of family `O`.
    pub fn new<O: TraceOp>(trace: Trace<O>) -> Self {
        AnyTrace(Box::new(trace))
    }

    /// The family name ([`TraceOp::FAMILY`] of the trace's op type).
    pub fn family(&self) -> &'static str {
        self.0.family()
    }

    /// The header (generator, n, seed, params).
    pub fn header(&self) -> &TraceHeader {
        self.0.header()
    }

    /// Setup and body op counts.
    pub fn op_counts(&self) -> (usize, usize) {
        self.0.op_counts()
    }

    /// Whether the trace is of family `O`.
    pub fn is_family<O: TraceOp>(&self) -> bool {
        self.0.as_any().is::<Trace<O>>()
    }

    /// The trace if it is of family `O`, or the trace given back.
    ///
    /// # Errors
    /// It is of another family.
    pub fn try_into_family<O: TraceOp>(self) -> Result<Trace<O>, AnyTrace> {
        if !self.is_family::<O>() {
            return Err(self);
        }
        let trace = self
            .0
            .into_any()
            .downcast::<Trace<O>>()
            .expect("the type was checked above");
        Ok(*trace)
    }

    /// The trace if it is of family `O`.
    ///
    /// # Errors
    /// It is of another family: the message names both.
    pub fn into_family<O: TraceOp>(self) -> Result<Trace<O>, String> {
        self.try_into_family().map_err(|other| {
            format!(
                "the trace is of family `{}`, expected `{}`",
                other.family(),
                O::FAMILY
            )
        })
    }
}
