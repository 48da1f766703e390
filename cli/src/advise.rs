//! `dodbench advise TRACE`: which design for this recorded workload? Replays the trace (any
//! family, the format `dodbench replay` reads) on every design of its family, verified;
//! measures each verified design's memory (bytes per object, allocator calls per op, with the
//! counting allocator the `dodbench` binary installs); times the verified designs together in
//! interleaved rounds (`bench_harness::rounds`, as `cargo bench` times a cell), so a burst of
//! other work on the machine slows them alike; writes the results and the HTML report of that
//! one trace (the `reports` crate's pages, nothing built here); and ranks the designs by median
//! time with the reason each of the top three wins or loses, saying how sure the winner is
//! (`results::rank`: the interval of runner-up ÷ winner over the rounds) or that the top two
//! cannot be told apart.
//!
//! The family's reference loops that have the trace's shape are verified and timed in the same
//! rounds, each back to back with the design it mirrors: their `overhead` is in the results,
//! and where every ranked design has one (the allocators: each crate called directly, with no
//! adapter) the summary ranks the designs called directly too and says when that names
//! another winner (`results::rank_called_directly`).
//!
//! Designs that cannot run the trace are listed `unsupported` with their reason; wrong ones
//! `failed`. [`advise_with`] takes any [`DesignList`], so a user's crate ranks its own design
//! too ([`crate::external::advise`]).
//!
//! With valgrind installed, `dodbench advise` also simulates each verified design's cache
//! misses per op on the trace (the cache pass's child process, `dodbench sim-server`, on this
//! trace); without it, or from a user's crate (whose binary has no `sim-server`), it says why it
//! skipped them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_harness::assemble::{Verdict, bench_results, roles, workload_record};
use bench_harness::families::{AllFamilies, DesignList, ListVisitor};
use bench_harness::measure::DesignMeasure;
use bench_harness::measure::alloc_counter::is_installed;
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
use results::{Benchmark, Gap, MemoryMetrics, Ranking, Results, Status};
use workloads::AnyTrace;

/// How `advise` runs.
#[derive(Debug, Clone)]
pub struct AdviseOptions {
    /// Where the report goes (`index.html` and one family page); `results.json` is written
    /// beside them.
    pub out: PathBuf,
    /// Rounds of interleaved samples: every verified design is timed once per round, in an
    /// order shuffled per round, so each has this many samples (its median is ranked, and the
    /// runner-up ÷ winner ratios of the rounds say how sure the winner is). A sample is at
    /// least 1 ms of replays. Below 6 rounds the interval of a ratio is the range of its
    /// per-round values, short of 95% confidence.
    pub samples: usize,
    /// Simulate cache misses per op under valgrind (the running binary must be `dodbench`,
    /// whose `sim-server` replays built-in designs): `Err(reason)` skips it with that reason.
    pub cache: Result<(), String>,
    /// How many of the fastest verified designs the cache simulation runs on (`None`: all).
    /// Each design is one valgrind child of a few seconds to minutes; the default bounds the
    /// whole command to a couple of minutes on a 2-core machine.
    pub cache_top: Option<usize>,
    /// Print a line per design as it is verified, around the rounds, and as each simulation
    /// ends (to stderr).
    pub progress: bool,
}

/// The default of [`AdviseOptions::cache_top`].
pub const DEFAULT_CACHE_TOP: usize = 6;

impl Default for AdviseOptions {
    fn default() -> Self {
        Self {
            out: results::target_dir().join("dodbench").join("advise"),
            samples: 11,
            cache: Ok(()),
            cache_top: Some(DEFAULT_CACHE_TOP),
            progress: true,
        }
    }
}

/// What `advise` found: the results of the trace (one benchmark per design) and the ranking.
#[derive(Debug, Clone)]
pub struct Advice {
    /// The trace's family.
    pub family: String,
    /// One entry per design, ranked: verified designs by median ns per op, then the others;
    /// then one per reference loop the trace has the shape of (family `reference`, each
    /// mirroring a design, timed in the same rounds). Every verified one carries its
    /// [`results::Rounds`] and one sample per round.
    pub results: Results,
    /// Verified designs, fastest first by median (indices into `results.benchmarks`).
    pub ranking: Vec<usize>,
    /// The `index.html` written.
    pub report: PathBuf,
    /// Why simulated cache misses were not measured, if they were not.
    pub cache_skipped: Option<String>,
}

impl Advice {
    /// The benchmarks of the ranked (verified) designs, fastest first.
    pub fn ranked(&self) -> impl Iterator<Item = &Benchmark> {
        self.ranking.iter().map(|&i| &self.results.benchmarks[i])
    }

    /// The designs that could not run the trace or failed, with the reason.
    pub fn not_ranked(&self) -> impl Iterator<Item = &Benchmark> {
        self.designs().filter(|b| !b.verified)
    }

    /// Every design's entry, reference loops left out.
    fn designs(&self) -> impl Iterator<Item = &Benchmark> {
        self.results
            .benchmarks
            .iter()
            .filter(|b| !b.family.is_reference())
    }

    /// The ranked designs ranked again by the reference loops that call each one directly
    /// (a peer's crate with no adapter, our designs with no replay driver), when every
    /// ranked design has one ([`results::rank_called_directly`]): the loops, fastest first.
    pub fn called_directly(&self) -> Option<Ranking<'_>> {
        let ranked: Vec<&Benchmark> = self.ranked().collect();
        let loops: Vec<&Benchmark> = self
            .results
            .benchmarks
            .iter()
            .filter(|b| b.family.is_reference())
            .collect();
        results::rank_called_directly(&ranked, &loops)
    }

    /// How far the runner-up trails the winner, and whether the two can be told apart
    /// ([`Gap::decided`]); `None` with fewer than two ranked designs.
    pub fn gap(&self) -> Option<Gap> {
        let mut ranked = self.ranked();
        let winner = ranked.next()?;
        gap_between(winner, ranked.next()?)
    }

    /// The printed summary: whether the top two can be told apart, the top three with why each
    /// wins or loses (the winner's line with the interval of its lead over the rounds), then
    /// the designs that are `unsupported` or `failed` with their reasons, then where the report
    /// is.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let total = self.designs().count();
        let _ = writeln!(
            out,
            "advise: {} trace {:?}: {} designs, {} verified, {} unsupported, {} failed",
            self.family,
            self.results
                .workloads
                .first()
                .map_or("", |w| w.workload.as_str()),
            total,
            self.ranking.len(),
            self.not_ranked()
                .filter(|b| b.status == Status::Unsupported)
                .count(),
            self.not_ranked()
                .filter(|b| b.status == Status::Failed)
                .count(),
        );
        let ranked: Vec<&Benchmark> = self.ranked().collect();
        let gap = self.gap();
        if let (Some(gap), [winner, runner_up, ..]) = (&gap, ranked.as_slice())
            && gap.decided() == Some(false)
        {
            let described = gap.describe();
            let detail = described
                .strip_prefix("cannot be told apart: ")
                .unwrap_or(&described);
            let _ = writeln!(
                out,
                "  {} and {} cannot be told apart on this trace: {detail}",
                winner.design, runner_up.design
            );
        }
        for (place, b) in ranked.iter().take(3).enumerate() {
            let versus = match (place, ranked.get(1)) {
                (_, None) => "the only verified design".to_string(),
                (0, Some(runner_up)) => {
                    reason(&winner_time(b, runner_up, gap.as_ref()), b, runner_up)
                }
                (_, Some(_)) => reason(&trailing_time(b, ranked[0]), b, ranked[0]),
            };
            let _ = writeln!(
                out,
                "  {}. {:<24} {:>9.2} ns/op  {:>8} B/object  {:>6} alloc calls/op  {:>8} D1 misses/op  {}",
                place + 1,
                b.design,
                ns(b).unwrap_or(f64::NAN),
                bytes_per_object(b).map_or("-".to_string(), |v| format!("{v:.1}")),
                b.alloc_calls_per_op
                    .map_or("-".to_string(), |v| format!("{v:.3}")),
                b.sim
                    .as_ref()
                    .map_or("-".to_string(), |s| format!("{:.3}", s.d1_miss)),
                versus,
            );
        }
        if let (Some(direct), Some(through_trait)) =
            (self.called_directly(), results::rank(&ranked))
        {
            let _ = writeln!(out, "  {}", called_directly_line(&direct, &through_trait));
        }
        for b in self.not_ranked() {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                b.status,
                b.design,
                b.reason.as_deref().unwrap_or("")
            );
        }
        if let Some(reason) = &self.cache_skipped {
            let _ = writeln!(out, "  simulated cache misses skipped: {reason}");
        } else {
            let simulated = self.ranked().filter(|b| b.sim.is_some()).count();
            if simulated < self.ranking.len() {
                let _ = writeln!(
                    out,
                    "  simulated cache misses: the fastest {simulated} of {} verified designs \
                     (--cache-sim-top N or all)",
                    self.ranking.len()
                );
            }
        }
        let _ = write!(out, "advise: report at {}", self.report.display());
        out
    }
}

/// The summary's line for the designs called directly: the fastest loop's design, the
/// runner-up's and how sure their order is, and whether it names none of the designs that
/// lead `ranked` (the trace's ranking through the family's trait, [`Ranking::leads_apart`]).
fn called_directly_line(direct: &Ranking<'_>, ranked: &Ranking<'_>) -> String {
    let mut line = format!(
        "called directly (each design's reference loop): {} fastest",
        direct.winner().timed_design()
    );
    if let (Some(runner_up), Some(gap)) = (direct.runner_up(), &direct.gap) {
        let _ = write!(
            line,
            ", then {} ({})",
            runner_up.timed_design(),
            gap.describe()
        );
    }
    if ranked.leads_apart(direct) {
        let _ = write!(
            line,
            "; differs from the ranking above, where {} leads through the family's trait, \
             whose checks some designs' direct calls skip",
            ranked.leaders().join(" ≈ ")
        );
    }
    line
}

/// Median ns per op of a verified benchmark.
fn ns(b: &Benchmark) -> Option<f64> {
    b.ns_per_op.as_ref().map(|e| e.median)
}

/// Bytes per object: the counting allocator's figure when measured, else the design's own.
fn bytes_per_object(b: &Benchmark) -> Option<f64> {
    b.memory
        .as_ref()
        .and_then(|m| m.allocator_bytes_per_object)
        .or(b.bytes_per_object)
}

/// `slower` over `faster` (ranked in that order): paired round by round when they shared
/// rounds, else the ratio of their medians; `None` without two positive medians.
fn gap_between(faster: &Benchmark, slower: &Benchmark) -> Option<Gap> {
    results::rank(&[faster, slower])?.gap
}

/// The winner's time against the runner-up's: faster with the interval of the lead, or that
/// the two cannot be told apart.
fn winner_time(winner: &Benchmark, runner_up: &Benchmark, gap: Option<&Gap>) -> String {
    match gap {
        Some(gap) if gap.decided() == Some(false) => {
            format!("cannot be told apart from {}", runner_up.design)
        }
        Some(gap) => format!("faster than {}: {}", runner_up.design, gap.describe()),
        None => format!(
            "{} faster than {}",
            median_ratio(runner_up, winner),
            runner_up.design
        ),
    }
}

/// A design below the winner against the winner: how many times slower, or that the two
/// cannot be told apart.
fn trailing_time(b: &Benchmark, winner: &Benchmark) -> String {
    match gap_between(winner, b) {
        Some(gap) if gap.decided() == Some(false) => {
            format!("cannot be told apart from {}", winner.design)
        }
        Some(gap) => {
            // The paired median when they shared rounds, as the winner's line states it.
            let ratio = gap.paired.as_ref().map_or(gap.ratio, |p| p.ratio.median);
            format!("{ratio:.2}× slower than {}", winner.design)
        }
        None => format!("{} slower than {}", median_ratio(b, winner), winner.design),
    }
}

/// `a`'s median time over `b`'s, as `1.2×` (`?×` without both).
fn median_ratio(a: &Benchmark, b: &Benchmark) -> String {
    match (ns(a), ns(b)) {
        (Some(x), Some(y)) => format!("{:.1}×", x / y.max(1e-9)),
        _ => "?×".to_string(),
    }
}

/// Why `b` wins or loses against `other`: `time` (how their times compare), then memory, D1
/// misses and allocator calls where they differ by more than 10%.
fn reason(time: &str, b: &Benchmark, other: &Benchmark) -> String {
    let mut parts = vec![time.to_string()];
    if let (Some(x), Some(y)) = (bytes_per_object(b), bytes_per_object(other))
        && y > 0.0
    {
        let change = (x - y) / y;
        if change <= -0.1 {
            parts.push(format!("{:.0}% less memory", -change * 100.0));
        } else if change >= 0.1 {
            parts.push(format!("{:.0}% more memory", change * 100.0));
        }
    }
    if let (Some(x), Some(y)) = (
        b.sim.as_ref().map(|s| s.d1_miss),
        other.sim.as_ref().map(|s| s.d1_miss),
    ) && x.max(y) > 1e-3
    {
        if x * 1.1 < y {
            parts.push(format!("{:.1}× fewer D1 misses per op", y / x.max(1e-6)));
        } else if y * 1.1 < x {
            parts.push(format!("{:.1}× more D1 misses per op", x / y.max(1e-6)));
        }
    }
    if let (Some(x), Some(y)) = (b.alloc_calls_per_op, other.alloc_calls_per_op)
        && (x - y).abs() > 0.1 * x.max(y)
        && x.max(y) > 1e-3
    {
        parts.push(if x < y {
            "fewer allocator calls".to_string()
        } else {
            "more allocator calls".to_string()
        });
    }
    parts.join("; ")
}

/// `dodbench advise TRACE`: every built-in design of the trace's family.
///
/// # Errors
/// As [`advise_with`].
pub fn run(trace: &Path, options: &AdviseOptions) -> Result<Advice> {
    advise_with::<AllFamilies>(trace, options)
}

/// Ranks the designs of `L` for the trace's family on the trace at `path`, writes
/// `results.json` and the report under `options.out`.
///
/// # Errors
/// The file is missing or not a valid trace, its family is not in `L`, `samples` is zero, or
/// the report cannot be written.
pub fn advise_with<L: DesignList>(path: &Path, options: &AdviseOptions) -> Result<Advice> {
    if options.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let trace = workloads::format::load_any_from_path(path)
        .with_context(|| format!("cannot load trace {}", path.display()))?;
    let family = trace.family().to_string();
    let mut dispatch = Dispatch {
        trace: Some(trace),
        options,
        results: None,
    };
    L::for_each(&mut dispatch);
    let Some(results) = dispatch.results else {
        bail!("the trace's family {family} is not among the families run here");
    };
    let (mut results, cache_skipped) = results.map_err(anyhow::Error::msg)?;
    let ranking = rank_benchmarks(&mut results);
    results::create_output_dir(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let source = options.out.join("results.json");
    results.save(&source)?;
    let summary = reports::render(
        &results,
        &options.out,
        &reports::RenderOptions {
            title: Some(format!("dodbench advise: {}", path.display())),
            source: Some(source),
            ..Default::default()
        },
    )
    .context("cannot write the report")?;
    Ok(Advice {
        family,
        results,
        ranking,
        report: summary.index,
        cache_skipped,
    })
}

/// Sorts `results.benchmarks`: verified designs first, fastest first by median; then the
/// others in registry order; the reference loops last. Returns the indices of the verified
/// designs ([`Advice::ranking`]).
fn rank_benchmarks(results: &mut Results) -> Vec<usize> {
    let order = |b: &Benchmark| {
        (
            b.family.is_reference(),
            !b.verified,
            ns(b).unwrap_or(f64::INFINITY),
        )
    };
    results
        .benchmarks
        .sort_by(|a, b| order(a).partial_cmp(&order(b)).expect("no NaN"));
    (0..results.benchmarks.len())
        .filter(|&i| results.benchmarks[i].verified && !results.benchmarks[i].family.is_reference())
        .collect()
}

/// Runs the trace on the family of the list that it belongs to.
struct Dispatch<'a> {
    trace: Option<AnyTrace>,
    options: &'a AdviseOptions,
    results: Option<Result<(Results, Option<String>), String>>,
}

impl ListVisitor for Dispatch<'_> {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        if self.trace.as_ref().is_none_or(|t| t.family() != F::NAME) {
            return;
        }
        let trace = self.trace.take().expect("checked above");
        self.results = Some(advise_family::<F, X>(trace, self.options));
    }
}

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
fn advise_family<F: Family, X: ExtraDesigns<F>>(
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
        shared: CellStates::default(),
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
        let checked = bench_harness::verify::Checked {
            outcome: bench_harness::verify::Outcome::Verified,
            memory_bytes_after_setup: None,
            setup_and_body_time: None,
        };
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
        if verdict.outcome.is_verified() && is_installed() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use results::Rounds;
    use results::stats::median_interval;

    /// A verified benchmark timed in the rounds of session 1, one sample per round.
    fn timed(design: &str, samples: &[f64]) -> Benchmark {
        let mut b = Benchmark::new(results::Family::IdTable, "app", design, 200, 1);
        b.verified = true;
        b.status = Status::Verified;
        b.samples_ns_per_op = samples.to_vec();
        b.ns_per_op = median_interval(&mut samples.to_vec());
        b.rounds = Some(Rounds {
            session: 1,
            iters: 1,
            to_reference: None,
            to_best: None,
            instances: Vec::new(),
        });
        b
    }

    fn advice(benchmarks: Vec<Benchmark>) -> Advice {
        let mut results = bench_results("advise", Vec::new(), Vec::new(), Vec::new(), benchmarks);
        let ranking = rank_benchmarks(&mut results);
        Advice {
            family: "id_table".to_string(),
            results,
            ranking,
            report: PathBuf::from("advise/index.html"),
            cache_skipped: Some("--no-cache-sim".to_string()),
        }
    }

    /// Per-round times whose absolute level swings from round to round, as on a busy machine.
    const ROUNDS: [f64; 10] = [10.0, 11.0, 9.0, 30.0, 10.0, 10.5, 9.5, 10.0, 12.0, 10.0];

    #[test]
    fn the_winner_line_states_its_lead_with_the_interval_over_the_rounds() {
        let advice = advice(vec![
            timed("third", &ROUNDS.map(|t| t * 1.5)),
            timed("second", &ROUNDS.map(|t| t * 1.2)),
            timed("first", &ROUNDS),
        ]);
        assert_eq!(advice.gap().unwrap().decided(), Some(true));
        let summary = advice.summary();
        let lines: Vec<&str> = summary.lines().collect();
        assert!(lines[1].starts_with("  1. first "), "{summary}");
        assert!(
            lines[1].ends_with(
                "faster than second: 1.200× [1.200, 1.200], winner faster in 100% of 10 rounds"
            ),
            "{summary}"
        );
        assert!(lines[2].ends_with("1.20× slower than first"), "{summary}");
        assert!(lines[3].ends_with("1.50× slower than first"), "{summary}");
        assert!(!summary.contains("cannot be told apart"), "{summary}");
    }

    #[test]
    fn a_top_two_that_trade_wins_are_not_told_apart() {
        // `close` wins every other round: the interval of the ratio holds 1.
        let close: Vec<f64> = ROUNDS
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { t * 0.97 } else { t * 1.04 })
            .collect();
        let advice = advice(vec![
            timed("close", &close),
            timed("steady", &ROUNDS),
            timed("slow", &ROUNDS.map(|t| t * 2.0)),
        ]);
        assert_eq!(advice.gap().unwrap().decided(), Some(false));
        let summary = advice.summary();
        let lines: Vec<&str> = summary.lines().collect();
        // Which of the two has the lower median does not matter: neither is named the winner.
        let top: Vec<&str> = advice.ranked().map(|b| b.design.as_str()).collect();
        let (first, second) = (top[0], top[1]);
        assert_eq!(top[2], "slow", "{summary}");
        assert!(
            lines[1].starts_with(&format!(
                "  {first} and {second} cannot be told apart on this trace: "
            )) && lines[1].ends_with("over 10 rounds"),
            "{summary}"
        );
        assert!(
            lines[2].ends_with(&format!("cannot be told apart from {second}")),
            "{summary}"
        );
        assert!(
            lines[3].ends_with(&format!("cannot be told apart from {first}")),
            "{summary}"
        );
        assert!(!lines[2].contains("faster than"), "{summary}");
        assert!(lines[4].starts_with("  3. slow "), "{summary}");
        assert!(
            lines[4].contains(&format!("× slower than {first}")),
            "{summary}"
        );
    }

    /// A reference loop of `design` timed in the same rounds.
    fn looped(design: &str, samples: &[f64]) -> Benchmark {
        let mut b = timed(&format!("ref-direct-{design}"), samples);
        b.family = results::Family::Reference;
        b.mirrors = Some(design.to_string());
        b
    }

    #[test]
    fn designs_that_all_have_loops_are_ranked_called_directly_too() {
        let slower = ROUNDS.map(|t| t * 1.2);
        // Through the trait `a` wins; its loop is the slower one.
        let advice = advice(vec![
            timed("a", &ROUNDS),
            timed("b", &slower),
            looped("a", &slower),
            looped("b", &ROUNDS),
        ]);
        let top: Vec<&str> = advice.ranked().map(|b| b.design.as_str()).collect();
        assert_eq!(top, ["a", "b"], "the loops are not ranked");
        let summary = advice.summary();
        assert!(
            summary.starts_with("advise: id_table trace \"\": 2 designs,"),
            "{summary}"
        );
        assert!(
            summary.contains(
                "  called directly (each design's reference loop): b fastest, then a (1.200× ["
            ),
            "{summary}"
        );
        assert!(
            summary.contains(
                "; differs from the ranking above, where a leads through the family's trait"
            ),
            "{summary}"
        );
        assert!(!summary.contains("failed ref-direct"), "{summary}");

        // The same order both ways: no "differs".
        let agreed = advice_of(
            &[("a", &ROUNDS), ("b", &slower)],
            &[("a", &ROUNDS), ("b", &slower)],
        );
        assert!(agreed.contains("called directly (each design's reference loop): a fastest"));
        assert!(!agreed.contains("differs"), "{agreed}");
        // A design without a loop: no such line.
        let partial = advice_of(&[("a", &ROUNDS), ("b", &slower)], &[("a", &ROUNDS)]);
        assert!(!partial.contains("called directly"), "{partial}");
    }

    /// The summary of `designs` and `loops` (design mirrored, samples).
    fn advice_of(designs: &[(&str, &[f64])], loops: &[(&str, &[f64])]) -> String {
        let benchmarks = designs
            .iter()
            .map(|(d, s)| timed(d, s))
            .chain(loops.iter().map(|(d, s)| looped(d, s)))
            .collect();
        advice(benchmarks).summary()
    }
}
