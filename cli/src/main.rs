//! `dodbench`: list designs and workloads, generate trace files, replay traces on designs,
//! rebuild the HTML report from saved results.
//!
//! User mistakes (unknown names, bad files) print one clear line and exit with status 2.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_harness::suite::{DEFAULT_SEED, PreparedTrace};
use bench_harness::timing::{TimedReplay, median_and_range};
use bench_harness::verify::{Outcome, check_design};
use clap::{Parser, Subcommand};
use impls::id_table::{DesignVisitor, IdTable, designs, for_each_design};
use indicatif::{ProgressBar, ProgressStyle};
use workloads::Payload;

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
    /// Rebuild the HTML report from a saved results file.
    Report {
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Output directory (default: target/dodbench/report).
        #[arg(long)]
        out: Option<PathBuf>,
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
        Command::Report { results, out } => report(results, out),
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

fn report(results: Option<PathBuf>, out: Option<PathBuf>) -> Result<()> {
    let results_path = results.unwrap_or_else(bench_harness::results::default_results_path);
    // The error already names the file and its cause; print it once, not its source chain.
    let results =
        bench_harness::results::Results::load(&results_path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = out.unwrap_or_else(reports::default_report_dir);
    let options = reports::RenderOptions {
        source: Some(results_path),
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
