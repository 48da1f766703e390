//! `dodbench sweep`: ns/op against N from 1K to beyond the last-level cache (each family up to
//! its `SWEEP_MAX_N`), merged into results as `sweeps`: each family's memory-bound workloads and
//! the workloads whose claims are about growth with N (`SCALING_WORKLOADS`); and the machine's
//! memory limits over the same range of working sets (`bench_harness::measure::limits`), as
//! `sweeps.memory_limits`.

use anyhow::{Result, bail};
use bench_harness::assemble::load_or_new;
use bench_harness::measure::DesignRow;
use bench_harness::measure::limits;
use bench_harness::measure::sweep::{
    MIN_N, PAYLOAD_BYTES, SweepPass, SweepPlan, mem_available, plan,
};
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
use results::{Benchmark, MemoryLimits, Results, Status, SweepPoint, Sweeps};
use workloads::TraceStats;

use super::{MatrixArgs, Pass};

/// The sweep: timed replays at the plan's sizes, each point a [`SweepPoint`].
struct Sweep {
    plan: SweepPlan,
    samples: usize,
    points: Vec<SweepPoint>,
}

impl Pass for Sweep {
    type Measure = SweepPass;
    const NAME: &'static str = "sweep";
    const MERGES_BENCHMARKS: bool = false;

    /// The memory-bound workloads, then those whose claims need a slope.
    fn workloads<F: Family>(&self) -> Vec<&'static str> {
        let mut all = F::MEMORY_BOUND_WORKLOADS.to_vec();
        for w in F::SCALING_WORKLOADS {
            if !all.contains(w) {
                all.push(w);
            }
        }
        all
    }

    /// The plan's sizes up to the family's `SWEEP_MAX_N`.
    fn sizes<F: Family>(&self, _quick: bool) -> Vec<usize> {
        let cap = F::SWEEP_MAX_N.max(MIN_N);
        let mut sizes: Vec<usize> = self
            .plan
            .sizes
            .iter()
            .copied()
            .filter(|&n| n <= cap)
            .collect();
        if self.plan.sizes.iter().any(|&n| n > cap) && sizes.last() != Some(&cap) {
            sizes.push(cap);
        }
        sizes
    }

    fn for_trace<F: Family>(&mut self, _prepared: &PreparedTrace<F>) -> Result<SweepPass> {
        Ok(SweepPass {
            samples: self.samples,
        })
    }

    fn store(&mut self, _entry: &mut Benchmark, _measured: Result<f64, String>) {
        unreachable!("the sweep merges points, not benchmark entries")
    }

    fn merge<F: Family>(
        &mut self,
        _results: &mut Results,
        prepared: &PreparedTrace<F>,
        _seed: u64,
        row: DesignRow<f64>,
    ) {
        let (ns_per_op, status) = match row.measured {
            Some(Ok(ns)) => (Some(ns), Status::Verified),
            Some(Err(_)) => (None, Status::Failed),
            None => (None, row.checked.outcome.status()),
        };
        self.points.push(SweepPoint {
            family: F::RESULTS_FAMILY,
            workload: prepared.workload.clone(),
            design: row.design.to_string(),
            n: prepared.n as u64,
            ns_per_op,
            working_set_bytes: row.checked.memory_bytes_after_setup,
            status,
            ops: Some(prepared.expected.stats.work_units()),
        });
    }
}

/// `dodbench sweep`.
///
/// # Errors
/// Bad arguments (a size above the cap), or the results file cannot be written.
pub fn run(args: &MatrixArgs) -> Result<()> {
    args.validate()?;
    if let Some(shard) = args.shard {
        bail!(
            "--shard {shard}: the sweep is not split (each design's points are one curve, and \
             its times compare only within one machine): run it whole after `dodbench merge`"
        );
    }
    let machine = bench_harness::machine::probe();
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| mem_available(&m));
    let sweep_plan = plan(args.quick, &machine.caches, mem);
    if let Some(&n) = args.sizes.iter().find(|&&n| n > sweep_plan.max_n) {
        bail!(
            "--n {n} is above the sweep's cap of {} ({})",
            sweep_plan.max_n,
            sweep_plan.cap
        );
    }
    println!(
        "dodbench: sweep sizes {:?} (cap {}: {}; each family stops at its own largest size)",
        sweep_plan.sizes, sweep_plan.max_n, sweep_plan.cap
    );
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    let largest_n = args
        .sizes
        .iter()
        .copied()
        .max()
        .or(sweep_plan.sizes.last().copied())
        .unwrap_or(MIN_N);
    let memory_limits = measure_limits(largest_n, &results, mem, args.quick)?;
    let mut sweep = Sweep {
        plan: sweep_plan,
        samples: if args.quick { 3 } else { 5 },
        points: Vec::new(),
    };
    super::run_into(args, &mut sweep, &mut results)?;
    let Sweep { plan, points, .. } = sweep;
    let mut sweeps = results.sweeps.take().unwrap_or(Sweeps {
        mode: args.mode().to_string(),
        max_n: plan.max_n as u64,
        cap: plan.cap.clone(),
        points: Vec::new(),
        memory_limits: None,
    });
    sweeps.points.retain(|old| {
        !points.iter().any(|p| {
            p.family == old.family
                && p.workload == old.workload
                && p.design == old.design
                && p.n == old.n
        })
    });
    sweeps.points.extend(points);
    sweeps.mode = args.mode().to_string();
    sweeps.max_n = plan.max_n as u64;
    sweeps.cap = plan.cap;
    sweeps.memory_limits = Some(memory_limits);
    results.sweeps = Some(sweeps);
    super::save(&results, &path)
}

/// The largest buffer the memory limits are measured at: beyond every working set they are
/// compared with (four times the largest N's payload, twice the largest heap of a design in
/// the results file), at most [`LIMITS_MAX_BYTES`] and a quarter of the available memory.
const LIMITS_MAX_BYTES: u64 = 1 << 30;

/// The machine's memory limits from the first-level cache past the working sets of
/// `largest_n` objects and of `results`' benchmarks; printed as measured.
///
/// # Errors
/// A limit kernel's answer differed from its plain loop's.
fn measure_limits(
    largest_n: usize,
    results: &Results,
    mem_available: Option<u64>,
    quick: bool,
) -> Result<MemoryLimits> {
    let largest_heap = results
        .benchmarks
        .iter()
        .filter_map(|b| b.memory_bytes)
        .max()
        .unwrap_or(0);
    let mut top = (4 * largest_n as u64 * PAYLOAD_BYTES)
        .max(2 * largest_heap)
        .min(LIMITS_MAX_BYTES);
    if let Some(mem) = mem_available {
        top = top.min(mem / 4);
    }
    let sizes = limits::sizes(top);
    let measured = limits::measure(&sizes, if quick { 3 } else { 5 })
        .map_err(|e| anyhow::anyhow!("measuring the machine's memory limits: {e}"))?;
    for p in &measured.points {
        println!(
            "dodbench: memory limits at {:>9} B: sequential read {:.1} B/ns, independent load \
             {:.2} ns, dependent load {:.2} ns",
            p.bytes, p.read_bytes_per_ns, p.independent_load_ns, p.dependent_load_ns
        );
    }
    Ok(measured)
}
