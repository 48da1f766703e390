//! Hardware counters around the body of a replay, through `perf_event_open` (crate
//! `perf-event2`): instructions, cycles, L1d read misses, last-level cache misses and data TLB
//! misses. Where the kernel or the hypervisor does not offer them (as in most VMs and
//! containers) every measurement is `Err` with the reason, recorded as `hw: null`.

use perf_event::events::{Cache, CacheId, CacheOp, CacheResult, Hardware};
use perf_event::{Builder, Counter};
use workloads::TraceStats;

use crate::measure::DesignMeasure;
use crate::replay::{Design, Family};
use crate::suite::PreparedTrace;
use crate::verify::{Checked, describe_mismatch};
use results::HwPerOp;

/// The five counters, opened (disabled) for this thread.
pub struct HwCounters {
    counters: [Counter; 5],
}

/// Raw counts of one measured region, in [`HwCounters`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HwCounts {
    /// Retired instructions.
    pub instructions: u64,
    /// CPU cycles.
    pub cycles: u64,
    /// L1 data read misses.
    pub l1d_read_miss: u64,
    /// Last-level cache read misses.
    pub llc_miss: u64,
    /// Data TLB read misses.
    pub dtlb_miss: u64,
}

impl HwCounts {
    /// Per op for `ops` work units.
    pub fn per_op(&self, ops: u64) -> HwPerOp {
        let per = |v: u64| v as f64 / ops.max(1) as f64;
        HwPerOp {
            instructions: per(self.instructions),
            cycles: per(self.cycles),
            l1d_read_miss: per(self.l1d_read_miss),
            llc_miss: per(self.llc_miss),
            dtlb_miss: per(self.dtlb_miss),
        }
    }
}

fn miss(which: CacheId) -> Cache {
    Cache {
        which,
        operation: CacheOp::READ,
        result: CacheResult::MISS,
    }
}

/// Names a failed step in the reason recorded with `hw: null`.
fn reason(what: &str, e: std::io::Error) -> String {
    format!("hardware counter {what} unavailable: {e}")
}

impl HwCounters {
    /// Opens the counters.
    ///
    /// # Errors
    /// The first counter the kernel refused, with its error (e.g. ENOENT: the event is not
    /// supported here).
    pub fn open() -> Result<Self, String> {
        let open = |what: &str, b: Builder| b.build().map_err(|e| reason(what, e));
        Ok(Self {
            counters: [
                open("instructions", Builder::new(Hardware::INSTRUCTIONS))?,
                open("cycles", Builder::new(Hardware::CPU_CYCLES))?,
                open("L1d read misses", Builder::new(miss(CacheId::L1D)))?,
                open("LLC read misses", Builder::new(miss(CacheId::LL)))?,
                open("dTLB read misses", Builder::new(miss(CacheId::DTLB)))?,
            ],
        })
    }

    /// Counts what `f` does.
    ///
    /// # Errors
    /// A counter could not be reset, enabled, disabled or read.
    pub fn count(&mut self, f: impl FnOnce()) -> Result<HwCounts, String> {
        for c in &mut self.counters {
            c.reset().map_err(|e| reason("reset", e))?;
        }
        for c in &mut self.counters {
            c.enable().map_err(|e| reason("enable", e))?;
        }
        f();
        for c in &mut self.counters {
            c.disable().map_err(|e| reason("disable", e))?;
        }
        let mut v = [0u64; 5];
        for (c, v) in self.counters.iter_mut().zip(&mut v) {
            *v = c.read().map_err(|e| reason("read", e))?;
        }
        Ok(HwCounts {
            instructions: v[0],
            cycles: v[1],
            l1d_read_miss: v[2],
            llc_miss: v[3],
            dtlb_miss: v[4],
        })
    }
}

/// Whether the counters can be opened here, and why not.
pub fn availability() -> Result<(), String> {
    HwCounters::open().map(|_| ())
}

/// The counter pass: one body replay per design with the counters around it. `open` opens the
/// counters (replaceable in tests to reach the fallback).
pub struct CounterPass {
    /// Opens the counters for each design.
    pub open: fn() -> Result<HwCounters, String>,
}

impl Default for CounterPass {
    fn default() -> Self {
        Self {
            open: HwCounters::open,
        }
    }
}

impl DesignMeasure for CounterPass {
    type Output = HwPerOp;

    fn measure<F: Family>(
        &mut self,
        design: &'static dyn Design<F>,
        prepared: &PreparedTrace<F>,
        _checked: &Checked,
    ) -> Result<HwPerOp, String> {
        let mut counters = (self.open)()?;
        let (mut state, body) = crate::timing::ready_to_measure(design, &prepared.trace)?;
        let mut counts = None;
        let digest = state
            .replay_resolved_within(&prepared.trace.body, &body, &mut |replay| {
                counts = Some(counters.count(replay));
            })
            .map_err(|e| format!("body {e}"))?;
        let counts = counts.expect("the counted replay ran")?;
        if digest != prepared.expected.body {
            return Err(format!(
                "counted replay digest differs from the model's: {}",
                describe_mismatch(&prepared.expected.body, &digest)
            ));
        }
        Ok(counts.per_op(prepared.expected.stats.work_units()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_op_divides_by_work_units() {
        let c = HwCounts {
            instructions: 100,
            cycles: 50,
            l1d_read_miss: 10,
            llc_miss: 2,
            dtlb_miss: 0,
        };
        assert_eq!(c.per_op(10).instructions, 10.0);
        assert_eq!(c.per_op(0).cycles, 50.0);
    }
}
