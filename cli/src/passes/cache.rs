//! `dodbench cache`: simulated cache misses per op under callgrind (deterministic), `sim`;
//! and `dodbench sim-child`, the process it runs under valgrind.

use std::path::Path;

use anyhow::{Context, Result};
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass};
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
use results::{Benchmark, SimPerOp};

use super::{MatrixArgs, Pass};

/// The cache pass over each family's memory-bound workloads.
struct Cache {
    sim: CacheSim,
}

impl<'s> Pass for &'s Cache {
    type Measure = CacheSimPass<'s>;
    const NAME: &'static str = "cache";

    fn workloads<F: Family>(&self) -> &'static [&'static str] {
        F::MEMORY_BOUND_WORKLOADS
    }

    fn sizes<F: Family>(&self, quick: bool) -> Vec<usize> {
        F::pass_sizes(quick)
    }

    fn for_trace<F: Family>(&mut self, prepared: &PreparedTrace<F>) -> Result<CacheSimPass<'s>> {
        Ok(CacheSimPass {
            sim: &self.sim,
            trace_file: self.sim.write_trace(prepared)?,
        })
    }

    fn store(&mut self, entry: &mut Benchmark, measured: Result<SimPerOp, String>) {
        entry.sim = measured.ok();
    }
}

/// `dodbench cache`.
///
/// # Errors
/// valgrind is missing, bad arguments, or the results file cannot be written.
pub fn run(args: &MatrixArgs) -> Result<()> {
    args.validate()?;
    let valgrind = cache_sim::find_valgrind()?;
    let work_dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let cache = Cache {
        sim: CacheSim {
            exe: std::env::current_exe().context("cannot find the dodbench binary")?,
            config: cache_sim::sim_config(&valgrind),
            valgrind,
            work_dir: work_dir.path().to_path_buf(),
        },
    };
    cache.sim.place_child_program()?;
    super::run(args, &mut &cache)
}

/// `dodbench sim-child`: replays the trace file on one design of its family, collecting only
/// the body, and prints the body's digest.
///
/// # Errors
/// The trace cannot be loaded, the design is unknown, or it refused an op.
pub fn sim_child(design: &str, trace: &Path) -> Result<()> {
    let trace = workloads::format::load_any_from_path(trace)
        .with_context(|| format!("cannot load trace {}", trace.display()))?;
    let digest = cache_sim::run_child(design, trace).map_err(anyhow::Error::msg)?;
    cache_sim::print_digest(&digest)?;
    Ok(())
}
