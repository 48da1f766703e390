//! The numbers beyond time of one (workload, N) block, for every family: latency percentiles,
//! memory and allocator figures, simulated and hardware counters.

use results::Benchmark;
use results::Family;
use serde::Serialize;

use super::machines::Machines;
use super::style::{kind_of, style_of};
use crate::format;

/// The per-design numbers beyond time for one (workload, N): latency percentiles, memory and
/// allocator figures, simulated and hardware counters. A column group without any data in this
/// block is left out (its `has_*` is false).
#[derive(Debug, Default, Serialize)]
pub struct DetailsView {
    /// Some design has `latency`.
    pub has_latency: bool,
    /// Some design has `memory` or `alloc_calls_per_op`.
    pub has_memory: bool,
    /// Some design has `sim`.
    pub has_sim: bool,
    /// Some design has `hw`.
    pub has_hw: bool,
    /// How the latency was measured (batch size, batches, clock overhead), from the data.
    pub latency_method: String,
    /// Why no design has hardware counters here, when none has.
    pub hw_note: String,
    /// Designs in the order of the main table, those with any of these numbers.
    pub rows: Vec<DetailRow>,
}

/// One design's numbers beyond time, formatted; empty where not measured.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DetailRow {
    /// Design name.
    pub design: String,
    /// The machine of the row's latency and hardware counters; empty in a one-machine report.
    pub machine: String,
    /// `article`, `tuned`, `peer`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Median ns per work unit of a timed batch.
    pub p50: String,
    /// 99th percentile.
    pub p99: String,
    /// 99.9th percentile.
    pub p999: String,
    /// Slowest batch.
    pub max: String,
    /// The design's own bytes per live object (`bytes_per_object`).
    pub bytes_per_object: String,
    /// The counting allocator's bytes per live object.
    pub allocator_bytes_per_object: String,
    /// Peak allocator bytes during the body above the level before it.
    pub peak_body: String,
    /// Allocator calls per work unit.
    pub alloc_calls_per_op: String,
    /// Simulated instructions per work unit.
    pub ir: String,
    /// Simulated data reads per work unit.
    pub data_reads: String,
    /// Simulated data writes per work unit.
    pub data_writes: String,
    /// Simulated D1 misses per work unit.
    pub d1_miss: String,
    /// Simulated LL misses per work unit.
    pub ll_miss: String,
    /// Simulated I1 (instruction) misses per work unit.
    pub i1_miss: String,
    /// Bytes brought into the simulated L1 per work unit.
    pub bytes_streamed: String,
    /// Hardware: instructions per work unit.
    pub hw_instructions: String,
    /// Hardware: cycles per work unit.
    pub hw_cycles: String,
    /// Hardware: L1d read misses per work unit.
    pub hw_l1d_read_miss: String,
    /// Hardware: last-level misses per work unit.
    pub hw_llc_miss: String,
    /// Hardware: dTLB misses per work unit.
    pub hw_dtlb_miss: String,
}

/// How `dodbench latency` timed the ops, from the data: batch size, batches, clock overhead.
pub(super) fn latency_method(latencies: &[&results::Latency]) -> String {
    let Some(first) = latencies.first() else {
        return String::new();
    };
    let range = |lo: String, hi: String| if lo == hi { lo } else { format!("{lo}–{hi}") };
    let (mut batch_lo, mut batch_hi) = (first.batch_ops, first.batch_ops);
    let (mut count_lo, mut count_hi) = (first.batches, first.batches);
    let (mut clock_lo, mut clock_hi) = (first.clock_overhead_ns, first.clock_overhead_ns);
    for l in latencies {
        batch_lo = batch_lo.min(l.batch_ops);
        batch_hi = batch_hi.max(l.batch_ops);
        count_lo = count_lo.min(l.batches);
        count_hi = count_hi.max(l.batches);
        clock_lo = clock_lo.min(l.clock_overhead_ns);
        clock_hi = clock_hi.max(l.clock_overhead_ns);
    }
    format!(
        "Timed by dodbench latency in batches of {} ops ({} batches per design); the clock \
         overhead of {} ns per batch was subtracted and each batch divided by its work units.",
        range(batch_lo.to_string(), batch_hi.to_string()),
        range(count_lo.to_string(), count_hi.to_string()),
        range(
            format::significant(clock_lo, 3),
            format::significant(clock_hi, 3)
        ),
    )
}

/// The numbers beyond time of `ordered` (designs in table order, each design's machines
/// together) for one block: latency and hardware counters per machine, the deterministic
/// numbers once per design (see [`Machines::deterministic_cell`]).
pub(super) fn details(
    machines: &Machines<'_>,
    family: Family,
    ordered: &[&Benchmark],
) -> DetailsView {
    let results = machines.primary();
    let timed = |v: Option<f64>, f: fn(f64) -> String| {
        v.filter(|x| x.is_finite()).map(f).unwrap_or_default()
    };
    let sig = |v: f64| format::significant(v, 3);
    let rows: Vec<DetailRow> = ordered
        .iter()
        .filter(|b| {
            b.latency.is_some()
                || b.memory.is_some()
                || b.alloc_calls_per_op.is_some()
                || b.sim.is_some()
                || b.hw.is_some()
        })
        .map(|b| {
            let (l, hw) = (&b.latency, &b.hw);
            // A deterministic number: shown on the design's first machine with it.
            let once = |value: fn(&Benchmark) -> Option<f64>, f: fn(f64) -> String| {
                machines.deterministic_cell(b, ordered, |b| value(b).filter(|x| x.is_finite()), f)
            };
            DetailRow {
                design: b.design.clone(),
                machine: machines.column(b),
                kind: kind_of(results, b),
                colour: style_of(results, family, &b.design).colour.hex(),
                p50: timed(l.as_ref().map(|l| l.p50), format::ns),
                p99: timed(l.as_ref().map(|l| l.p99), format::ns),
                p999: timed(l.as_ref().map(|l| l.p999), format::ns),
                max: timed(l.as_ref().map(|l| l.max), format::ns),
                bytes_per_object: once(|b| b.bytes_per_object, sig),
                allocator_bytes_per_object: once(
                    |b| b.memory.as_ref().and_then(|m| m.allocator_bytes_per_object),
                    sig,
                ),
                peak_body: once(
                    |b| b.memory.as_ref().map(|m| m.peak_body_bytes as f64),
                    format::bytes,
                ),
                alloc_calls_per_op: once(|b| b.alloc_calls_per_op, sig),
                ir: once(|b| b.sim.as_ref().map(|s| s.ir), sig),
                data_reads: once(|b| b.sim.as_ref().map(|s| s.data_reads), sig),
                data_writes: once(|b| b.sim.as_ref().map(|s| s.data_writes), sig),
                d1_miss: once(|b| b.sim.as_ref().map(|s| s.d1_miss), sig),
                ll_miss: once(|b| b.sim.as_ref().map(|s| s.ll_miss), sig),
                i1_miss: once(|b| b.sim.as_ref().and_then(|s| s.i1_miss), sig),
                bytes_streamed: once(|b| b.sim.as_ref().map(|s| s.bytes_streamed), sig),
                hw_instructions: timed(hw.as_ref().map(|h| h.instructions), sig),
                hw_cycles: timed(hw.as_ref().map(|h| h.cycles), sig),
                hw_l1d_read_miss: timed(hw.as_ref().map(|h| h.l1d_read_miss), sig),
                hw_llc_miss: timed(hw.as_ref().map(|h| h.llc_miss), sig),
                hw_dtlb_miss: timed(hw.as_ref().map(|h| h.dtlb_miss), sig),
            }
        })
        .collect();
    let latencies: Vec<_> = ordered.iter().filter_map(|b| b.latency.as_ref()).collect();
    let has_hw = ordered.iter().any(|b| b.hw.is_some());
    let hw_note = if has_hw {
        String::new()
    } else {
        let reason = ordered
            .iter()
            .find_map(|b| b.hw_reason.clone())
            .or_else(|| {
                machines
                    .runs()
                    .iter()
                    .map(|r| &r.machine)
                    .find(|m| !m.hw_counters_available)
                    .map(|m| {
                        m.hw_counters_reason
                            .clone()
                            .unwrap_or_else(|| "not probed".to_string())
                    })
            })
            .unwrap_or_else(|| "dodbench latency was not run on this trace".to_string());
        format!("Hardware counters: none for this trace ({reason}).")
    };
    DetailsView {
        has_latency: !latencies.is_empty(),
        has_memory: ordered
            .iter()
            .any(|b| b.memory.is_some() || b.alloc_calls_per_op.is_some()),
        has_sim: ordered.iter().any(|b| b.sim.is_some()),
        has_hw,
        latency_method: latency_method(&latencies),
        hw_note,
        rows,
    }
}
