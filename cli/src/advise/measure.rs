//! The measurements of one trace, on the family it belongs to: the trace converted to the
//! family's ops and prepared, each design verified and its memory measured ([`AdviseDesign`]),
//! the verified designs and reference loops timed together in interleaved rounds
//! ([`time_together`]), and the fastest simulated under valgrind ([`SimulateDesigns`]).

use std::path::Path;
use std::time::{Duration, Instant};

use bench_harness::assemble::{Verdict, bench_results, roles, workload_record};
use bench_harness::measure::DesignMeasure;
use bench_harness::measure::alloc_counter;
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass, PendingSim};
use bench_harness::measure::memory::measure_memory;
use bench_harness::replay::{
    CellStates, Design, ExtraDesigns, Family, ReferenceLoop, ReplayerVisitor, Role,
    design_records_with, for_each_replayer_with, mirrored_designs,
};
use bench_harness::rounds::{
    LoopTimer, RoundsBudget, RoundsTiming, SETTLED_PRECISION, Timer, time_cell,
};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Outcome, check_design};
use results::{Benchmark, MemoryMetrics, Results};
use workloads::AnyTrace;

use super::{AdviseOptions, ns};

/// The cache simulator, or why there is none.
fn simulator(work_dir: &Path) -> Result<CacheSim, String> {
    let valgrind = cache_sim::find_valgrind().map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    CacheSim::new(
        exe,
        cache_sim::ChildProgram::default(),
        valgrind,
        work_dir.to_path_buf(),
        cache_sim::default_jobs(),
    )
    .map_err(|e| e.to_string())
}

/// Verifies and measures every design of `F` and `X` on `trace`, then times the verified ones
/// together in `options.samples` interleaved rounds; also says why cache misses were not
/// simulated, if they were not.
pub(super) fn advise_family<F: Family, X: ExtraDesigns<F>>(
    trace: AnyTrace,
    options: &AdviseOptions,
) -> Result<(Results, Option<String>), String> {
    let trace = trace.into_family::<bench_harness::replay::OpOf<F>>()?;
    let prepared = PreparedTrace::<F>::from_trace(trace)?;
    let work_dir =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let sim = options
        .cache
        .clone()
        .and_then(|()| simulator(work_dir.path()));
    let pass = sim.as_ref().map_err(Clone::clone).and_then(|sim| {
        sim.for_trace(&prepared)
            .map_err(|e| format!("cannot write the trace for the simulation: {e}"))
    });
    let (pass, cache_skipped) = match pass {
        Ok(pass) => (Some(pass), None),
        Err(reason) => (None, Some(reason)),
    };
    let designs = design_records_with::<F, X>();
    let progress = |line: String| {
        if options.progress {
            eprintln!("advise: {line}");
        }
    };
    progress(format!(
        "{} trace {:?}, n = {}: verifying {} designs, then timing the verified ones in {} \
         interleaved rounds{}",
        F::NAME,
        prepared.workload,
        prepared.n,
        designs.len(),
        options.samples,
        match (&cache_skipped, options.cache_top) {
            (Some(_), _) => String::new(),
            (None, Some(top)) =>
                format!("; then the caches of the fastest {top} under valgrind (--cache-sim-top)"),
            (None, None) => "; then every design's caches under valgrind".to_string(),
        }
    ));
    let mut visit = AdviseDesign {
        prepared: &prepared,
        total: designs.len(),
        progress: &progress,
        rows: Vec::new(),
        contestants: Vec::new(),
        mirrored: mirrored_designs::<F>(),
        shared: CellStates::ending_in(prepared.expected.state_at_end),
    };
    for_each_replayer_with::<F, X, _>(&mut visit);
    let AdviseDesign {
        rows, contestants, ..
    } = visit;
    let mut benchmarks = time_together(rows, contestants, options.samples, &progress);
    if let Some(pass) = pass {
        // The fastest verified designs, by the medians just measured.
        let mut chosen: Vec<&Benchmark> = benchmarks
            .iter()
            .filter(|b| b.verified && !b.family.is_reference())
            .collect();
        chosen.sort_by(|a, b| ns(a).partial_cmp(&ns(b)).expect("no NaN"));
        chosen.truncate(options.cache_top.unwrap_or(usize::MAX));
        let mut simulate = SimulateDesigns {
            prepared: &prepared,
            chosen: chosen.iter().map(|b| b.design.clone()).collect(),
            pass,
            pending: Vec::new(),
        };
        for_each_replayer_with::<F, X, _>(&mut simulate);
        let total = simulate.pending.len();
        for (done, (design, pending)) in simulate.pending.into_iter().enumerate() {
            let entry = benchmarks.iter_mut().find(|b| b.design == design);
            match (pending.wait(), entry) {
                (Ok(sim), Some(b)) => {
                    progress(format!(
                        "cache [{}/{total}] {design}: {:.0} instructions, {:.3} D1 misses per op",
                        done + 1,
                        sim.ir,
                        sim.d1_miss
                    ));
                    b.sim = Some(sim);
                }
                (Err(e), _) => eprintln!("dodbench: {design}: {e}"),
                (Ok(_), None) => {}
            }
        }
    }
    // `bench_results` also fills each verified benchmark's paired ratios from its rounds.
    let results = bench_results(
        "advise",
        vec![F::family_record()],
        designs,
        vec![workload_record(&prepared, 0)],
        benchmarks,
    );
    Ok((results, cache_skipped))
}

/// Launches the cache simulation of the `chosen` designs (names), each once.
struct SimulateDesigns<'a, F: Family> {
    prepared: &'a PreparedTrace<F>,
    chosen: Vec<String>,
    pass: CacheSimPass<'a>,
    /// Simulations under way: (design, child), in launch order.
    pending: Vec<(String, PendingSim)>,
}

impl<F: Family> ReplayerVisitor<F> for SimulateDesigns<'_, F> {
    fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
        let name = design.name();
        if role != Role::Design || !self.chosen.iter().any(|c| c == name) {
            return;
        }
        let p = self.prepared;
        let checked =
            bench_harness::verify::Checked::outcome_only(bench_harness::verify::Outcome::Verified);
        match self.pass.measure(design, p, &checked) {
            Ok(pending) => self.pending.push((name.to_string(), pending)),
            Err(e) => eprintln!("dodbench: {name}: {e}"),
        }
    }
}

/// Wall time one design's sample may take in a round, untimed rebuilds included: it caps the
/// replays per sample of a design whose every timed replay needs an untimed rebuild, so
/// reaching [`MIN_SAMPLE`] of timed work cannot take long; the number of rounds is fixed.
const SAMPLE_WALL: Duration = Duration::from_millis(100);

/// The shortest sample: a tiny trace is timed over several replays per round.
const MIN_SAMPLE: Duration = Duration::from_millis(1);

/// Exactly `rounds` rounds, each design's sample [`MIN_SAMPLE`] long within [`SAMPLE_WALL`].
fn rounds_budget(rounds: usize) -> RoundsBudget {
    RoundsBudget {
        per_contestant: SAMPLE_WALL.mul_f64(rounds as f64),
        min_sample: MIN_SAMPLE,
        min_rounds: rounds,
        max_rounds: rounds,
        extra_per_contestant: Duration::ZERO,
        precision: SETTLED_PRECISION,
        leave_spent_after: None,
    }
}

/// Times the verified designs' `contestants` (each with the index of its row) together in
/// `rounds` interleaved rounds, then makes each row its benchmark: with its per-round samples
/// and [`Rounds`] when verified throughout, else `failed` with the replay's error.
fn time_together(
    rows: Vec<DesignRow>,
    contestants: Vec<(usize, Box<dyn Timer + '_>)>,
    rounds: usize,
    progress: &dyn Fn(String),
) -> Vec<Benchmark> {
    // One cell, so one session; the clock makes it unique to this run.
    let session = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let (indices, mut timers): (Vec<usize>, Vec<Box<dyn Timer + '_>>) =
        contestants.into_iter().unzip();
    // A reference loop takes the iterations of the design it mirrors (its `overhead`), as in
    // `cargo bench`.
    let roles = roles(indices.len(), |k| &rows[indices[k]].verdict);
    let loops = indices
        .iter()
        .filter(|&&i| rows[i].verdict.reference)
        .count();
    progress(format!(
        "timing {} designs{} in {rounds} interleaved rounds",
        timers.len() - loops,
        if loops > 0 {
            format!(" and {loops} reference loops")
        } else {
            String::new()
        }
    ));
    let started = Instant::now();
    let cell = time_cell(&mut timers, &roles, &rounds_budget(rounds), session);
    let mut timings: Vec<Option<Result<RoundsTiming, String>>> =
        std::iter::repeat_with(|| None).take(rows.len()).collect();
    for (&i, timing) in indices.iter().zip(cell.timings) {
        timings[i] = Some(timing);
    }
    let failed = timings.iter().filter(|t| matches!(t, Some(Err(_)))).count();
    let timed_loops = indices
        .iter()
        .filter(|&&i| rows[i].verdict.reference && matches!(timings[i], Some(Ok(_))))
        .count();
    progress(format!(
        "timed {} designs{} in {} rounds, {:.1} s{}",
        timers.len() - failed - timed_loops,
        if timed_loops > 0 {
            format!(" and {timed_loops} reference loops")
        } else {
            String::new()
        },
        cell.rounds,
        started.elapsed().as_secs_f64(),
        if failed > 0 {
            format!("; {failed} failed verification during the rounds")
        } else {
            String::new()
        }
    ));
    rows.into_iter()
        .zip(timings)
        .map(|(row, timing)| row.into_benchmark(timing, session))
        .collect()
}

/// One design's verdict and memory, waiting for its time from the rounds.
struct DesignRow {
    verdict: Verdict,
    memory: Option<MemoryMetrics>,
}

impl DesignRow {
    /// The benchmark, with `timing` from the rounds of `session` (`None`: not timed).
    fn into_benchmark(
        self,
        timing: Option<Result<RoundsTiming, String>>,
        session: u64,
    ) -> Benchmark {
        let DesignRow {
            mut verdict,
            memory,
        } = self;
        let mut b = match timing {
            Some(Ok(t)) => verdict.into_rounds_benchmark(session, t),
            Some(Err(e)) => {
                verdict.outcome = Outcome::Failed(e);
                verdict.into_benchmark(None, None)
            }
            None => verdict.into_benchmark(None, None),
        };
        if let Some(m) = memory.filter(|_| b.verified) {
            b.alloc_calls_per_op = Some(m.alloc_calls as f64 / b.ops.max(1) as f64);
            b.memory = Some(m);
        }
        b
    }
}

/// Verifies each design and measures its memory; enters the verified ones in the rounds.
struct AdviseDesign<'a, 'p, F: Family> {
    prepared: &'p PreparedTrace<F>,
    /// Designs in all, for the progress lines.
    total: usize,
    progress: &'a dyn Fn(String),
    rows: Vec<DesignRow>,
    /// The verified designs' and loops' timers, each with the index of its row.
    contestants: Vec<(usize, Box<dyn Timer + 'p>)>,
    /// The designs a reference loop mirrors, and the states their timed replays share with it.
    mirrored: Vec<&'static str>,
    shared: CellStates,
}

impl<F: Family> ReplayerVisitor<F> for AdviseDesign<'_, '_, F> {
    fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
        if role != Role::Design {
            return;
        }
        let p = self.prepared;
        let name = design.name();
        let checked = check_design(design, &p.trace, &p.expected);
        let mut verdict = Verdict::of(p, name, &checked);
        let mut memory = None;
        if verdict.outcome.is_verified() && alloc_counter::is_installed() {
            match measure_memory(design, p) {
                Ok(m) => memory = Some(m),
                Err(e) => verdict.outcome = Outcome::Failed(format!("memory replay: {e}")),
            }
        }
        if verdict.outcome.is_verified() {
            let mut timed = TimedReplay::new(design, &p.trace, &p.expected);
            if self.mirrored.contains(&name) {
                // The loop that mirrors this design reads this very state, as in `cargo
                // bench` (an error here is the dry run's, which the timing reports).
                if let Ok(Some(shared)) = timed.shared() {
                    self.shared.insert(name, shared);
                }
            }
            self.contestants.push((self.rows.len(), Box::new(timed)));
        }
        (self.progress)(format!(
            "[{}/{}] {name}: {}",
            self.rows.len() + 1,
            self.total,
            match &verdict.outcome {
                Outcome::Verified => "verified".to_string(),
                other => format!("{} ({})", other.status(), other.reason().unwrap_or("")),
            }
        ));
        self.rows.push(DesignRow { verdict, memory });
    }

    /// A reference loop with this trace's shape: verified, then timed in the same rounds as
    /// the design it mirrors (back to back with it), so the report and the summary can rank
    /// the designs called directly too (`results::rank_called_directly`).
    fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
        let p = self.prepared;
        let Some(reference) = L::in_cell(&p.trace, &p.expected.body, &self.shared) else {
            return;
        };
        let outcome = match reference.run(1) {
            Ok(_) => Outcome::Verified,
            Err(e) => Outcome::Failed(e),
        };
        let name = L::name();
        (self.progress)(format!(
            "[loop] {name}: {}",
            match &outcome {
                Outcome::Verified => "verified".to_string(),
                other => format!("{} ({})", other.status(), other.reason().unwrap_or("")),
            }
        ));
        if outcome.is_verified() {
            self.contestants
                .push((self.rows.len(), Box::new(LoopTimer(reference))));
        }
        self.rows.push(DesignRow {
            verdict: Verdict::of_loop::<L>(p, outcome),
            memory: None,
        });
    }
}
