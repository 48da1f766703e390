//! Verification: the answers a replay must give come from the reference model, and a design
//! that gives other answers (or cannot run the trace) gets no timing.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::trace::InvalidTrace;

pub use crate::replay::describe_mismatch;
use crate::replay::{Design, Family, OpOf, Replayer, StatsOf};

/// What a correct replay of a trace observes, computed once per trace by the family's model
/// (and sent as JSON to the processes that time the trace's cell, which generate the trace
/// again but need not replay the model again).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Expected<F: Family> {
    /// Digest of the setup replayed on an empty design.
    pub setup: F::Digest,
    /// Digest of the body replayed after the setup.
    pub body: F::Digest,
    /// Live objects after the body.
    pub live_at_end: usize,
    /// The model's [`Replayer::state_digest`] after the body.
    pub state_at_end: Option<u64>,
    /// The body's counts (work units, peak live, ...).
    pub stats: StatsOf<F>,
}

impl<F: Family> Expected<F> {
    /// Validates `trace` and replays it on the reference model.
    ///
    /// # Errors
    /// The trace is invalid (an op names a handle that is not live when it must be).
    pub fn of(trace: &Trace<OpOf<F>>) -> Result<Self, InvalidTrace> {
        let stats = trace.validate()?;
        let mut model = F::Model::for_trace(trace);
        let setup = model
            .replay(&trace.setup)
            .expect("the model never refuses an op of a valid trace");
        let body = model
            .replay(&trace.body)
            .expect("the model never refuses an op of a valid trace");
        Ok(Self {
            setup,
            body,
            live_at_end: model.live_count(),
            state_at_end: model.state_digest(),
            stats,
        })
    }
}

/// Whether a design may be timed on a trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", content = "reason", rename_all = "lowercase")]
pub enum Outcome {
    /// The replay gave the model's answers.
    Verified,
    /// The replay gave other answers: a bug, never timed.
    Failed(String),
    /// The replay ran past the design's documented limits (no stale detection, a stale-ID
    /// horizon the trace passes) and its answers show it; not timed.
    Unsupported(String),
    /// The design's documented limits exclude the trace before any replay (a capacity below the
    /// trace's peak, a shape it cannot take): no answer was given; not timed.
    Refused(String),
}

impl Outcome {
    /// `true` for [`Outcome::Verified`].
    pub fn is_verified(&self) -> bool {
        matches!(self, Outcome::Verified)
    }

    /// The label stored in results: `verified`, `failed` or `unsupported` (a refusal is
    /// unsupported, with [`Outcome::refused`]).
    pub fn label(&self) -> &'static str {
        match self {
            Outcome::Verified => "verified",
            Outcome::Failed(_) => "failed",
            Outcome::Unsupported(_) | Outcome::Refused(_) => "unsupported",
        }
    }

    /// The status stored in results.
    pub fn status(&self) -> results::Status {
        match self {
            Outcome::Verified => results::Status::Verified,
            Outcome::Failed(_) => results::Status::Failed,
            Outcome::Unsupported(_) | Outcome::Refused(_) => results::Status::Unsupported,
        }
    }

    /// `true` for [`Outcome::Refused`]: results' `refused`.
    pub fn refused(&self) -> bool {
        matches!(self, Outcome::Refused(_))
    }

    /// The reason a design was not timed, if any.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Outcome::Verified => None,
            Outcome::Failed(r) | Outcome::Unsupported(r) | Outcome::Refused(r) => Some(r),
        }
    }
}

/// The verdict on one design for one trace, with what the verification replay measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// Whether the design may be timed.
    pub outcome: Outcome,
    /// The design's memory accounting after the setup, when the setup ran.
    pub memory_bytes_after_setup: Option<u64>,
    /// Wall time of the verification replay's setup and of its body (a rough, single-shot
    /// figure used only to budget measurement time, never reported as a result).
    pub setup_and_body_time: Option<(Duration, Duration)>,
    /// Where the replay first differed from the model, when the outcome is
    /// [`Outcome::Failed`] ([`crate::shrink`] keeps it while it reduces the trace).
    pub failure: Option<FailureKind>,
}

impl Checked {
    /// A verdict with nothing measured: `outcome` from elsewhere (a reference loop's own
    /// check, a design already verified).
    pub fn outcome_only(outcome: Outcome) -> Self {
        Self {
            outcome,
            memory_bytes_after_setup: None,
            setup_and_body_time: None,
            failure: None,
        }
    }
}

/// Where a failed replay first differed from the model: the check of [`check_design`] that
/// caught it, in the order it checks. Two traces fail "the same way" when their kinds are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The design refused an op of the setup.
    SetupRefused,
    /// The design refused an op of the body.
    BodyRefused,
    /// The body's answers (its digest) differ from the model's.
    Answers,
    /// The live count after the body differs from the model's.
    LiveCount,
    /// The design's own invariant check failed.
    Invariant,
    /// The state digest after the body differs from the model's.
    StateDigest,
}

impl FailureKind {
    /// The kind in words, for a shrink report: "the body's answers differ from the model's".
    pub fn describe(self) -> &'static str {
        match self {
            FailureKind::SetupRefused => "the design refused an op of the setup",
            FailureKind::BodyRefused => "the design refused an op of the body",
            FailureKind::Answers => "the body's answers differ from the model's",
            FailureKind::LiveCount => "the live count after the body differs from the model's",
            FailureKind::Invariant => "the design's invariant check failed",
            FailureKind::StateDigest => "the state after the body differs from the model's",
        }
    }
}

/// Replays `trace` once on a fresh design of replayer `R` (untimed) and compares with
/// `expected`: [`check_design`] of `R`'s design.
pub fn check_replayer<R: Replayer>(
    trace: &Trace<OpOf<R::Family>>,
    expected: &Expected<R::Family>,
) -> Checked {
    check_design(crate::replay::design::<R>(), trace, expected)
}

/// Replays `trace` once on a fresh `design` (untimed) and compares with `expected`; checks the
/// design's documented limits (capacity, stale-ID detection, ...) first.
pub fn check_design<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
    expected: &Expected<F>,
) -> Checked {
    let mut checked = Checked {
        outcome: Outcome::Verified,
        memory_bytes_after_setup: None,
        setup_and_body_time: None,
        failure: None,
    };
    checked.outcome = match check_outcome(design, trace, expected, &mut checked) {
        Ok(outcome) => outcome,
        Err((kind, reason)) => {
            checked.failure = Some(kind);
            Outcome::Failed(reason)
        }
    };
    checked
}

fn check_outcome<F: Family>(
    design: &dyn Design<F>,
    trace: &Trace<OpOf<F>>,
    expected: &Expected<F>,
    checked: &mut Checked,
) -> Result<Outcome, (FailureKind, String)> {
    if let Some(reason) = design
        .unsupported_before(&expected.stats)
        .or_else(|| design.unsupported_trace(trace))
    {
        return Ok(Outcome::Refused(reason));
    }
    let setup_start = Instant::now();
    let mut state = match design.after_setup(trace) {
        Ok(state) => state,
        Err(e) => return Err((FailureKind::SetupRefused, format!("setup {e}"))),
    };
    let setup_time = setup_start.elapsed();
    checked.memory_bytes_after_setup = Some(state.memory_bytes());
    let body_start = Instant::now();
    let body = match state.replay(&trace.body) {
        Ok(d) => d,
        Err(e) => return Err((FailureKind::BodyRefused, format!("body {e}"))),
    };
    checked.setup_and_body_time = Some((setup_time, body_start.elapsed()));
    if let Some(reason) = design.unsupported_after(&expected.stats, &body) {
        return Ok(Outcome::Unsupported(reason));
    }
    if body != expected.body {
        return Err((
            FailureKind::Answers,
            format!(
                "body digest differs from the model's: {}",
                describe_mismatch(&expected.body, &body)
            ),
        ));
    }
    if state.live_count() != expected.live_at_end {
        return Err((
            FailureKind::LiveCount,
            format!(
                "{} live objects after the body, the model has {}",
                state.live_count(),
                expected.live_at_end
            ),
        ));
    }
    if let Err(broken) = state.check_invariants() {
        return Err((
            FailureKind::Invariant,
            format!("invariant broken after the body: {broken}"),
        ));
    }
    let live_state = state.state_digest();
    if live_state != expected.state_at_end {
        return Err((
            FailureKind::StateDigest,
            format!(
                "state digest after the body is {live_state:?}, the model's {:?}",
                expected.state_at_end
            ),
        ));
    }
    if let Err(broken) = state.check_invariants() {
        return Err((
            FailureKind::Invariant,
            format!("invariant broken after reading the state: {broken}"),
        ));
    }
    Ok(Outcome::Verified)
}
