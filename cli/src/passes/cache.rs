//! `dodbench cache`: simulated cache misses per op under callgrind (deterministic), `sim`;
//! and `dodbench sim-server`, the process it runs under valgrind.

use std::path::Path;

use anyhow::{Context, Result, bail};
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass, ChildProgram, PendingSim};
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
use results::standing::Side;
use results::{Benchmark, SimPerOp};

use super::{MatrixArgs, Pass};

/// `dodbench cache`'s options: the matrix and how many simulations run at once.
#[derive(Debug, Clone, clap::Args)]
pub struct CacheArgs {
    /// The matrix to simulate.
    #[command(flatten)]
    pub matrix: MatrixArgs,
    /// valgrind servers run at once (each forks its children one at a time, and each is
    /// single-threaded); default: one per core. The counts do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run the servers on the binary as built, debug info included (each then starts about
    /// 0.6 s slower); by default they run a copy without debug sections where `objcopy` is
    /// installed. The counts are the same either way.
    #[arg(long)]
    pub keep_debug_info: bool,
    /// Instead of the matrix: count our fastest design and the fastest peer with its contract
    /// in every cell of the results file (`--out`) where ours is decidedly behind
    /// (`results::standing`), at that cell's N, so the report can say where the two differ.
    /// `--family`, `--workload`, `--n` and `--design` narrow the cells (a cell's two designs
    /// must both be named).
    #[arg(long)]
    pub behind: bool,
}

/// The cache pass over each family's memory-bound workloads.
struct Cache {
    sim: CacheSim,
}

impl<'s> Pass for &'s Cache {
    type Measure = CacheSimPass<'s>;
    const NAME: &'static str = "cache";

    fn workloads<F: Family>(&self) -> Vec<&'static str> {
        F::MEMORY_BOUND_WORKLOADS.to_vec()
    }

    fn for_trace<F: Family>(&mut self, prepared: &PreparedTrace<F>) -> Result<CacheSimPass<'s>> {
        Ok(self.sim.for_trace(prepared)?)
    }

    /// Waits for the design's child (queued by the measurement) and stores its figures.
    fn store(&mut self, entry: &mut Benchmark, measured: Result<PendingSim, String>) {
        let figures: Result<SimPerOp, String> = measured.and_then(PendingSim::wait);
        if let Err(e) = &figures {
            eprintln!("dodbench: {}: {e}", entry.id());
        }
        entry.sim = figures.ok();
    }
}

/// `dodbench cache`.
///
/// # Errors
/// valgrind is missing, bad arguments, or the results file cannot be written.
pub fn run(args: &CacheArgs) -> Result<()> {
    args.matrix.validate()?;
    // `--behind` reads its cells from the results file before anything is started.
    let behind = if args.behind {
        let path = args.matrix.out();
        let results = results::Results::load(&path)
            .with_context(|| format!("--behind reads the results file {}", path.display()))?;
        Some((cells_behind(&args.matrix, &results), results))
    } else {
        None
    };
    let jobs = match args.jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(jobs) => jobs.min(MAX_JOBS),
        None => cache_sim::default_jobs(),
    };
    let valgrind = cache_sim::find_valgrind()?;
    let work_dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let cache = Cache {
        sim: CacheSim::new(
            std::env::current_exe().context("cannot find the dodbench binary")?,
            if args.keep_debug_info {
                ChildProgram::AsBuilt
            } else {
                ChildProgram::WithoutDebugInfo
            },
            valgrind,
            work_dir.path().to_path_buf(),
            jobs,
        )?,
    };
    if let Some((cells, results)) = behind {
        return run_behind(&args.matrix, cells, results, &mut &cache);
    }
    super::run(&args.matrix, &mut &cache)
}

/// The cells of `results` where our fastest design is decidedly behind the fastest peer with
/// its contract (`results::standing`), of the families, workloads, sizes and designs `matrix`
/// names (all where it names none), each as the matrix of those two designs at the cell's N.
fn cells_behind(matrix: &MatrixArgs, results: &results::Results) -> Vec<MatrixArgs> {
    let named = |names: &[String], name: &str| names.is_empty() || names.iter().any(|n| n == name);
    results::ranking::cells(results)
        .values()
        .filter_map(|cell| results::standing::standing(results, cell))
        .filter(|s| {
            s.side == Side::Behind
                && matrix.selects_family(&s.ours.family.to_string())
                && named(&matrix.workloads, &s.ours.workload)
                && named(&matrix.designs, &s.ours.design)
                && named(&matrix.designs, &s.peer.design)
                && (matrix.sizes.is_empty() || matrix.sizes.iter().any(|&n| n as u64 == s.ours.n))
        })
        .map(|s| MatrixArgs {
            families: vec![s.ours.family.to_string()],
            workloads: vec![s.ours.workload.clone()],
            designs: vec![s.ours.design.clone(), s.peer.design.clone()],
            sizes: vec![usize::try_from(s.ours.n).unwrap_or(usize::MAX)],
            ..matrix.clone()
        })
        .collect()
}

/// `dodbench cache --behind`: the pass over each of `behind` ([`cells_behind`]) merged into
/// `results`, recorded as one `cache` step that excludes what every cell's selection did.
fn run_behind(
    matrix: &MatrixArgs,
    behind: Vec<MatrixArgs>,
    mut results: results::Results,
    cache: &mut &Cache,
) -> Result<()> {
    let path = matrix.out();
    if behind.is_empty() {
        println!(
            "dodbench: no cell of {} has our fastest design behind a peer of its contract",
            path.display()
        );
        return Ok(());
    }
    let before = results.steps.len();
    for cell in &behind {
        super::run_into(cell, cache, &mut results)?;
    }
    let steps = results.steps.split_off(before);
    let mut step = steps[0].clone();
    step.selection = format!("--behind ({} cells)", behind.len());
    step.excluded
        .retain(|id| steps.iter().all(|s| s.excludes(id)));
    step.seconds = steps.iter().map(|s| s.seconds).sum();
    results.steps.push(step);
    super::save(&results, &path)
}

/// More servers than this would only wait for cores (and each child holds a simulated machine).
const MAX_JOBS: usize = 64;

/// `dodbench sim-server`: loads the trace file and forks one child per design named on standard
/// input, each replaying the trace on its design, collecting only the body, and printing the
/// body's digest (see [`cache_sim::server`]).
///
/// # Errors
/// The trace cannot be loaded, or the server's input, output or a fork failed.
pub fn sim_server(trace: &Path) -> Result<()> {
    let trace = workloads::format::load_any_from_path(trace)
        .with_context(|| format!("cannot load trace {}", trace.display()))?;
    #[cfg(unix)]
    return cache_sim::serve(trace).context("the simulation server failed");
    #[cfg(not(unix))]
    {
        drop(trace);
        bail!("the cache simulation forks its children: it needs a Unix system")
    }
}
