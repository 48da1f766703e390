//! `dodbench report`: rebuilds the HTML report from a saved results file.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::Gate;

/// Renders `results` (default: `target/dodbench/results.json`) into `out` (default:
/// `target/dodbench/report`), with trend charts from `history` when given.
///
/// # Errors
/// The results or history file cannot be read, or the report written.
pub fn run(
    results: Option<PathBuf>,
    out: Option<PathBuf>,
    history: Option<PathBuf>,
) -> Result<Gate> {
    let results_path = results.unwrap_or_else(results::default_results_path);
    // The error already names the file and its cause; print it once, not its source chain.
    let results = results::Results::load(&results_path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let out = out.unwrap_or_else(reports::default_report_dir);
    if let Some(path) = &history {
        let (entries, corrupt) =
            results::history::load(path).map_err(|e| anyhow::anyhow!("{e}"))?;
        for c in &corrupt {
            eprintln!(
                "dodbench: {}: skipped corrupt line {}: {}",
                path.display(),
                c.line,
                c.reason
            );
        }
        if entries.is_empty() {
            eprintln!(
                "dodbench: {}: no history entry, no trend charts",
                path.display()
            );
        }
    }
    let options = reports::RenderOptions {
        source: Some(results_path),
        history,
        ..Default::default()
    };
    let summary = reports::render(&results, &out, &options)
        .with_context(|| format!("cannot write the report to {}", out.display()))?;
    println!(
        "wrote {} ({} family pages, {} charts)",
        summary.index.display(),
        summary.family_pages.len(),
        summary.charts.len()
    );
    Ok(Gate::Pass)
}
