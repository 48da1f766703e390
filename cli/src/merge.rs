//! `dodbench merge`: the results files of a run's shards (`DODBENCH_SHARD=k/n cargo bench` on
//! several machines) put together into the run's results file, refused unless they are exactly
//! the shards of one run (`results::shards::merge_shards`); the report, claims, gate and exports
//! then read the merged file as any other.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use results::Results;

use crate::Gate;

/// Merges the shards at `files` into `output` (written atomically).
///
/// # Errors
/// A file cannot be read or is not a results file, the files are not every shard of one run
/// once, or `output` cannot be written.
pub fn run(files: &[PathBuf], output: &Path) -> Result<Gate> {
    let shards = files
        .iter()
        .map(|f| Results::load(f).with_context(|| format!("cannot read shard {}", f.display())))
        .collect::<Result<Vec<_>>>()?;
    let merged = results::shards::merge_shards(shards).with_context(|| {
        format!(
            "cannot merge {}",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    merged
        .save(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    println!(
        "dodbench: merged {} shards into {} ({} benchmarks)",
        files.len(),
        output.display(),
        merged.benchmarks.len()
    );
    Ok(Gate::Pass)
}
