//! `dodbench`: list designs and workloads, generate trace files, replay traces on designs; the
//! measurement passes that merge into `target/dodbench/results.json` (`cache`, `memory`,
//! `latency`, `sweep`; the measuring code is in `bench_harness::measure`); rebuild the HTML
//! report; compare runs (the CI gate), keep the history, export to benchmarking services, and
//! report an A/B of two commits.
//!
//! User mistakes (unknown names, bad files) print one clear line and exit with status 2;
//! `compare` exits 1 when a deterministic metric regressed.

mod passes;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_harness::measure::alloc_counter::CountingAlloc;
use bench_harness::replay::{
    AllocFamily, AllocReplay, Family, IdTableFamily, OpOf, Replayer, SystemAlloc, TagFamily,
    TagReplay,
};
use bench_harness::suite::{DEFAULT_SEED, PreparedTrace};
use bench_harness::timing::{TimedReplay, median_and_range};
use bench_harness::verify::{Outcome, check_replayer};
use clap::{Parser, Subcommand};
use impls::alloc::{AllocDesignVisitor, BlockAllocator};
use impls::id_table::{DesignVisitor, IdTable, designs, for_each_design};
use impls::tags::{TagDesignVisitor, TagStore};
use indicatif::{ProgressBar, ProgressStyle};
use results::compare::table::{Format, render};
use results::compare::{Baseline, CompareError, Rules, Run, compare};
use results::history::{self, HistoryEntry};
use results::{Status, default_results_path, write_atomically};
use workloads::{AnyTrace, Payload, Trace, TraceOp, TraceStats};

/// Counts allocations for `dodbench memory`. Only this binary installs it: the criterion
/// driver (`cargo bench`) keeps the plain system allocator so its timings are unperturbed.
#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

#[derive(Parser)]
#[command(
    name = "dodbench",
    version,
    about = "Cross-implementation benchmarks of data-oriented storage designs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the designs and the workloads with their parameters.
    List,
    /// Generate a workload trace and save it to a file.
    Gen {
        /// Workload name (see `dodbench list`).
        workload: String,
        /// Live size N.
        #[arg(long, default_value_t = 1000)]
        n: usize,
        /// Seed of the trace.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// Generator parameters as JSON, e.g. '{"skew": 1.2}' (missing fields use defaults).
        #[arg(long)]
        params: Option<String>,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Convert an allocation trace in wee_alloc's text format (`Alloc(SIZE),` / `Free(I),`
    /// per line) into a dodbench `alloc` trace file, for `dodbench replay`.
    ConvertWeeAlloc {
        /// The wee_alloc-format trace.
        input: PathBuf,
        /// Output trace file (written atomically).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Verify and time a trace file on designs and print a table.
    Replay {
        /// Trace file written by `dodbench gen` or a recording.
        trace: PathBuf,
        /// Design to run (repeatable); all designs when omitted.
        #[arg(long = "design")]
        designs: Vec<String>,
        /// Timed replays per design.
        #[arg(long, default_value_t = 15)]
        samples: usize,
    },
    /// Compare NEW against BASE (a results.json or the committed baseline). Exit 0: nothing
    /// regressed; 1: a deterministic metric or a verification regressed; 2: unusable input.
    Compare {
        /// Base run: results.json (schema 1 to 4) or a baseline file.
        base: PathBuf,
        /// New run: results.json.
        new: PathBuf,
        /// Print a Markdown table (for a pull-request comment) instead of text.
        #[arg(long)]
        markdown: bool,
        /// Also list unchanged rows.
        #[arg(long)]
        all: bool,
        /// Relative tolerance of deterministic metrics.
        #[arg(long, default_value_t = 0.02, value_parser = fraction)]
        threshold_det: f64,
        /// Relative change of normalised time that can be flagged (never fails the gate).
        #[arg(long, default_value_t = 0.10, value_parser = fraction)]
        threshold_time: f64,
        /// Design whose time normalises the others on the same workload and n, in every
        /// family (default: each family's reference design, e.g. `holey` for the ID tables).
        #[arg(long)]
        reference: Option<String>,
        /// After comparing, rewrite BASE (a baseline file, or a path that does not exist yet)
        /// with NEW's deterministic metrics, atomically; exits 0 unless the input is unusable.
        #[arg(long)]
        update_baseline: bool,
        /// Append NEW's summary to this JSON-lines history file.
        #[arg(long)]
        history: Option<PathBuf>,
    },
    /// Export a results file for a continuous-benchmarking service.
    Export {
        /// Output format.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Output file (written atomically); stdout when omitted.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// The JSON-lines history of runs.
    History {
        #[command(subcommand)]
        command: HistoryCommand,
    },
    /// B/A time ratios with 95% intervals from alternating rounds (used by scripts/ab.sh).
    AbReport {
        /// Directory of side A's results files, one per round (sorted by name = round order).
        a_dir: PathBuf,
        /// Directory of side B's results files.
        b_dir: PathBuf,
        /// Name of side A in the report (e.g. its revision).
        #[arg(long, default_value = "A")]
        label_a: String,
        /// Name of side B in the report.
        #[arg(long, default_value = "B")]
        label_b: String,
    },
    /// Simulated cache misses per op under valgrind's callgrind (deterministic), merged into
    /// results.json as `sim`. Quick matrix: lookup-uniform, iterate-full, iterate-holes and
    /// churn at N = 1K and 64K for every design.
    Cache(passes::MatrixArgs),
    /// Memory per design: bytes per object (cross-checked with a counting allocator), peak
    /// bytes, allocator calls per op, memory over time; merged into results.json.
    Memory(passes::MatrixArgs),
    /// Per-op latency percentiles (batches of ops) and hardware counters where available,
    /// merged into results.json as `latency` and `hw`.
    Latency(passes::MatrixArgs),
    /// ns/op against N from 1K to beyond the last-level cache, merged into results.json as
    /// `sweeps`.
    Sweep(passes::MatrixArgs),
    /// The child of `dodbench cache`: replays a trace file on one design, collecting only the
    /// body, and prints its digest.
    #[command(hide = true)]
    SimChild {
        /// Design name.
        #[arg(long)]
        design: String,
        /// Trace file.
        #[arg(long)]
        trace: PathBuf,
    },
    /// Rebuild the HTML report from a saved results file.
    Report {
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Output directory (default: target/dodbench/report).
        #[arg(long)]
        out: Option<PathBuf>,
        /// History file (JSON lines from `history append` / `compare --history`): adds a
        /// "Trend across commits" chart per workload; corrupt lines are skipped and listed.
        #[arg(long)]
        history: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum HistoryCommand {
    /// Append a run's summary as one line (atomic; a partial line from a crash is skipped).
    Append {
        /// The history file (created if missing).
        history: PathBuf,
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Design whose time normalises the others, in every family (default: each family's
        /// reference design).
        #[arg(long)]
        reference: Option<String>,
    },
    /// List the entries of a history file and any corrupt lines.
    Show {
        /// The history file.
        history: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ExportFormat {
    /// Bencher Metric Format JSON.
    Bmf,
    /// github-action-benchmark `customSmallerIsBetter` JSON.
    GithubActionBenchmark,
}

/// A non-negative finite fraction, e.g. `0.02`.
fn fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "{s:?} is not a non-negative number (e.g. 0.02 for 2%)"
        )),
    }
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List => list(),
        Command::Gen {
            workload,
            n,
            seed,
            params,
            output,
        } => gen_trace(&workload, n, seed, params.as_deref(), &output),
        Command::ConvertWeeAlloc { input, output } => convert_wee_alloc(&input, &output),
        Command::Replay {
            trace,
            designs,
            samples,
        } => replay(&trace, &designs, samples),
        Command::Compare {
            base,
            new,
            markdown,
            all,
            threshold_det,
            threshold_time,
            reference,
            update_baseline,
            history,
        } => {
            let rules = Rules {
                threshold_det,
                threshold_time,
                reference,
            };
            let format = if markdown {
                Format::Markdown
            } else {
                Format::Text
            };
            compare_runs(
                &base,
                &new,
                &rules,
                format,
                all,
                update_baseline,
                history.as_deref(),
            )
        }
        Command::Export {
            format,
            results,
            output,
        } => export(format, results, output.as_deref()),
        Command::History { command } => match command {
            HistoryCommand::Append {
                history,
                results,
                reference,
            } => history_append(&history, results, reference.as_deref()),
            HistoryCommand::Show { history } => history_show(&history),
        },
        Command::AbReport {
            a_dir,
            b_dir,
            label_a,
            label_b,
        } => ab_report(&a_dir, &b_dir, &label_a, &label_b),
        Command::Cache(args) => passes::cache(&args).map(|()| Gate::Pass),
        Command::Memory(args) => passes::memory(&args).map(|()| Gate::Pass),
        Command::Latency(args) => passes::latency(&args).map(|()| Gate::Pass),
        Command::Sweep(args) => passes::sweep(&args).map(|()| Gate::Pass),
        Command::SimChild { design, trace } => {
            passes::sim_child(&design, &trace).map(|()| Gate::Pass)
        }
        Command::Report {
            results,
            out,
            history,
        } => report(results, out, history).map(|()| Gate::Pass),
    };
    match result {
        Ok(Gate::Pass) => {}
        Ok(Gate::Regressed) => std::process::exit(1),
        Err(e) => {
            eprintln!("dodbench: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Outcome of a command that succeeded: `compare` can succeed and still fail the gate.
enum Gate {
    Pass,
    Regressed,
}

fn compare_runs(
    base_path: &Path,
    new_path: &Path,
    rules: &Rules,
    format: Format,
    all: bool,
    update_baseline: bool,
    history_path: Option<&Path>,
) -> Result<Gate> {
    let new = Run::load(new_path)?;
    let base = match Run::load(base_path) {
        Err(CompareError::Io { source, .. })
            if update_baseline && source.kind() == std::io::ErrorKind::NotFound =>
        {
            None
        }
        Err(e) => return Err(e.into()),
        Ok(run) if update_baseline && !run.is_baseline => {
            return Err(CompareError::NotABaseline {
                path: base_path.to_path_buf(),
            }
            .into());
        }
        Ok(run) => Some(run),
    };
    let mut gate = Gate::Pass;
    if let Some(base) = &base {
        let comparison = compare(base, &new, rules)?;
        print!("{}", render(&comparison, format, all));
        if comparison.gate_failed() {
            gate = Gate::Regressed;
        }
    }
    if let Some(path) = history_path {
        history::append(
            path,
            &HistoryEntry::from_run(&new, rules.reference.as_deref())?,
        )?;
        eprintln!("dodbench: appended {} to {}", new.commit, path.display());
    }
    if update_baseline {
        let baseline = Baseline::from_run(&new);
        let failed = baseline
            .benchmarks
            .iter()
            .filter(|b| b.status == Status::Failed)
            .count();
        if failed > 0 {
            eprintln!(
                "dodbench: warning: {failed} benchmarks in the new baseline failed verification"
            );
        }
        baseline.save(base_path)?;
        println!(
            "baseline {} updated from {} ({} benchmarks, commit {})",
            base_path.display(),
            new_path.display(),
            baseline.benchmarks.len(),
            baseline.commit
        );
        return Ok(Gate::Pass);
    }
    Ok(gate)
}

fn export(format: ExportFormat, results: Option<PathBuf>, output: Option<&Path>) -> Result<Gate> {
    let path = results.unwrap_or_else(default_results_path);
    let run = Run::load(&path)?;
    let mut json = match format {
        ExportFormat::Bmf => serde_json::to_vec_pretty(&results::export::bmf(&run)),
        ExportFormat::GithubActionBenchmark => {
            serde_json::to_vec_pretty(&results::export::github_action_benchmark(&run))
        }
    }
    .context("cannot serialise the export")?;
    json.push(b'\n');
    match output {
        Some(out) => write_atomically(out, &json)
            .with_context(|| format!("cannot write {}", out.display()))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&json)?;
        }
    }
    Ok(Gate::Pass)
}

fn history_append(
    history_path: &Path,
    results: Option<PathBuf>,
    reference: Option<&str>,
) -> Result<Gate> {
    let path = results.unwrap_or_else(default_results_path);
    let run = Run::load(&path)?;
    history::append(history_path, &HistoryEntry::from_run(&run, reference)?)?;
    println!("appended {} to {}", run.commit, history_path.display());
    Ok(Gate::Pass)
}

fn history_show(history_path: &Path) -> Result<Gate> {
    if !history_path.exists() {
        bail!("{}: no such history file", history_path.display());
    }
    let (entries, corrupt) = history::load(history_path)?;
    for e in &entries {
        println!(
            "{}  {}  {} benchmarks  {}",
            e.date,
            e.commit,
            e.benchmarks.len(),
            e.mode.as_deref().unwrap_or("")
        );
    }
    for c in &corrupt {
        eprintln!(
            "dodbench: {}:{}: skipped corrupt line: {}",
            history_path.display(),
            c.line,
            c.reason
        );
    }
    println!(
        "{} entries, {} corrupt lines skipped",
        entries.len(),
        corrupt.len()
    );
    Ok(Gate::Pass)
}

/// Every `*.json` file of a directory, sorted by name, loaded as a run.
fn load_rounds(dir: &Path) -> Result<Vec<Run>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| Run::load(p).map_err(anyhow::Error::from))
        .collect()
}

fn ab_report(a_dir: &Path, b_dir: &Path, label_a: &str, label_b: &str) -> Result<Gate> {
    let a = load_rounds(a_dir)?;
    let b = load_rounds(b_dir)?;
    let report = results::ab::report(&a, &b)?;
    print!("{}", report.render(label_a, label_b));
    Ok(Gate::Pass)
}

fn list() -> Result<Gate> {
    println!("ID-table designs (family id_table):");
    println!(
        "  {:<20} {:<8} {:>3}  {:<6} {:<9} description",
        "name", "kind", "id", "stale", "capacity"
    );
    for d in designs() {
        let kind = match d.kind {
            impls::id_table::DesignKind::Peer {
                crate_name,
                version,
            } => format!("peer ({crate_name} {version})"),
            k => k.label().to_string(),
        };
        println!(
            "  {:<20} {:<8} {:>2}B  {:<6} {:<9} {}",
            d.name,
            kind.split(' ').next().unwrap_or(""),
            d.id_bytes,
            if d.detects_stale { "yes" } else { "NO" },
            d.capacity.map_or("-".to_string(), |c| c.to_string()),
            if kind.starts_with("peer (") {
                format!("{} [{}]", d.description, &kind[6..kind.len() - 1])
            } else {
                d.description.to_string()
            },
        );
    }
    println!("\nTag-store designs (family tags):");
    for d in impls::tags::tag_designs() {
        println!(
            "  {:<20} {:<8} cap {:<5} {}",
            d.name,
            d.kind.label(),
            d.tags_per_entity_cap
                .map_or("-".to_string(), |c| c.to_string()),
            d.description
        );
    }
    println!("\nBlock-allocator designs (family alloc):");
    for d in impls::alloc::alloc_designs() {
        println!(
            "  {:<24} {:<8} align<={:<6} {}",
            d.name,
            d.kind.label(),
            d.max_align,
            d.description
        );
    }
    println!("\nWorkloads:");
    for w in workloads::registry::workloads() {
        let recorded = if w.recorded {
            " (recorded trace: n is ignored)"
        } else {
            ""
        };
        println!(
            "  {:<26} [{}] {}{recorded}",
            w.name, w.family, w.description
        );
        for p in &w.params {
            println!(
                "      {:<14} default {:<10} {}",
                p.name,
                p.default.to_string(),
                p.description
            );
        }
    }
    Ok(Gate::Pass)
}

fn report(results: Option<PathBuf>, out: Option<PathBuf>, history: Option<PathBuf>) -> Result<()> {
    let results_path = results.unwrap_or_else(default_results_path);
    // The error already names the file and its cause; print it once, not its source chain.
    let results = results::Results::load(&results_path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = out.unwrap_or_else(reports::default_report_dir);
    if let Some(path) = &history {
        let (entries, corrupt) =
            results::history::load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
        for c in &corrupt {
            eprintln!(
                "dodbench: {}: skipped corrupt line {}: {}",
                path.display(),
                c.line,
                c.reason
            );
        }
        if entries.is_empty() {
            eprintln!(
                "dodbench: {}: no history entry, no trend charts",
                path.display()
            );
        }
    }
    let options = reports::RenderOptions {
        source: Some(results_path),
        history,
        ..Default::default()
    };
    let summary = reports::render(&results, &out, &options)
        .with_context(|| format!("cannot write the report to {}", out.display()))?;
    println!(
        "wrote {} ({} family pages, {} charts)",
        summary.index.display(),
        summary.family_pages.len(),
        summary.charts.len()
    );
    Ok(())
}

fn gen_trace(
    workload: &str,
    n: usize,
    seed: u64,
    params: Option<&str>,
    output: &Path,
) -> Result<Gate> {
    let params = params
        .map(serde_json::from_str::<serde_json::Value>)
        .transpose()
        .context("--params is not valid JSON")?;
    let trace = workloads::registry::generate_any(workload, n, seed, params.as_ref())?;
    match trace {
        AnyTrace::IdTable(t) => save_trace(&t, output),
        AnyTrace::Tags(t) => save_trace(&t, output),
        AnyTrace::Alloc(t) => save_trace(&t, output),
    }
}

fn convert_wee_alloc(input: &Path, output: &Path) -> Result<Gate> {
    let trace = workloads::convert::wee_alloc::convert_file(input)
        .with_context(|| format!("cannot convert {}", input.display()))?;
    save_trace(&trace, output)
}

/// Saves a trace of any family atomically and prints what it holds.
fn save_trace<O: TraceOp>(trace: &Trace<O>, output: &Path) -> Result<Gate> {
    let stats = trace
        .validate()
        .context("generated trace is invalid (a bug)")?;
    workloads::format::save_to_path(trace, output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    println!(
        "wrote {} ({} trace): {} setup ops, {} body ops ({} work units)",
        output.display(),
        O::FAMILY,
        trace.setup.len(),
        trace.body.len(),
        stats.work_units()
    );
    Ok(Gate::Pass)
}

/// One row of the replay table.
struct Row {
    design: &'static str,
    outcome: Outcome,
    ns_per_op: Option<(f64, f64, f64)>,
}

/// `dodbench replay`'s generic driver: verifies and times one design of family `F`.
struct ReplayDesign<'a, F: Family> {
    prepared: &'a PreparedTrace<F>,
    selected: &'a [String],
    samples: usize,
    progress: &'a ProgressBar,
    rows: Vec<Row>,
}

impl<F: Family> ReplayDesign<'_, F> {
    fn run<R: Replayer<Family = F>>(&mut self) {
        let name = R::design_name();
        if !self.selected.is_empty() && !self.selected.iter().any(|s| s == name) {
            return;
        }
        self.progress.set_message(name);
        let p = self.prepared;
        let mut outcome = check_replayer::<R>(&p.trace, &p.expected).outcome;
        let mut ns_per_op = None;
        if outcome.is_verified() {
            let ops = p.expected.stats.work_units().max(1) as f64;
            let mut timed = TimedReplay::<R>::new(&p.trace, &p.expected);
            let mut per_op = Vec::with_capacity(self.samples);
            for _ in 0..self.samples {
                match timed.run(1) {
                    Ok(d) => per_op.push(d.as_nanos() as f64 / ops),
                    Err(e) => {
                        outcome = Outcome::Failed(e);
                        break;
                    }
                }
            }
            if outcome.is_verified() && !per_op.is_empty() {
                ns_per_op = Some(median_and_range(&mut per_op));
            }
        }
        self.rows.push(Row {
            design: name,
            outcome,
            ns_per_op,
        });
        self.progress.inc(1);
    }
}

impl DesignVisitor<Payload> for ReplayDesign<'_, IdTableFamily> {
    fn visit<D: IdTable<Payload> + 'static>(&mut self) {
        self.run::<bench_harness::replay::ReplayState<D>>();
    }
}

/// A family as `dodbench replay` needs it: its design names and how to visit them.
trait ReplayFamily: Family + Sized {
    fn design_names() -> Vec<&'static str>;
    fn visit_all(visitor: &mut ReplayDesign<'_, Self>);
}

impl TagDesignVisitor for ReplayDesign<'_, TagFamily> {
    fn visit<S: TagStore + 'static>(&mut self) {
        self.run::<TagReplay<S>>();
    }
}

impl ReplayFamily for TagFamily {
    fn design_names() -> Vec<&'static str> {
        impls::tags::tag_designs().iter().map(|d| d.name).collect()
    }

    fn visit_all(visitor: &mut ReplayDesign<'_, Self>) {
        impls::tags::for_each_tag_design(visitor);
    }
}

impl AllocDesignVisitor for ReplayDesign<'_, AllocFamily> {
    fn visit<A: BlockAllocator + 'static>(&mut self) {
        self.run::<AllocReplay<A>>();
    }
}

impl ReplayFamily for AllocFamily {
    fn design_names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = impls::alloc::alloc_designs()
            .iter()
            .map(|d| d.name)
            .collect();
        names.push(SystemAlloc::design_name());
        names
    }

    fn visit_all(visitor: &mut ReplayDesign<'_, Self>) {
        impls::alloc::for_each_alloc_design(visitor);
        visitor.run::<SystemAlloc>();
    }
}

impl ReplayFamily for IdTableFamily {
    fn design_names() -> Vec<&'static str> {
        designs().iter().map(|d| d.name).collect()
    }

    fn visit_all(visitor: &mut ReplayDesign<'_, Self>) {
        for_each_design(visitor);
    }
}

fn replay(path: &PathBuf, selected: &[String], samples: usize) -> Result<Gate> {
    if samples == 0 {
        bail!("--samples must be at least 1");
    }
    let trace = workloads::format::load_any_from_path(path)
        .with_context(|| format!("cannot load trace {}", path.display()))?;
    match trace {
        AnyTrace::IdTable(t) => replay_family::<IdTableFamily>(t, selected, samples),
        AnyTrace::Tags(t) => replay_family::<TagFamily>(t, selected, samples),
        AnyTrace::Alloc(t) => replay_family::<AllocFamily>(t, selected, samples),
    }
}

fn replay_family<F: ReplayFamily>(
    trace: Trace<OpOf<F>>,
    selected: &[String],
    samples: usize,
) -> Result<Gate> {
    let known = F::design_names();
    for s in selected {
        if !known.contains(&s.as_str()) {
            bail!(
                "unknown {} design {s:?}; valid designs: {}",
                OpOf::<F>::FAMILY,
                known.join(", ")
            );
        }
    }
    let prepared = PreparedTrace::<F>::from_trace(trace).map_err(anyhow::Error::msg)?;
    let count = if selected.is_empty() {
        known.len()
    } else {
        selected.len()
    };
    let progress = ProgressBar::new(count as u64).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").expect("valid template"),
    );
    let started = Instant::now();
    let mut visitor = ReplayDesign {
        prepared: &prepared,
        selected,
        samples,
        progress: &progress,
        rows: Vec::new(),
    };
    F::visit_all(&mut visitor);
    progress.finish_and_clear();
    let stats = prepared.expected.stats;
    println!(
        "{} n={} seed={}: {} body work units, {} live at start ({} samples per design, {:.1?})",
        prepared.workload,
        prepared.n,
        prepared.seed,
        stats.work_units(),
        stats.live_at_start(),
        samples,
        Duration::from_secs_f64(started.elapsed().as_secs_f64())
    );
    let best = visitor
        .rows
        .iter()
        .filter_map(|r| r.ns_per_op.map(|t| t.0))
        .fold(f64::INFINITY, f64::min);
    println!(
        "{:<24} {:>12} {:>24} {:>8}  status",
        "design", "ns/op", "95% range", "vs best"
    );
    for r in &visitor.rows {
        match r.ns_per_op {
            Some((median, lo, hi)) => println!(
                "{:<24} {:>12.2} {:>11.2} .. {:<10.2} {:>7.2}x  verified",
                r.design,
                median,
                lo,
                hi,
                median / best
            ),
            None => println!(
                "{:<24} {:>12} {:>24} {:>8}  {}: {}",
                r.design,
                "-",
                "",
                "",
                r.outcome.label(),
                r.outcome.reason().unwrap_or("")
            ),
        }
    }
    Ok(Gate::Pass)
}
