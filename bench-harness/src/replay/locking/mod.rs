//! The locking family's replay driver: builds the world from a [`LockingOp`] trace's setup
//! (untimed, with the design's worker threads), then runs the body's jobs phase by phase: the
//! jobs between two `Frame` ops (or up to the end of the replayed slice) are handed to the
//! design in one [`GameplayRunner::run_jobs`] call, which runs them on its threads; a `Frame`
//! op is the physics step ([`GameplayRunner::end_frame`]).
//!
//! Verification: the op digest sums what the jobs observed (jobs, pushes, raycast hits per
//! unit) and the state digest reads every unit's final position back, outside the timed
//! region; both are fixed by the trace whatever the schedule (pushes add, physics does not move
//! within a frame), so a design that loses or doubles a push under contention fails. Units
//! are named by their index (the caller's ID, as the spatial family's points): a `Unit` op
//! hands its index to the handle map, a `Job` op asks it nothing.
//!
//! Threads: the bench runs every threaded design with [`bench_threads`] workers (the machine's
//! available parallelism, at most 64, or `DODBENCH_LOCK_THREADS`); `measure` times each
//! design against `single_thread` at every count of [`thread_plan`] (1, 2 and the bench's,
//! deduplicated) in interleaved rounds, for the speed-up curves.

mod claims;
mod metrics;

use impls::locking::model::ModelRunner;
use impls::locking::{
    GameplayRunner, Job, LockingDesignInfo, LockingDesignVisitor, MAX_THREADS, NO_OTHER, Script,
    Tally, World, for_each_locking_design, mix_unit_value,
};
use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::locking::{LockingOp, LockingStats};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, ResolvedPair, RunSizes, Scale,
    recording_ids, records_of,
};
use super::glue::{family_marker, hosts_design, merge_fields, visit_registry};
use super::resolved::{HandleIds, HandleMap, ResolvedBody};
pub use metrics::LockingMetrics;
use results::DesignRecord;

const _: () = assert!(workloads::locking::NO_OTHER == NO_OTHER);

family_marker! {
    /// Multithreaded gameplay: [`LockingOp`] traces replayed on [`GameplayRunner`]s, checked
    /// against [`ModelRunner`].
    LockingFamily
}

impl Family for LockingFamily {
    type Op = LockingOp;
    type Digest = LockingDigest;
    type Model = LockingReplay<ModelRunner>;
    type Metrics = LockingMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const TITLE: &'static str = "Multithreaded gameplay";
    const RUNS_ON_OTHER_THREADS: bool = true;
    /// Every speed-up is measured against one thread without locks.
    const REFERENCE_DESIGN: &'static str = "single_thread";
    const NO_LOOPS: Option<&'static str> = Some(
        "each peer is the crate used as its documentation shows, written as the design itself \
         (rayon's par_iter_mut, dashmap's shard locks, crossbeam's channels, parking_lot's \
         mutex), and the replay hands it a whole frame of jobs per call: there is no adapter \
         between the jobs and the crate for a loop to leave out",
    );
    /// The mixed gameplay frame: the passes replay it on one thread, on the caller
    /// ([`bench_threads`] while [`crate::replay::repeatable`]), so its simulated counts are
    /// the uncontended cost of each design's synchronisation, exactly repeatable.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["lock-mixed"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["lock-mixed"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &["lock-mixed"];
    const SWEEP_MAX_N: usize = 1 << 16;

    /// Quick: 1K units (CI's share). Default and full: 1K and 16K.
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 16_384],
        full: &[1_000, 16_384],
        passes_quick: &[1_000],
        passes: &[1_000, 16_384],
    };

    /// The points of `lock-mixed`'s script-work sweep (`lock-mixed-c…`, default and full runs
    /// only) at 1K units: claim H2 reads its crossover there, and each point costs a cell of
    /// every design.
    fn workload_bench_sizes(workload: &str, scale: Scale) -> Vec<usize> {
        if workload.starts_with("lock-mixed-c") {
            vec![1_000]
        } else {
            Self::bench_sizes(scale)
        }
    }

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::locking::locking_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, LockingFamily, for_each_locking_design, LockingDesignVisitor,
            [R: GameplayRunner + 'static] => LockingReplay<R>
        );
    }
}

hosts_design!(
    /// Another crate's design `D`, run beside the registry (`dodbench::external`).
    LockingFamily,
    [D: GameplayRunner] => LockingReplay<D>,
    design_record(&D::INFO)
);

/// The limit, and contract gap, of a design that cannot run a job writing another unit.
const OWN_UNIT_ONLY: &str = "a job may write only its own unit";

/// The results record of a locking design: which item of the post it answers, and its limits.
pub fn design_record(info: &LockingDesignInfo) -> DesignRecord {
    let mut limits = vec![format!("answers {}", info.answers)];
    if !info.foreign_writes {
        limits.push(OWN_UNIT_ONLY.into());
    }
    if !info.threaded {
        limits.push("one thread".into());
    }
    DesignRecord {
        limits: Some(limits.join("; ")),
        // Without writes to other units a job needs no lock, queue or hand-over at all.
        contract_gaps: (!info.foreign_writes)
            .then(|| OWN_UNIT_ONLY.to_string())
            .into_iter()
            .collect(),
        ..crate::replay::design_record_of(LockingFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// The worker threads of every threaded design in the bench: `DODBENCH_LOCK_THREADS` if set
/// (1 to 64), else the machine's available parallelism, at most 64; one, on the caller, while a
/// measurement pass replays ([`crate::replay::repeatable`]: its counts must repeat exactly).
pub fn bench_threads() -> usize {
    if crate::replay::repeatable() {
        return 1;
    }
    std::env::var("DODBENCH_LOCK_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|t| (1..=MAX_THREADS).contains(t))
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(MAX_THREADS)
        })
}

/// The thread counts of the speed-up curves: 1, 2 and [`bench_threads`], sorted and
/// deduplicated.
pub fn thread_plan() -> Vec<usize> {
    let mut plan = vec![1, 2, bench_threads()];
    plan.sort_unstable();
    plan.dedup();
    plan
}

/// What a locking replay observed: counts and order-free sums, fixed by the trace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockingDigest {
    /// Jobs run.
    pub jobs: u64,
    /// Pushes applied.
    pub pushes: u64,
    /// Raycast hits, summed.
    pub hits: u64,
    /// `Σ mix_unit_value(unit, hits)`: which job saw how many.
    pub hit_mix: u64,
    /// Frames ended.
    pub frames: u64,
}

impl LockingDigest {
    fn add_tally(&mut self, t: &Tally) {
        self.jobs += t.jobs;
        self.pushes += t.pushes;
        self.hits += t.hits;
        self.hit_mix = self.hit_mix.wrapping_add(t.hit_mix);
    }
}

impl ReplayDigest<LockingOp> for LockingDigest {
    fn merge(&mut self, later: &LockingDigest) {
        merge_fields!(self, later, add: [jobs, pushes, hits, frames], wrapping: [hit_mix]);
    }

    /// One per job (as `LockingStats::work_units` counts them).
    fn work_units(&self, _ops: &[LockingOp]) -> u64 {
        self.jobs
    }
}

/// A locking design's state for one trace: the world being read from the setup, then the
/// design built over it, and the phase's jobs.
pub struct LockingReplay<R: GameplayRunner> {
    threads: usize,
    script: Option<Script>,
    /// Unit positions read from the setup, until the design is built.
    positions: Vec<[f32; 2]>,
    runner: Option<R>,
    /// The current phase's jobs (capacity kept across phases).
    jobs: Vec<Job>,
    ids: HandleMap<u32>,
}

impl<R: GameplayRunner + 'static> LockingReplay<R> {
    /// An empty state whose design will run on `threads` workers.
    pub fn with_threads(trace: &Trace<LockingOp>, threads: usize) -> Self {
        Self {
            threads: threads.clamp(1, MAX_THREADS),
            script: None,
            positions: Vec::new(),
            runner: None,
            jobs: Vec::new(),
            ids: HandleMap::with_capacity(trace.handle_count()),
        }
    }

    /// `trace`'s starting state on `threads` workers: the setup read and the design built.
    ///
    /// # Errors
    /// The setup is out of place (a unit before `Script`).
    pub fn after_setup_on(trace: &Trace<LockingOp>, threads: usize) -> Result<Self, ReplayError> {
        let mut state = Self::with_threads(trace, threads);
        state.replay(&trace.setup)?;
        state.build();
        Ok(state)
    }

    /// Builds the design over the units read so far (once): untimed, with its threads.
    fn build(&mut self) {
        if self.runner.is_none() {
            let radius = self.script.map_or(1.0, |s| s.radius);
            let world = World::new(&self.positions, radius);
            self.runner = Some(R::new(world, self.threads));
            self.positions = Vec::new();
        }
    }

    /// Runs the phase's pending jobs on the design.
    fn flush(&mut self, digest: &mut LockingDigest) {
        if self.jobs.is_empty() {
            return;
        }
        self.build();
        let script = self.script.expect("validated: Script precedes every job");
        let runner = self.runner.as_mut().expect("built above");
        digest.add_tally(&runner.run_jobs(&self.jobs, &script));
        self.jobs.clear();
    }

    /// What the design synchronised since it was built (zeros before).
    pub fn counts(&self) -> impls::locking::SyncCounts {
        self.runner.as_ref().map(R::counts).unwrap_or_default()
    }
}

impl<R: GameplayRunner + 'static> Replayer for LockingReplay<R> {
    type Family = LockingFamily;
    type Id = u32;

    fn design_name() -> &'static str {
        R::INFO.meta.name
    }

    fn unsupported_before(stats: &LockingStats) -> Option<String> {
        (!R::INFO.foreign_writes && stats.foreign_jobs > 0).then(|| {
            format!(
                "{} of {} jobs push another unit; the design lets a job write only its own",
                stats.foreign_jobs, stats.jobs
            )
        })
    }

    fn for_trace(trace: &Trace<LockingOp>) -> Self {
        Self::with_threads(trace, bench_threads())
    }

    /// The setup replayed, then the design built over it (so its construction and the start of
    /// its threads are never timed).
    fn after_setup(trace: &Trace<LockingOp>) -> Result<Self, ReplayError> {
        Self::after_setup_on(trace, bench_threads())
    }

    fn handles(&mut self) -> &mut HandleMap<u32> {
        &mut self.ids
    }

    fn run<H: HandleIds<u32>>(
        &mut self,
        ops: &[LockingOp],
        ids: &mut H,
    ) -> Result<LockingDigest, ReplayError> {
        let mut d = LockingDigest::default();
        for (at, &op) in ops.iter().enumerate() {
            match op {
                LockingOp::Script {
                    compute,
                    radius,
                    batch,
                } => {
                    self.script = Some(Script {
                        compute,
                        radius: radius as f32,
                        batch,
                    });
                }
                LockingOp::Unit { x, y } => {
                    if self.runner.is_some() || self.script.is_none() {
                        return Err(ReplayError::at(
                            at,
                            op,
                            "units come after Script and before the first job",
                        ));
                    }
                    let unit = self.positions.len() as u32;
                    self.positions.push([x as f32, y as f32]);
                    ids.created(unit).map_err(|e| ReplayError::at(at, op, e))?;
                }
                LockingOp::Job {
                    unit,
                    other,
                    dx,
                    dy,
                } => {
                    if self.script.is_none() {
                        return Err(ReplayError::at(at, op, "a job before Script"));
                    }
                    // The trace's "no other unit" is the design's (both `u32::MAX`, checked at
                    // compile time below).
                    self.jobs.push(Job {
                        unit,
                        other,
                        delta: [dx as f32, dy as f32],
                    });
                }
                LockingOp::Frame => {
                    self.flush(&mut d);
                    self.build();
                    self.runner.as_mut().expect("built above").end_frame();
                    d.frames += 1;
                }
            }
        }
        self.flush(&mut d);
        Ok(d)
    }

    /// The dry run in one piece, not op by op as the provided method runs it: the jobs between
    /// two frames reach the design in one [`GameplayRunner::run_jobs`] call, as in the timed
    /// replay, where op by op every job would be a call of its own (a hand-over to the worker
    /// pool per job: seconds at 16,384 units, against milliseconds for the replay it
    /// resolves). The IDs per op need no per-op replay: a `Unit` creates one, no other op
    /// names any. `resolve_in_one_piece_records_what_op_by_op_does` checks both against the
    /// provided method.
    fn resolve(&mut self, ops: &[LockingOp]) -> Result<ResolvedPair<Self>, ReplayError> {
        let (result, log) = recording_ids(self, |state, map| state.run(ops, map));
        let digest = result?;
        let ids_per_op: Vec<u32> = ops
            .iter()
            .map(|op| u32::from(matches!(op, LockingOp::Unit { .. })))
            .collect();
        Ok((ResolvedBody::new(ops, log, &ids_per_op), digest))
    }

    fn memory_bytes(&self) -> u64 {
        self.runner.as_ref().map_or(0, R::memory_bytes) as u64
    }

    fn live_count(&self) -> usize {
        self.ids.len()
    }

    /// Every unit's final position, as an order-free sum.
    fn state_digest(&mut self) -> Option<u64> {
        self.build();
        let runner = self.runner.as_mut()?;
        let mut sum = 0u64;
        let mut count = 0u64;
        runner.positions(&mut |u, p| {
            sum = sum.wrapping_add(mix_unit_value(
                u,
                u64::from(p[0].to_bits()) << 32 | u64::from(p[1].to_bits()),
            ));
            count += 1;
        });
        Some(sum ^ mix_unit_value(u32::MAX, count))
    }

    fn measure(
        trace: &Trace<LockingOp>,
        stats: &LockingStats,
    ) -> Result<Option<LockingMetrics>, ReplayError> {
        metrics::measure::<R>(trace, stats).map(Some)
    }

    fn check_invariants(&self) -> Result<(), String> {
        match &self.runner {
            Some(r) => r.check_invariants(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use impls::locking::actors::ActorsStd;
    use impls::locking::call_locks::CallMutex;
    use impls::locking::single_thread::SingleThread;

    /// The provided dry run: op by op, each op a replay of its own.
    fn op_by_op<R: GameplayRunner + 'static>(
        state: &mut LockingReplay<R>,
        ops: &[LockingOp],
    ) -> ResolvedPair<LockingReplay<R>> {
        let mut map = std::mem::take(state.handles());
        map.start_recording();
        let (mut digest, mut ids_per_op) = (LockingDigest::default(), Vec::new());
        for op in ops {
            let before = map.recorded();
            digest.merge(&state.run(std::slice::from_ref(op), &mut map).unwrap());
            ids_per_op.push((map.recorded() - before) as u32);
        }
        let log = map.stop_recording();
        *state.handles() = map;
        (ResolvedBody::new(ops, log, &ids_per_op), digest)
    }

    /// The dry run in one piece records the IDs, the segments and the answers of the dry run op
    /// by op, on the setup (whose units create the IDs) and on a body of jobs and frames, for
    /// a design on the caller's thread and two on workers; its state ends where the other's
    /// does.
    #[test]
    fn resolve_in_one_piece_records_what_op_by_op_does() {
        fn check<R: GameplayRunner + 'static>(trace: &Trace<LockingOp>) {
            let name = R::INFO.meta.name;
            let (mut whole, mut single) = (
                LockingReplay::<R>::with_threads(trace, 2),
                LockingReplay::<R>::with_threads(trace, 2),
            );
            let setup = whole.resolve(&trace.setup).unwrap();
            assert_eq!(setup, op_by_op(&mut single, &trace.setup), "{name}: setup");
            assert!(!setup.0.ids().is_empty(), "{name}: the units' IDs");
            let (mut whole, mut single) = (
                LockingReplay::<R>::after_setup_on(trace, 2).unwrap(),
                LockingReplay::<R>::after_setup_on(trace, 2).unwrap(),
            );
            let resolved = whole.resolve(&trace.body).unwrap();
            assert_eq!(resolved, op_by_op(&mut single, &trace.body), "{name}: body");
            assert!(resolved.1.jobs > 0 && resolved.1.frames > 0, "{name}");
            assert_eq!(whole.state_digest(), single.state_digest(), "{name}");
        }
        let trace =
            workloads::registry::generate_for::<LockingOp>("lock-mixed", 200, 7, None).unwrap();
        check::<SingleThread>(&trace);
        check::<CallMutex>(&trace);
        check::<ActorsStd>(&trace);
    }
}
