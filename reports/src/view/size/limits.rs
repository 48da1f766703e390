//! A memory-bound block against the machine's own limits: where the workload's family declares
//! what bounds its body (`WorkloadRecord::memory_bound`) and the run measured the machine's
//! limits (`dodbench sweep`, `sweeps.memory_limits`), the block's fastest design on each
//! machine is stated as a share of the limit at the bytes its body reads ([`read_bytes`]), and
//! the limit is drawn on the throughput chart beside the reference loops.

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
            let read = read_bytes(bound, best)?;
            let share = LimitShare::of(bound, ns, read, limits)?;
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
                sentence: sentence(&best.design, read, &share, &on),
            })
        })
        .collect()
}

/// The buffer size whose limit `best`'s body is held to: for a stream, the bytes one pass
/// reads (a work unit's bytes for each of at most N objects, within the design's heap: a
/// packed iteration reads its objects, not the whole store's index and free lists); for
/// independent loads, the design's whole heap, over which the loads spread.
fn read_bytes(bound: MemoryBound, best: &Benchmark) -> Option<u64> {
    let heap = best.memory_bytes?;
    Some(match bound {
        MemoryBound::Stream { bytes_per_unit } => {
            let pass = bytes_per_unit.saturating_mul(best.ops.min(best.n));
            if heap > 0 { pass.min(heap) } else { pass }
        }
        MemoryBound::IndependentLoads => heap,
    })
}

/// What the limit is, in a chart label.
fn limit_name(bound: MemoryBound) -> &'static str {
    match bound {
        MemoryBound::Stream { .. } => "sequential read",
        MemoryBound::IndependentLoads => "one independent load",
    }
}

/// "Against this machine's memory limits: packed reads 32 B per object at 11.2 B/ns, 83 % of
/// the sequential read bandwidth over the 38 MiB a pass reads (13.5 B/ns)."; for gets, the
/// limit at the design's working set of `read` bytes ([`read_bytes`]).
fn sentence(design: &str, read: u64, share: &LimitShare, on: &str) -> String {
    let size = format::bytes(read as f64);
    let how = match share.bound {
        MemoryBound::Stream { bytes_per_unit } => format!(
            "{design} reads {bytes_per_unit} B per work unit at {} B/ns, {:.0} % of the \
             sequential read bandwidth over the {size} a pass reads ({} B/ns)",
            format::significant(bytes_per_unit as f64 / share.ns_per_unit, 3),
            100.0 / share.times_limit(),
            format::significant(share.limit, 3),
        ),
        MemoryBound::IndependentLoads => format!(
            "{design} takes {} ns per work unit, {} one independent random load at its \
             working set of {size} ({} ns)",
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
        assert!(
            s.contains("over the 38 MiB a pass reads (10.0 B/ns)"),
            "{s}"
        );
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

    #[test]
    fn a_stream_is_held_to_the_bytes_a_pass_reads_and_gets_to_the_whole_heap() {
        let mut b = Benchmark::new(
            results::Family::IdTable,
            "iterate-holes",
            "dense",
            1000,
            4000,
        );
        b.memory_bytes = Some(96_000);
        let stream = MemoryBound::Stream { bytes_per_unit: 32 };
        // Four passes over at most N = 1000 objects: one pass reads 32,000 bytes.
        assert_eq!(read_bytes(stream, &b), Some(32_000));
        b.memory_bytes = Some(20_000);
        assert_eq!(read_bytes(stream, &b), Some(20_000));
        assert_eq!(read_bytes(MemoryBound::IndependentLoads, &b), Some(20_000));
        b.memory_bytes = None;
        assert_eq!(read_bytes(stream, &b), None);
    }
}
