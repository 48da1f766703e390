//! `dodbench history append|show`: the JSON-lines history of runs.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use results::compare::Run;
use results::default_results_path;
use results::history::{self, HistoryEntry};

use crate::Gate;

/// Appends the summary of `results` (default: `target/dodbench/results.json`) to the history.
///
/// # Errors
/// The results file cannot be read or the history written.
pub fn append(
    history_path: &Path,
    results: Option<PathBuf>,
    reference: Option<&str>,
) -> Result<Gate> {
    let path = results.unwrap_or_else(default_results_path);
    let run = Run::load(&path)?;
    history::append(history_path, &HistoryEntry::from_run(&run, reference)?)?;
    if history_path.as_os_str() == results::files::STDOUT_PATH {
        eprintln!("dodbench: appended {} to stdout", run.commit);
    } else {
        println!("appended {} to {}", run.commit, history_path.display());
    }
    Ok(Gate::Pass)
}

/// Lists the entries of a history file and its corrupt lines.
///
/// # Errors
/// The file does not exist or cannot be read.
pub fn show(history_path: &Path) -> Result<Gate> {
    if !history_path.exists() {
        bail!("{}: no such history file", history_path.display());
    }
    let (entries, corrupt) = history::load(history_path)?;
    for e in &entries {
        println!(
            "{}  {}  {}  {} benchmarks  {}",
            e.date,
            e.commit,
            e.machine,
            e.benchmarks.len(),
            e.mode.as_deref().unwrap_or("")
        );
    }
    for c in &corrupt {
        eprintln!(
            "dodbench: {}:{}: skipped corrupt line: {}",
            history_path.display(),
            c.line,
            c.reason
        );
    }
    println!(
        "{} entries, {} corrupt lines skipped",
        entries.len(),
        corrupt.len()
    );
    Ok(Gate::Pass)
}
