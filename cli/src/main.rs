//! `dodbench`: list designs and workloads, generate trace files, replay traces on designs; the
//! measurement passes that merge into `target/dodbench/results.json` (`cache`, `memory`,
//! `latency`, `sweep`, for every family); rebuild the HTML report; compare runs (the CI gate),
//! keep the history, export to benchmarking services, and report an A/B of two commits.
//!
//! This file parses the arguments and dispatches to one module per subcommand (`src/*.rs`);
//! it also installs the counting global allocator `dodbench memory` needs.
//!
//! User mistakes (unknown names, bad files) print one clear line and exit with status 2;
//! `compare` exits 1 when a deterministic metric regressed.

use std::path::PathBuf;
use std::time::Duration;

use bench_harness::measure::alloc_counter::CountingAlloc;
use bench_harness::suite::DEFAULT_SEED;
use clap::{Parser, Subcommand};
use dodbench::export::ExportFormat;
use dodbench::passes::{self, MatrixArgs};
use dodbench::{
    Gate, ab, advise, claims, compare, convert, export, gen_trace, history, list, merge, replay,
    report, shrink,
};
use results::compare::table::Format;
use results::compare::{Rules, UpdatePermissions};

/// Counts allocations for `dodbench memory` (and `advise`'s memory figures) during their
/// measurement's replays; otherwise each call goes to the system allocator behind one relaxed
/// load (see `alloc_counter`), in every command and in the criterion driver `cargo bench` runs
/// here ([`dodbench::bench::RUN_AS_BENCH`]).
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
    /// List the designs, each family's metrics and the workloads with their parameters.
    List {
        /// Print only the family names, one per line (for scripts).
        #[arg(long)]
        families: bool,
    },
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
        /// Output file (written atomically, through a symbolic link to its target; a FIFO or
        /// character device is written through; `-`: stdout).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Convert an allocation trace in wee_alloc's text format (`Alloc(SIZE),` / `Free(I),`
    /// per line) into a dodbench `alloc` trace file, for `dodbench replay`.
    ConvertWeeAlloc {
        /// The wee_alloc-format trace.
        input: PathBuf,
        /// Output trace file (written as `gen -o`'s; `-`: stdout).
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
    /// Merge the results files of a run's shards (`DODBENCH_SHARD=k/n cargo bench` on several
    /// machines) into one; refuses a missing or repeated shard and shards of other runs,
    /// selections or kinds of machine (exit 2).
    Merge {
        /// The shards' results files, every shard of the run once, in any order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The merged results file (written atomically).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Shrink a failed verification: reduce the trace (a file, or a workload generated as
    /// `cargo bench` generates it) to the smallest one found that the design still fails the
    /// same way, and write it (`shrunk.trace`), a one-page account (`failure.txt`) and, for a
    /// peer whose calls its family can write out, a standalone program (`repro/`) into a
    /// directory.
    Shrink {
        /// Trace file the design fails on (or --workload and --n).
        #[arg(required_unless_present = "workload", conflicts_with = "workload")]
        trace: Option<PathBuf>,
        /// Workload to generate instead of a trace file (see `dodbench list`).
        #[arg(long, requires = "n")]
        workload: Option<String>,
        /// Live size of the generated workload.
        #[arg(long)]
        n: Option<usize>,
        /// Seed of the generated workload.
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        /// The design that fails.
        #[arg(long)]
        design: String,
        /// Directory to write into (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// Seconds the shrinking may take; it then stops with the smallest trace so far.
        #[arg(long, default_value_t = dodbench::shrink::DEFAULT_TIME_LIMIT_SECS)]
        time_limit: u64,
    },
    /// Which design for this trace? Replays a trace file (any family) on every design of its
    /// family, verified; ranks them by time with memory and allocator calls, prints the top
    /// three with why, and writes a one-page report.
    Advise(AdviseArgs),
    /// Compare NEW against BASE (a results.json or the committed baseline). Exit 0: nothing
    /// regressed; 1: a deterministic metric or a verification regressed; 2: unusable input.
    Compare(CompareArgs),
    /// Export a results file for a continuous-benchmarking service.
    Export {
        /// Output format.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Output file (written as `gen -o`'s); stdout when omitted or `-`.
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
    /// How far two results files of the same commit agree (an A/A check): the smallest ratio
    /// difference they resolve, whether they name the same winners, their replay overheads.
    Agreement {
        /// The first run's results.json.
        a: PathBuf,
        /// The second run's results.json.
        b: PathBuf,
    },
    /// The seed articles' quantitative claims judged on a results file: per claim the measured
    /// value at each N and the verdict (confirmed, refuted, mixed by size, undecided, not
    /// measured with what is missing).
    Claims {
        /// The results file (default: target/dodbench/results.json).
        results: Option<PathBuf>,
        /// Judge the claims this build declares instead of those the file recorded (a file
        /// written before a claim was added or changed).
        #[arg(long)]
        current: bool,
        /// Print the judgements as JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Simulated cache misses per op under valgrind's callgrind (deterministic), merged into
    /// results.json as `sim`: every family's memory-bound workloads at its pass sizes (see
    /// `dodbench list`), every design.
    Cache(passes::cache::CacheArgs),
    /// Memory per design: bytes per object (cross-checked with a counting allocator), peak
    /// bytes, allocator calls per op, memory over time; merged into results.json.
    Memory(MatrixArgs),
    /// Per-op latency percentiles (batches of ops) and hardware counters where available,
    /// merged into results.json as `latency` and `hw`.
    Latency(MatrixArgs),
    /// ns/op against N from 1K to beyond the last-level cache, merged into results.json as
    /// `sweeps`.
    Sweep(MatrixArgs),
    /// The process `dodbench cache` runs under valgrind: loads a trace file, then forks one
    /// child per design named on standard input, which replays the trace on it, collecting
    /// only the body, and prints its digest.
    #[command(hide = true)]
    SimServer {
        /// Trace file.
        #[arg(long)]
        trace: PathBuf,
    },
    /// Rebuild the HTML report from saved results files: one, or several machines side by
    /// side.
    Report {
        /// Results file (default: target/dodbench/results.json). Repeat it, or name a
        /// directory (every *.json results file in it), to show several machines side by
        /// side: their trace seeds and simulated caches must match and their machine names
        /// (DODBENCH_MACHINE) differ.
        #[arg(long)]
        results: Vec<PathBuf>,
        /// Output directory (default: target/dodbench/report).
        #[arg(long)]
        out: Option<PathBuf>,
        /// History file (JSON lines from `history append` / `compare --history`): adds a
        /// "Trend across commits" chart per workload; corrupt lines are skipped and listed.
        #[arg(long)]
        history: Option<PathBuf>,
        /// The metric the trend charts draw, as `dodbench compare` names it (e.g. `d1_miss`,
        /// `metrics.bytes_per_tag`); default: simulated instructions where the history has
        /// them, else the time over the reference design's.
        #[arg(long, requires = "history")]
        trend_metric: Option<String>,
    },
}

#[derive(Subcommand)]
enum HistoryCommand {
    /// Append a run's summary as one line (atomic; a partial line from a crash is skipped).
    Append {
        /// The history file (created if missing; through a symbolic link to its target; `-`:
        /// stdout).
        history: PathBuf,
        /// Results file (default: target/dodbench/results.json).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Design whose time normalises the others (default: each family's reference design).
        #[arg(long)]
        reference: Option<String>,
    },
    /// List the entries of a history file and any corrupt lines.
    Show {
        /// The history file.
        history: PathBuf,
    },
}

/// `advise --cache-sim-top`: how many of the fastest designs are simulated (`None`: all).
#[derive(Debug, Clone, Copy)]
struct CacheTop(Option<usize>);

/// A positive count, or `all`.
fn cache_top(s: &str) -> Result<CacheTop, String> {
    match s {
        "all" => Ok(CacheTop(None)),
        _ => match s.parse::<usize>() {
            Ok(n) if n > 0 => Ok(CacheTop(Some(n))),
            _ => Err(format!("{s:?} is not a positive count or `all`")),
        },
    }
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

/// `sim-server --trace T`, the exact arguments [`server_command`] gives the server, read
/// without clap.
///
// `dodbench advise`'s arguments (its help text is the variant's doc comment).
#[derive(clap::Args)]
struct AdviseArgs {
    /// Trace file written by `dodbench gen`, a recording or `dodbench convert-wee-alloc`.
    trace: PathBuf,
    /// Report directory; default target/dodbench/advise.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Rounds of interleaved samples: every verified design timed once per round, in a
    /// shuffled order (at least 6 for a 95% interval of the ranking).
    #[arg(long, default_value_t = 11)]
    samples: usize,
    /// Skip the cache simulation under valgrind (then advise takes seconds).
    #[arg(long)]
    no_cache_sim: bool,
    /// Simulate the caches of the N fastest designs only (`all`: every verified design).
    #[arg(long, default_value = "6", value_parser = cache_top)]
    cache_sim_top: CacheTop,
}

impl AdviseArgs {
    fn run(self) -> anyhow::Result<Gate> {
        let Self {
            trace,
            out,
            samples,
            no_cache_sim,
            cache_sim_top,
        } = self;
        let mut options = advise::AdviseOptions {
            samples,
            cache_top: cache_sim_top.0,
            ..Default::default()
        };
        if no_cache_sim {
            options.cache = Err("--no-cache-sim".to_string());
        }
        if let Some(out) = out {
            options.out = out;
        }
        advise::run(&trace, &options).map(|advice| {
            println!("{}", advice.summary());
            Gate::Pass
        })
    }
}

// `dodbench compare`'s arguments (its help text is the variant's doc comment).
#[derive(clap::Args)]
struct CompareArgs {
    /// Base run: results.json (schema version 1 to 7, every version this dodbench reads)
    /// or a baseline file (format version 1).
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
    /// with NEW's deterministic metrics, atomically, keeping the old one as BASE.prev;
    /// refuses (exit 2, baseline untouched) an empty NEW, failed benchmarks or a shrink
    /// (see --allow-shrink, --allow-failed).
    #[arg(long)]
    update_baseline: bool,
    /// With --update-baseline: allow dropping more than 5% of the baseline's benchmarks
    /// (refused otherwise, leaving the baseline untouched).
    #[arg(long, requires = "update_baseline")]
    allow_shrink: bool,
    /// With --update-baseline: allow benchmarks that failed verification (refused
    /// otherwise).
    #[arg(long, requires = "update_baseline")]
    allow_failed: bool,
    /// A JSON-lines history file: each benchmark's time noise is learned from its last runs
    /// there on NEW's machine and mode (a time change is flagged only beyond it), then
    /// NEW's summary is appended.
    #[arg(long)]
    history: Option<PathBuf>,
}

impl CompareArgs {
    fn run(self) -> anyhow::Result<Gate> {
        let Self {
            base,
            new,
            markdown,
            all,
            threshold_det,
            threshold_time,
            reference,
            update_baseline,
            allow_shrink,
            allow_failed,
            history,
        } = self;
        let rules = Rules {
            threshold_det,
            threshold_time,
            reference,
            ..Rules::default()
        };
        let options = compare::Options {
            format: if markdown {
                Format::Markdown
            } else {
                Format::Text
            },
            all,
            update_baseline,
            permissions: UpdatePermissions {
                allow_shrink,
                allow_failed,
            },
            history: history.as_deref(),
        };
        compare::run(&base, &new, &rules, &options)
    }
}

/// Every child of the server inherits its heap, and the simulated D1/LL misses depend on where
/// heap blocks land: clap's parse allocates for every subcommand's options and help text, so
/// read through clap, any change to the command line's help would move the heap under every
/// simulation and shift the miss counts (seen: -21% D1 misses per op on `churn` from adding
/// one option to another command). Other shapes of `sim-server` arguments go to clap, which
/// explains what is wrong.
///
/// [`server_command`]: bench_harness::measure::cache_sim::server_command
fn sim_server_args() -> Option<PathBuf> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "sim-server" || args.next()? != "--trace" {
        return None;
    }
    let trace = PathBuf::from(args.next()?);
    args.next().is_none().then_some(trace)
}

fn main() {
    if let Some(trace) = sim_server_args() {
        if let Err(e) = passes::cache::sim_server(&trace) {
            eprintln!("dodbench: {}", dodbench::error_line(&e));
            std::process::exit(2);
        }
        return;
    }
    // `cargo bench` runs this binary as its criterion driver (`benches/dodbench.rs`).
    if std::env::var_os(dodbench::bench::RUN_AS_BENCH).is_some() {
        dodbench::bench::main();
        return;
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::List { families } => list::run(families),
        Command::Gen {
            workload,
            n,
            seed,
            params,
            output,
        } => gen_trace::run(&workload, n, seed, params.as_deref(), &output),
        Command::ConvertWeeAlloc { input, output } => convert::wee_alloc(&input, &output),
        Command::Replay {
            trace,
            designs,
            samples,
        } => replay::run(&trace, &designs, samples),
        Command::Merge { files, output } => merge::run(&files, &output),
        Command::Shrink {
            trace,
            workload,
            n,
            seed,
            design,
            out,
            time_limit,
        } => {
            let source = match (&trace, &workload, n) {
                (Some(path), _, _) => shrink::Source::File(path),
                (None, Some(name), Some(n)) => shrink::Source::Workload { name, n, seed },
                _ => unreachable!("clap requires a trace file or --workload with --n"),
            };
            shrink::run(source, &design, &out, Duration::from_secs(time_limit))
        }
        Command::Advise(args) => args.run(),
        Command::Compare(args) => args.run(),
        Command::Export {
            format,
            results,
            output,
        } => export::run(format, results, output.as_deref()),
        Command::History { command } => match command {
            HistoryCommand::Append {
                history,
                results,
                reference,
            } => history::append(&history, results, reference.as_deref()),
            HistoryCommand::Show { history } => history::show(&history),
        },
        Command::AbReport {
            a_dir,
            b_dir,
            label_a,
            label_b,
        } => ab::run(&a_dir, &b_dir, &label_a, &label_b),
        Command::Agreement { a, b } => ab::agreement(&a, &b),
        Command::Claims {
            results,
            current,
            json,
        } => claims::run(results, current, json),
        Command::Cache(args) => passes::cache::run(&args).map(|()| Gate::Pass),
        Command::Memory(args) => passes::memory::run(&args).map(|()| Gate::Pass),
        Command::Latency(args) => passes::latency::run(&args).map(|()| Gate::Pass),
        Command::Sweep(args) => passes::sweep::run(&args).map(|()| Gate::Pass),
        Command::SimServer { trace } => passes::cache::sim_server(&trace).map(|()| Gate::Pass),
        Command::Report {
            results,
            out,
            history,
            trend_metric,
        } => report::run(results, out, history, trend_metric),
    };
    match result {
        Ok(Gate::Pass) => {}
        Ok(Gate::Regressed) => std::process::exit(1),
        Err(e) => {
            eprintln!("dodbench: {}", dodbench::error_line(&e));
            std::process::exit(2);
        }
    }
}
