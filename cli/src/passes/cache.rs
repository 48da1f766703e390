//! `dodbench cache`: simulated cache misses per op under callgrind (deterministic), `sim`;
//! and `dodbench sim-server`, the process it runs under valgrind.

use std::path::Path;

use anyhow::{Context, Result, bail};
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass, ChildProgram, PendingSim};
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
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
    super::run(&args.matrix, &mut &cache)
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
