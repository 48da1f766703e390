//! The criterion driver of `cargo bench` (`benches/dodbench.rs` runs the `dodbench` binary with
//! [`RUN_AS_BENCH`] set, and the binary calls [`main`]) and of
//! `dodbench::external` (a user's design beside a family's registry, [`run`]): every
//! (family × workload × design × N), verified, timed by criterion, written to
//! `target/dodbench/results.json`, and rendered as the HTML report in `target/dodbench/report/`.
//!
//! One generic driver serves every family of a [`DesignList`] and every design of its
//! registry plus the list's extra designs: [`Run`] visits the families, [`FamilyBench::visit`]
//! verifies, measures and times one replayer. There is no per-family or per-design bench code.
//!
//! Environment: `DODBENCH_QUICK=1` (short measurement, small matrix, for CI),
//! `DODBENCH_FULL=1` (the exhaustive matrix), `DODBENCH_SIZES`, `DODBENCH_SEED`,
//! `DODBENCH_FRESH=1` (a new results file; by default a run merges into the file of the same
//! commit, machine, mode and seed, so a filtered run keeps the other benchmarks). A criterion
//! filter (`cargo bench -- tags`, matched against `family/workload/design/n`) selects
//! benchmarks; which ones it selects is asked of criterion itself (this binary re-run with
//! `--list`), so a trace is only generated when criterion will time one of its benchmarks.
//!
//! [`FamilyBench::visit`]: cell::FamilyBench::visit

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use bench_harness::assemble::{Verdict, bench_results, workload_record};
use bench_harness::criterion_output::{read_medians, read_samples};
use bench_harness::families::{AllFamilies, DesignList, ListVisitor};
use bench_harness::instance::{self, Place};
use bench_harness::replay::Scale;
use bench_harness::replay::{ExtraDesigns, Family, design_records_with, mirrored_designs};
use bench_harness::rounds::RoundsTiming;
use bench_harness::suite::{PreparedTrace, SuiteConfig, TimerKind};
use bench_harness::verify::Outcome;
use criterion::{Criterion, SamplingMode, Throughput};
use results::shards::ShardRecord;
use results::stats::{Samples, fastest_first_in, median_interval, paired_ratio_in};
use results::{
    Benchmark, DesignRecord, FamilyRecord, Results, SameRun, StepRecord, WorkloadRecord,
    default_results_path, target_dir,
};
use workloads::TraceStats;

mod cell;
mod children;
mod instances;
mod launcher;
mod matrix;

pub use launcher::RUN_AS_BENCH;

use cell::{CellBench, InstanceTimings, Step};
use children::{BenchKey, LIST_CHILD, RUN_CHILD, relay_run_child, selected_by_criterion};
use instances::InstanceRequest;
use matrix::{Lister, Universe, matrix, selection_text};

/// Per-benchmark time budget. The wall time of a benchmark whose body mutates the design
/// includes an untimed rebuild per timed replay, so its measurement time is scaled down by the
/// setup/body ratio measured during verification.
#[derive(Clone, Copy)]
struct Budget {
    warm_up: Duration,
    measurement: Duration,
    /// Criterion samples per benchmark.
    samples: usize,
}

/// The whole run: visits every family and keeps what the timings are joined to.
struct Run {
    criterion: Criterion,
    config: SuiteConfig,
    selected: Rc<HashSet<BenchKey>>,
    budget: Budget,
    verdicts: Vec<Verdict>,
    /// Under [`TimerKind::Rounds`]: each timed verdict's rounds (by index in `verdicts`) with
    /// its cell's session.
    rounds: HashMap<usize, (u64, RoundsTiming)>,
    /// Cells timed so far (each one's session is derived from its index).
    cells: u64,
    /// Mixed with the cell index into each cell's session (unique per run).
    session_base: u64,
    /// Whether the run said that its cells' instances run in this process ([`Run::note_place`]).
    noted_in_process: bool,
    started: std::time::Instant,
    /// Each cell's wall milliseconds (`family/workload/n`), from its trace's generation to its
    /// closing line: the bench step records them, and a later split reads them
    /// (`DODBENCH_SHARD_TIMES`).
    cell_ms: BTreeMap<String, u64>,
    workload_records: Vec<WorkloadRecord>,
    design_records: Vec<DesignRecord>,
    family_records: Vec<FamilyRecord>,
}

impl ListVisitor for Run {
    /// Every selected (workload, n) of family `F`: generate, verify, time.
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        let verdicts_before = self.verdicts.len();
        let mirrored = mirrored_designs::<F>();
        for (workload, n, recorded) in matrix::<F>(&self.config) {
            let group_name = format!("{}/{workload}", F::NAME);
            let n_text = n.to_string();
            if !self
                .selected
                .iter()
                .any(|(g, _, k)| *g == group_name && *k == n_text)
            {
                continue;
            }
            let cell_started = std::time::Instant::now();
            let prepared = match recorded {
                Some(trace) => PreparedTrace::<F>::from_trace(trace),
                None => PreparedTrace::<F>::generate(workload, n, self.config.seed),
            }
            .unwrap_or_else(|e| fail(&format!("cannot prepare {workload} at n={n}: {e}")));
            self.workload_records
                .push(workload_record(&prepared, self.config.seed));
            let done_before = self.verdicts.len();
            let cell = CellBench {
                group_name: &group_name,
                prepared: &prepared,
                selected: Rc::clone(&self.selected),
                budget: self.budget,
                mirrored: &mirrored,
            };
            // Under criterion each design is timed as it is visited (one group per cell); in
            // rounds the cell's designs are verified in a process of their own, then timed in
            // instances, each a process of its own ([`bench_harness::instance`]).
            let rounds = match self.config.timer {
                TimerKind::Criterion => {
                    let mut group = self.criterion.benchmark_group(group_name.as_str());
                    group
                        .sampling_mode(SamplingMode::Flat)
                        .throughput(Throughput::Elements(
                            prepared.expected.stats.work_units().max(1),
                        ));
                    let verdicts = cell.visit::<X>(Step::Criterion(&mut group));
                    group.finish();
                    self.verdicts.extend(verdicts);
                    None
                }
                TimerKind::Rounds => {
                    let verdicts = match instance::in_child(|| cell.visit::<X>(Step::Verify)) {
                        Ok((verdicts, place)) => {
                            self.note_place(place);
                            verdicts
                        }
                        Err(e) => fail(&format!("{group_name} N={n}: verifying the designs: {e}")),
                    };
                    self.verdicts.extend(verdicts);
                    Some(self.time_cell::<F>(&cell, done_before))
                }
            };
            self.report_progress(&group_name, n, done_before, rounds.as_deref());
            self.cell_ms.insert(
                format!("{group_name}/{n}"),
                cell_started.elapsed().as_millis() as u64,
            );
        }
        // Only families the run measured list their designs (a filtered run is not a report
        // on the others).
        if self.verdicts.len() > verdicts_before {
            self.design_records.extend(design_records_with::<F, X>());
            self.family_records.push(F::family_record());
        }
    }
}

impl Run {
    /// Times the designs of one cell verified as `self.verdicts[first..]` in interleaved rounds
    /// (`bench_harness::rounds`), split over [`SuiteConfig::instances`] instances, and keeps each
    /// one's timing (its rounds instance after instance), or fails its verdict; how the rounds
    /// went, in words.
    fn time_cell<F: Family>(&mut self, cell: &CellBench<'_, F>, first: usize) -> String {
        let session = self.session_base ^ self.cells.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.cells += 1;
        let instances = self.config.instances();
        let budget = self.config.rounds_budget().per_instance(instances);
        let verified = self.verdicts[first..].to_vec();
        let verified = verified.as_slice();
        let mut merged: Vec<Option<Result<RoundsTiming, String>>> = vec![None; verified.len()];
        let mut shapes = Vec::with_capacity(instances);
        let cell_name = instances::cell_name(cell.group_name, cell.prepared.n);
        // The instance visits the designs the cell's verdicts name, in their order (a design or
        // loop selected but without a verdict has none in the instance either).
        let selected: Vec<String> = verified.iter().map(|v| v.design.clone()).collect();
        let contestants = verified.iter().filter(|v| v.outcome.is_verified()).count();
        let deadline = instances::deadline(&budget, contestants);
        let expected = serde_json::to_string(&cell.prepared.expected)
            .unwrap_or_else(|e| fail(&format!("{cell_name}: cannot write its answers: {e}")));
        for k in 0..instances {
            // Each instance its own order of rounds and its own heap padding.
            let seed = session ^ (k as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407);
            let earlier: Vec<Option<RoundsTiming>> = merged
                .iter()
                .map(|m| m.as_ref().and_then(|t| t.as_ref().ok().cloned()))
                .collect();
            let request = InstanceRequest {
                selected: selected.clone(),
                verified: verified.to_vec(),
                earlier,
                seed,
                expected: expected.clone(),
            };
            let answer: Result<InstanceTimings, _> =
                instance::in_new_process(&cell_name, &request, deadline);
            let (timings, shape) = match answer {
                Ok(answer) => answer,
                // The instances before it stand: their rounds pair among themselves.
                Err(e @ instance::InstanceError::OverDeadline(_)) if k > 0 => {
                    shapes.push(format!(
                        " instance {} of {instances} stopped ({e}), the cell keeps the {k} before it",
                        k + 1
                    ));
                    break;
                }
                Err(e) => {
                    let why = format!("instance {} of {instances}: {e}", k + 1);
                    let all = (0..verified.len()).filter(|&i| verified[i].outcome.is_verified());
                    (all.map(|i| (i, Err(why.clone()))).collect(), String::new())
                }
            };
            shapes.push(shape);
            merge_instance(&mut merged, timings, || {
                format!("instance {} of {instances} could not time it", k + 1)
            });
        }
        for (i, timing) in merged.into_iter().enumerate() {
            match timing {
                Some(Ok(mut t)) => {
                    if instances == 1 {
                        t.instances.clear();
                    }
                    self.rounds.insert(first + i, (session, t));
                }
                Some(Err(e)) => self.verdicts[first + i].outcome = Outcome::Failed(e),
                None => {}
            }
        }
        match instances {
            1 => shapes.concat(),
            _ => format!(" in {instances} instances:{}", shapes.join(";")),
        }
    }

    /// Says once, on standard error, when a cell's verification ran in this process instead of
    /// a child of its own (this process had other threads, or cannot fork here): the designs'
    /// states it builds then stay in this process's heap, which the timing instances, each a
    /// process of its own, do not inherit.
    fn note_place(&mut self, place: Place) {
        if place == Place::InProcess && !self.noted_in_process {
            self.noted_in_process = true;
            eprintln!(
                "dodbench: this process cannot fork a child to verify its cells' designs (it has \
                 other threads, or this is not Linux): they are verified in it"
            );
        }
    }

    /// One line on standard error after each cell: benchmarks done of the run's total, time
    /// taken and left, and what the cell found (its fastest design and how sure that is).
    fn report_progress(
        &self,
        group_name: &str,
        n: usize,
        done_before: usize,
        rounds: Option<&str>,
    ) {
        let done = self.verdicts.len();
        let total = self.selected.len().max(done);
        let elapsed = self.started.elapsed();
        let left = if done > 0 {
            elapsed.mul_f64((total - done) as f64 / done as f64)
        } else {
            Duration::ZERO
        };
        let cell = &self.verdicts[done_before..];
        let untimed = cell.iter().filter(|v| !v.outcome.is_verified()).count();
        let timed: Vec<(&str, &RoundsTiming)> = (done_before..done)
            .filter(|i| !self.verdicts[*i].reference)
            .filter_map(|i| {
                let (_, t) = self.rounds.get(&i)?;
                Some((self.verdicts[i].design.as_str(), t))
            })
            .collect();
        let samples: Vec<Samples<'_>> = timed.iter().map(|(_, t)| samples_of(t)).collect();
        let ranked: Vec<(&str, &RoundsTiming)> = fastest_first_in(&samples)
            .into_iter()
            .map(|i| timed[i])
            .collect();
        let median =
            |s: &[f64]| median_interval(&mut s.to_vec()).map_or(f64::INFINITY, |e| e.median);
        let finding = match ranked.as_slice() {
            [] => String::new(),
            [(only, _)] => format!("; only {only} timed"),
            [(first, a), (second, b), ..] => {
                let gap = results::Gap {
                    ratio: median(&b.ns_per_replay) / median(&a.ns_per_replay),
                    paired: paired_ratio_in(samples_of(b), samples_of(a), first),
                };
                format!("; fastest {first}, then {second} {}", gap.describe())
            }
        };
        let rounds = rounds.unwrap_or_default();
        eprintln!(
            "dodbench: {done}/{total} benchmarks, {} taken, about {} left | {group_name} N={n}: \
             {} timed{rounds}, {untimed} not{finding}",
            minutes(elapsed),
            minutes(left),
            cell.len() - untimed,
        );
    }
}

/// Appends one instance's `timings` (by verdict index) to each design's rounds so far,
/// recording the instance's length; an error in any instance is the design's. A design the
/// instance did not time fails with `missing()`: its later rounds would pair with the wrong
/// instance of the others.
fn merge_instance(
    merged: &mut [Option<Result<RoundsTiming, String>>],
    timings: Vec<(usize, Result<RoundsTiming, String>)>,
    missing: impl Fn() -> String,
) {
    let mut timed = vec![false; merged.len()];
    for (i, timing) in timings {
        timed[i] = true;
        merged[i] = Some(match (merged[i].take(), timing) {
            (Some(Err(e)), _) | (_, Err(e)) => Err(e),
            (None, Ok(mut t)) => {
                t.instances = vec![t.ns_per_replay.len() as u32];
                Ok(t)
            }
            (Some(Ok(mut all)), Ok(t)) => {
                all.instances.push(t.ns_per_replay.len() as u32);
                all.ns_per_replay.extend(t.ns_per_replay);
                Ok(all)
            }
        });
    }
    for (entry, timed) in merged.iter_mut().zip(timed) {
        if !timed && matches!(entry, Some(Ok(_))) {
            *entry = Some(Err(missing()));
        }
    }
}

/// A timing's samples with its instances, as the results pair them.
fn samples_of(t: &RoundsTiming) -> Samples<'_> {
    Samples {
        values: &t.ns_per_replay,
        instances: &t.instances,
    }
}

/// The one command that shrinks a failed benchmark's verification: `dodbench shrink` for a
/// registered design, the library call for a design from another crate (which `dodbench` does
/// not know by name).
fn shrink_hint(b: &Benchmark, seed: u64, designs: &[DesignRecord]) -> String {
    let source = crate::shrink::Source::Workload {
        name: &b.workload,
        n: b.n as usize,
        seed,
    };
    let external = designs
        .iter()
        .any(|d| d.family == b.family && d.name == b.design && d.kind == "external");
    if external {
        format!(
            "dodbench::external::shrink::<Family, YourDesign>(ShrinkSource::Workload {{ name: \
             \"{}\", n: {}, seed: {seed} }}, out_dir, time_limit) from a test or example of \
             your crate",
            b.workload, b.n
        )
    } else {
        crate::shrink::command("target/release/dodbench", source, &b.design)
    }
}

/// Prints `message` and exits with status 2 (a user or setup error, not a measurement).
fn fail(message: &str) -> ! {
    eprintln!("dodbench: {message}");
    std::process::exit(2);
}

/// What one run measured, for its closing line.
struct RunCounts {
    verified: usize,
    unsupported: usize,
    failed: usize,
}

impl RunCounts {
    fn of(benchmarks: &[Benchmark]) -> Self {
        let count = |status| benchmarks.iter().filter(|b| b.status == status).count();
        Self {
            verified: count(results::Status::Verified),
            unsupported: count(results::Status::Unsupported),
            failed: count(results::Status::Failed),
        }
    }
}

impl std::fmt::Display for RunCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this run: {} benchmarks verified and timed, {} unsupported, {} failed",
            self.verified, self.unsupported, self.failed
        )
    }
}

/// `d` as `12 min 05 s` (or `8.4 s` under a minute).
fn minutes(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1} s")
    } else {
        format!("{} min {:02} s", (s / 60.0) as u64, s as u64 % 60)
    }
}

/// This run's `new` results merged into the file at `path` when that file holds a run of the
/// same commit, machine, mode and seed (`results::merge`: a filtered run refreshes its
/// benchmarks and keeps the rest), with the closing line's account of what happened. A file
/// of another run, an unreadable one, or any file under `DODBENCH_FRESH=1` is copied to
/// `results.prev.json` beside it first, and this run starts a new file.
fn merged_into_file(new: Results, path: &Path, fresh: bool) -> (Results, String) {
    let total = |r: &Results| r.benchmarks.len();
    if !path.exists() {
        let how = format!("{} benchmarks", total(&new));
        return (new, how);
    }
    let why_new = match Results::load(path) {
        Err(e) => format!("the previous file could not be read ({e})"),
        Ok(_) if fresh => "DODBENCH_FRESH=1".to_string(),
        Ok(mut older) => match SameRun::of(&older).differs(&SameRun::of(&new)) {
            None => {
                let c = older.merge_newer(new);
                let how = format!(
                    "{} benchmarks: this run replaced {} and added {}, {} kept from the earlier \
                     run of this commit; DODBENCH_FRESH=1 starts a new file",
                    total(&older),
                    c.replaced,
                    c.added,
                    c.kept
                );
                return (older, how);
            }
            Some(why) => format!("the previous file was of {why}"),
        },
    };
    let prev = path.with_extension("prev.json");
    let kept = std::fs::read(path)
        .and_then(|bytes| results::write_atomically(&prev, &bytes))
        .map_or_else(
            |e| format!("could not keep it as {}: {e}", prev.display()),
            |()| format!("kept as {}", prev.display()),
        );
    let how = format!("{} benchmarks, a new file: {why_new}, {kept}", total(&new));
    (new, how)
}

/// `cargo bench`: every family with its registered designs (the `dodbench` binary runs it when
/// [`RUN_AS_BENCH`] is set).
pub fn main() {
    run::<AllFamilies>();
}

/// The whole bench over the families and designs of `L`: reads the environment and criterion's
/// arguments, runs, writes results and the report; exits with status 2 on a setup error.
pub fn run<L: DesignList>() {
    let started = std::time::Instant::now();
    let config = SuiteConfig::from_env().unwrap_or_else(|e| fail(&e));
    if let Some(cell) = instance::started_for() {
        instances::serve_instance::<L>(config, &cell);
    }
    let criterion_dir = target_dir().join("criterion");
    let (budget, samples, resamples) = criterion_budget(config.scale);
    let mut criterion = Criterion::default()
        .output_directory(&criterion_dir)
        .sample_size(samples)
        .nresamples(resamples)
        .without_plots()
        .configure_from_args();
    let listing = std::env::var_os(LIST_CHILD).is_some() || std::env::args().any(|a| a == "--list");
    if !listing && std::env::var_os(RUN_CHILD).is_none() {
        std::process::exit(relay_run_child());
    }
    if listing {
        L::for_each(&mut Lister {
            criterion: &mut criterion,
            config: &config,
        });
        return;
    }
    let mut selected = selected_by_criterion().unwrap_or_else(|e| fail(&e));
    let shard_share = config.shard.map(|shard| {
        let (mine, share) = shard_selection(&selected, shard, &config);
        selected = mine;
        (shard, share)
    });
    let session_base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut run = Run {
        criterion,
        config,
        selected: Rc::new(selected),
        budget,
        verdicts: Vec::new(),
        rounds: HashMap::new(),
        cells: 0,
        session_base,
        noted_in_process: false,
        started,
        cell_ms: BTreeMap::new(),
        workload_records: Vec::new(),
        design_records: Vec::new(),
        family_records: Vec::new(),
    };
    L::for_each(&mut run);
    let by_criterion = run.config.timer == TimerKind::Criterion;
    let (medians, mut samples) = if by_criterion {
        run.criterion.final_summary();
        (read_medians(&criterion_dir), read_samples(&criterion_dir))
    } else {
        Default::default()
    };
    let mut rounds = std::mem::take(&mut run.rounds);
    let mut benchmarks: Vec<_> = run
        .verdicts
        .into_iter()
        .enumerate()
        .map(|(i, v)| match rounds.remove(&i) {
            Some((session, t)) => v.into_rounds_benchmark(session, t),
            None => {
                let key = v.criterion_key();
                let estimate = medians.get(&key).copied();
                v.into_benchmark(estimate, samples.remove(&key))
            }
        })
        .collect();
    report_unverified(&mut benchmarks, run.config.seed, &run.design_records);
    let mut universe = Universe {
        seed: run.config.seed,
        ids: Vec::new(),
    };
    L::for_each(&mut universe);
    let mut step = StepRecord::new(
        "bench",
        &selection_text(&run.config),
        universe.ids,
        benchmarks.iter().map(Benchmark::id),
    );
    step.seconds = Some(started.elapsed().as_secs());
    let mut results = bench_results(
        run.config.mode(),
        run.family_records,
        run.design_records,
        run.workload_records,
        benchmarks,
    );
    step.cell_ms = std::mem::take(&mut run.cell_ms);
    results.steps.push(step);
    results.shard = shard_share.map(|(shard, share)| ShardRecord {
        shard,
        selected: share.all_cells,
        ran: cells_ran(&results.benchmarks),
        plan: share.plan,
    });
    write_results_and_report(results, run.config.fresh, started);
}

/// The cells (workload and size) `benchmarks` ran.
fn cells_ran(benchmarks: &[Benchmark]) -> usize {
    let cells: HashSet<(&str, u64)> = benchmarks
        .iter()
        .map(|b| (b.workload.as_str(), b.n))
        .collect();
    cells.len()
}

/// The time budget per benchmark at `scale`, with criterion's samples per benchmark and its
/// bootstrap resamples.
fn criterion_budget(scale: Scale) -> (Budget, usize, usize) {
    match scale {
        Scale::Quick => (
            Budget {
                warm_up: Duration::from_millis(10),
                measurement: Duration::from_millis(60),
                samples: 10,
            },
            10,
            5_000,
        ),
        Scale::Default => (
            Budget {
                warm_up: Duration::from_millis(80),
                measurement: Duration::from_millis(300),
                samples: 20,
            },
            20,
            10_000,
        ),
        Scale::Full => (
            Budget {
                warm_up: Duration::from_millis(300),
                measurement: Duration::from_millis(1200),
                samples: 20,
            },
            20,
            20_000,
        ),
    }
}

/// The cells of `selected` that `shard` runs (`DODBENCH_SHARD`), dealt by the cell times of
/// `DODBENCH_SHARD_TIMES` or else by the rounds budget, and its share; says so on stderr.
fn shard_selection(
    selected: &HashSet<BenchKey>,
    shard: results::shards::Shard,
    config: &SuiteConfig,
) -> (HashSet<BenchKey>, matrix::ShardShare) {
    let times = config
        .shard_times
        .as_deref()
        .map(matrix::cell_seconds_of)
        .transpose()
        .unwrap_or_else(|e| fail(&e))
        .unwrap_or_default();
    let (mine, share) = matrix::shard_of(
        selected,
        shard,
        config.rounds_budget().per_contestant,
        &times,
    );
    let by = match &config.shard_times {
        Some(path) => format!("the cell times of {}", path.display()),
        None => "the rounds budget".to_string(),
    };
    eprintln!(
        "dodbench: shard {shard}: {} of the selection's {} cells, about {} of its {} by {by} \
         (`dodbench merge` puts the shards' results files together)",
        share.cells,
        share.all_cells,
        minutes(Duration::from_secs_f64(share.seconds)),
        minutes(Duration::from_secs_f64(share.all_seconds)),
    );
    (mine, share)
}

/// Prints every benchmark that was not verified, with its reason, and gives each failed
/// design's benchmark the command that shrinks its failure ([`Benchmark::shrink`]).
fn report_unverified(benchmarks: &mut [Benchmark], seed: u64, designs: &[DesignRecord]) {
    for b in benchmarks.iter_mut().filter(|b| !b.verified) {
        if b.status == results::Status::Failed && !b.family.is_reference() {
            b.shrink = Some(shrink_hint(b, seed, designs));
        }
        eprintln!(
            "dodbench: {}/{}/{}/{}: {} ({})",
            b.family,
            b.workload,
            b.design,
            b.n,
            b.status,
            b.reason.as_deref().unwrap_or("")
        );
        if let Some(command) = &b.shrink {
            eprintln!("dodbench:   shrink it: {command}");
        }
    }
}

/// Merges `results` into the results file (a new one when `fresh`), saves it and renders the
/// report; exits with status 1 when either cannot be written.
fn write_results_and_report(results: Results, fresh: bool, started: std::time::Instant) {
    let this_run = RunCounts::of(&results.benchmarks);
    let path = default_results_path();
    let (results, how) = merged_into_file(results, &path, fresh);
    match results.save(&path) {
        Ok(()) => println!("dodbench: wrote {} ({how})", path.display()),
        Err(e) => {
            eprintln!("dodbench: {e}");
            std::process::exit(1);
        }
    }
    let options = reports::RenderOptions {
        source: Some(path),
        ..Default::default()
    };
    match reports::render(&results, &reports::default_report_dir(), &options) {
        Ok(summary) => {
            println!("dodbench: report at {}", summary.index.display());
            println!("dodbench: {this_run}, in {}", minutes(started.elapsed()));
        }
        Err(e) => {
            eprintln!("dodbench: cannot write the report: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(ns: &[f64]) -> Result<RoundsTiming, String> {
        Ok(RoundsTiming {
            iters: 1,
            ns_per_replay: ns.to_vec(),
            instances: Vec::new(),
            wall_ns_per_replay: 0,
        })
    }

    #[test]
    fn instances_append_their_rounds_and_a_gap_or_an_error_fails_the_design() {
        let mut merged: Vec<Option<Result<RoundsTiming, String>>> = vec![None; 4];
        // Design 3 was not verified: no instance times it, and it stays without a timing.
        let first = vec![
            (0, timing(&[1.0, 2.0])),
            (1, timing(&[3.0])),
            (2, timing(&[4.0])),
        ];
        merge_instance(&mut merged, first, || "missing".into());
        let second = vec![(0, timing(&[5.0])), (1, Err("wrong answer".into()))];
        merge_instance(&mut merged, second, || "missing".into());
        let third = vec![(0, timing(&[6.0, 7.0])), (1, timing(&[8.0]))];
        merge_instance(&mut merged, third, || "missing".into());
        let Some(Ok(design)) = &merged[0] else {
            panic!("{:?}", merged[0])
        };
        assert_eq!(design.ns_per_replay, [1.0, 2.0, 5.0, 6.0, 7.0]);
        assert_eq!(design.instances, [2, 1, 2]);
        assert_eq!(
            merged[1],
            Some(Err("wrong answer".into())),
            "an error stays"
        );
        assert_eq!(
            merged[2],
            Some(Err("missing".into())),
            "the second left it out"
        );
        assert_eq!(merged[3], None);
    }

    #[test]
    fn a_failed_benchmark_names_the_command_that_shrinks_it() {
        use bench_harness::replay::{Family as _, IdTableFamily};
        let mut designs = IdTableFamily::design_records();
        let b = Benchmark::new(results::Family::IdTable, "churn", "holey", 65_536, 1);
        assert_eq!(
            shrink_hint(&b, 7, &designs),
            "target/release/dodbench shrink --workload churn --n 65536 --seed 7 --design holey \
             --out target/dodbench/shrink/holey-churn-65536"
        );
        // A design from another crate is not known to `dodbench` by name: the library call.
        designs.iter_mut().find(|d| d.name == "holey").unwrap().kind = "external".to_string();
        assert!(
            shrink_hint(&b, 7, &designs).starts_with(
                "dodbench::external::shrink::<Family, YourDesign>(ShrinkSource::Workload { name: \
                 \"churn\", n: 65536, seed: 7 }"
            ),
            "{}",
            shrink_hint(&b, 7, &designs)
        );
    }
}
