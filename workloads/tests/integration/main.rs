//! The integration tests of this package, one module per file, in one test binary: one link
//! of the workspace instead of one per file (`cargo test -p workloads --test integration MODULE`
//! runs one file's tests).

mod alloc_generators;
mod format;
mod generators;
mod tags_generators;

use workloads::registry::WorkloadInfo;
use workloads::{Trace, TraceOp, format as trace_format};

/// Checks that workload `w` is deterministic in its seed: `generate(seed)` twice gives the same
/// bytes, and another seed other ops, unless `seedless` (its ops depend on `n` only).
fn assert_seeded<O: TraceOp>(w: &WorkloadInfo, seedless: bool, generate: impl Fn(u64) -> Trace<O>) {
    let a = trace_format::to_bytes(&generate(42)).unwrap();
    let b = trace_format::to_bytes(&generate(42)).unwrap();
    assert_eq!(a, b, "{} is not deterministic", w.name);
    let (same, other) = (generate(42), generate(43));
    let ops = |t: Trace<O>| (t.setup, t.body);
    if seedless {
        assert_eq!(ops(other), ops(same), "{}", w.name);
    } else {
        assert_ne!(ops(other), ops(same), "{} ignores its seed", w.name);
    }
}

/// Checks that trace `t`'s header records exactly the parameters workload `w` declares.
fn assert_header_params<O>(t: &Trace<O>, w: &WorkloadInfo) {
    let mut recorded: Vec<&str> = t
        .header
        .params
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    recorded.sort_unstable();
    let mut declared: Vec<&str> = w.params.iter().map(|p| p.name).collect();
    declared.sort_unstable();
    assert_eq!(recorded, declared, "{}: header params", w.name);
}
