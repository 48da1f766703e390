//! `dodbench report`: rebuilds the HTML report from saved results files, one per machine.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::Gate;

/// Renders `results` (default: `target/dodbench/results.json`) into `out` (default:
/// `target/dodbench/report`), with trend charts from `history` when given (of `trend_metric`
/// when given, which some entry of the history must have). Several files (or
/// a directory: every `*.json` results file in it, by name) make one report of several
/// machines side by side; they must share their traces and simulated caches and name
/// different machines.
///
/// # Errors
/// A results or history file cannot be read, the files cannot be shown side by side, the
/// trend metric is in no entry of the history, or the report cannot be written.
pub fn run(
    results: Vec<PathBuf>,
    out: Option<PathBuf>,
    history: Option<PathBuf>,
    trend_metric: Option<String>,
) -> Result<Gate> {
    let given = if results.is_empty() {
        vec![results::default_results_path()]
    } else {
        results
    };
    let mut paths = Vec::new();
    for path in given {
        if path.is_dir() {
            paths.extend(results_files_in(&path)?);
        } else {
            paths.push(path);
        }
    }
    // The error already names the file and its cause; print it once, not its source chain.
    let runs = paths
        .iter()
        .map(|p| results::Results::load(p).map_err(|e| anyhow::anyhow!("{e}")))
        .collect::<Result<Vec<_>>>()?;
    let pairs: Vec<(&Path, &results::Results)> =
        paths.iter().map(PathBuf::as_path).zip(&runs).collect();
    results::side_by_side::check(&pairs).map_err(|e| anyhow::anyhow!("{e}"))?;
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
        if let Some(metric) = &trend_metric {
            let mut known: Vec<&str> = entries
                .iter()
                .flat_map(|e| &e.benchmarks)
                .flat_map(|b| b.metrics.keys().map(String::as_str))
                .collect();
            known.sort_unstable();
            known.dedup();
            if !entries.is_empty() && !known.contains(&metric.as_str()) {
                bail!(
                    "{}: no entry has the metric {metric:?}; its metrics are: {}",
                    path.display(),
                    known.join(", ")
                );
            }
        }
    }
    let options = reports::RenderOptions {
        source: paths.first().cloned(),
        sources: if paths.len() > 1 { paths } else { Vec::new() },
        history,
        trend_metric,
        ..Default::default()
    };
    let summary = reports::render_machines(&runs, &out, &options)
        .with_context(|| format!("cannot write the report to {}", out.display()))?;
    println!(
        "wrote {} ({} machine{}, {} family pages, {} charts)",
        summary.index.display(),
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        summary.family_pages.len(),
        summary.charts.len()
    );
    Ok(Gate::Pass)
}

/// The `*.json` files of `dir` that are results files (they have `schema_version` and
/// `benchmarks`), sorted by name; other JSON files (a baseline, an export) are skipped.
///
/// # Errors
/// The directory cannot be read, or holds no results file.
fn results_files_in(dir: &Path) -> Result<Vec<PathBuf>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .with_context(|| format!("cannot read {}", dir.display()))?
            .path();
        if path.extension().is_some_and(|e| e == "json") && path.is_file() && is_results(&path) {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        bail!(
            "{}: no results file (*.json with schema_version and benchmarks)",
            dir.display()
        );
    }
    Ok(files)
}

/// Whether `path` looks like a results file: a JSON object with `schema_version` and
/// `benchmarks` (a file that then fails to load is reported by `Results::load`).
fn is_results(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|v| v.get("schema_version").is_some() && v.get("benchmarks").is_some())
}
