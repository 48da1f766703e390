//! Memory per design: bytes per live object (the design's own accounting, cross-checked with
//! the counting allocator), peak bytes and allocator calls during the body, and for bodies that
//! change the store (`fill`, `churn`, `tags-build`, ...) the memory held every k ops.
//!
//! The allocator's figure excludes what the replayer allocates before the first op: its handle
//! map and, for designs built on a fixed arena (the block allocators), the arena itself, whose
//! size is the design's own figure.
//!
//! Needs [`super::alloc_counter::CountingAlloc`] as the global allocator (the `dodbench`
//! binary installs it; each measurement counts over its own replay) and one thread.

use workloads::TraceStats;

use crate::measure::DesignMeasure;
use crate::measure::alloc_counter::{count, reset_peak, snapshot};
use crate::replay::{Design, Family, ReplayDigest, State};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::{MemoryMetrics, MemorySample};

/// Samples of the memory-over-time series per mutating body.
pub const SERIES_POINTS: usize = 64;

/// The memory pass.
pub struct MemoryPass;

impl DesignMeasure for MemoryPass {
    type Output = MemoryMetrics;

    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        _checked: &Checked,
    ) -> Result<MemoryMetrics, String> {
        measure_memory(design, prepared)
    }
}

/// Replays `prepared` on a fresh state of `design` and measures its memory (see the module
/// doc).
///
/// # Errors
/// The counting allocator is not installed, the table refused an insert, or the body's digest
/// differs from the model's.
pub fn measure_memory<F: Family>(
    design: &dyn Design<F>,
    prepared: &PreparedTrace<F>,
) -> Result<MemoryMetrics, String> {
    let Some(_counting) = count() else {
        return Err("the counting allocator is not this binary's global allocator".into());
    };
    let trace = &prepared.trace;
    let base = snapshot().live;
    let mut state = design.for_trace(trace);
    let handle_map = snapshot().live_since(base);
    state
        .replay(&trace.setup)
        .map_err(|e| format!("setup {e}"))?;
    let after_setup = snapshot();
    let allocator_bytes = after_setup.live_since(base).saturating_sub(handle_map);
    let design_bytes = state.memory_bytes();
    let live = prepared.expected.stats.live_at_start();

    let mut series = Vec::new();
    let every = if trace.body_is_read_only() {
        trace.body.len().max(1)
    } else {
        trace.body.len().div_ceil(SERIES_POINTS).max(1)
    };
    let sample = |ops: usize, state: &dyn State<F>| MemorySample {
        ops: ops as u64,
        design_bytes: state.memory_bytes(),
        allocator_bytes: snapshot().live_since(base),
    };
    if !trace.body_is_read_only() {
        series.push(sample(0, &*state));
    }
    reset_peak();
    let mut digest = F::Digest::default();
    let mut done = 0;
    for chunk in trace.body.chunks(every) {
        let d = state.replay(chunk).map_err(|e| format!("body {e}"))?;
        digest.merge(&d);
        done += chunk.len();
        if !trace.body_is_read_only() {
            series.push(sample(done, &*state));
        }
    }
    let after_body = snapshot();
    if digest != prepared.expected.body {
        return Err(format!(
            "memory replay digest differs from the model's: {}",
            describe_mismatch(&prepared.expected.body, &digest)
        ));
    }
    Ok(MemoryMetrics {
        design_bytes,
        allocator_bytes,
        allocator_bytes_per_object: (live > 0).then(|| allocator_bytes as f64 / live as f64),
        peak_body_bytes: after_body.peak_since(after_setup.live),
        alloc_calls: after_body.calls - after_setup.calls,
        series,
    })
}
