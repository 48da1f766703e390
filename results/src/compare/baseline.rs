//! The committed baseline (`reports/baseline/baseline.json`): the deterministic metrics of
//! main, small enough to review like code. `compare` reads it as the BASE of a comparison;
//! `dodbench compare BASELINE NEW --update-baseline` rewrites it atomically from a run.
//!
//! It also stores the run's families with their reference designs (`families`), so a
//! comparison against it normalises times as the run did. A baseline written before that
//! field existed reads as having the built-in records ([`FamilyRecord::builtin_all`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::CompareError;
use super::metrics::{METRICS, Measured, MetricKind};
use super::run::{BenchKey, Run, RunBenchmark, SimConfig};
use crate::family::{Family, FamilyRecord};
use crate::files::write_atomically;
use crate::schema::Status;

/// `format` field that marks a baseline file.
pub const BASELINE_FORMAT: &str = "dodbench-baseline";

/// Version of the baseline layout; readers refuse others. (`families` was added within
/// version 1 as an optional field: older readers ignore it, and this one defaults it.)
pub const BASELINE_VERSION: u32 = 1;

/// Where the committed baseline lives, relative to the workspace root.
pub const DEFAULT_BASELINE_PATH: &str = "reports/baseline/baseline.json";

/// The baseline file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// Always [`BASELINE_FORMAT`]: tells a baseline from a results file.
    pub format: String,
    /// [`BASELINE_VERSION`].
    pub format_version: u32,
    /// Commit of the run the baseline was taken from.
    pub commit: String,
    /// When that run finished (seconds since the Unix epoch), if known.
    pub created_unix: Option<u64>,
    /// Results schema version of that run.
    pub source_schema_version: u64,
    /// Simulated cache hierarchy of the counts, if the run had simulated counts.
    pub sim: Option<SimConfig>,
    /// The run's families with their reference designs; empty in baselines written before
    /// this field, which [`Baseline::into_run`] reads as the built-in records.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub families: Vec<FamilyRecord>,
    /// One entry per benchmark, sorted by key.
    pub benchmarks: Vec<BaselineBenchmark>,
}

/// One benchmark's deterministic metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineBenchmark {
    /// Family.
    pub family: Family,
    /// Workload.
    pub workload: String,
    /// Design.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Work units of the trace body.
    pub ops: u64,
    /// Trace seed, if the run recorded it.
    pub seed: Option<u64>,
    /// Whether the design was verified.
    pub status: Status,
    /// Deterministic metric name → value.
    pub metrics: BTreeMap<String, f64>,
}

impl Baseline {
    /// Keeps the deterministic metrics of `run` (times are noise, not a baseline).
    pub fn from_run(run: &Run) -> Self {
        let mut benchmarks: Vec<BaselineBenchmark> = run
            .benchmarks
            .iter()
            .map(|b| BaselineBenchmark {
                family: b.key.family,
                workload: b.key.workload.clone(),
                design: b.key.design.clone(),
                n: b.key.n,
                ops: b.ops,
                seed: b.seed,
                status: b.status,
                metrics: b
                    .metrics
                    .iter()
                    .filter(|(name, _)| {
                        METRICS
                            .iter()
                            .any(|m| m.name == *name && m.kind == MetricKind::Deterministic)
                    })
                    .map(|(name, m)| (name.clone(), m.value))
                    .collect(),
            })
            .collect();
        // By family name, as baselines have always been sorted, so regenerating one does not
        // reorder it.
        benchmarks.sort_by(|a, b| {
            (a.family.as_str(), &a.workload, a.n, &a.design).cmp(&(
                b.family.as_str(),
                &b.workload,
                b.n,
                &b.design,
            ))
        });
        Self {
            format: BASELINE_FORMAT.to_string(),
            format_version: BASELINE_VERSION,
            commit: run.commit.clone(),
            created_unix: run.created_unix,
            source_schema_version: run.schema_version,
            sim: run.sim.clone(),
            families: run.families.clone(),
            benchmarks,
        }
    }

    /// Parses a baseline from JSON already known to carry the baseline `format` marker.
    ///
    /// # Errors
    /// [`CompareError::Version`] for another layout version, [`CompareError::Corrupt`] for
    /// missing fields.
    pub fn from_value(path: &Path, value: Value) -> Result<Self, CompareError> {
        let version = value.get("format_version").and_then(Value::as_u64);
        if version != Some(u64::from(BASELINE_VERSION)) {
            return Err(CompareError::Version {
                path: path.to_path_buf(),
                found: format!(
                    "baseline format {}",
                    value
                        .get("format_version")
                        .map_or("none".to_string(), Value::to_string)
                ),
            });
        }
        serde_json::from_value(value).map_err(|e| CompareError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })
    }

    /// The baseline as a [`Run`] (deterministic metrics only), for comparison.
    pub fn into_run(self, path: PathBuf) -> Run {
        Run {
            path,
            commit: self.commit,
            created_unix: self.created_unix,
            mode: None,
            schema_version: self.source_schema_version,
            is_baseline: true,
            sim: self.sim,
            families: if self.families.is_empty() {
                FamilyRecord::builtin_all()
            } else {
                self.families
            },
            benchmarks: self
                .benchmarks
                .into_iter()
                .map(|b| RunBenchmark {
                    key: BenchKey {
                        family: b.family,
                        workload: b.workload,
                        design: b.design,
                        n: b.n,
                    },
                    ops: b.ops,
                    status: b.status,
                    seed: b.seed,
                    metrics: b
                        .metrics
                        .into_iter()
                        .map(|(k, v)| (k, Measured::exact(v)))
                        .collect(),
                })
                .collect(),
        }
    }

    /// Writes the baseline atomically (temporary file + rename), pretty-printed with a final
    /// newline so diffs review well.
    ///
    /// # Errors
    /// [`CompareError::Write`] when the file cannot be written; the old file is then intact.
    pub fn save(&self, path: &Path) -> Result<(), CompareError> {
        let mut json = serde_json::to_vec_pretty(self).expect("baseline serialises");
        json.push(b'\n');
        write_atomically(path, &json).map_err(|source| CompareError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}
