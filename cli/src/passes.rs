//! The measurement subcommands (`cache`, `memory`, `latency`, `sweep`): each picks its matrix,
//! runs one `bench_harness::measure` pass over it with a progress bar, and merges the results
//! into the results file.

use bench_harness::replay::IdTableFamily;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bench_harness::measure::cache_sim::{self, CacheSim, CacheSimPass};
use bench_harness::measure::counters::CounterPass;
use bench_harness::measure::latency::{LatencyPass, clock_overhead_ns};
use bench_harness::measure::memory::MemoryPass;
use bench_harness::measure::sweep::{SweepPass, mem_available, plan};
use bench_harness::measure::{
    DesignMeasure, DesignRow, SWEEP_WORKLOADS, Selection, for_each_verified,
};
use bench_harness::run_file::load_or_new;
use bench_harness::suite::{DEFAULT_SEED, ID_TABLE_FAMILY, PreparedTrace, design_record};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use results::{Benchmark, Results, Status, SweepPoint, Sweeps, default_results_path};

/// The matrix options shared by the measurement subcommands.
#[derive(Args)]
pub struct MatrixArgs {
    /// The smaller default matrix (for CI).
    #[arg(long)]
    quick: bool,
    /// Results file to merge into (created if missing); default target/dodbench/results.json.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Workload (repeatable); the command's default set when omitted.
    #[arg(long = "workload")]
    workloads: Vec<String>,
    /// Design (repeatable); every design when omitted.
    #[arg(long = "design")]
    designs: Vec<String>,
    /// Live size N (repeatable); the command's default sizes when omitted.
    #[arg(long = "n")]
    sizes: Vec<usize>,
    /// Trace seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
}

impl MatrixArgs {
    fn selection(&self, workloads: &[&str], sizes: &[usize]) -> Result<Selection> {
        let pick = |given: &[String], default: &[&str]| -> Vec<String> {
            if given.is_empty() {
                default.iter().map(|s| s.to_string()).collect()
            } else {
                given.to_vec()
            }
        };
        let selection = Selection {
            workloads: pick(&self.workloads, workloads),
            designs: self.designs.clone(),
            sizes: if self.sizes.is_empty() {
                sizes.to_vec()
            } else {
                self.sizes.clone()
            },
        };
        selection.validate().map_err(anyhow::Error::msg)?;
        Ok(selection)
    }

    fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(default_results_path)
    }

    fn mode(&self) -> &'static str {
        if self.quick { "quick" } else { "full" }
    }
}

fn progress(total: usize) -> ProgressBar {
    ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{elapsed_precise} {bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    )
}

/// Stores one design's measurement (or why it failed) into its results entry.
type Store<'a, O> = dyn FnMut(&mut Benchmark, Result<O, String>) + 'a;

/// Runs `pass` over every (workload, n) of `selection` and hands each design's row to `store`
/// with its results entry; `before` runs once per trace (e.g. to write it to a file).
fn run_matrix<M: DesignMeasure>(
    args: &MatrixArgs,
    selection: &Selection,
    results: &mut Results,
    before: &mut dyn FnMut(&PreparedTrace) -> Result<M>,
    store: &mut Store<'_, M::Output>,
) -> Result<()> {
    let bar =
        progress(selection.workloads.len() * selection.sizes.len() * selection.design_count());
    for workload in &selection.workloads {
        for &n in &selection.sizes {
            bar.set_message(format!("{workload} n={n}: generating"));
            let prepared = PreparedTrace::<IdTableFamily>::generate(workload, n, args.seed)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("cannot prepare {workload} at n={n}"))?;
            let mut pass = before(&prepared)?;
            let rows = for_each_verified(&prepared, selection, &mut pass, &mut |d| {
                bar.set_message(format!("{workload} n={n}: {d} done"));
                bar.inc(1);
            });
            for row in rows {
                merge_row(results, &prepared, row, &bar, store);
            }
        }
    }
    bar.finish_and_clear();
    Ok(())
}

fn merge_row<O>(
    results: &mut Results,
    p: &PreparedTrace,
    row: DesignRow<O>,
    bar: &ProgressBar,
    store: &mut Store<'_, O>,
) {
    let ops = p.expected.stats.work_units();
    if !results
        .workloads
        .iter()
        .any(|w| w.workload == p.workload && w.n == p.n as u64)
    {
        results.workloads.push(results::WorkloadRecord {
            family: ID_TABLE_FAMILY,
            workload: p.workload.clone(),
            n: p.n as u64,
            seed: p.seed,
            params: p.trace.header.params.clone(),
            ops,
        });
    }
    let entry = results.entry(ID_TABLE_FAMILY, &p.workload, row.design, p.n as u64, ops);
    let outcome = &row.checked.outcome;
    if entry.status == Status::Unmeasured || !outcome.is_verified() {
        entry.verified = outcome.is_verified();
        entry.status = outcome.status();
        entry.reason = outcome.reason().map(str::to_string);
    }
    if let Some(m) = row.checked.memory_bytes_after_setup {
        entry.memory_bytes = Some(m);
        let live = p.expected.stats.live_at_start;
        entry.bytes_per_object = (live > 0).then(|| m as f64 / live as f64);
    }
    match row.measured {
        Some(Ok(o)) => store(entry, Ok(o)),
        Some(Err(e)) => {
            bar.suspend(|| eprintln!("dodbench: {}/{}/{}: {e}", p.workload, row.design, p.n));
            store(entry, Err(e));
        }
        None => {}
    }
}

fn save(results: &mut Results, path: &Path) -> Result<()> {
    if results.designs.is_empty() {
        results.designs = impls::id_table::designs()
            .iter()
            .map(|d| design_record(ID_TABLE_FAMILY, d))
            .collect();
    }
    results.save(path)?;
    println!("dodbench: merged into {}", path.display());
    Ok(())
}

/// `dodbench cache`.
pub fn cache(args: &MatrixArgs) -> Result<()> {
    let sizes: &[usize] = if args.quick {
        &[1_000, 65_536]
    } else {
        &[1_000, 65_536, 1_000_000]
    };
    let selection = args.selection(&SWEEP_WORKLOADS, sizes)?;
    let valgrind = cache_sim::find_valgrind()?;
    let work_dir = tempfile::tempdir().context("cannot create a temporary directory")?;
    let sim = CacheSim {
        exe: std::env::current_exe().context("cannot find the dodbench binary")?,
        config: cache_sim::sim_config(&valgrind),
        valgrind,
        work_dir: work_dir.path().to_path_buf(),
    };
    sim.place_child_program()?;
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    run_matrix(
        args,
        &selection,
        &mut results,
        &mut |p| {
            Ok(CacheSimPass {
                sim: &sim,
                trace_file: sim.write_trace(p)?,
            })
        },
        &mut |entry, s| entry.sim = s.ok(),
    )?;
    save(&mut results, &path)
}

/// `dodbench sim-child`: the process `dodbench cache` runs under valgrind.
pub fn sim_child(design: &str, trace: &Path) -> Result<()> {
    let trace = workloads::format::load_from_path(trace)
        .with_context(|| format!("cannot load trace {}", trace.display()))?;
    let digest = cache_sim::run_child(design, &trace).map_err(anyhow::Error::msg)?;
    cache_sim::print_digest(&digest)?;
    Ok(())
}

/// `dodbench memory`.
pub fn memory(args: &MatrixArgs) -> Result<()> {
    let sizes: &[usize] = if args.quick {
        &[1_000, 65_536]
    } else {
        &[1_000, 65_536, 1_000_000]
    };
    let selection = args.selection(&["fill", "churn", "lookup-uniform", "iterate-holes"], sizes)?;
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    run_matrix(
        args,
        &selection,
        &mut results,
        &mut |_| Ok(MemoryPass),
        &mut |entry, m| {
            if let Ok(m) = m {
                entry.alloc_calls_per_op = Some(m.alloc_calls as f64 / entry.ops.max(1) as f64);
                entry.memory = Some(m);
            }
        },
    )?;
    save(&mut results, &path)
}

/// `dodbench latency`: latency percentiles, then hardware counters (or why not).
pub fn latency(args: &MatrixArgs) -> Result<()> {
    let sizes: &[usize] = if args.quick {
        &[1_000, 65_536]
    } else {
        &[1_000, 65_536, 1_000_000]
    };
    let mut workloads = SWEEP_WORKLOADS.to_vec();
    workloads.push("fill");
    let selection = args.selection(&workloads, sizes)?;
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    let overhead = clock_overhead_ns();
    println!("dodbench: clock overhead {overhead:.1} ns per timed batch (subtracted)");
    run_matrix(
        args,
        &selection,
        &mut results,
        &mut |_| {
            Ok(LatencyPass {
                clock_overhead_ns: overhead,
            })
        },
        &mut |entry, l| entry.latency = l.ok(),
    )?;
    if let Err(reason) = bench_harness::measure::counters::availability() {
        // No counter can open here: record why on every entry of the matrix, without a pass.
        println!("dodbench: recording hw: null ({reason})");
        for b in results.benchmarks.iter_mut().filter(|b| {
            selection.workloads.contains(&b.workload)
                && selection.sizes.contains(&(b.n as usize))
                && selection.selects_design(&b.design)
        }) {
            b.hw = None;
            b.hw_reason = Some(reason.clone());
        }
        return save(&mut results, &path);
    }
    run_matrix(
        args,
        &selection,
        &mut results,
        &mut |_| Ok(CounterPass::default()),
        &mut |entry, hw| match hw {
            Ok(hw) => {
                entry.hw = Some(hw);
                entry.hw_reason = None;
            }
            Err(e) => {
                entry.hw = None;
                entry.hw_reason = Some(e);
            }
        },
    )?;
    save(&mut results, &path)
}

/// `dodbench sweep`.
pub fn sweep(args: &MatrixArgs) -> Result<()> {
    let machine = bench_harness::machine::probe();
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| mem_available(&m));
    let sweep_plan = plan(args.quick, &machine.caches, mem);
    if !args.sizes.is_empty() && args.sizes.iter().any(|&n| n > sweep_plan.max_n) {
        bail!(
            "--n above the sweep's cap of {} ({})",
            sweep_plan.max_n,
            sweep_plan.cap
        );
    }
    let selection = args.selection(&SWEEP_WORKLOADS, &sweep_plan.sizes)?;
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    println!(
        "dodbench: sweep sizes {:?} (cap {}: {})",
        selection.sizes, sweep_plan.max_n, sweep_plan.cap
    );
    let samples = if args.quick { 3 } else { 5 };
    let bar =
        progress(selection.workloads.len() * selection.sizes.len() * selection.design_count());
    let mut points = Vec::new();
    for workload in &selection.workloads {
        for &n in &selection.sizes {
            bar.set_message(format!("{workload} n={n}: generating"));
            let prepared = PreparedTrace::<IdTableFamily>::generate(workload, n, args.seed)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("cannot prepare {workload} at n={n}"))?;
            let rows = for_each_verified(
                &prepared,
                &selection,
                &mut SweepPass { samples },
                &mut |d| {
                    bar.set_message(format!("{workload} n={n}: {d} done"));
                    bar.inc(1);
                },
            );
            for row in rows {
                let (ns_per_op, status) = match row.measured {
                    Some(Ok(ns)) => (Some(ns), Status::Verified),
                    Some(Err(_)) => (None, Status::Failed),
                    None => (None, row.checked.outcome.status()),
                };
                points.push(SweepPoint {
                    family: ID_TABLE_FAMILY,
                    workload: workload.clone(),
                    design: row.design.to_string(),
                    n: n as u64,
                    ns_per_op,
                    working_set_bytes: row.checked.memory_bytes_after_setup,
                    status,
                });
            }
        }
    }
    bar.finish_and_clear();
    let mut sweeps = results.sweeps.take().unwrap_or(Sweeps {
        mode: args.mode().to_string(),
        max_n: sweep_plan.max_n as u64,
        cap: sweep_plan.cap.clone(),
        points: Vec::new(),
    });
    sweeps.points.retain(|old| {
        !points
            .iter()
            .any(|p| p.workload == old.workload && p.design == old.design && p.n == old.n)
    });
    sweeps.points.extend(points);
    sweeps.mode = args.mode().to_string();
    sweeps.max_n = sweep_plan.max_n as u64;
    sweeps.cap = sweep_plan.cap;
    results.sweeps = Some(sweeps);
    save(&mut results, &path)
}
