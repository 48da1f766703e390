//! `dodbench advise TRACE`: which design for this recorded workload? Replays the trace (any
//! family, the format `dodbench replay` reads) on every design of its family, verified; times
//! each verified design (ns per op), measures its memory (bytes per object, allocator calls per
//! op, with the counting allocator the `dodbench` binary installs), writes the results and the
//! HTML report of that one trace (the `reports` crate's pages, nothing built here), and ranks
//! the designs by time with the reason each of the top three wins or loses.
//!
//! Designs that cannot run the trace are listed `unsupported` with their reason; wrong ones
//! `failed`. [`advise_with`] takes any [`DesignList`], so a user's crate ranks its own design
//! too ([`crate::external::advise`]).
//!
//! With valgrind installed, `dodbench advise` also simulates each verified design's cache
//! misses per op on the trace (the cache pass's child process, `dodbench sim-child`, on this
//! trace); without it, or from a user's crate (whose binary has no `sim-child`), it says why it
//! skipped them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bench_harness::assemble::{Verdict, bench_results, workload_record};
use bench_harness::families::{AllFamilies, DesignList, ListVisitor};
use bench_harness::measure::DesignMeasure;
use bench_harness::measure::alloc_counter::is_installed;
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass, PendingSim};
use bench_harness::measure::memory::measure_memory;
use bench_harness::replay::{
    ExtraDesigns, Family, Replayer, ReplayerVisitor, Role, design_records_with,
    for_each_replayer_with,
};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::{TimedReplay, median_and_range};
use bench_harness::verify::check_replayer;
use results::{Benchmark, Estimate, Results, Status};
use workloads::AnyTrace;

/// How `advise` runs.
#[derive(Debug, Clone)]
pub struct AdviseOptions {
    /// Where the report goes (`index.html` and one family page); `results.json` is written
    /// beside them.
    pub out: PathBuf,
    /// Timed replays per verified design (the median is ranked).
    pub samples: usize,
    /// Simulate cache misses per op under valgrind (the running binary must be `dodbench`,
    /// whose `sim-child` replays built-in designs): `Err(reason)` skips it with that reason.
    pub cache: Result<(), String>,
    /// How many of the fastest verified designs the cache simulation runs on (`None`: all).
    /// Each design is one valgrind child of a few seconds to minutes; the default bounds the
    /// whole command to a couple of minutes on a 2-core machine.
    pub cache_top: Option<usize>,
    /// Print a line per design as it is timed and as its simulation ends (to stderr).
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
    /// One entry per design, ranked: verified designs by median ns per op, then the others.
    pub results: Results,
    /// Verified designs, fastest first (indices into `results.benchmarks`).
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
        self.results.benchmarks.iter().filter(|b| !b.verified)
    }

    /// The printed summary: the top three with why each wins or loses, then the designs that
    /// are `unsupported` or `failed` with their reasons, then where the report is.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let total = self.results.benchmarks.len();
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
        for (place, b) in ranked.iter().take(3).enumerate() {
            let other = if place == 0 {
                ranked.get(1)
            } else {
                ranked.first()
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
                other.map_or("the only verified design".to_string(), |o| reason(b, o)),
            );
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

/// Why `b` wins or loses against `other`: the time ratio, then memory and allocator calls
/// where they differ by more than 10%.
fn reason(b: &Benchmark, other: &Benchmark) -> String {
    let mut parts = Vec::new();
    if let (Some(x), Some(y)) = (ns(b), ns(other)) {
        if x <= y {
            parts.push(format!(
                "{:.1}× faster than {}",
                y / x.max(1e-9),
                other.design
            ));
        } else {
            parts.push(format!(
                "{:.1}× slower than {}",
                x / y.max(1e-9),
                other.design
            ));
        }
    }
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
    // Verified designs first, fastest first; then the others in registry order.
    let order = |b: &Benchmark| (!b.verified, ns(b).unwrap_or(f64::INFINITY));
    results
        .benchmarks
        .sort_by(|a, b| order(a).partial_cmp(&order(b)).expect("no NaN"));
    let ranking = (0..results.benchmarks.len())
        .filter(|&i| results.benchmarks[i].verified)
        .collect();
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

/// The cache simulator for `prepared`, or why there is none.
fn simulator<F: Family>(
    prepared: &PreparedTrace<F>,
    work_dir: &Path,
) -> Result<(CacheSim, PathBuf), String> {
    let valgrind = cache_sim::find_valgrind().map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let sim = CacheSim::new(
        exe,
        valgrind,
        work_dir.to_path_buf(),
        cache_sim::default_jobs(),
    )
    .map_err(|e| e.to_string())?;
    let trace_file = sim.write_trace(prepared).map_err(|e| e.to_string())?;
    Ok((sim, trace_file))
}

/// Verifies, times and measures every design of `F` and `X` on `trace`; also says why cache
/// misses were not simulated, if they were not.
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
        .and_then(|()| simulator(&prepared, work_dir.path()));
    let (pass, cache_skipped) = match &sim {
        Ok((sim, trace_file)) => (
            Some(CacheSimPass {
                sim,
                trace_file: trace_file.clone(),
            }),
            None,
        ),
        Err(reason) => (None, Some(reason.clone())),
    };
    let designs = design_records_with::<F, X>();
    let progress = |line: String| {
        if options.progress {
            eprintln!("advise: {line}");
        }
    };
    progress(format!(
        "{} trace {:?}, n = {}: timing {} designs, {} replays each{}",
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
        samples: options.samples,
        total: designs.len(),
        progress: &progress,
        benchmarks: Vec::new(),
    };
    for_each_replayer_with::<F, X, _>(&mut visit);
    let mut benchmarks = visit.benchmarks;
    if let Some(pass) = pass {
        // The fastest verified designs, by the medians just measured.
        let mut chosen: Vec<&Benchmark> = benchmarks.iter().filter(|b| b.verified).collect();
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
    fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
        let name = R::design_name();
        if role != Role::Design || !self.chosen.iter().any(|c| c == name) {
            return;
        }
        let p = self.prepared;
        let checked = bench_harness::verify::Checked {
            outcome: bench_harness::verify::Outcome::Verified,
            memory_bytes_after_setup: None,
            setup_and_body_time: None,
        };
        match self.pass.measure::<R>(p, &checked) {
            Ok(pending) => self.pending.push((name.to_string(), pending)),
            Err(e) => eprintln!("dodbench: {name}: {e}"),
        }
    }
}

/// One design's row of the advice.
struct AdviseDesign<'a, F: Family> {
    prepared: &'a PreparedTrace<F>,
    samples: usize,
    /// Designs in all, for the progress lines.
    total: usize,
    progress: &'a dyn Fn(String),
    benchmarks: Vec<Benchmark>,
}

impl<F: Family> ReplayerVisitor<F> for AdviseDesign<'_, F> {
    fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
        if role != Role::Design {
            return;
        }
        let p = self.prepared;
        let name = R::design_name();
        let checked = check_replayer::<R>(&p.trace, &p.expected);
        let mut verdict = Verdict::of(p, name, &checked);
        let mut estimate = None;
        let mut per_iter = Vec::new();
        if verdict.outcome.is_verified() {
            let mut timed = TimedReplay::<R>::new(&p.trace, &p.expected);
            for _ in 0..self.samples {
                match timed.run(1) {
                    Ok(d) => per_iter.push(d.as_nanos() as f64),
                    Err(e) => {
                        verdict.outcome = bench_harness::verify::Outcome::Failed(e);
                        break;
                    }
                }
            }
            if verdict.outcome.is_verified() {
                let (median, lower, upper) = median_and_range(&mut per_iter.clone());
                estimate = Some(Estimate {
                    median,
                    lower,
                    upper,
                });
            }
        }
        let memory =
            (verdict.outcome.is_verified() && is_installed()).then(|| measure_memory::<R>(p));
        let mut b = verdict.into_benchmark(estimate, Some(per_iter));
        if let Some(m) = memory {
            match m {
                Ok(m) => {
                    b.alloc_calls_per_op = Some(m.alloc_calls as f64 / b.ops.max(1) as f64);
                    b.memory = Some(m);
                }
                Err(e) => {
                    b.verified = false;
                    b.status = Status::Failed;
                    b.reason = Some(format!("memory replay: {e}"));
                    b.ns_per_op = None;
                }
            }
        }
        (self.progress)(format!(
            "[{}/{}] {}: {}",
            self.benchmarks.len() + 1,
            self.total,
            b.design,
            match ns(&b) {
                Some(ns) => format!("verified, {ns:.2} ns/op"),
                None => format!("{} ({})", b.status, b.reason.as_deref().unwrap_or("")),
            }
        ));
        self.benchmarks.push(b);
    }
}
