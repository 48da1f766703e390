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
use super::metrics::{Measured, MetricKind};
use super::run::{BenchKey, Run, RunBenchmark, SimConfig};
use crate::family::{Family, FamilyRecord};
use crate::files::write_atomically;
use crate::schema::Status;

pub use crate::schema::BASELINE_FORMAT;

/// Version of the baseline layout; readers refuse others. (`families` was added within
/// version 1 as an optional field: older readers ignore it, and this one defaults it.)
pub const BASELINE_VERSION: u32 = 1;

/// Where the committed baseline lives, relative to the workspace root.
pub const DEFAULT_BASELINE_PATH: &str = "reports/baseline/baseline.json";

/// The largest fraction of the old baseline's benchmarks an update may drop without
/// `--allow-shrink` (see [`Baseline::check_update`]).
pub const MAX_UNFORCED_SHRINK: f64 = 0.05;

/// What an update may do beyond replacing like with like.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpdatePermissions {
    /// Drop more than [`MAX_UNFORCED_SHRINK`] of the old baseline's benchmarks.
    pub allow_shrink: bool,
    /// Record benchmarks that failed verification.
    pub allow_failed: bool,
}

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
        let defs = run.metric_defs();
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
                        defs.iter()
                            .any(|m| m.name == name.as_str() && m.kind == MetricKind::Deterministic)
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
            steps: Vec::new(),
            machine: None,
        }
    }

    /// Checks that replacing the baseline `old` (absent for a first baseline) by this one
    /// loses nothing by accident: it has benchmarks; none failed verification (unless
    /// `allow_failed`); it drops at most [`MAX_UNFORCED_SHRINK`] of `old`'s benchmarks (unless
    /// `allow_shrink`).
    ///
    /// # Errors
    /// [`CompareError::RefusedUpdate`], naming the count and the flag that overrides it.
    pub fn check_update(
        &self,
        path: &Path,
        old: Option<&Run>,
        permissions: UpdatePermissions,
    ) -> Result<(), CompareError> {
        let refuse = |reason: String| {
            Err(CompareError::RefusedUpdate {
                path: path.to_path_buf(),
                reason,
            })
        };
        if self.benchmarks.is_empty() {
            return refuse("the new run has no benchmarks".to_string());
        }
        let failed: Vec<String> = self
            .benchmarks
            .iter()
            .filter(|b| b.status == Status::Failed)
            .map(|b| format!("{}/{}/{}/{}", b.family, b.workload, b.design, b.n))
            .collect();
        if !failed.is_empty() && !permissions.allow_failed {
            return refuse(format!(
                "{} benchmarks failed verification (e.g. {}); fix them or pass --allow-failed",
                failed.len(),
                failed[0]
            ));
        }
        if let Some(old) = old {
            let kept: std::collections::BTreeSet<(Family, &str, &str, u64)> = self
                .benchmarks
                .iter()
                .map(|b| (b.family, b.workload.as_str(), b.design.as_str(), b.n))
                .collect();
            let dropped: Vec<&BenchKey> = old
                .benchmarks
                .iter()
                .map(|b| &b.key)
                .filter(|k| !kept.contains(&(k.family, &k.workload, &k.design, k.n)))
                .collect();
            let limit = (old.benchmarks.len() as f64 * MAX_UNFORCED_SHRINK).floor() as usize;
            if dropped.len() > limit && !permissions.allow_shrink {
                return refuse(format!(
                    "it would drop {} of its {} benchmarks (e.g. {}), more than {:.0}%; pass \
                     --allow-shrink if that is intended",
                    dropped.len(),
                    old.benchmarks.len(),
                    dropped[0],
                    MAX_UNFORCED_SHRINK * 100.0
                ));
            }
        }
        Ok(())
    }

    /// Replaces the baseline at `path`: the old file (if any) is kept as `<path>.prev`, then
    /// this one is written; both by [`write_atomically`]'s rule, so neither file is ever
    /// half-written and a baseline kept as a symbolic link stays one (its target is replaced).
    ///
    /// # Errors
    /// [`CompareError::Io`] / [`CompareError::Write`] when a file cannot be read or written.
    pub fn replace(&self, path: &Path) -> Result<(), CompareError> {
        match std::fs::read(path) {
            Ok(old) => {
                let prev = prev_path(path);
                write_atomically(&prev, &old)
                    .map_err(|source| CompareError::Write { path: prev, source })?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(CompareError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        }
        self.save(path)
    }

    /// Writes the baseline by [`write_atomically`]'s rule (a file: temporary file + rename;
    /// a symbolic link: its target), pretty-printed with a final newline so diffs review well.
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

/// `<path>.prev`, where [`Baseline::replace`] keeps the previous baseline.
pub fn prev_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".prev");
    PathBuf::from(name)
}
