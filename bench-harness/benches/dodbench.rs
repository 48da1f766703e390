//! `cargo bench`: every (family × workload × design × N), verified, timed by criterion,
//! written to `target/dodbench/results.json`, and rendered as the HTML report in
//! `target/dodbench/report/`.
//!
//! One generic driver ([`FamilyBench::bench`], generic over a family's [`Replayer`]) serves
//! every design of every family; each family's registry visitor is a one-line adapter onto it.
//! There is no per-design bench code. Environment: `DODBENCH_QUICK=1` (short measurement, for
//! CI), `DODBENCH_SIZES`, `DODBENCH_SEED`. A criterion name filter (`cargo bench -- tags`,
//! matched against `family/workload/design/n`) selects benchmarks; traces are only generated
//! for selected ones.

use std::cell::RefCell;
use std::time::Duration;

use bench_harness::criterion_output::{read_medians, read_samples};
use bench_harness::reference::{DirectLookup, VecIterate};
use bench_harness::replay::{
    AllocFamily, AllocReplay, Family, IdTableFamily, ReplayState, Replayer, SystemAlloc, TagFamily,
    TagReplay,
};
use bench_harness::suite::{
    ID_TABLE_FAMILY, PreparedTrace, SuiteConfig, alloc_design_record, current_commit,
    design_record, tag_design_record, toolchain, unix_now,
};
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Outcome, check_replayer};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use impls::alloc::{AllocDesignVisitor, BlockAllocator, alloc_designs, for_each_alloc_design};
use impls::id_table::holey::Holey;
use impls::id_table::{DesignVisitor, IdTable, designs, for_each_design};
use impls::tags::{TagDesignVisitor, TagStore, for_each_tag_design, tag_designs};
use regex::Regex;
use results::{
    Benchmark, DesignRecord, FamilyMetrics, FamilyRecord, Results, SCHEMA_VERSION, WorkloadRecord,
    default_results_path, target_dir,
};
use workloads::{Payload, TraceStats};

/// Which benchmarks the command line selects, mirroring criterion's own filter (a regex
/// matched against `group/function/value`, or `--exact`), so unselected traces are never
/// generated.
struct Selection {
    filter: Option<Regex>,
    exact: Option<String>,
}

impl Selection {
    fn from_args() -> Self {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let takes_value = [
            "--save-baseline",
            "-s",
            "--baseline",
            "-b",
            "--baseline-lenient",
            "--load-baseline",
            "--sample-size",
            "--warm-up-time",
            "--measurement-time",
            "--nresamples",
            "--noise-threshold",
            "--confidence-level",
            "--significance-level",
            "--profile-time",
            "--plotting-backend",
            "--output-format",
            "--color",
            "-c",
            "--format",
        ];
        let mut positional = None;
        let mut exact = false;
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a == "--exact" {
                exact = true;
            } else if takes_value.contains(&a.as_str()) {
                i += 1;
            } else if !a.starts_with('-') && positional.is_none() {
                positional = Some(a.clone());
            }
            i += 1;
        }
        match positional {
            None => Self {
                filter: None,
                exact: None,
            },
            Some(p) if exact => Self {
                filter: None,
                exact: Some(p),
            },
            Some(p) => Self {
                // Criterion itself rejects a bad regex with its own message.
                filter: Regex::new(&p).ok(),
                exact: None,
            },
        }
    }

    fn selects(&self, full_id: &str) -> bool {
        match (&self.filter, &self.exact) {
            (Some(re), _) => re.is_match(full_id),
            (None, Some(e)) => e == full_id,
            (None, None) => true,
        }
    }
}

/// A benchmark's verdict before criterion's numbers are read back.
struct Pending {
    /// `id_table`, `tags`, `alloc`, or `reference` for reference loops.
    family: &'static str,
    /// The family whose criterion group (`family/workload`) timed it.
    group_family: &'static str,
    workload: String,
    design: &'static str,
    n: usize,
    ops: u64,
    outcome: Outcome,
    memory_bytes: Option<u64>,
    live_after_setup: u64,
    metrics: Option<FamilyMetrics>,
}

/// Per-benchmark time budget. The wall time of a benchmark whose body mutates the design
/// includes an untimed rebuild per timed replay, so its measurement time is scaled down by the
/// setup/body ratio measured during verification.
struct Budget {
    warm_up: Duration,
    measurement: Duration,
}

/// The generic criterion driver for one prepared trace of family `F`: [`bench`](Self::bench)
/// verifies a design and, if verified, measures its family metrics and times it.
struct FamilyBench<'a, 'g, F: Family> {
    family: &'static str,
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    prepared: &'a PreparedTrace<F>,
    selection: &'a Selection,
    budget: &'a Budget,
    pending: &'a mut Vec<Pending>,
}

impl<F: Family> FamilyBench<'_, '_, F> {
    /// Verifies, measures and times the design of replayer `R` on the prepared trace.
    fn bench<R: Replayer<Family = F>>(&mut self) {
        self.bench_as::<R>(self.family);
    }

    /// As [`bench`](Self::bench), recording the result under `family` (`reference` for a
    /// reference loop timed beside the designs).
    fn bench_as<R: Replayer<Family = F>>(&mut self, family: &'static str) {
        let p = self.prepared;
        let name = R::design_name();
        if !self
            .selection
            .selects(&format!("{}/{}/{name}/{}", self.family, p.workload, p.n))
        {
            return;
        }
        let checked = check_replayer::<R>(&p.trace, &p.expected);
        let mut pending = Pending {
            family,
            group_family: self.family,
            workload: p.workload.clone(),
            design: name,
            n: p.n,
            ops: p.expected.stats.work_units(),
            outcome: checked.outcome,
            memory_bytes: checked.memory_bytes_after_setup,
            live_after_setup: p.expected.stats.live_at_start(),
            metrics: None,
        };
        if pending.outcome.is_verified() {
            match R::measure(&p.trace, &p.expected.stats) {
                Ok(metrics) => pending.metrics = metrics,
                Err(e) => pending.outcome = Outcome::Failed(format!("metrics replay {e}")),
            }
        }
        if pending.outcome.is_verified() {
            let mut timed = TimedReplay::<R>::new(&p.trace, &p.expected);
            // The share of wall time spent in the timed body: a body that mutates the design
            // needs an untimed rebuild per timed replay, which criterion's budget ignores.
            let share = match checked.setup_and_body_time {
                Some((setup, body)) if !p.trace.body_is_read_only() => {
                    (body.as_secs_f64() / (setup + body).as_secs_f64().max(1e-9)).clamp(0.05, 1.0)
                }
                _ => 1.0,
            };
            if let Err(reason) = time_verified(
                self.group,
                BenchmarkId::new(name, p.n),
                self.budget,
                share,
                |iters| timed.run(iters),
            ) {
                pending.outcome = Outcome::Failed(reason);
            }
        }
        self.pending.push(pending);
    }
}

impl DesignVisitor<Payload> for FamilyBench<'_, '_, IdTableFamily> {
    fn visit<D: IdTable<Payload> + 'static>(&mut self) {
        self.bench::<ReplayState<D>>();
    }
}

impl TagDesignVisitor for FamilyBench<'_, '_, TagFamily> {
    fn visit<S: TagStore + 'static>(&mut self) {
        self.bench::<TagReplay<S>>();
    }
}

impl AllocDesignVisitor for FamilyBench<'_, '_, AllocFamily> {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        self.bench::<AllocReplay<A>>();
    }
}

/// What the run loop needs of a family: its name, designs, sizes and how to visit its designs
/// (plus reference loops) on one prepared trace.
trait BenchFamily: Family + Sized {
    /// Family name in results and benchmark IDs.
    const NAME: &'static str;
    /// The registry's designs as results records.
    fn design_records() -> Vec<DesignRecord>;
    /// Whether any of the family's designs (or references) is selected for `workload` at `n`.
    fn selected(selection: &Selection, workload: &str, n: usize) -> bool {
        Self::design_records()
            .iter()
            .any(|d| selection.selects(&format!("{}/{workload}/{}/{n}", Self::NAME, d.name)))
            || Self::reference_names()
                .iter()
                .any(|r| selection.selects(&format!("{}/{workload}/{r}/{n}", Self::NAME)))
    }
    /// Names of the reference loops the family times beside its designs.
    fn reference_names() -> &'static [&'static str] {
        &[]
    }
    /// Runs [`FamilyBench::bench`] for every design, then the references.
    fn bench_all(bench: &mut FamilyBench<'_, '_, Self>);
}

impl BenchFamily for IdTableFamily {
    const NAME: &'static str = ID_TABLE_FAMILY.as_str();

    fn design_records() -> Vec<DesignRecord> {
        designs()
            .iter()
            .map(|d| design_record(ID_TABLE_FAMILY, d))
            .collect()
    }

    fn reference_names() -> &'static [&'static str] {
        &["ref-vec", "ref-holey-direct"]
    }

    fn bench_all(bench: &mut FamilyBench<'_, '_, Self>) {
        for_each_design(bench);
        bench_references(
            bench.group,
            bench.prepared,
            bench.selection,
            bench.budget,
            bench.pending,
        );
    }
}

impl BenchFamily for TagFamily {
    const NAME: &'static str = workloads::family::TAGS;

    fn design_records() -> Vec<DesignRecord> {
        tag_designs().iter().map(tag_design_record).collect()
    }

    fn bench_all(bench: &mut FamilyBench<'_, '_, Self>) {
        for_each_tag_design(bench);
    }
}

impl BenchFamily for AllocFamily {
    const NAME: &'static str = workloads::family::ALLOC;

    fn design_records() -> Vec<DesignRecord> {
        alloc_designs().iter().map(alloc_design_record).collect()
    }

    fn reference_names() -> &'static [&'static str] {
        &["system"]
    }

    fn bench_all(bench: &mut FamilyBench<'_, '_, Self>) {
        for_each_alloc_design(bench);
        bench.bench_as::<SystemAlloc>(REFERENCE_FAMILY);
    }
}

/// Criterion setup shared by every family.
struct Run {
    criterion: Criterion,
    config: SuiteConfig,
    selection: Selection,
    budget: Budget,
    pending: Vec<Pending>,
    workload_records: Vec<WorkloadRecord>,
    design_records: Vec<DesignRecord>,
}

impl Run {
    /// Every selected (workload, n) of family `F`: generate, verify, time.
    fn family<F: BenchFamily>(&mut self) {
        let pending_before = self.pending.len();
        for workload in workloads::registry::workloads_of(F::NAME) {
            // A recorded trace ignores n: run it once, under the n its header records.
            let sizes = if workload.recorded {
                vec![0]
            } else {
                self.config.sizes_for(F::NAME)
            };
            for n in sizes {
                if !workload.recorded && !F::selected(&self.selection, workload.name, n) {
                    continue;
                }
                let prepared =
                    match PreparedTrace::<F>::generate(workload.name, n.max(1), self.config.seed) {
                        Ok(p) => p,
                        Err(e) => {
                            eprintln!("dodbench: cannot prepare {} at n={n}: {e}", workload.name);
                            std::process::exit(2);
                        }
                    };
                if workload.recorded && !F::selected(&self.selection, workload.name, prepared.n) {
                    continue;
                }
                let ops = prepared.expected.stats.work_units();
                self.workload_records.push(WorkloadRecord {
                    family: family_named(F::NAME),
                    workload: workload.name.to_string(),
                    n: prepared.n as u64,
                    seed: self.config.seed,
                    params: prepared.trace.header.params.clone(),
                    ops,
                });
                let mut group =
                    self.criterion
                        .benchmark_group(format!("{}/{}", F::NAME, workload.name));
                group
                    .sampling_mode(SamplingMode::Flat)
                    .throughput(Throughput::Elements(ops.max(1)));
                F::bench_all(&mut FamilyBench {
                    family: F::NAME,
                    group: &mut group,
                    prepared: &prepared,
                    selection: &self.selection,
                    budget: &self.budget,
                    pending: &mut self.pending,
                });
                group.finish();
            }
        }
        // Only families the run measured list their designs (a filtered run is not a report
        // on the others).
        if self.pending.len() > pending_before {
            self.design_records.extend(F::design_records());
        }
    }
}

/// Times `run` (which performs `iters` verified, timed replays and returns the time inside
/// them) under criterion with `budget` scaled by `share`, the fraction of wall time a replay
/// spends in its timed body. Returns the first verification failure, if any: criterion's
/// numbers for that benchmark are then discarded.
fn time_verified(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    budget: &Budget,
    share: f64,
    mut run: impl FnMut(u64) -> Result<Duration, String>,
) -> Result<(), String> {
    group
        .warm_up_time(budget.warm_up.mul_f64(share).max(Duration::from_millis(10)))
        .measurement_time(
            budget
                .measurement
                .mul_f64(share)
                .max(Duration::from_millis(20)),
        );
    let failure = RefCell::new(None);
    group.bench_function(id, |b| {
        b.iter_custom(|iters| match run(iters) {
            Ok(d) => d,
            Err(e) => {
                failure.borrow_mut().get_or_insert(e);
                Duration::from_nanos(iters)
            }
        })
    });
    failure.into_inner().map_or(Ok(()), Err)
}

/// Family name of the reference loops in results.
const REFERENCE_FAMILY: &str = results::Family::Reference.as_str();

/// The results' family of a family name of this driver (registry and criterion names).
fn family_named(name: &str) -> results::Family {
    name.parse()
        .unwrap_or_else(|e| panic!("the bench's family names are results families: {e}"))
}

/// Times the reference loops (plain `Vec` sum, hand-written `holey` lookup loop) where the
/// trace's body has their shape. They share the workload's criterion group, under the names
/// `ref-vec` and `ref-holey-direct`, and go to results as family `reference`.
fn bench_references(
    group: &mut BenchmarkGroup<'_, WallTime>,
    p: &PreparedTrace,
    selection: &Selection,
    budget: &Budget,
    pending: &mut Vec<Pending>,
) {
    type Runner<'a> = Box<dyn FnMut(u64) -> Result<Duration, String> + 'a>;
    let mut runners: Vec<(&'static str, Runner<'_>)> = Vec::new();
    if let Some(vec) = VecIterate::for_trace(&p.trace, &p.expected) {
        runners.push(("ref-vec", Box::new(move |iters| vec.run(iters))));
    }
    if let Some(direct) = DirectLookup::<Holey<Payload>>::for_trace(&p.trace, &p.expected) {
        runners.push(("ref-holey-direct", Box::new(move |iters| direct.run(iters))));
    }
    for (name, mut run) in runners {
        let id = format!("{ID_TABLE_FAMILY}/{}/{name}/{}", p.workload, p.n);
        if !selection.selects(&id) {
            continue;
        }
        let mut outcome = match run(1) {
            Ok(_) => Outcome::Verified,
            Err(e) => Outcome::Failed(e),
        };
        if outcome.is_verified()
            && let Err(reason) =
                time_verified(group, BenchmarkId::new(name, p.n), budget, 1.0, &mut run)
        {
            outcome = Outcome::Failed(reason);
        }
        pending.push(Pending {
            family: REFERENCE_FAMILY,
            group_family: ID_TABLE_FAMILY.as_str(),
            workload: p.workload.clone(),
            design: name,
            n: p.n,
            ops: p.expected.stats.work_units(),
            outcome,
            memory_bytes: None,
            live_after_setup: p.expected.stats.live_at_start,
            metrics: None,
        });
    }
}

fn main() {
    let config = match SuiteConfig::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("dodbench: {e}");
            std::process::exit(2);
        }
    };
    let selection = Selection::from_args();
    let criterion_dir = target_dir().join("criterion");
    let (budget, samples, resamples) = if config.quick {
        (
            Budget {
                warm_up: Duration::from_millis(10),
                measurement: Duration::from_millis(60),
            },
            10,
            5_000,
        )
    } else {
        (
            Budget {
                warm_up: Duration::from_millis(300),
                measurement: Duration::from_millis(1200),
            },
            20,
            20_000,
        )
    };
    let criterion = Criterion::default()
        .output_directory(&criterion_dir)
        .sample_size(samples)
        .nresamples(resamples)
        .without_plots()
        .configure_from_args();
    let mut run = Run {
        criterion,
        config,
        selection,
        budget,
        pending: Vec::new(),
        workload_records: Vec::new(),
        design_records: Vec::new(),
    };
    run.family::<IdTableFamily>();
    run.family::<TagFamily>();
    run.family::<AllocFamily>();
    run.criterion.final_summary();

    let medians = read_medians(&criterion_dir);
    let mut samples = read_samples(&criterion_dir);
    let benchmarks = run
        .pending
        .into_iter()
        .map(|p| {
            let key = (
                format!("{}/{}", p.group_family, p.workload),
                p.design.to_string(),
                p.n.to_string(),
            );
            let mut outcome = p.outcome;
            let per_iter = if outcome.is_verified() {
                medians.get(&key).copied()
            } else {
                None
            };
            if outcome.is_verified() && per_iter.is_none() {
                outcome = Outcome::Failed("criterion wrote no estimates for this benchmark".into());
            }
            let units = p.ops.max(1) as f64;
            let samples_ns_per_op = match (per_iter, samples.remove(&key)) {
                (Some(_), Some(per_iteration)) => {
                    per_iteration.into_iter().map(|ns| ns / units).collect()
                }
                _ => Vec::new(),
            };
            let ns_per_op = per_iter.map(|e| results::Estimate {
                median: e.median / units,
                lower: e.lower / units,
                upper: e.upper / units,
            });
            let mut b = Benchmark::new(
                family_named(p.family),
                &p.workload,
                p.design,
                p.n as u64,
                p.ops,
            );
            b.verified = outcome.is_verified();
            b.status = outcome.status();
            b.reason = outcome.reason().map(str::to_string);
            b.ops_per_s = ns_per_op.map(|e| 1e9 / e.median);
            b.ns_per_op = ns_per_op;
            b.memory_bytes = p.memory_bytes;
            b.bytes_per_object = p
                .memory_bytes
                .filter(|_| p.live_after_setup > 0)
                .map(|m| m as f64 / p.live_after_setup as f64);
            b.samples_ns_per_op = samples_ns_per_op;
            b.metrics = p.metrics;
            b
        })
        .collect::<Vec<_>>();
    for b in benchmarks.iter().filter(|b| !b.verified) {
        eprintln!(
            "dodbench: {}/{}/{}/{}: {} ({})",
            b.family,
            b.workload,
            b.design,
            b.n,
            b.status,
            b.reason.as_deref().unwrap_or("")
        );
    }
    let results = Results {
        schema_version: SCHEMA_VERSION,
        machine: bench_harness::machine::probe(),
        commit: current_commit(),
        toolchain: toolchain().to_string(),
        created_unix: unix_now(),
        mode: run.config.mode().to_string(),
        families: FamilyRecord::builtin_all(),
        designs: run.design_records,
        workloads: run.workload_records,
        benchmarks,
        sweeps: None,
    };
    let path = default_results_path();
    match results.save(&path) {
        Ok(()) => println!(
            "dodbench: wrote {} ({} benchmarks)",
            path.display(),
            results.benchmarks.len()
        ),
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
        Ok(summary) => println!("dodbench: report at {}", summary.index.display()),
        Err(e) => {
            eprintln!("dodbench: cannot write the report: {e}");
            std::process::exit(1);
        }
    }
}
