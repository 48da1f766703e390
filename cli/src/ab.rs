//! `dodbench ab-report`: B/A time ratios with 95% intervals from alternating rounds (the
//! statistics of `scripts/ab.sh`); `dodbench agreement`: how far two runs of one commit agree
//! (`results::agreement`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use results::compare::Run;

use crate::Gate;

/// Every `*.json` file of a directory, sorted by name, loaded as a run.
fn load_rounds(dir: &Path) -> Result<Vec<Run>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read directory {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| Run::load(p).map_err(anyhow::Error::from))
        .collect()
}

/// Prints the A/B report of the rounds in `a_dir` and `b_dir`.
///
/// # Errors
/// A directory or results file cannot be read, or the rounds do not pair up.
pub fn run(a_dir: &Path, b_dir: &Path, label_a: &str, label_b: &str) -> Result<Gate> {
    let a = load_rounds(a_dir)?;
    let b = load_rounds(b_dir)?;
    let report = results::ab::report(&a, &b)?;
    print!("{}", report.render(label_a, label_b));
    Ok(Gate::Pass)
}

/// Prints how far the runs in results files `a` and `b` agree.
///
/// # Errors
/// A results file cannot be read.
pub fn agreement(a: &Path, b: &Path) -> Result<Gate> {
    let load = |p: &Path| results::Results::load(p).map_err(anyhow::Error::from);
    let report = results::agreement::agreement(&load(a)?, &load(b)?);
    print!(
        "{}",
        report.render(&a.display().to_string(), &b.display().to_string())
    );
    Ok(Gate::Pass)
}
