//! What a locking design measures beyond time, and how the report shows it: what it
//! synchronised per job (lock acquisitions and messages, counted by the design: fixed by the
//! design and the trace, whatever the threads; CI gates them), failed try-locks (schedule
//! dependent, shown), and its speed-up over `single_thread` at each thread count of
//! [`thread_plan`], timed in interleaved rounds on this machine (shown, never gated).

use std::time::{Duration, Instant};

use impls::locking::GameplayRunner;
use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;
use workloads::Trace;
use workloads::locking::{LockingOp, LockingStats};

use super::{LockingReplay, ReplayError, bench_threads, thread_plan, timed_body, timed_reference};
use crate::replay::{Replayer, describe_mismatch};

/// A locking design's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LockingMetrics {
    /// Worker threads of the bench's timed runs on this machine.
    pub bench_threads: u64,
    /// Lock acquisitions per job; `None` for a trace without jobs.
    pub locks_per_job: Option<f64>,
    /// Messages per job (actor messages, recorded commands); `None` without jobs.
    pub messages_per_job: Option<f64>,
    /// Failed try-locks per job at the bench's thread count; `None` without jobs.
    pub failed_try_locks_per_job: Option<f64>,
    /// The thread counts of the speed-up curve.
    pub threads: Vec<f64>,
    /// `single_thread`'s time ÷ the design's, per thread count (median of paired rounds).
    pub speedup: Vec<f64>,
}

/// The locking section: ranked by lock acquisitions per job, with the speed-up curves.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Synchronisation and speed-up".into(),
        rank_by: "locks_per_job".into(),
        specs: vec![
            MetricSpec::trace("bench_threads", "threads (this machine)", Unit::Count)
                .describe(
                    "worker threads of the timed runs: the machine's available parallelism \
                     (at most 64), or DODBENCH_LOCK_THREADS. A 2-core machine shows 1 and 2 \
                     threads only; lock contention grows with cores it cannot show.",
                )
                .not_deterministic(),
            MetricSpec::per_design("locks_per_job", "locks / job", Unit::Number)
                .describe(
                    "lock acquisitions made for the jobs, per job, counted by the design \
                     (a per-call lock 3-4, an API-level lock per batch of k jobs, a shard \
                     lock per call); the pool's hand-over of a frame is not counted. Fixed by \
                     the design and the trace, whatever the threads.",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("messages_per_job", "messages / job", Unit::Number).describe(
                "messages sent for the jobs, per job: an actor's push of a unit another \
                     worker owns (every push of another unit), a command recorded for after the \
                     join. Fixed by the design and the trace.",
            ),
            MetricSpec::per_design(
                "failed_try_locks_per_job",
                "failed try-locks / job",
                Unit::Number,
            )
            .describe(
                "attempts that found a lock taken and switched to another batch (api_try, the \
                 post's coroutine switch), per job, at the bench's thread count: depends on \
                 the schedule.",
            )
            .not_deterministic(),
            MetricSpec::per_design("threads", "threads", Unit::Count)
                .describe("the thread counts of the speed-up curve: 1, 2 and the bench's.")
                .neutral()
                .not_deterministic(),
            MetricSpec::per_design("speedup", "speed-up over single_thread", Unit::Number)
                .describe(
                    "single_thread's time ÷ the design's on the same trace, at each thread \
                     count: the median of interleaved rounds (each round times both on fresh \
                     states, in alternating order), timed on this machine. Above 1 is faster \
                     than one thread without locks.",
                )
                .higher()
                .not_deterministic()
                .chart(MetricChart::Curve {
                    x: "threads".into(),
                }),
        ],
    }
}

/// Most rounds of the speed-up timing per thread count, and the time after which it stops at
/// [`MIN_ROUNDS`].
const MAX_ROUNDS: usize = 7;
const MIN_ROUNDS: usize = 3;
const ROUND_BUDGET: Duration = Duration::from_millis(400);

/// The design's counts from one untimed replay of the body at the bench's thread count, and
/// its speed-up curve.
///
/// # Errors
/// The design refused an op, or a timed replay disagreed with `single_thread`'s.
pub(super) fn measure<R: GameplayRunner + 'static>(
    trace: &Trace<LockingOp>,
    stats: &LockingStats,
) -> Result<LockingMetrics, ReplayError> {
    let threads = bench_threads();
    let mut state = LockingReplay::<R>::after_setup_on(trace, threads)?;
    state.replay(&trace.body)?;
    let counts = state.counts();
    let per_job = |v: u64| (stats.jobs > 0).then(|| v as f64 / stats.jobs as f64);
    let (plan, speedup) = speedups::<R>(trace)?;
    Ok(LockingMetrics {
        bench_threads: threads as u64,
        locks_per_job: per_job(counts.lock_acquisitions),
        messages_per_job: per_job(counts.messages),
        failed_try_locks_per_job: per_job(counts.failed_try_locks),
        threads: plan.iter().map(|&t| t as f64).collect(),
        speedup,
    })
}

/// Per thread count of [`thread_plan`], the median over rounds of `single_thread`'s time ÷
/// `R`'s, each round timing both on fresh states (built untimed) in alternating order, every
/// replay checked against `single_thread`'s digests of the same round.
fn speedups<R: GameplayRunner + 'static>(
    trace: &Trace<LockingOp>,
) -> Result<(Vec<usize>, Vec<f64>), ReplayError> {
    let plan = thread_plan();
    let mut out = Vec::with_capacity(plan.len());
    for &t in &plan {
        let mut ratios = Vec::with_capacity(MAX_ROUNDS);
        let started = Instant::now();
        for round in 0..MAX_ROUNDS {
            if round >= MIN_ROUNDS && started.elapsed() > ROUND_BUDGET {
                break;
            }
            let (reference, design) = if round % 2 == 0 {
                let r = timed_reference(trace)?;
                (r, timed_body::<R>(trace, t)?)
            } else {
                let d = timed_body::<R>(trace, t)?;
                (timed_reference(trace)?, d)
            };
            if (design.1, design.2) != (reference.1, reference.2) {
                return Err(ReplayError {
                    index: trace.body.len(),
                    op: "(speed-up round)".into(),
                    error: format!(
                        "at {t} threads the replay disagreed with single_thread's: {}",
                        describe_mismatch(&reference.1, &design.1)
                    ),
                });
            }
            ratios.push(reference.0.as_secs_f64() / design.0.as_secs_f64().max(1e-12));
        }
        ratios.sort_by(f64::total_cmp);
        out.push(ratios[ratios.len() / 2]);
    }
    Ok((plan, out))
}
