//! `dodbench`: list designs and workloads, generate trace files, replay traces on designs, and
//! the measurement passes that merge into `target/dodbench/results.json` (`cache`, `memory`,
//! `latency`, `sweep`; the measuring code is in `bench_harness::measure`).
//!
//! User mistakes (unknown names, bad files) print one clear line and exit with status 2.

mod passes;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_harness::measure::alloc_counter::CountingAlloc;
use bench_harness::suite::{DEFAULT_SEED, PreparedTrace};
use bench_harness::timing::{TimedReplay, median_and_range};
use bench_harness::verify::{Outcome, check_design};
use clap::{Parser, Subcommand};
use impls::id_table::{DesignVisitor, IdTable, designs, for_each_design};
use indicatif::{ProgressBar, ProgressStyle};
use workloads::Payload;

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
        Command::Replay {
            trace,
            designs,
            samples,
        } => replay(&trace, &designs, samples),
        Command::Cache(args) => passes::cache(&args),
        Command::Memory(args) => passes::memory(&args),
        Command::Latency(args) => passes::latency(&args),
        Command::Sweep(args) => passes::sweep(&args),
        Command::SimChild { design, trace } => passes::sim_child(&design, &trace),
    };
    if let Err(e) = result {
        eprintln!("dodbench: {e:#}");
        std::process::exit(2);
    }
}

fn list() -> Result<()> {
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
    println!("\nWorkloads:");
    for w in workloads::registry::workloads() {
        println!("  {:<16} {}", w.name, w.description);
        for p in &w.params {
            println!(
                "      {:<14} default {:<10} {}",
                p.name,
                p.default.to_string(),
                p.description
            );
        }
    }
    Ok(())
}

fn gen_trace(
    workload: &str,
    n: usize,
    seed: u64,
    params: Option<&str>,
    output: &PathBuf,
) -> Result<()> {
    let params = params
        .map(serde_json::from_str::<serde_json::Value>)
        .transpose()
        .context("--params is not valid JSON")?;
    let trace = workloads::registry::generate(workload, n, seed, params.as_ref())?;
    let stats = trace
        .validate()
        .context("generated trace is invalid (a bug)")?;
    workloads::format::save_to_path(&trace, output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    println!(
        "wrote {}: {} setup ops, {} body ops ({} work units)",
        output.display(),
        trace.setup.len(),
        trace.body.len(),
        stats.work_units()
    );
    Ok(())
}

/// One row of the replay table.
struct Row {
    design: &'static str,
    outcome: Outcome,
    ns_per_op: Option<(f64, f64, f64)>,
}

struct ReplayDesign<'a> {
    prepared: &'a PreparedTrace,
    selected: &'a [String],
    samples: usize,
    progress: &'a ProgressBar,
    rows: Vec<Row>,
}

impl DesignVisitor<Payload> for ReplayDesign<'_> {
    fn visit<D: IdTable<Payload> + 'static>(&mut self) {
        if !self.selected.is_empty() && !self.selected.iter().any(|s| s == D::INFO.name) {
            return;
        }
        self.progress.set_message(D::INFO.name);
        let p = self.prepared;
        let mut outcome = check_design::<D>(&p.trace, &p.expected).outcome;
        let mut ns_per_op = None;
        if outcome.is_verified() {
            let ops = p.expected.stats.work_units().max(1) as f64;
            let mut timed = TimedReplay::<D>::new(&p.trace, &p.expected);
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
            design: D::INFO.name,
            outcome,
            ns_per_op,
        });
        self.progress.inc(1);
    }
}

fn replay(path: &PathBuf, selected: &[String], samples: usize) -> Result<()> {
    if samples == 0 {
        bail!("--samples must be at least 1");
    }
    let known: Vec<&str> = designs().iter().map(|d| d.name).collect();
    for s in selected {
        if !known.contains(&s.as_str()) {
            bail!("unknown design {s:?}; valid designs: {}", known.join(", "));
        }
    }
    let trace = workloads::format::load_from_path(path)
        .with_context(|| format!("cannot load trace {}", path.display()))?;
    let prepared = PreparedTrace::from_trace(trace).map_err(anyhow::Error::msg)?;
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
    for_each_design(&mut visitor);
    progress.finish_and_clear();
    let stats = prepared.expected.stats;
    println!(
        "{} n={} seed={}: {} body work units, {} live at start ({} samples per design, {:.1?})",
        prepared.workload,
        prepared.n,
        prepared.seed,
        stats.work_units(),
        stats.live_at_start,
        samples,
        Duration::from_secs_f64(started.elapsed().as_secs_f64())
    );
    let best = visitor
        .rows
        .iter()
        .filter_map(|r| r.ns_per_op.map(|t| t.0))
        .fold(f64::INFINITY, f64::min);
    println!(
        "{:<20} {:>12} {:>24} {:>8}  status",
        "design", "ns/op", "95% range", "vs best"
    );
    for r in &visitor.rows {
        match r.ns_per_op {
            Some((median, lo, hi)) => println!(
                "{:<20} {:>12.2} {:>11.2} .. {:<10.2} {:>7.2}x  verified",
                r.design,
                median,
                lo,
                hi,
                median / best
            ),
            None => println!(
                "{:<20} {:>12} {:>24} {:>8}  {}: {}",
                r.design,
                "-",
                "",
                "",
                r.outcome.label(),
                r.outcome.reason().unwrap_or("")
            ),
        }
    }
    Ok(())
}
