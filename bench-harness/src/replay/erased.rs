//! Designs behind objects: what the harness's passes do with a design (verify it, time it,
//! measure it) as a [`Design`] and its [`State`], so every pass is compiled once per family
//! instead of once per design.
//!
//! A family has dozens of designs, and the passes around a replay (verification, the timed
//! replays, the memory, latency, counter, sweep and cache passes, the criterion driver, the
//! advisor) are many times the size of a replay loop: written generic over the replayer, each
//! was compiled again for every design, and that code was most of the optimized program and of
//! the test build. Behind these traits a pass is one function per family; what stays
//! monomorphised per design is the replay loop itself ([`Replayer::run`]) and the thin methods
//! here that call it. An erased call costs one indirect call per replay, never one per op, and
//! the timed region holds none: [`State::timed_replay`] starts and stops the stopwatch inside
//! the design's own code, around the same direct call as before.

use std::any::Any;
use std::marker::PhantomData;
use std::rc::Rc;
use std::time::{Duration, Instant};

use workloads::Trace;

use super::contract::{DigestOf, Family, MetricsOf, OpOf, ReplayError, Replayer, StatsOf};
use super::resolved::ResolvedBody;
use crate::host::Stopwatch;

/// A design of family `F` (or a reference replayer timed beside the designs): its name, its
/// documented limits and how to build its state. One per replayer type, a zero-sized
/// [`Erased`], obtained with [`design`].
pub trait Design<F: Family>: Sync + 'static {
    /// The design's registry name ([`Replayer::design_name`]).
    fn name(&self) -> &'static str;

    /// [`Replayer::unsupported_before`].
    fn unsupported_before(&self, stats: &StatsOf<F>) -> Option<String>;

    /// [`Replayer::unsupported_trace`].
    fn unsupported_trace(&self, trace: &Trace<OpOf<F>>) -> Option<String>;

    /// [`Replayer::unsupported_after`].
    fn unsupported_after(&self, stats: &StatsOf<F>, body: &DigestOf<F>) -> Option<String>;

    /// An empty state for `trace` ([`Replayer::for_trace`]).
    fn for_trace(&self, trace: &Trace<OpOf<F>>) -> Box<dyn State<F>>;

    /// The state after `trace`'s setup ([`Replayer::after_setup`]).
    ///
    /// # Errors
    /// The design refused an op of the setup.
    fn after_setup(&self, trace: &Trace<OpOf<F>>) -> Result<Box<dyn State<F>>, ReplayError>;

    /// The family's metrics beyond time ([`Replayer::measure`]).
    ///
    /// # Errors
    /// The design refused an op.
    fn measure(
        &self,
        trace: &Trace<OpOf<F>>,
        stats: &StatsOf<F>,
    ) -> Result<Option<MetricsOf<F>>, ReplayError>;
}

/// One design's replay state behind an object: [`Replayer`]'s methods on a state, with the
/// resolved body erased too ([`Resolved`]).
pub trait State<F: Family>: Any {
    /// [`Replayer::replay`]: `ops` through the handle map.
    ///
    /// # Errors
    /// As [`Replayer::run`].
    fn replay(&mut self, ops: &[OpOf<F>]) -> Result<DigestOf<F>, ReplayError>;

    /// [`Replayer::resolve`]: the dry run, recording the IDs the ops use.
    ///
    /// # Errors
    /// As [`Replayer::run`].
    fn resolve(&mut self, ops: &[OpOf<F>]) -> Result<(Resolved, DigestOf<F>), ReplayError>;

    /// [`Replayer::replay_resolved`]: `ops` reading the IDs `body` recorded.
    ///
    /// # Errors
    /// As [`Replayer::replay_resolved`].
    ///
    /// # Panics
    /// If `body` was resolved by another design.
    fn replay_resolved(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
    ) -> Result<DigestOf<F>, ReplayError>;

    /// One timed replay of `ops` resolved into `body`: the stopwatch (the caller's run time,
    /// or the wall clock for a family whose bodies run on worker threads,
    /// [`Family::RUNS_ON_OTHER_THREADS`]) runs around the direct call to
    /// [`Replayer::replay_resolved`] and nothing else.
    ///
    /// # Panics
    /// If `body` was resolved by another design.
    fn timed_replay(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
    ) -> (Duration, Result<DigestOf<F>, ReplayError>);

    /// [`Replayer::replay_resolved`] run inside `within`, which calls its argument once (the
    /// cache simulation's collected region, the hardware counters), `body` looked up before.
    ///
    /// # Errors
    /// As [`Replayer::replay_resolved`]; also if `within` did not call its argument.
    ///
    /// # Panics
    /// If `body` was resolved by another design.
    fn replay_resolved_within(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
        within: &mut dyn FnMut(&mut dyn FnMut()),
    ) -> Result<DigestOf<F>, ReplayError>;

    /// Replays `ops` in pieces of `batch` ops, reading `body`'s IDs with one cursor across
    /// the pieces, and calls `each` with every piece, its wall time and its digest: the
    /// latency pass.
    ///
    /// # Errors
    /// As [`Replayer::run`]; the pieces before were replayed and handed to `each`.
    ///
    /// # Panics
    /// If `body` was resolved by another design.
    fn replay_in_batches(
        &mut self,
        ops: &[OpOf<F>],
        body: &Resolved,
        batch: usize,
        each: &mut OnBatch<'_, F>,
    ) -> Result<(), ReplayError>;

    /// [`Replayer::memory_bytes`].
    fn memory_bytes(&self) -> u64;

    /// [`Replayer::live_count`].
    fn live_count(&self) -> usize;

    /// [`Replayer::state_digest`].
    fn state_digest(&mut self) -> Option<u64>;

    /// [`Replayer::check_invariants`].
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;

    /// The replayer itself, for a reference loop that reads its design's state
    /// ([`crate::replay::SharedState`]).
    fn as_any(&self) -> &dyn Any;
}

/// What [`State::replay_in_batches`] calls with each piece: its ops, its wall time and its
/// digest.
pub type OnBatch<'a, F> = dyn FnMut(&[OpOf<F>], Duration, &DigestOf<F>) + 'a;

/// A state after a dry run, the body it resolved and the dry run's digest
/// ([`crate::replay::shared::resolve_body`]).
pub type ResolvedState<F> = (Box<dyn State<F>>, Resolved, DigestOf<F>);

/// A body resolved by a design's dry run, its ID type erased: shared by the timed replays of
/// one state and a reference loop that mirrors the design.
#[derive(Clone)]
pub struct Resolved(Rc<dyn AnyResolved>);

impl Resolved {
    /// Bytes the timed run reads besides the body's ops ([`ResolvedBody::bytes`]).
    pub fn bytes(&self) -> usize {
        self.0.bytes()
    }

    /// [`ResolvedBody::read_every_line`].
    pub fn read_every_line(&self) {
        self.0.read_every_line();
    }

    /// Whether `self` and `other` are the same body (not equal copies).
    pub fn same_as(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    /// The body with its IDs, if they are `Id`s.
    pub fn typed<Id: 'static>(&self) -> Option<&ResolvedBody<Id>> {
        self.0.as_any().downcast_ref()
    }

    fn of<R: Replayer>(&self) -> &ResolvedBody<R::Id> {
        self.typed::<R::Id>().unwrap_or_else(|| {
            panic!(
                "a body resolved by another design replayed on {}",
                R::design_name()
            )
        })
    }
}

trait AnyResolved {
    fn bytes(&self) -> usize;
    fn read_every_line(&self);
    fn as_any(&self) -> &dyn Any;
}

impl<Id: Copy + PartialEq + std::fmt::Debug + 'static> AnyResolved for ResolvedBody<Id> {
    fn bytes(&self) -> usize {
        ResolvedBody::bytes(self)
    }

    fn read_every_line(&self) {
        ResolvedBody::read_every_line(self);
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Replayer `R` as a [`Design`].
pub struct Erased<R>(PhantomData<fn() -> R>);

/// Replayer `R`'s design object.
pub fn design<R: Replayer>() -> &'static dyn Design<R::Family> {
    &Erased::<R>(PhantomData)
}

impl<R: Replayer> Design<R::Family> for Erased<R> {
    fn name(&self) -> &'static str {
        R::design_name()
    }

    fn unsupported_before(&self, stats: &StatsOf<R::Family>) -> Option<String> {
        R::unsupported_before(stats)
    }

    fn unsupported_trace(&self, trace: &Trace<OpOf<R::Family>>) -> Option<String> {
        R::unsupported_trace(trace)
    }

    fn unsupported_after(
        &self,
        stats: &StatsOf<R::Family>,
        body: &DigestOf<R::Family>,
    ) -> Option<String> {
        R::unsupported_after(stats, body)
    }

    fn for_trace(&self, trace: &Trace<OpOf<R::Family>>) -> Box<dyn State<R::Family>> {
        Box::new(R::for_trace(trace))
    }

    fn after_setup(
        &self,
        trace: &Trace<OpOf<R::Family>>,
    ) -> Result<Box<dyn State<R::Family>>, ReplayError> {
        Ok(Box::new(R::after_setup(trace)?))
    }

    fn measure(
        &self,
        trace: &Trace<OpOf<R::Family>>,
        stats: &StatsOf<R::Family>,
    ) -> Result<Option<MetricsOf<R::Family>>, ReplayError> {
        R::measure(trace, stats)
    }
}

impl<R: Replayer> State<R::Family> for R {
    fn replay(&mut self, ops: &[OpOf<R::Family>]) -> Result<DigestOf<R::Family>, ReplayError> {
        Replayer::replay(self, ops)
    }

    fn resolve(
        &mut self,
        ops: &[OpOf<R::Family>],
    ) -> Result<(Resolved, DigestOf<R::Family>), ReplayError> {
        let (body, digest) = Replayer::resolve(self, ops)?;
        Ok((Resolved(Rc::new(body)), digest))
    }

    fn replay_resolved(
        &mut self,
        ops: &[OpOf<R::Family>],
        body: &Resolved,
    ) -> Result<DigestOf<R::Family>, ReplayError> {
        Replayer::replay_resolved(self, ops, body.of::<R>())
    }

    fn timed_replay(
        &mut self,
        ops: &[OpOf<R::Family>],
        body: &Resolved,
    ) -> (Duration, Result<DigestOf<R::Family>, ReplayError>) {
        let body = body.of::<R>();
        let start = Stopwatch::start_for(<R::Family as Family>::RUNS_ON_OTHER_THREADS);
        let digest = Replayer::replay_resolved(self, ops, body);
        (start.elapsed(), digest)
    }

    fn replay_resolved_within(
        &mut self,
        ops: &[OpOf<R::Family>],
        body: &Resolved,
        within: &mut dyn FnMut(&mut dyn FnMut()),
    ) -> Result<DigestOf<R::Family>, ReplayError> {
        let body = body.of::<R>();
        let mut digest = None;
        within(&mut || digest = Some(Replayer::replay_resolved(self, ops, body)));
        digest.unwrap_or_else(|| Err(ReplayError::at(0, "(none)", "the replay was not run")))
    }

    fn replay_in_batches(
        &mut self,
        ops: &[OpOf<R::Family>],
        body: &Resolved,
        batch: usize,
        each: &mut OnBatch<'_, R::Family>,
    ) -> Result<(), ReplayError> {
        let mut ids = body.of::<R>().whole_cursor();
        for chunk in ops.chunks(batch.max(1)) {
            let start = Instant::now();
            let digest = self.run(chunk, &mut ids);
            let elapsed = start.elapsed();
            each(chunk, elapsed, &digest?);
        }
        Ok(())
    }

    fn memory_bytes(&self) -> u64 {
        Replayer::memory_bytes(self)
    }

    fn live_count(&self) -> usize {
        Replayer::live_count(self)
    }

    fn state_digest(&mut self) -> Option<u64> {
        Replayer::state_digest(self)
    }

    fn check_invariants(&self) -> Result<(), String> {
        Replayer::check_invariants(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
