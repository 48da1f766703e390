//! The records of the measurement passes inside a results file (schema 6): simulated cache
//! counts (`sim`, with the hierarchy that produced them), hardware counters (`hw`), memory
//! (`memory`), latency percentiles (`latency`) and the working-set sweep (`sweeps`). Re-exported
//! by [`crate::schema`], where the rest of the file's layout lives.

use serde::{Deserialize, Serialize};

use crate::family::Family;
use crate::status::Status;

/// The simulated cache hierarchy of `dodbench cache`: fixed, so counts agree across machines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Simulated L1 instruction cache, valgrind syntax `size,associativity,line`.
    pub i1: String,
    /// Simulated L1 data cache.
    pub d1: String,
    /// Simulated last-level cache.
    pub ll: String,
    /// `valgrind --version`.
    pub valgrind: String,
    /// What the simulated caches hold when collection starts (e.g. warmed by one uncollected
    /// replay of a read-only body).
    pub start_state: String,
}

/// Callgrind's counts for the body of one replay (collection toggled on the body only),
/// divided by the body's work units. Deterministic: the same binary and trace give the same
/// counts. The names `ir`, `d1_miss` and `ll_miss` are read by `compare` and the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimPerOp {
    /// Instructions executed per op (Ir).
    pub ir: f64,
    /// Data reads per op (Dr).
    pub data_reads: f64,
    /// Data writes per op (Dw).
    pub data_writes: f64,
    /// L1 data misses per op, reads plus writes (D1mr + D1mw).
    pub d1_miss: f64,
    /// Last-level data misses per op, reads plus writes (DLmr + DLmw).
    pub ll_miss: f64,
    /// L1 data read misses per op (D1mr).
    pub d1_read_miss: f64,
    /// Last-level data read misses per op (DLmr).
    pub ll_read_miss: f64,
    /// L1 instruction-cache misses per op (I1mr): the code the body runs not fitting the
    /// simulated I1. `None` in results written before it was recorded.
    #[serde(default)]
    pub i1_miss: Option<f64>,
    /// Bytes moved into the simulated L1 per op: `d1_miss` times the line size. For `iterate-*`
    /// at sizes above L1 this is the memory an iteration streams per visited object.
    pub bytes_streamed: f64,
    /// Work units the counts were divided by.
    pub ops: u64,
    /// The simulated hierarchy.
    pub config: SimConfig,
}

/// Hardware counters per op around the body, from `perf_event_open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HwPerOp {
    /// Retired instructions per op.
    pub instructions: f64,
    /// CPU cycles per op.
    pub cycles: f64,
    /// L1 data read misses per op.
    pub l1d_read_miss: f64,
    /// Last-level cache misses per op.
    pub llc_miss: f64,
    /// Data TLB misses per op.
    pub dtlb_miss: f64,
}

/// Memory metrics of one benchmark from `dodbench memory` (counting global allocator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryMetrics {
    /// Heap bytes the design reports holding after the setup ([`Benchmark::memory_bytes`]
    /// recomputed by this pass).
    pub design_bytes: u64,
    /// Heap bytes the counting allocator saw the table hold after the setup (live bytes after
    /// setup minus before, the handle map excluded).
    pub allocator_bytes: u64,
    /// `allocator_bytes` per live object after the setup.
    pub allocator_bytes_per_object: Option<f64>,
    /// Highest allocator live bytes during the body above the level before it (for `fill`: the
    /// peak during the fill, including the moment a growing array holds old and new buffers).
    pub peak_body_bytes: u64,
    /// Allocator calls (alloc, realloc, dealloc) during the body.
    pub alloc_calls: u64,
    /// Memory held every `every_ops` body ops, for `fill` and `churn`.
    #[serde(default)]
    pub series: Vec<MemorySample>,
}

/// One point of the memory-over-time series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemorySample {
    /// Body ops replayed so far.
    pub ops: u64,
    /// The design's own accounting (its `memory_bytes`).
    pub design_bytes: u64,
    /// The counting allocator's live bytes above the level before the setup (table plus handle
    /// map).
    pub allocator_bytes: u64,
}

/// Per-op latency of the body from `dodbench latency`: ops timed in batches, clock overhead
/// subtracted, divided by the batch's work units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Ops per timed batch (an `Iterate` op counts its visited objects as work units).
    pub batch_ops: usize,
    /// Median cost of one clock read pair, subtracted from every batch.
    pub clock_overhead_ns: f64,
    /// Batches timed.
    pub batches: u64,
    /// Median ns per work unit.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Slowest batch.
    pub max: f64,
}

/// The `sweeps` section: ns/op against N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweeps {
    /// `quick` or `full`.
    pub mode: String,
    /// Largest N swept and why it stops there (cache multiple, memory or time cap).
    pub max_n: u64,
    /// The reason for `max_n`.
    pub cap: String,
    /// Every measured point.
    pub points: Vec<SweepPoint>,
    /// The machine's memory limits over the sweep's range of working sets, measured by the
    /// same sweep; `None` in results written before they were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limits: Option<crate::limits::MemoryLimits>,
}

/// One (workload, design, N) point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// Family, e.g. `id_table`.
    pub family: Family,
    /// Workload name.
    pub workload: String,
    /// Design name.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Median ns per work unit over the samples, `None` if not verified.
    pub ns_per_op: Option<f64>,
    /// The design's heap bytes after the setup: the working set the body runs on.
    pub working_set_bytes: Option<u64>,
    /// Whether the design was verified on the point's trace.
    pub status: Status,
    /// Work units of the point's trace body (a claim's fitted exponent of a body's total
    /// multiplies by it); `None` in results written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops: Option<u64>,
}
