//! Timing of verified replays, shared by the criterion driver and `dodbench replay`.
//!
//! Only the body replay is inside the timed region. Setup (building the starting state),
//! digest checks (of the replay's answers and, for families that have one, of the state it
//! leaves, `Replayer::state_digest`) and dropping the table happen outside it. Bodies that leave the table
//! unchanged are timed repeatedly on one table; other bodies get a freshly built table per
//! timed replay.

use std::time::{Duration, Instant};

use workloads::Trace;

use crate::replay::{Family, OpOf, ReplayError, Replayer};
use crate::verify::{Expected, describe_mismatch};

/// Times replays of one trace's body on the design of replayer `R`, verifying every one of
/// them.
pub struct TimedReplay<'a, R: Replayer> {
    trace: &'a Trace<OpOf<R::Family>>,
    expected: &'a Expected<R::Family>,
    /// For read-only bodies: the state built once and reused by every timed replay.
    reusable: Option<R>,
}

impl<'a, R: Replayer> TimedReplay<'a, R> {
    /// Prepares to time `trace` (whose model answers are `expected`).
    pub fn new(trace: &'a Trace<OpOf<R::Family>>, expected: &'a Expected<R::Family>) -> Self {
        Self {
            trace,
            expected,
            reusable: None,
        }
    }

    /// Runs `iters` timed replays of the body and returns the time spent inside them.
    ///
    /// # Errors
    /// A replay's digest differed from the model's, or the table refused an insert: the
    /// design must not be reported with a time.
    pub fn run(&mut self, iters: u64) -> Result<Duration, String> {
        let mut total = Duration::ZERO;
        for _ in 0..iters {
            total += if self.trace.body_is_read_only() {
                self.run_reusing()?
            } else {
                self.run_fresh()?
            };
        }
        Ok(total)
    }

    fn run_reusing(&mut self) -> Result<Duration, String> {
        if self.reusable.is_none() {
            self.reusable = Some(R::after_setup(self.trace).map_err(|e| format!("setup {e}"))?);
        }
        let state = self.reusable.as_mut().expect("built above");
        let start = Instant::now();
        let digest = state.replay(&self.trace.body);
        let elapsed = start.elapsed();
        self.check(digest)?;
        Ok(elapsed)
    }

    /// Checks the state after a replay (outside the timed region) against the model's.
    fn check_state(&self, state: &mut R) -> Result<(), String> {
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
        let mut state = R::after_setup(self.trace).map_err(|e| format!("setup {e}"))?;
        let start = Instant::now();
        let digest = state.replay(&self.trace.body);
        let elapsed = start.elapsed();
        self.check(digest)?;
        self.check_state(&mut state)?;
        drop(state);
        Ok(elapsed)
    }

    fn check(
        &self,
        digest: Result<<R::Family as Family>::Digest, ReplayError>,
    ) -> Result<(), String> {
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
