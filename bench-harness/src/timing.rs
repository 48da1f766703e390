//! Timing of verified replays, shared by the criterion driver and `dodbench replay`.
//!
//! Only the body replay is inside the timed region, and it is a resolved replay
//! ([`crate::replay::resolved`]): an untimed dry run first records the IDs the design hands
//! out, and every timed replay reads them in op order instead of through the handle map.
//! Setup (building the starting state), the dry run, digest checks (of the replay's answers
//! and, for families that have one, of the state it leaves, `Replayer::state_digest`) and
//! dropping the table happen outside it. Bodies that leave the table unchanged are timed
//! repeatedly on one table (the one the dry run warmed); other bodies get a freshly built
//! table per timed replay.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use workloads::Trace;

use crate::replay::shared::{Shared, resolve_body};
use crate::replay::{Design, Family, OpOf, ReplayError, Replayer, Resolved, State, design};
use crate::verify::{Expected, describe_mismatch};

/// Times replays of one trace's body on one design, verifying every one of them.
pub struct TimedReplay<'a, F: Family> {
    design: &'static dyn Design<F>,
    trace: &'a Trace<OpOf<F>>,
    expected: &'a Expected<F>,
    /// Whether the body leaves the state as it found it, read once: asking the trace scans
    /// every op, and a scan between a sample's warm-up and its timed replay evicted the warm
    /// state (a 100K-op body is 800 KB of ops): timed replays of `lookup-zipf` at 65,536
    /// objects read 27% slower than the same function over the same table without it.
    read_only: bool,
    /// For read-only bodies: the state built once and reused by every timed replay (shared
    /// with a reference loop that mirrors the design, [`TimedReplay::shared`]).
    reusable: Option<Rc<RefCell<Box<dyn State<F>>>>>,
    /// The body as the dry run resolved it (on first use).
    resolved: Option<Resolved>,
}

impl<'a, F: Family> TimedReplay<'a, F> {
    /// Prepares to time `trace` (whose model answers are `expected`) on `design`.
    pub fn new(
        design: &'static dyn Design<F>,
        trace: &'a Trace<OpOf<F>>,
        expected: &'a Expected<F>,
    ) -> Self {
        Self {
            design,
            trace,
            expected,
            read_only: trace.body_is_read_only(),
            reusable: None,
            resolved: None,
        }
    }

    /// [`new`](Self::new) for the design of replayer `R`.
    pub fn of<R: Replayer<Family = F>>(
        trace: &'a Trace<OpOf<F>>,
        expected: &'a Expected<F>,
    ) -> Self {
        Self::new(design::<R>(), trace, expected)
    }

    /// The design timed.
    pub fn design(&self) -> &'static dyn Design<F> {
        self.design
    }

    /// Bytes of the resolved body the timed replays read besides the trace's ops (after the
    /// first [`run`](Self::run)).
    pub fn resolved_bytes(&self) -> Option<usize> {
        self.resolved.as_ref().map(Resolved::bytes)
    }

    /// The resolved body the timed replays read (after the first [`run`](Self::run)).
    pub fn resolved(&self) -> Option<&Resolved> {
        self.resolved.as_ref()
    }

    /// For a read-only body, the state and resolved body every timed replay reuses (after the
    /// dry run, run here if it has not been), to share with a reference loop that mirrors the
    /// design ([`crate::replay::shared`]); `None` for a body that changes the state.
    ///
    /// # Errors
    /// The dry run failed, as [`run`](Self::run) would.
    pub fn shared(&mut self) -> Result<Option<Shared<F>>, String> {
        self.resolve()?;
        Ok(self.reusable.as_ref().map(|state| Shared {
            state: Rc::clone(state),
            body: self.resolved.clone().expect("resolved above"),
        }))
    }

    /// The untimed dry run, if it has not run: what the first [`run`](Self::run) would do
    /// before its timed replays.
    ///
    /// # Errors
    /// The design refused an op, or the dry run's answers differ from the model's.
    pub fn prepare(&mut self) -> Result<(), String> {
        self.resolve()
    }

    /// The untimed dry run, once: resolves the body on a state after setup and checks its
    /// answers; for a read-only body that state (now warm) is kept for the timed replays.
    fn resolve(&mut self) -> Result<(), String> {
        if self.resolved.is_some() {
            return Ok(());
        }
        let (mut state, body, digest) = resolve_body(self.design, self.trace)?;
        self.check(Ok(digest))
            .map_err(|e| format!("dry run: {e}"))?;
        if self.read_only {
            self.reusable = Some(Rc::new(RefCell::new(state)));
        } else {
            self.check_state(&mut *state)
                .map_err(|e| format!("dry run: {e}"))?;
        }
        self.resolved = Some(body);
        Ok(())
    }

    /// Whether the timed replays reuse one state (a read-only body) rather than a state built
    /// afresh for each.
    pub fn reuses_state(&self) -> bool {
        self.read_only
    }

    /// Runs `iters` timed replays of the body and returns the time spent inside them.
    ///
    /// # Errors
    /// A replay's digest differed from the model's, or the table refused an insert: the
    /// design must not be reported with a time.
    pub fn run(&mut self, iters: u64) -> Result<Duration, String> {
        self.resolve()?;
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            total += if self.read_only {
                self.run_reusing()?
            } else {
                self.run_fresh()?
            };
        }
        Ok(total)
    }

    fn run_reusing(&mut self) -> Result<Duration, String> {
        let mut state = self
            .reusable
            .as_ref()
            .expect("built by the dry run")
            .borrow_mut();
        let body = self.resolved.as_ref().expect("resolved by the dry run");
        let (elapsed, digest) = state.timed_replay(&self.trace.body, body);
        self.check(digest)?;
        Ok(elapsed)
    }

    /// Checks the state after a replay (outside the timed region) against the model's.
    fn check_state(&self, state: &mut dyn State<F>) -> Result<(), String> {
        let got = state.state_digest();
        if got == self.expected.state_at_end {
            Ok(())
        } else {
            Err(format!(
                "state after the timed replay is {got:?}, the model's {:?}",
                self.expected.state_at_end
            ))
        }
    }

    fn run_fresh(&mut self) -> Result<Duration, String> {
        let mut state = self
            .design
            .after_setup(self.trace)
            .map_err(|e| format!("setup {e}"))?;
        let body = self.resolved.as_ref().expect("resolved by the dry run");
        // A fresh time slice for the timed body: see `fresh_time_slice`.
        crate::host::fresh_time_slice();
        let (elapsed, digest) = state.timed_replay(&self.trace.body, body);
        self.check(digest)?;
        self.check_state(&mut *state)?;
        drop(state);
        Ok(elapsed)
    }

    fn check(&self, digest: Result<F::Digest, ReplayError>) -> Result<(), String> {
        let digest = digest.map_err(|e| format!("timed body {e}"))?;
        let digest = std::hint::black_box(digest);
        if digest == self.expected.body {
            Ok(())
        } else {
            Err(format!(
                "timed replay digest differs from the model's: {}",
                describe_mismatch(&self.expected.body, &digest)
            ))
        }
    }
}

/// A state ready for one measured replay of `trace`'s body on `design` and the body resolved
/// for it: the dry run's state for a read-only body (warm, as the timed replays see it), else
/// a fresh state after setup. The measured replay is `state.replay_resolved(&trace.body,
/// &body)`.
///
/// # Errors
/// The design refused an op of the setup or the dry run.
pub fn ready_to_measure<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
) -> Result<(Box<dyn State<F>>, Resolved), String> {
    let (state, body, _) = resolve_body(design, trace)?;
    if trace.body_is_read_only() {
        Ok((state, body))
    } else {
        drop(state);
        let fresh = design
            .after_setup(trace)
            .map_err(|e| format!("setup {e}"))?;
        Ok((fresh, body))
    }
}

/// Median and the nearest-rank 2.5% / 97.5% quantiles of `samples` (sorted in place).
///
/// # Panics
/// If `samples` is empty.
pub fn median_and_range(samples: &mut [f64]) -> (f64, f64, f64) {
    assert!(!samples.is_empty(), "no samples");
    samples.sort_by(f64::total_cmp);
    let q = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    (q(0.5), q(0.025), q(0.975))
}
