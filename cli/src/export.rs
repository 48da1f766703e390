//! `dodbench export`: a results file for a continuous-benchmarking service.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use results::compare::Run;
use results::{default_results_path, write_atomically};

use crate::Gate;

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Bencher Metric Format JSON.
    Bmf,
    /// github-action-benchmark `customSmallerIsBetter` JSON.
    GithubActionBenchmark,
}

/// Writes `results` (default: `target/dodbench/results.json`) in `format` to `output` (by
/// [`write_atomically`]'s rule: `-` is stdout) or, when omitted, stdout.
///
/// # Errors
/// The results file cannot be read, or the output written.
pub fn run(format: ExportFormat, results: Option<PathBuf>, output: Option<&Path>) -> Result<Gate> {
    let path = results.unwrap_or_else(default_results_path);
    let run = Run::load(&path)?;
    let mut json = match format {
        ExportFormat::Bmf => serde_json::to_vec_pretty(&results::export::bmf(&run)),
        ExportFormat::GithubActionBenchmark => {
            serde_json::to_vec_pretty(&results::export::github_action_benchmark(&run))
        }
    }
    .context("cannot serialise the export")?;
    json.push(b'\n');
    if format == ExportFormat::Bmf {
        eprintln!(
            "dodbench: Bencher reads the testbed from its command line: bencher run --testbed {} \
             --adapter json ...",
            results::export::testbed(&run)
        );
    }
    match output {
        Some(out) => write_atomically(out, &json)
            .with_context(|| format!("cannot write {}", out.display()))?,
        None => {
            use std::io::Write;
            std::io::stdout().write_all(&json)?;
        }
    }
    Ok(Gate::Pass)
}
