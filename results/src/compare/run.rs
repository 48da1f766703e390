//! A run as `compare` sees it: benchmarks keyed by (family, workload, design, n), each with the
//! metrics of the [`metrics`](super::metrics) table it has. Read from a results file (any
//! schema version this dodbench reads) or from a baseline file.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::CompareError;
use super::metrics::{EntryView, Measured, MetricDef, all_defs};
use crate::family::{Family, FamilyRecord};
use crate::schema::{Estimate, Status};
use crate::step::StepRecord;

/// Results schema versions `compare` reads: every version [`Results::load`] reads (all have
/// the fixed core names).
///
/// [`Results::load`]: crate::schema::Results::load
pub const READABLE_SCHEMA_VERSIONS: [u32; 7] = crate::schema::READABLE_VERSIONS;

/// What matches two runs' benchmarks.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BenchKey {
    /// Family, e.g. `id_table`.
    pub family: Family,
    /// Workload name.
    pub workload: String,
    /// Design name.
    pub design: String,
    /// Live size.
    pub n: u64,
}

impl fmt::Display for BenchKey {
    /// `family/workload/design/n`, the criterion benchmark ID.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{}/{}",
            self.family, self.workload, self.design, self.n
        )
    }
}

/// The simulated cache hierarchy deterministic counts were taken with (valgrind syntax
/// `size,associativity,line`). Counts from different hierarchies are not comparable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// L1 data cache.
    pub d1: String,
    /// Last-level cache.
    pub ll: String,
}

impl fmt::Display for SimConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "D1 {}, LL {}", self.d1, self.ll)
    }
}

/// One benchmark of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunBenchmark {
    /// What it is matched by.
    pub key: BenchKey,
    /// Timed work units per replay (a changed trace changes it).
    pub ops: u64,
    /// Whether the design was verified.
    pub status: Status,
    /// Seed of the trace, when the file records it.
    pub seed: Option<u64>,
    /// Metric name (see [`METRICS`]) → value. Only verified benchmarks carry metrics.
    pub metrics: BTreeMap<String, Measured>,
}

impl RunBenchmark {
    /// Whether the design gave the model's answers.
    pub fn is_verified(&self) -> bool {
        self.status.is_verified()
    }
}

/// A whole run, from a results file or a baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The file it was read from.
    pub path: PathBuf,
    /// Commit of the measured tree.
    pub commit: String,
    /// Seconds since the Unix epoch when the run finished, if recorded.
    pub created_unix: Option<u64>,
    /// `quick` or `full`, if recorded.
    pub mode: Option<String>,
    /// Results schema version of the source (for a baseline: of the results it came from).
    pub schema_version: u64,
    /// Whether the file is a baseline (deterministic metrics only).
    pub is_baseline: bool,
    /// The simulated cache hierarchy of the deterministic counts, if any.
    pub sim: Option<SimConfig>,
    /// The families with their reference designs: the file's, or for files that predate them
    /// (results schema 1 to 3, older baselines) the built-in records.
    pub families: Vec<FamilyRecord>,
    /// Benchmarks in file order.
    pub benchmarks: Vec<RunBenchmark>,
    /// The steps that built the run and what each one's selection excluded (see
    /// [`StepRecord`]); empty for baselines and files that predate them.
    pub steps: Vec<StepRecord>,
    /// The machine's name, when the file records it.
    pub machine: Option<String>,
}

impl Run {
    /// Every metric this run's benchmarks may carry: the shared [`METRICS`] and its families'
    /// own ([`all_defs`]).
    pub fn metric_defs(&self) -> Vec<MetricDef> {
        all_defs(&self.families)
    }

    /// Reads the JSON of a results file (any readable schema version); `path` only names it in
    /// errors. Use [`Run::load`] for a file that may also be a baseline.
    ///
    /// # Errors
    /// [`CompareError::Corrupt`] (JSON without the core fields), [`CompareError::Version`]
    /// (another schema version).
    pub fn from_results_value(path: &Path, value: Value) -> Result<Self, CompareError> {
        let corrupt = |reason: String| CompareError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let version = value.get("schema_version").and_then(Value::as_u64);
        if !version.is_some_and(|v| READABLE_SCHEMA_VERSIONS.iter().any(|&r| u64::from(r) == v)) {
            return Err(CompareError::Version {
                path: path.to_path_buf(),
                found: value
                    .get("schema_version")
                    .map_or("none".to_string(), Value::to_string),
            });
        }
        let head: Head =
            serde_json::from_value(value.clone()).map_err(|e| corrupt(e.to_string()))?;
        let raw_benchmarks = value
            .get("benchmarks")
            .and_then(Value::as_array)
            .ok_or_else(|| corrupt("no `benchmarks` array".to_string()))?;
        let families = head.families.unwrap_or_else(FamilyRecord::builtin_all);
        let defs = all_defs(&families);
        let mut sim = None;
        let mut benchmarks = Vec::with_capacity(raw_benchmarks.len());
        let mut seen = std::collections::HashSet::new();
        for (i, raw) in raw_benchmarks.iter().enumerate() {
            let core: CoreBenchmark = serde_json::from_value(raw.clone())
                .map_err(|e| corrupt(format!("benchmarks[{i}]: {e}")))?;
            let key = BenchKey {
                family: core.family,
                workload: core.workload,
                design: core.design,
                n: core.n,
            };
            if let Some(why) = core.ns_per_op.as_ref().and_then(Estimate::implausible) {
                return Err(corrupt(format!("{key}: {why}")));
            }
            if !seen.insert(key.clone()) {
                return Err(corrupt(format!("{key}: two entries for one benchmark")));
            }
            if sim.is_none() {
                sim = sim_config_of(raw);
            }
            let view = EntryView {
                raw,
                ns_per_op: core.ns_per_op,
            };
            let metrics = if core.status.is_verified() {
                defs.iter()
                    .filter_map(|m| m.read(&view).map(|v| (m.name.to_string(), v)))
                    .collect()
            } else {
                BTreeMap::new()
            };
            let seed = head
                .workloads
                .iter()
                .find(|w| w.family == key.family && w.workload == key.workload && w.n == key.n)
                .map(|w| w.seed);
            benchmarks.push(RunBenchmark {
                key,
                ops: core.ops,
                status: core.status,
                seed,
                metrics,
            });
        }
        Ok(Run {
            path: path.to_path_buf(),
            commit: head.commit,
            created_unix: head.created_unix,
            mode: head.mode,
            schema_version: version.unwrap_or_default(),
            is_baseline: false,
            sim,
            families,
            benchmarks,
            steps: head.steps,
            machine: head.machine.map(|m| m.name).filter(|n| n != "unknown"),
        })
    }

    /// The step of this run whose selection excluded the benchmark `key`, if one did.
    pub fn excluded_by(&self, key: &BenchKey) -> Option<&StepRecord> {
        let id = key.to_string();
        self.steps.iter().find(|s| s.excludes(&id))
    }

    /// Whether `key`'s absence is explained by a step NEW did not run: NEW's only steps are
    /// the bench's (whose selection did not exclude `key`, so its matrix never holds it: a
    /// size only the measurement passes run), and the same design on the same workload is in
    /// NEW at another size or was left out by the bench's filter (a removed design or
    /// workload stays `gone`).
    pub fn only_the_bench_ran_beside(&self, key: &BenchKey) -> bool {
        let same_design = format!("{}/{}/{}/", key.family, key.workload, key.design);
        !self.steps.is_empty()
            && self.steps.iter().all(|s| s.step == "bench")
            && (self.benchmarks.iter().any(|b| {
                b.key.family == key.family
                    && b.key.workload == key.workload
                    && b.key.design == key.design
                    && b.key.n != key.n
            }) || self
                .steps
                .iter()
                .any(|s| s.excludes_any_with_prefix(&same_design)))
    }

    /// The benchmark with this key.
    pub fn get(&self, key: &BenchKey) -> Option<&RunBenchmark> {
        self.benchmarks.iter().find(|b| &b.key == key)
    }

    /// The family whose designs the benchmark ran beside: its own, or for a reference loop
    /// (family `reference`) the family of the other benchmarks of the same workload and n.
    /// `None` for a reference loop alone on its workload.
    pub fn group_family(&self, key: &BenchKey) -> Option<Family> {
        if !key.family.is_reference() {
            return Some(key.family);
        }
        self.benchmarks
            .iter()
            .map(|b| &b.key)
            .find(|k| !k.family.is_reference() && k.workload == key.workload && k.n == key.n)
            .map(|k| k.family)
    }
}

/// The run-level fields `compare` uses, typed.
#[derive(Deserialize)]
struct Head {
    #[serde(default = "unknown")]
    commit: String,
    #[serde(default)]
    created_unix: Option<u64>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    workloads: Vec<WorkloadSeed>,
    #[serde(default)]
    families: Option<Vec<FamilyRecord>>,
    #[serde(default)]
    steps: Vec<StepRecord>,
    #[serde(default)]
    machine: Option<MachineName>,
}

#[derive(Deserialize)]
struct MachineName {
    #[serde(default = "unknown")]
    name: String,
}

fn unknown() -> String {
    "unknown".to_string()
}

#[derive(Deserialize)]
struct WorkloadSeed {
    family: Family,
    workload: String,
    n: u64,
    seed: u64,
}

/// The core of one benchmark entry, typed: these names are fixed in every schema version.
#[derive(Deserialize)]
struct CoreBenchmark {
    family: Family,
    workload: String,
    design: String,
    n: u64,
    ops: u64,
    status: Status,
    #[serde(default)]
    ns_per_op: Option<Estimate>,
}

/// The simulated hierarchy of an entry's `sim` block: `sim.config.{d1,ll}` as the harness
/// writes it, or `sim.{d1,ll}` directly.
fn sim_config_of(raw: &Value) -> Option<SimConfig> {
    let sim = raw.get("sim")?;
    let config = sim.get("config").unwrap_or(sim);
    Some(SimConfig {
        d1: config.get("d1")?.as_str()?.to_string(),
        ll: config.get("ll")?.as_str()?.to_string(),
    })
}
