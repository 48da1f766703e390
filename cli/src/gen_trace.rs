//! `dodbench gen`: a workload's trace saved to a file (any family).

use std::path::Path;

use anyhow::{Context, Result};
use bench_harness::families::{TraceVisitor, with_family};
use bench_harness::replay::{Family, OpOf};
use workloads::{Trace, TraceOp, TraceStats};

use crate::Gate;

/// Generates `workload` at `n` with `seed` and JSON `params` and saves it to `output`.
///
/// # Errors
/// Unknown workload, bad parameters or size, or the file cannot be written.
pub fn run(
    workload: &str,
    n: usize,
    seed: u64,
    params: Option<&str>,
    output: &Path,
) -> Result<Gate> {
    let params = params
        .map(serde_json::from_str::<serde_json::Value>)
        .transpose()
        .context("--params is not valid JSON")?;
    let trace = workloads::registry::generate_any(workload, n, seed, params.as_ref())?;
    with_family(trace, Save(output))
}

/// Saves a trace of any family (see [`save_trace`]) and prints what it holds.
pub struct Save<'a>(pub &'a Path);

impl TraceVisitor for Save<'_> {
    type Output = Result<Gate>;

    fn visit<F: Family>(self, trace: Trace<OpOf<F>>) -> Result<Gate> {
        save_trace(&trace, self.0)
    }
}

/// Validates `trace`, writes it to `output` by the one output rule of
/// [`results::write_atomically`] (a file atomically, a symbolic link's target, a FIFO or
/// device written through, `-` to stdout) and prints what it holds (to stderr when the trace
/// goes to stdout).
///
/// # Errors
/// The trace is invalid (a bug in its generator) or the file cannot be written.
pub fn save_trace<O: TraceOp>(trace: &Trace<O>, output: &Path) -> Result<Gate> {
    let stats = trace
        .validate()
        .context("generated trace is invalid (a bug)")?;
    let bytes = workloads::format::to_bytes(trace).context("generated trace is invalid (a bug)")?;
    results::write_atomically(output, &bytes)
        .with_context(|| format!("cannot write trace file {}", output.display()))?;
    let summary = format!(
        "wrote {} ({} trace): {} setup ops, {} body ops ({} work units)",
        output.display(),
        O::FAMILY,
        trace.setup.len(),
        trace.body.len(),
        stats.work_units()
    );
    if output.as_os_str() == results::files::STDOUT_PATH {
        eprintln!("dodbench: {summary}");
    } else {
        println!("{summary}");
    }
    Ok(Gate::Pass)
}
