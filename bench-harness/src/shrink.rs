//! A failed verification shrunk into a repro ([`shrink`]): the smallest trace found that a
//! design still fails the same way ([`FailureKind`]), by delta debugging over the ops of the
//! body and of the setup, every family alike.
//!
//! A candidate is the current trace with a run of consecutive ops removed from one part. It is
//! kept when the family's validator accepts it ([`Trace::validate`], through
//! [`Expected::of`]) and the design, checked against the model's answers for it, fails with
//! the same [`FailureKind`] as on the original trace. Runs are tried from the end of a part
//! towards its start, so an op that later ops name (an insert, a spawn, an allocation) tends to
//! go after them, and halved until single ops; the body goes before the setup, and the passes
//! repeat until one removes nothing or the time limit is reached (the trace is then the
//! smallest found so far, and [`Shrunk::finished`] says so). A family's ops name handles by
//! creation order, so removing a creating op renames every later handle: a candidate whose ops
//! then name a handle that is not live is invalid and skipped. A vocabulary that renames its
//! handles ([`TraceOp::RENAMES_HANDLES`]) gets one more pass, handle by handle: the creating op
//! removed, the ops on that handle dropped or rewritten and the later handles renamed, so an op
//! on a late handle no longer keeps every earlier creation alive. The result is 1-minimal
//! among these removals once `finished`.
//!
//! Tested in `bench-harness/tests/integration/shrink.rs`: a planted wrong answer in one design
//! of every family, shrunk from a default-size trace.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use thiserror::Error;
use workloads::trace::{InvalidTrace, Part};
use workloads::{Trace, TraceOp};

use crate::replay::{Design, Family, OpOf};
use crate::verify::{Expected, FailureKind, Outcome, check_design};

/// A shrunk failure: the smallest failing trace found and how it was found.
#[derive(Debug, Clone)]
pub struct Shrunk<F: Family> {
    /// The smallest trace found that still fails with [`Shrunk::kind`].
    pub trace: Trace<OpOf<F>>,
    /// Where the replay differs from the model, on the original trace and on this one.
    pub kind: FailureKind,
    /// The design's failure on the shrunk trace, as verification words it.
    pub reason: String,
    /// The failure on the original trace.
    pub original_reason: String,
    /// Ops of the original trace, setup and body.
    pub original_ops: (usize, usize),
    /// Candidate traces replayed.
    pub tests: usize,
    /// Candidates on which the design panicked (counted as not failing the same way).
    pub panics: usize,
    /// How long the shrinking took.
    pub elapsed: Duration,
    /// `true` when a whole pass removed nothing (no single op or run can go); `false` when the
    /// time limit stopped it first.
    pub finished: bool,
}

impl<F: Family> Shrunk<F> {
    /// Ops of the shrunk trace, setup and body.
    pub fn ops(&self) -> (usize, usize) {
        (self.trace.setup.len(), self.trace.body.len())
    }
}

/// Where a shrink stands, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Ops of the smallest failing trace so far.
    pub ops: usize,
    /// Candidates replayed so far.
    pub tests: usize,
    /// Time spent so far.
    pub elapsed: Duration,
}

/// Why a trace cannot be shrunk.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShrinkError {
    /// The trace itself is not valid for its family.
    #[error("the trace is not valid: {0}")]
    Invalid(#[from] InvalidTrace),
    /// The design does not fail verification on the trace: nothing to shrink.
    #[error("{design} does not fail verification on this trace ({outcome})")]
    DoesNotFail {
        /// The design.
        design: String,
        /// Its outcome on the trace, in words.
        outcome: String,
    },
}

/// Shrinks `trace`, on which `design` fails verification, to the smallest trace found within
/// `time_limit` that it still fails the same way; `progress` hears of every smaller trace found
/// and of every 100 candidates.
///
/// # Errors
/// The trace is invalid, or the design does not fail on it ([`ShrinkError`]).
pub fn shrink<F: Family>(
    design: &dyn Design<F>,
    trace: Trace<OpOf<F>>,
    time_limit: Duration,
    progress: &mut dyn FnMut(Progress),
) -> Result<Shrunk<F>, ShrinkError> {
    let started = Instant::now();
    let expected = Expected::of(&trace)?;
    let checked = check_design(design, &trace, &expected);
    let (Some(kind), Outcome::Failed(reason)) = (checked.failure, &checked.outcome) else {
        let outcome = match checked.outcome.reason() {
            Some(why) => format!("{}: {why}", checked.outcome.label()),
            None => checked.outcome.label().to_string(),
        };
        return Err(ShrinkError::DoesNotFail {
            design: design.name().to_string(),
            outcome,
        });
    };
    let mut search = Search {
        design,
        kind,
        reason: reason.clone(),
        tests: 1,
        panics: 0,
        started,
        deadline: started + time_limit,
        progress,
    };
    let original_ops = (trace.setup.len(), trace.body.len());
    let mut trace = trace;
    let mut finished = false;
    while !search.out_of_time() {
        let body = search.reduce(&mut trace, Part::Body);
        let setup = search.reduce(&mut trace, Part::Setup);
        let handles = <OpOf<F> as TraceOp>::RENAMES_HANDLES && search.drop_handles(&mut trace);
        if !body && !setup && !handles && !search.out_of_time() {
            finished = true;
            break;
        }
    }
    Ok(Shrunk {
        trace,
        kind,
        reason: search.reason,
        original_reason: reason.clone(),
        original_ops,
        tests: search.tests,
        panics: search.panics,
        elapsed: started.elapsed(),
        finished,
    })
}

/// The state of one shrink: the design, the failure it must keep, and the counts.
struct Search<'a, F: Family> {
    design: &'a dyn Design<F>,
    kind: FailureKind,
    /// The failure on the smallest trace so far.
    reason: String,
    tests: usize,
    panics: usize,
    started: Instant,
    deadline: Instant,
    progress: &'a mut dyn FnMut(Progress),
}

impl<F: Family> Search<'_, F> {
    fn out_of_time(&self) -> bool {
        Instant::now() >= self.deadline
    }

    /// One pass over `part`: runs of ops removed from the end towards the start, halving the
    /// run from half the part down to one op. Returns whether anything was removed.
    fn reduce(&mut self, trace: &mut Trace<OpOf<F>>, part: Part) -> bool {
        let mut removed_any = false;
        let mut run = ops_of(trace, part).len().div_ceil(2).max(1);
        loop {
            let mut end = ops_of(trace, part).len();
            while end > 0 {
                if self.out_of_time() {
                    return removed_any;
                }
                let start = end.saturating_sub(run);
                let mut candidate = trace.clone();
                ops_of_mut(&mut candidate, part).drain(start..end);
                if let Some(reason) = self.fails_the_same_way(&candidate) {
                    *trace = candidate;
                    self.reason = reason;
                    removed_any = true;
                    self.report(trace);
                } else if self.tests % 100 == 0 {
                    self.report(trace);
                }
                end = start;
            }
            if run == 1 {
                return removed_any;
            }
            run = run.div_ceil(2);
        }
    }

    /// One pass over the handles, last created first: the op that creates the handle
    /// removed, the ops on it dropped or rewritten and the later handles renamed down by one
    /// ([`TraceOp::renamed`]). Returns whether any handle went.
    fn drop_handles(&mut self, trace: &mut Trace<OpOf<F>>) -> bool {
        let mut removed_any = false;
        let mut handle = trace.handle_count();
        while handle > 0 {
            if self.out_of_time() {
                return removed_any;
            }
            handle -= 1;
            let gone = handle as u32;
            let rename = |h: u32| match h.cmp(&gone) {
                std::cmp::Ordering::Less => Some(h),
                std::cmp::Ordering::Equal => None,
                std::cmp::Ordering::Greater => Some(h - 1),
            };
            let mut created = 0usize;
            let mut without = |ops: &[OpOf<F>]| -> Vec<OpOf<F>> {
                let mut kept = Vec::with_capacity(ops.len());
                for &op in ops {
                    if op.creates_handle() {
                        created += 1;
                        if created - 1 == handle {
                            continue;
                        }
                    }
                    kept.extend(op.renamed(&rename));
                }
                kept
            };
            let candidate = Trace {
                header: trace.header.clone(),
                setup: without(&trace.setup),
                body: without(&trace.body),
            };
            if let Some(reason) = self.fails_the_same_way(&candidate) {
                *trace = candidate;
                self.reason = reason;
                removed_any = true;
                self.report(trace);
            }
        }
        removed_any
    }

    /// The design's failure on `candidate` if the candidate is valid and the design fails it
    /// with the same kind; `None` otherwise (a panic of the design counts as not the same).
    fn fails_the_same_way(&mut self, candidate: &Trace<OpOf<F>>) -> Option<String> {
        self.tests += 1;
        let expected = Expected::of(candidate).ok()?;
        let design = self.design;
        match catch_unwind(AssertUnwindSafe(|| {
            check_design(design, candidate, &expected)
        })) {
            Ok(checked) if checked.failure == Some(self.kind) => {
                checked.outcome.reason().map(str::to_string)
            }
            Ok(_) => None,
            Err(_) => {
                self.panics += 1;
                None
            }
        }
    }

    fn report(&mut self, trace: &Trace<OpOf<F>>) {
        (self.progress)(Progress {
            ops: trace.setup.len() + trace.body.len(),
            tests: self.tests,
            elapsed: self.started.elapsed(),
        });
    }
}

fn ops_of<O>(trace: &Trace<O>, part: Part) -> &Vec<O> {
    match part {
        Part::Setup => &trace.setup,
        Part::Body => &trace.body,
    }
}

fn ops_of_mut<O>(trace: &mut Trace<O>, part: Part) -> &mut Vec<O> {
    match part {
        Part::Setup => &mut trace.setup,
        Part::Body => &mut trace.body,
    }
}
