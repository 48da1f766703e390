//! `dodbench compare`: the CI gate. NEW against BASE (a results file or the committed
//! baseline), optionally appending to the history and rewriting the baseline.

use std::path::Path;

use anyhow::Result;
use results::compare::table::{Format, render};
use results::compare::{Baseline, CompareError, Rules, Run, UpdatePermissions, compare};
use results::history::{self, HistoryEntry};

use crate::Gate;

/// What `dodbench compare` was asked to do besides comparing.
#[derive(Debug, Clone)]
pub struct Options<'a> {
    /// Text or Markdown.
    pub format: Format,
    /// Also list unchanged rows.
    pub all: bool,
    /// Rewrite BASE from NEW afterwards.
    pub update_baseline: bool,
    /// What the rewrite may do beyond replacing like with like (drop benchmarks, record
    /// failures).
    pub permissions: UpdatePermissions,
    /// Append NEW's summary to this history file.
    pub history: Option<&'a Path>,
}

/// Compares `new_path` against `base_path` with `rules`.
///
/// # Errors
/// A file is unreadable or not a results/baseline file, or a write failed.
pub fn run(base_path: &Path, new_path: &Path, rules: &Rules, options: &Options) -> Result<Gate> {
    if options.update_baseline && base_path.as_os_str() == results::files::STDOUT_PATH {
        anyhow::bail!(
            "--update-baseline rewrites BASE, which is read first: `-` (stdout) cannot be a baseline"
        );
    }
    let new = Run::load(new_path)?;
    let base = match Run::load(base_path) {
        Err(CompareError::Io { source, .. })
            if options.update_baseline && source.kind() == std::io::ErrorKind::NotFound =>
        {
            None
        }
        Err(e) => return Err(e.into()),
        Ok(run) if options.update_baseline && !run.is_baseline => {
            return Err(CompareError::NotABaseline {
                path: base_path.to_path_buf(),
            }
            .into());
        }
        Ok(run) => Some(run),
    };
    let mut gate = Gate::Pass;
    if let Some(base) = &base {
        let comparison = compare(base, &new, rules)?;
        print!("{}", render(&comparison, options.format, options.all));
        if comparison.gate_failed() {
            gate = Gate::Regressed;
        }
    }
    if let Some(path) = options.history {
        history::append(
            path,
            &HistoryEntry::from_run(&new, rules.reference.as_deref())?,
        )?;
        eprintln!("dodbench: appended {} to {}", new.commit, path.display());
    }
    if options.update_baseline {
        let baseline = Baseline::from_run(&new);
        baseline.check_update(base_path, base.as_ref(), options.permissions)?;
        baseline.replace(base_path)?;
        println!(
            "baseline {} updated from {} ({} benchmarks, commit {}); the previous one is kept as {}",
            base_path.display(),
            new_path.display(),
            baseline.benchmarks.len(),
            baseline.commit,
            results::compare::baseline::prev_path(base_path).display()
        );
        return Ok(Gate::Pass);
    }
    Ok(gate)
}
