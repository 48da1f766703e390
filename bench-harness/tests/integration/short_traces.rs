//! Traces for the tests that check every design's outcome on every workload, at a table's
//! edge sizes (one object, a few, a few hundred) or at the first quick size: the workload's
//! own trace with its body cut short.
//!
//! An edge case of a small table is in its setup and its first ops, which a short body
//! reaches; the default body (up to 400,000 steps) replays the same pattern over and over,
//! and replaying it was most of those tests' time. The ID-table and component tests replay the
//! default bodies at their largest size, and every benchmark's replay is verified against the
//! model before it is timed. A workload whose outcome needs its length keeps it
//! ([`KEEPS_LENGTH`]).

use bench_harness::replay::Family;
use bench_harness::suite::PreparedTrace;

/// The body's length in a short trace, in the unit of the workload's own length parameter.
pub const SHORT_LENGTH: usize = 5_000;

/// The parameters that set a body's length: ops, or steps of a few ops each.
const LENGTH_PARAMS: [&str; 2] = ["ops", "steps"];

/// Ops per step at most, in the workloads whose length is counted in steps.
const MOST_OPS_PER_STEP: usize = 8;

/// Workloads whose outcome needs their default length: `churn-hot-stale` wraps a 16-bit
/// generation only after 65,536 reuses of a slot, which the design built to show it must show;
/// `alloc-vector-doubling` reaches the most resolved bytes per op of any body (the bound of
/// `resolved_bodies.rs`) only through its last, largest reallocations.
const KEEPS_LENGTH: [&str; 2] = ["churn-hot-stale", "alloc-vector-doubling"];

/// `workload` of family `F` at `n` objects from `seed`, its body cut to [`SHORT_LENGTH`] where
/// it has a length parameter ([`LENGTH_PARAMS`]).
pub fn short_trace<F: Family>(workload: &str, n: usize, seed: u64) -> PreparedTrace<F> {
    let info = workloads::registry::workloads()
        .into_iter()
        .find(|w| w.name == workload)
        .unwrap_or_else(|| panic!("{workload}: no such workload"));
    let length = info
        .params
        .iter()
        .find(|p| LENGTH_PARAMS.contains(&p.name))
        .filter(|_| !KEEPS_LENGTH.contains(&workload));
    let Some(length) = length else {
        return PreparedTrace::generate(workload, n, seed).unwrap();
    };
    let params = serde_json::json!({ length.name: SHORT_LENGTH });
    let trace = workloads::registry::generate_for(workload, n, seed, Some(&params))
        .unwrap_or_else(|e| panic!("{workload} with {params}: {e}"));
    assert!(
        trace.body.len() <= MOST_OPS_PER_STEP * SHORT_LENGTH,
        "{workload}: a body of {} ops is not short",
        trace.body.len()
    );
    PreparedTrace::from_trace(trace).unwrap()
}
