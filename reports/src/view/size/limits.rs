//! A memory-bound block against the machine's own limits: where the workload's family declares
//! what bounds its body (`WorkloadRecord::memory_bound`) and the run measured the machine's
//! limits (`dodbench sweep`, `sweeps.memory_limits`), the block's fastest design on each
//! machine is stated as a share of the limit at its working set, and the limit is drawn on the
//! throughput chart beside the reference loops.

use results::{Benchmark, LimitShare, MemoryBound};

use super::Cell;
use crate::charts::ReferenceLine;
use crate::format;

/// The block's fastest design on one machine against that machine's limit.
pub(super) struct Limit {
    /// The limit as a throughput chart's dashed line (work units per second).
    pub line: ReferenceLine,
    /// The sentence under the block's verdict.
    pub sentence: String,
}

/// One [`Limit`] per machine whose run has both the workload's bound and measured limits, for
/// the fastest of `timed` (sorted by machine, then fastest first) on that machine.
pub(super) fn limits(cell: &Cell<'_>, timed: &[(&Benchmark, f64)]) -> Vec<Limit> {
    let machines = cell.machines;
    machines
        .runs()
        .iter()
        .enumerate()
        .filter_map(|(i, run)| {
            let bound = run
                .workloads
                .iter()
                .find(|w| w.family == cell.family && w.workload == cell.workload && w.n == cell.n)?
                .memory_bound?;
            let limits = run.sweeps.as_ref()?.memory_limits.as_ref()?;
            let &(best, ns) = timed.iter().find(|(b, _)| machines.index_of(b) == i)?;
            let working_set = best.memory_bytes?;
            let share = LimitShare::of(bound, ns, working_set, limits)?;
            let on = if machines.many() {
                format!(" @ {}", machines.name(i))
            } else {
                String::new()
            };
            Some(Limit {
                line: ReferenceLine {
                    name: format!("limit: {}{on}", limit_name(bound)),
                    value: 1e9 / share.limit_ns_per_unit(),
                },
                sentence: sentence(&best.design, working_set, &share, &on),
            })
        })
        .collect()
}

/// What the limit is, in a chart label.
fn limit_name(bound: MemoryBound) -> &'static str {
    match bound {
        MemoryBound::Stream { .. } => "sequential read",
        MemoryBound::IndependentLoads => "one independent load",
    }
}

/// "Against this machine's memory limits: packed reads 32 B per object at 11.2 B/ns, 83 % of
/// the sequential read bandwidth at its working set of 38 MiB (13.5 B/ns)."
fn sentence(design: &str, working_set: u64, share: &LimitShare, on: &str) -> String {
    let at = format!(
        "at its working set of {}",
        format::bytes(working_set as f64)
    );
    let how = match share.bound {
        MemoryBound::Stream { bytes_per_unit } => format!(
            "{design} reads {bytes_per_unit} B per work unit at {} B/ns, {:.0} % of the \
             sequential read bandwidth {at} ({} B/ns)",
            format::significant(bytes_per_unit as f64 / share.ns_per_unit, 3),
            100.0 / share.times_limit(),
            format::significant(share.limit, 3),
        ),
        MemoryBound::IndependentLoads => format!(
            "{design} takes {} ns per work unit, {} one independent random load {at} ({} ns)",
            format::ns(share.ns_per_unit),
            format::ratio(share.times_limit()),
            format::significant(share.limit, 3),
        ),
    };
    format!("Against this machine's memory limits{on} (measured by dodbench sweep): {how}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_a_stream_as_a_share_of_bandwidth_and_gets_as_a_multiple_of_one_load() {
        let stream = LimitShare {
            bound: MemoryBound::Stream { bytes_per_unit: 32 },
            ns_per_unit: 4.0,
            limit: 10.0,
        };
        let s = sentence("packed", 38 << 20, &stream, "");
        assert!(
            s.contains("packed reads 32 B per work unit at 8.00 B/ns"),
            "{s}"
        );
        assert!(s.contains("80 % of the sequential read bandwidth"), "{s}");
        assert!(s.contains("38 MiB (10.0 B/ns)"), "{s}");
        let gets = LimitShare {
            bound: MemoryBound::IndependentLoads,
            ns_per_unit: 12.0,
            limit: 8.0,
        };
        let g = sentence("holey", 1 << 30, &gets, " @ box");
        assert!(g.contains("limits @ box"), "{g}");
        assert!(
            g.contains("holey takes 12.00 ns per work unit, 1.50× one independent"),
            "{g}"
        );
    }
}
