//! `dodbench compare`: the CI gate. NEW against BASE (a results file or the committed
//! baseline), optionally with the time noise learned from a history (then appending NEW to
//! it) and rewriting the baseline.

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
    /// Learn each benchmark's time noise from this history file, then append NEW's summary.
    pub history: Option<&'a Path>,
}

/// The time noise of each benchmark of `new` that the history at `path` has at least
/// [`history::MIN_NOISE_RUNS`] runs of on `new`'s machine and mode (none when the file does not
/// exist yet); says on standard error how many it learned.
fn learned_noise(
    path: &Path,
    new: &Run,
) -> Result<
    std::collections::BTreeMap<results::compare::BenchKey, results::compare::rules::NoiseBand>,
> {
    if path.as_os_str() == results::files::STDOUT_PATH || !path.is_file() {
        return Ok(Default::default());
    }
    let (entries, _corrupt) = history::load(path)?;
    let machine = new.machine.as_deref().unwrap_or("unknown");
    let bands = history::noise_bands(&entries, machine, new.mode.as_deref());
    eprintln!(
        "dodbench: time noise of {} benchmarks from the last runs of {} on {machine} (at most {} \
         each, at least {}); the others keep the fixed threshold",
        bands.len(),
        path.display(),
        history::NOISE_RUNS,
        history::MIN_NOISE_RUNS
    );
    Ok(bands)
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
    let mut rules = rules.clone();
    if let Some(path) = options.history {
        rules.noise = learned_noise(path, &new)?;
    }
    let rules = &rules;
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
