//! `dodbench memory`: bytes per object (cross-checked with the counting allocator), peak bytes,
//! allocator calls per op and memory over time, `memory` and `alloc_calls_per_op`.

use anyhow::Result;
use bench_harness::measure::memory::MemoryPass;
use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;
use results::{Benchmark, MemoryMetrics};

use super::{MatrixArgs, Pass};

struct Memory;

impl Pass for Memory {
    type Measure = MemoryPass;
    const NAME: &'static str = "memory";

    fn workloads<F: Family>(&self) -> Vec<&'static str> {
        F::MEMORY_WORKLOADS.to_vec()
    }

    fn for_trace<F: Family>(&mut self, _prepared: &PreparedTrace<F>) -> Result<MemoryPass> {
        Ok(MemoryPass)
    }

    fn store(&mut self, entry: &mut Benchmark, measured: Result<MemoryMetrics, String>) {
        if let Ok(m) = measured {
            entry.alloc_calls_per_op = Some(m.alloc_calls as f64 / entry.ops.max(1) as f64);
            entry.memory = Some(m);
        }
    }
}

/// `dodbench memory`.
///
/// # Errors
/// Bad arguments, or the results file cannot be written.
pub fn run(args: &MatrixArgs) -> Result<()> {
    super::run(args, &mut Memory)
}
