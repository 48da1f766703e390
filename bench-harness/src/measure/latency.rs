//! Per-op latency: the resolved body (as timed replays read it) replayed in batches of a few
//! ops, each batch timed with
//! `Instant` (a vDSO clock read, tens of ns), the median cost of a clock-read pair subtracted,
//! divided by the batch's work units. Percentiles over batches show the rare slow op (a
//! doubling reallocation, a free-list refill) that per-sample means hide. A separate pass
//! from the throughput measurement.

use std::time::Instant;

use workloads::TraceOp;

use crate::measure::DesignMeasure;
use crate::replay::{Design, Family, ReplayDigest};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::Latency;

/// Ops per timed batch for single-object ops: large enough that the clock overhead is a small
/// part, small enough to keep one slow op visible.
pub const BATCH_OPS: usize = 8;

/// Median ns of `Instant::now()` twice in a row (the overhead inside every timed batch).
pub fn clock_overhead_ns() -> f64 {
    let mut samples: Vec<f64> = (0..10_001)
        .map(|_| {
            let t = Instant::now();
            t.elapsed().as_nanos() as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Nearest-rank percentile `p` (0..=1) of sorted `v`.
///
/// # Panics
/// If `v` is empty.
pub fn percentile(v: &[f64], p: f64) -> f64 {
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Batch size for a body: 1 op when an op visits many objects (one pass is already many work
/// units), else [`BATCH_OPS`].
pub fn batch_ops<O: TraceOp>(body: &[O]) -> usize {
    if body.iter().any(|op| op.visits_many()) {
        1
    } else {
        BATCH_OPS
    }
}

/// The latency pass.
pub struct LatencyPass {
    /// Clock overhead subtracted from every batch ([`clock_overhead_ns`]).
    pub clock_overhead_ns: f64,
}

impl DesignMeasure for LatencyPass {
    type Output = Latency;

    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        _checked: &Checked,
    ) -> Result<Latency, String> {
        let trace = &prepared.trace;
        let batch = batch_ops(&trace.body);
        let (mut state, body) = crate::timing::ready_to_measure(design, trace)?;
        // One cursor across the batches: each batch reads its ops' resolved IDs in order (op by
        // op; the uniform-run loop of a timed replay would span batches).
        let mut per_unit = Vec::with_capacity(trace.body.len() / batch + 1);
        let mut digest = F::Digest::default();
        state
            .replay_in_batches(&trace.body, &body, batch, &mut |chunk, elapsed, d| {
                digest.merge(d);
                let units = d.work_units(chunk).max(1) as f64;
                let ns = elapsed.as_nanos() as f64;
                per_unit.push((ns - self.clock_overhead_ns).max(0.0) / units);
            })
            .map_err(|e| format!("body {e}"))?;
        if digest != prepared.expected.body {
            return Err(format!(
                "latency replay digest differs from the model's: {}",
                describe_mismatch(&prepared.expected.body, &digest)
            ));
        }
        per_unit.sort_by(f64::total_cmp);
        Ok(Latency {
            batch_ops: batch,
            clock_overhead_ns: self.clock_overhead_ns,
            batches: per_unit.len() as u64,
            p50: percentile(&per_unit, 0.5),
            p99: percentile(&per_unit, 0.99),
            p999: percentile(&per_unit, 0.999),
            max: *per_unit.last().unwrap_or(&0.0),
        })
    }
}
