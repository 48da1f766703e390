//! The versioned schema of `target/dodbench/results.json`, where the harness hands its numbers
//! to the report and to `compare`. Fields named in the issues (`schema_version`, `machine`,
//! `commit`, `toolchain`, `benchmarks`; per benchmark `family`, `workload`, `design`, `n`,
//! `ops`, `verified`, `ns_per_op {median, lower, upper}`, `ops_per_s`) are never renamed; later
//! versions only add fields.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::machine::Machine;

/// Version of this schema; readers refuse other versions with a clear error.
pub const SCHEMA_VERSION: u32 = 1;

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// [`SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// Where the run was measured.
    pub machine: Machine,
    /// `git rev-parse HEAD` of the measured tree (suffixed `-dirty` when it had changes), or
    /// `unknown`.
    pub commit: String,
    /// `rustc --version` of the compiler that built the harness.
    pub toolchain: String,
    /// Seconds since the Unix epoch when the run finished.
    pub created_unix: u64,
    /// `quick` (`DODBENCH_QUICK=1`) or `full`.
    pub mode: String,
    /// The designs of the run, as the registry describes them.
    pub designs: Vec<DesignRecord>,
    /// Every (workload, n) trace of the run with what is needed to regenerate it.
    pub workloads: Vec<WorkloadRecord>,
    /// One entry per (family, workload, design, n).
    pub benchmarks: Vec<Benchmark>,
    /// Simulated-cache counts from `dodbench cache` (deterministic), if it was run.
    #[serde(default)]
    pub cache_sim: Option<CacheSimRun>,
}

/// A `dodbench cache` run: callgrind's cache simulation with a fixed, stated hierarchy, so
/// counts agree across machines and runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSimRun {
    /// Simulated L1 instruction cache, valgrind syntax `size,associativity,line`.
    pub i1: String,
    /// Simulated L1 data cache.
    pub d1: String,
    /// Simulated last-level cache.
    pub ll: String,
    /// `valgrind --version`.
    pub valgrind: String,
    /// One entry per (family, workload, design, n) simulated.
    pub entries: Vec<CacheSimEntry>,
}

/// Callgrind totals for the timed body of one replay (collection toggled on the body only).
/// Divide by `ops` for per-op figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheSimEntry {
    /// Family, e.g. `id_table`.
    pub family: String,
    /// Workload name.
    pub workload: String,
    /// Design name.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Work units of the simulated body.
    pub ops: u64,
    /// Instructions executed (Ir).
    pub instructions: u64,
    /// Data reads (Dr).
    pub data_reads: u64,
    /// Data writes (Dw).
    pub data_writes: u64,
    /// L1 data read misses (D1mr).
    pub d1_read_misses: u64,
    /// L1 data write misses (D1mw).
    pub d1_write_misses: u64,
    /// Last-level data read misses (DLmr).
    pub ll_read_misses: u64,
    /// Last-level data write misses (DLmw).
    pub ll_write_misses: u64,
}

/// A design as listed in results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesignRecord {
    /// Family, e.g. `id_table`.
    pub family: String,
    /// Registry name.
    pub name: String,
    /// One-line description.
    pub description: String,
    /// `article`, `tuned` or `peer`.
    pub kind: String,
    /// For peers: `crate version`.
    pub crate_version: Option<String>,
    /// Size of the design's ID in bytes.
    pub id_bytes: usize,
    /// Whether stale IDs are detected.
    pub detects_stale: bool,
    /// Fixed capacity, if any.
    pub capacity: Option<usize>,
}

/// A generated trace: `dodbench gen <workload> --n <n> --seed <seed>` with `params` rebuilds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkloadRecord {
    /// Family the trace is replayed on.
    pub family: String,
    /// Generator name.
    pub workload: String,
    /// Live size asked for.
    pub n: u64,
    /// Generator seed.
    pub seed: u64,
    /// Generator parameters (JSON of its params struct).
    pub params: serde_json::Value,
    /// Timed work units in the body (see [`workloads::trace::BodyStats::work_units`]).
    pub ops: u64,
}

/// A median with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub median: f64,
    /// Lower bound of the confidence interval.
    pub lower: f64,
    /// Upper bound of the confidence interval.
    pub upper: f64,
}

/// One (family, workload, design, n) measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Benchmark {
    /// Family, e.g. `id_table`.
    pub family: String,
    /// Workload name.
    pub workload: String,
    /// Design name.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Timed work units per replay of the body.
    pub ops: u64,
    /// Whether the replay gave the model's answers (only verified benchmarks carry timings).
    pub verified: bool,
    /// `verified`, `failed` or `unsupported`.
    pub status: String,
    /// Why the design was not timed, when it was not.
    pub reason: Option<String>,
    /// Nanoseconds per work unit: median over samples with criterion's bootstrap interval.
    pub ns_per_op: Option<Estimate>,
    /// Work units per second at the median.
    pub ops_per_s: Option<f64>,
    /// Heap bytes the design held after the setup (its own accounting).
    pub memory_bytes: Option<u64>,
    /// `memory_bytes` divided by the live objects after setup.
    pub bytes_per_live_object: Option<f64>,
    /// Criterion's raw samples in nanoseconds per work unit (each sample's time divided by its
    /// iterations and by `ops`), in sample order; empty when not timed or not recorded.
    #[serde(default)]
    pub samples_ns_per_op: Vec<f64>,
}

/// Why results could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// File could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not valid JSON of this schema.
    #[error("{path}: not a dodbench results file: {source}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// Another schema version.
    #[error("{path}: schema version {found}, this dodbench reads version {SCHEMA_VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// Version found in the file.
        found: u64,
    },
}

impl Results {
    /// Reads and checks a results file.
    ///
    /// # Errors
    /// Missing file, corrupt JSON or another schema version.
    pub fn load(path: &Path) -> Result<Self, ResultsError> {
        let text = std::fs::read_to_string(path).map_err(|source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| ResultsError::Corrupt {
                path: path.to_path_buf(),
                source,
            })?;
        let found = value
            .get("schema_version")
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        if found != u64::from(SCHEMA_VERSION) {
            return Err(ResultsError::Version {
                path: path.to_path_buf(),
                found,
            });
        }
        serde_json::from_value(value).map_err(|source| ResultsError::Corrupt {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Writes the file atomically: a temporary file in the same directory, flushed to disk,
    /// then renamed over `path`, so readers see the old or the new file, never a torn one.
    ///
    /// # Errors
    /// The directory or file could not be written.
    pub fn save(&self, path: &Path) -> Result<(), ResultsError> {
        let json = serde_json::to_vec_pretty(self).expect("results serialise");
        write_atomically(path, &json).map_err(|source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// Writes `bytes` to `path` through a temporary sibling file and a rename.
///
/// # Errors
/// Any I/O failure; the previous file at `path`, if any, is left untouched.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The workspace's `target` directory: `$CARGO_TARGET_DIR`, else `target/` beside the
/// workspace `Cargo.toml` this crate was built from.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("target")
        })
}

/// `target/dodbench/results.json`.
pub fn default_results_path() -> PathBuf {
    target_dir().join("dodbench").join("results.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_other_versions_and_corrupt_files_with_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        std::fs::write(&p, r#"{"schema_version": 99}"#).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version 99"), "{e}");
        std::fs::write(&p, "{not json").unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("not a dodbench results file"), "{e}");
        let e = Results::load(&dir.path().join("missing.json")).unwrap_err();
        assert!(matches!(e, ResultsError::Io { .. }));
    }

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sub").join("f.json");
        write_atomically(&p, b"first version, long").unwrap();
        write_atomically(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }
}
