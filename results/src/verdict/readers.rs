//! The metric readers: the sizes at which a run holds an operand ([`sizes`]), its verified
//! benchmark at one size ([`lookup`]) and a metric's value there ([`value_of`]); the last two
//! say in `missing` what the run lacks.

use crate::claim::{Metric, Operand};
use crate::family::Family;
use crate::schema::{Benchmark, Results, Status};

/// The sizes at which `family`'s benchmarks (or the reference loops') hold `op`, ascending.
///
/// Sizes where a verified entry lacks `op`'s metric are left out (a pass that runs at other
/// sizes than the bench is not a gap in the claim), unless no size has it: then every size is
/// kept, so the judgement says what is missing.
pub(super) fn sizes(results: &Results, family: Family, op: &Operand) -> Vec<u64> {
    let of_op = || results.benchmarks.iter().filter(|b| holds(b, family, op));
    let measured = |b: &&Benchmark| {
        op.metric == Metric::Verified
            || b.status != Status::Verified
            || value_of(&op.metric, b, &mut Vec::new()).is_some()
    };
    let mut ns: Vec<u64> = of_op().filter(measured).map(|b| b.n).collect();
    if ns.is_empty() {
        ns = of_op().map(|b| b.n).collect();
    }
    ns.sort_unstable();
    ns.dedup();
    ns
}

pub(super) fn holds(b: &Benchmark, family: Family, op: &Operand) -> bool {
    (b.family == family || b.family == Family::Reference)
        && b.design == op.design
        && b.workload == op.workload
}

pub(super) fn lookup<'r>(
    results: &'r Results,
    family: Family,
    op: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<&'r Benchmark> {
    let found = results
        .benchmarks
        .iter()
        .find(|b| holds(b, family, op) && b.n == n);
    match found {
        None => missing.push(format!(
            "no benchmark of {} on {} at N = {n}",
            op.design, op.workload
        )),
        Some(b) if b.status != Status::Verified => missing.push(format!(
            "{} on {} at N = {n}: {}{}",
            op.design,
            op.workload,
            b.status,
            b.reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        )),
        Some(_) => {}
    }
    found.filter(|b| b.status == Status::Verified)
}

/// `metric` of `b`; `None` (with the reason in `missing`) when the run did not measure it.
pub(super) fn value_of(metric: &Metric, b: &Benchmark, missing: &mut Vec<String>) -> Option<f64> {
    let (value, pass) = match metric {
        Metric::Time => (b.ns_per_op.as_ref().map(|e| e.median), "the bench"),
        Metric::Instructions => (b.sim.as_ref().map(|s| s.ir), "the cache pass"),
        Metric::D1Misses => (b.sim.as_ref().map(|s| s.d1_miss), "the cache pass"),
        Metric::LlMisses => (b.sim.as_ref().map(|s| s.ll_miss), "the cache pass"),
        Metric::I1Misses => (b.sim.as_ref().and_then(|s| s.i1_miss), "the cache pass"),
        Metric::AllocCallsPerOp => (b.alloc_calls_per_op, "the memory pass"),
        Metric::BytesPerObject => (b.bytes_per_object, "the bench"),
        Metric::LatencyMax => (b.latency.as_ref().map(|l| l.max), "the latency pass"),
        Metric::Verified => (Some(1.0), "the bench"),
        Metric::Family(field) => (
            b.metrics.as_ref().and_then(|m| m.number(field)),
            "the bench (family metrics)",
        ),
    };
    if value.is_none() {
        missing.push(format!(
            "{metric} of {} on {} at N = {}: not measured (by {pass})",
            b.design, b.workload, b.n
        ));
    }
    value.filter(|v| v.is_finite())
}
