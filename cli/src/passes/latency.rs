//! `dodbench latency`: per-op latency percentiles (`latency`), then hardware counters (`hw`)
//! where `perf_event_open` has them, else the reason on every entry (`hw_reason`).

use anyhow::Result;
use bench_harness::measure::counters::{CounterPass, availability};
use bench_harness::measure::latency::{LatencyPass, clock_overhead_ns};
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
use results::{Benchmark, HwPerOp, Latency};

use super::{MatrixArgs, Pass};

/// The percentile pass; where counters cannot open, it also records why on every entry it
/// measures (so the counter pass need not replay anything).
struct Percentiles {
    clock_overhead_ns: f64,
    counters_unavailable: Option<String>,
}

impl Pass for Percentiles {
    type Measure = LatencyPass;
    const NAME: &'static str = "latency";

    fn workloads<F: Family>(&self) -> Vec<&'static str> {
        F::LATENCY_WORKLOADS.to_vec()
    }

    fn for_trace<F: Family>(&mut self, _prepared: &PreparedTrace<F>) -> Result<LatencyPass> {
        Ok(LatencyPass {
            clock_overhead_ns: self.clock_overhead_ns,
        })
    }

    fn store(&mut self, entry: &mut Benchmark, measured: Result<Latency, String>) {
        entry.latency = measured.ok();
        if let Some(reason) = &self.counters_unavailable {
            entry.hw = None;
            entry.hw_reason = Some(reason.clone());
        }
    }
}

/// The hardware counters over the latency matrix, where they open.
struct Counters;

impl Pass for Counters {
    type Measure = CounterPass;
    const NAME: &'static str = "counters";

    fn workloads<F: Family>(&self) -> Vec<&'static str> {
        F::LATENCY_WORKLOADS.to_vec()
    }

    fn for_trace<F: Family>(&mut self, _prepared: &PreparedTrace<F>) -> Result<CounterPass> {
        Ok(CounterPass::default())
    }

    fn store(&mut self, entry: &mut Benchmark, measured: Result<HwPerOp, String>) {
        match measured {
            Ok(hw) => {
                entry.hw = Some(hw);
                entry.hw_reason = None;
            }
            Err(e) => {
                entry.hw = None;
                entry.hw_reason = Some(e);
            }
        }
    }
}

/// `dodbench latency`.
///
/// # Errors
/// Bad arguments, or the results file cannot be written.
pub fn run(args: &MatrixArgs) -> Result<()> {
    let clock_overhead_ns = clock_overhead_ns();
    println!("dodbench: clock overhead {clock_overhead_ns:.1} ns per timed batch (subtracted)");
    let counters_unavailable = availability().err();
    if let Some(reason) = &counters_unavailable {
        println!("dodbench: recording hw: null ({reason})");
    }
    let available = counters_unavailable.is_none();
    super::run(
        args,
        &mut Percentiles {
            clock_overhead_ns,
            counters_unavailable,
        },
    )?;
    if available {
        super::run(args, &mut Counters)?;
    }
    Ok(())
}
