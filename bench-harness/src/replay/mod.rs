//! Replay: one driver per family applies a trace's ops to a design and digests what it
//! observed; the harness around it (verification, timing, the bench driver) is written once,
//! generic over [`Replayer`].
//!
//! * [`id_table`]: [`ReplayState`] over any `IdTable` ([`IdTableFamily`]);
//! * [`tags`]: [`TagReplay`] over any `TagStore` ([`TagFamily`]);
//! * [`alloc`]: [`AllocReplay`](alloc::AllocReplay) over any `BlockAllocator`, the `system`
//!   reference and the model ([`AllocFamily`](alloc::AllocFamily));
//!
//! A family ([`Family`]) names its op vocabulary, its digest and the replayer of its reference
//! model; a [`Replayer`] is one design's replay state. Every replayer is monomorphised per
//! design: no dynamic dispatch and no allocation per op in the timed loop.

pub mod alloc;
pub mod id_table;
pub mod tags;

use std::fmt::Debug;

use serde::Serialize;
use workloads::{Trace, TraceOp};

pub use alloc::{AllocDigest, AllocFamily, AllocReplay, SystemAlloc};
pub use id_table::{Digest, IdTableFamily, ReplayState, mix};
pub use tags::{TagDigest, TagFamily, TagReplay};

/// A family as the harness sees it.
pub trait Family: 'static {
    /// The op vocabulary of its traces.
    type Op: TraceOp;
    /// What a replay observed, reduced to counts and order-independent sums: two replays of
    /// one trace give equal digests exactly when they saw the same answers (up to sum
    /// collisions), whatever order each design keeps its contents in.
    type Digest: Copy + Debug + Default + PartialEq + Eq + Serialize;
    /// The replayer of the family's obviously-correct reference model, whose digests are the
    /// expected answers.
    type Model: Replayer<Family = Self>;
}

/// The op type of family `F`.
pub type OpOf<F> = <F as Family>::Op;

/// The body statistics type of family `F`.
pub type StatsOf<F> = <OpOf<F> as TraceOp>::Stats;

/// A design's replay state for one trace: the design plus the handle → design ID map.
pub trait Replayer: Sized {
    /// The family.
    type Family: Family;

    /// The design's registry name.
    fn design_name() -> &'static str;

    /// Why the design cannot run a trace with these counts by its documented limits (fixed
    /// capacity, a cap on tags per entity, ...), decided before replaying.
    fn unsupported_before(stats: &StatsOf<Self::Family>) -> Option<String> {
        let _ = stats;
        None
    }

    /// Why the design cannot run the trace, decided from the body's digest (a documented
    /// limit such as no stale-ID detection that shows only in the answers).
    fn unsupported_after(
        stats: &StatsOf<Self::Family>,
        body: &<Self::Family as Family>::Digest,
    ) -> Option<String> {
        let _ = (stats, body);
        None
    }

    /// An empty design with room in its handle map for `trace`'s handles.
    fn for_trace(trace: &Trace<OpOf<Self::Family>>) -> Self;

    /// Builds the starting state: an empty design with the trace's setup replayed.
    ///
    /// # Errors
    /// The design refused an op of the setup.
    fn after_setup(trace: &Trace<OpOf<Self::Family>>) -> Result<Self, ReplayError> {
        let mut state = Self::for_trace(trace);
        state.replay(&trace.setup)?;
        Ok(state)
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// Expects a validated trace; an op naming a handle that was never created is a bug in
    /// the caller and panics on the handle map's bounds check.
    ///
    /// # Errors
    /// The design refused an op (fixed capacity, ID space, arena exhausted); the ops before it
    /// were applied.
    fn replay(
        &mut self,
        ops: &[OpOf<Self::Family>],
    ) -> Result<<Self::Family as Family>::Digest, ReplayError>;

    /// Heap bytes the design holds now, by its own accounting.
    fn memory_bytes(&self) -> u64;

    /// Live objects (IDs, entities, blocks) the design holds now.
    fn live_count(&self) -> usize;

    /// The family's metrics beyond time (memory per tag, fragmentation, ...) from an extra
    /// untimed replay of `trace`; `Ok(None)` for a family that has none (ID tables, whose
    /// memory metrics come from `dodbench memory`).
    ///
    /// # Errors
    /// The design refused an op.
    fn measure(
        trace: &Trace<OpOf<Self::Family>>,
        stats: &StatsOf<Self::Family>,
    ) -> Result<Option<results::FamilyMetrics>, ReplayError> {
        let _ = (trace, stats);
        Ok(None)
    }

    /// The design's own invariant check.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// A replay could not continue: the design refused an op.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("op {index} ({op}): {error}")]
pub struct ReplayError {
    /// Index of the failing op within the replayed slice.
    pub index: usize,
    /// The op, as `Debug` prints it.
    pub op: String,
    /// The design's error, as it displays.
    pub error: String,
}

impl ReplayError {
    /// The error of op `index` (`op`) refused with `error`.
    pub fn at(index: usize, op: impl Debug, error: impl std::fmt::Display) -> Self {
        Self {
            index,
            op: format!("{op:?}"),
            error: error.to_string(),
        }
    }
}
