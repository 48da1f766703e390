//! The versioned schema of `target/dodbench/results.json`, where the harness hands its numbers
//! to the report and to `compare`. The core fields (`schema_version`, `machine`,
//! `commit`, `toolchain`, `benchmarks`; per benchmark `family`, `workload`, `design`, `n`,
//! `ops`, `verified`, `ns_per_op {median, lower, upper}`, `ops_per_s`) are never renamed.
//!
//! History of the schema:
//! * 1: the core fields (`bytes_per_live_object` per benchmark);
//! * 2: `bytes_per_object`, `sim`, `hw`, `memory`, `latency`, `sweeps`, samples;
//! * 3: the `tags`, `alloc` and `reference` families, with per-benchmark `tags` and `alloc`
//!   metrics;
//! * 4: `family` and `status` are checked names ([`Family`], [`Status`]); one per-family field
//!   `metrics` tagged by `kind` ([`FamilyMetrics`]) replaces `tags` and `alloc`; the run lists
//!   its `families` with each one's reference design ([`FamilyRecord`]). Added later within
//!   4, optional: the run's `steps` ([`StepRecord`]: what each step's selection excluded) and
//!   the machine's `name`.
//! * 5: a reference loop's `mirrors` and `overhead`; times from resolved replays.
//! * 6: `rounds` per benchmark ([`Rounds`]): the designs of a cell timed in interleaved rounds,
//!   `samples_ns_per_op[i]` a design's time in round `i`, with its paired ratios to the
//!   family's reference design and to the cell's fastest; `overhead` is paired too.
//! * 7: each family record carries its metric specs (`families[].metrics`,
//!   [`MetricSection`](crate::MetricSection)); a benchmark's `metrics` keeps its shape (named
//!   values tagged by `kind`, [`FamilyMetrics`]) and leaves an unmeasured metric out instead of
//!   writing `null`. Within 7: the designs of a cell's unsettled comparisons run extra rounds,
//!   so a benchmark may have more `samples_ns_per_op` than others of its session (rounds
//!   `0..len` always; two benchmarks pair the rounds both ran, [`crate::stats::paired_ratio`]).
//!   Also within 7: a cell timed as several instances, each a process of its own, records the
//!   rounds of each (`rounds.instances`); two benchmarks pair rounds within each instance
//!   ([`crate::stats::paired_ratio_in`]), and a paired ratio records the `instances` it spans.
//!
//! [`Results::load`] reads every version and upgrades it in memory: version 3's `tags`/`alloc`
//! become `metrics`, and a file without `families` gets the built-in records
//! ([`FamilyRecord::builtin`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::family::{Family, FamilyRecord};
use crate::family_metrics::FamilyMetrics;
use crate::files::write_atomically;
use crate::machine::Machine;
pub use crate::measures::{
    HwPerOp, Latency, MemoryMetrics, MemorySample, SimConfig, SimPerOp, SweepPoint, Sweeps,
};
pub use crate::stats::Estimate;
use crate::stats::Rounds;
pub use crate::status::Status;
use crate::step::StepRecord;

/// Version of this schema; readers refuse newer versions with a clear error.
pub const SCHEMA_VERSION: u32 = 7;

/// Versions [`Results::load`] reads (older ones' missing fields take defaults; version 1's
/// `bytes_per_live_object` is read as `bytes_per_object`; version 3's per-benchmark `tags` and
/// `alloc` are read into `metrics`; version 5 added a reference loop's `mirrors` and
/// `overhead`, and its times come from resolved replays; version 6 added `rounds`).
pub const READABLE_VERSIONS: [u32; 7] = [1, 2, 3, 4, 5, 6, 7];

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
    /// The families of the run with each one's reference design. Absent before schema 4:
    /// [`Results::load`] then fills in [`FamilyRecord::builtin_all`].
    #[serde(default)]
    pub families: Vec<FamilyRecord>,
    /// The designs of the run, as the registry describes them.
    pub designs: Vec<DesignRecord>,
    /// Every (workload, n) trace of the run with what is needed to regenerate it.
    pub workloads: Vec<WorkloadRecord>,
    /// One entry per (family, workload, design, n).
    pub benchmarks: Vec<Benchmark>,
    /// Working-set sweeps from `dodbench sweep`: ns/op against N, for where each design's curve
    /// bends relative to the cache sizes.
    #[serde(default)]
    pub sweeps: Option<Sweeps>,
    /// The steps that built the run (`cargo bench`, then each pass merged into it) and what
    /// each one's selection excluded; added within schema 4 (older files read as none).
    #[serde(default)]
    pub steps: Vec<StepRecord>,
}

/// A design as listed in results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DesignRecord {
    /// Family, e.g. `id_table`.
    pub family: Family,
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
    /// The design's documented limits in its family's terms (tags per entity, alignment, bad
    /// frees; an ID table's ID size, stale-ID detection with its bound, and capacity).
    #[serde(default)]
    pub limits: Option<String>,
    /// For peers: how the adapter uses the crate, as its documentation shows (API calls,
    /// components or containers, bulk or incremental).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idiom: Option<String>,
    /// For peers: the documentation page the idiom follows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub docs: Option<String>,
    /// For peers: what the adapter does per op beyond the idiom, and why (the family's
    /// contract), or that it adds nothing; read beside the measured adapter cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adapter: Option<String>,
}

/// A generated trace: `dodbench gen <workload> --n <n> --seed <seed>` with `params` rebuilds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkloadRecord {
    /// Family the trace is replayed on.
    pub family: Family,
    /// Generator name.
    pub workload: String,
    /// Live size asked for.
    pub n: u64,
    /// Generator seed.
    pub seed: u64,
    /// Generator parameters (JSON of its params struct).
    pub params: serde_json::Value,
    /// Timed work units in the body (see `workloads::TraceStats::work_units`).
    pub ops: u64,
    /// Distinct objects (or, for keyed families, keys) the body's ops name: the working set a
    /// timed replay measures (`None` in files older than schema 5).
    #[serde(default)]
    pub working_set: Option<u64>,
    /// Whether an op of the body visits the whole store (then every live object is touched).
    #[serde(default)]
    pub visits_store: bool,
}

/// One (family, workload, design, n) measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Benchmark {
    /// Family, e.g. `id_table`, or `reference` for a reference loop.
    pub family: Family,
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
    /// Whether the design was verified, and if not why it was not timed.
    pub status: Status,
    /// Why the design was not timed, when it was not.
    pub reason: Option<String>,
    /// The design's documented limits refused the trace before any replay (a capacity below
    /// the trace's peak, a shape it cannot take): [`Status::Unsupported`] without an answer,
    /// unlike a replay that ran past its limits (a stale-ID horizon) and answered wrongly.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// Nanoseconds per work unit: the median over samples, with a 95% interval of the median
    /// (order statistics of the rounds' samples when `rounds` is set, else criterion's
    /// bootstrap).
    pub ns_per_op: Option<Estimate>,
    /// Work units per second at the median.
    pub ops_per_s: Option<f64>,
    /// Heap bytes the design held after the setup (its own accounting).
    pub memory_bytes: Option<u64>,
    /// `memory_bytes` divided by the live objects after setup.
    #[serde(alias = "bytes_per_live_object")]
    pub bytes_per_object: Option<f64>,
    /// Simulated cache counts per op (`dodbench cache`).
    #[serde(default)]
    pub sim: Option<SimPerOp>,
    /// Hardware counters per op (`dodbench latency`), `null` where unavailable.
    #[serde(default)]
    pub hw: Option<HwPerOp>,
    /// Why `hw` is `null` (counters unavailable, or the pass was not run).
    #[serde(default)]
    pub hw_reason: Option<String>,
    /// Global-allocator calls per op of the body (`dodbench memory`).
    #[serde(default)]
    pub alloc_calls_per_op: Option<f64>,
    /// Memory metrics (`dodbench memory`).
    #[serde(default)]
    pub memory: Option<MemoryMetrics>,
    /// Per-op latency percentiles (`dodbench latency`).
    #[serde(default)]
    pub latency: Option<Latency>,
    /// Raw samples in nanoseconds per work unit (each sample's time divided by its iterations
    /// and by `ops`), in sample order: one per round when `rounds` is set (from round 0; a
    /// design that ran extra rounds has more than the others of its session), else
    /// criterion's; empty when not timed or not recorded.
    #[serde(default)]
    pub samples_ns_per_op: Vec<f64>,
    /// How the benchmark was timed in interleaved rounds with the other designs of its cell
    /// (`None` when criterion timed it alone): the session pairing its samples with theirs,
    /// and its paired ratios.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Rounds>,
    /// The metrics of the benchmark's family beyond time (tag stores: bytes per tag;
    /// allocators: utilization, fragmentation), from an untimed replay; `None` for families
    /// that measure none, or when not measured.
    #[serde(default)]
    pub metrics: Option<FamilyMetrics>,
    /// For a reference loop that writes one design's replay by hand (`ref-direct-holey`): that
    /// design's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirrors: Option<String>,
    /// For such a loop: the mirrored design's replay time over the loop's, both from this run
    /// (the replay driver's overhead on this workload and size; 1.0 is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead: Option<f64>,
}

impl Benchmark {
    /// The benchmark's ID, `family/workload/design/n` (criterion's, and [`StepRecord`]'s).
    pub fn id(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.family, self.workload, self.design, self.n
        )
    }

    /// An entry with no measurement yet, for a pass that fills its own fields.
    pub fn new(family: Family, workload: &str, design: &str, n: u64, ops: u64) -> Self {
        Self {
            family,
            workload: workload.to_string(),
            design: design.to_string(),
            n,
            ops,
            verified: false,
            status: Status::Unmeasured,
            reason: None,
            refused: false,
            ns_per_op: None,
            ops_per_s: None,
            memory_bytes: None,
            bytes_per_object: None,
            sim: None,
            hw: None,
            hw_reason: None,
            alloc_calls_per_op: None,
            memory: None,
            latency: None,
            samples_ns_per_op: Vec::new(),
            rounds: None,
            metrics: None,
            mirrors: None,
            overhead: None,
        }
    }
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
    /// Another schema version (a newer one, none, or not a number).
    #[error("{path}: schema version {found}, this dodbench reads versions 1 to {SCHEMA_VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// What the file has as `schema_version`, as JSON (`"4"`, `null`), or `none`.
        found: String,
    },
    /// A baseline of the CI gate (`compare::baseline`), not a results file: it keeps a quick
    /// run's deterministic counts only, without the times, records and fields the claims and
    /// the report read.
    #[error(
        "{path}: a baseline of the CI gate (a run's deterministic counts only, no times), which \
         `dodbench compare` reads; claims and the report read a results file, such as the \
         committed reference run {REFERENCE_RUN}"
    )]
    Baseline {
        /// The file.
        path: PathBuf,
    },
    /// Well-formed JSON of this schema whose numbers cannot be a measurement (a time that is
    /// not a positive finite number below [`MAX_NS_PER_OP`], two entries for one benchmark).
    #[error("{path}: not a usable results file: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the benchmark.
        reason: String,
    },
}

/// The largest plausible time per work unit, in ns (1,000 s): a results file with more is
/// corrupt or hand-edited, and would break every chart's axis.
pub const MAX_NS_PER_OP: f64 = 1e12;

/// The `format` field that marks a baseline file (`compare::baseline`): told apart here so that
/// [`Results::load`] names a baseline given where a results file belongs.
pub const BASELINE_FORMAT: &str = "dodbench-baseline";

/// The committed reference run, relative to the workspace root: one whole run of the suite,
/// readable by every command that takes a results file (`docs/reference/README.md`).
pub const REFERENCE_RUN: &str = "docs/reference/results.json";

/// Why `ns` cannot be a measured time per work unit: not finite, not positive, or above
/// [`MAX_NS_PER_OP`]; `None` when it can.
///
/// ```
/// use results::schema::implausible_time;
/// assert_eq!(implausible_time(3.5), None);
/// assert!(implausible_time(0.0).unwrap().contains("not positive"));
/// assert!(implausible_time(1e308).unwrap().contains("above"));
/// assert!(implausible_time(f64::NAN).unwrap().contains("not finite"));
/// ```
pub fn implausible_time(ns: f64) -> Option<String> {
    if !ns.is_finite() {
        Some(format!("{ns} ns is not finite"))
    } else if ns <= 0.0 {
        Some(format!("{ns} ns is not positive"))
    } else if ns > MAX_NS_PER_OP {
        // Scientific notation: 1e308 printed in full is 309 digits.
        Some(format!(
            "{ns:e} ns is above the plausible maximum {MAX_NS_PER_OP:e} ns"
        ))
    } else {
        None
    }
}

impl Estimate {
    /// Why this estimate cannot be a measured time: a bound or the median is implausible
    /// ([`implausible_time`]), or `lower <= median <= upper` does not hold.
    pub fn implausible(&self) -> Option<String> {
        for (name, v) in [
            ("median", self.median),
            ("lower", self.lower),
            ("upper", self.upper),
        ] {
            if let Some(why) = implausible_time(v) {
                return Some(format!("ns_per_op.{name}: {why}"));
            }
        }
        (!(self.lower <= self.median && self.median <= self.upper)).then(|| {
            format!(
                "ns_per_op: lower {} <= median {} <= upper {} does not hold",
                self.lower, self.median, self.upper
            )
        })
    }
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
        if value.get("format").and_then(|f| f.as_str()) == Some(BASELINE_FORMAT) {
            return Err(ResultsError::Baseline {
                path: path.to_path_buf(),
            });
        }
        let version = value.get("schema_version");
        if !version
            .and_then(|v| v.as_u64())
            .is_some_and(|found| READABLE_VERSIONS.iter().any(|&v| u64::from(v) == found))
        {
            return Err(ResultsError::Version {
                path: path.to_path_buf(),
                found: version.map_or("none".to_string(), |v| v.to_string()),
            });
        }
        let results = Self::from_value(value).map_err(|source| ResultsError::Corrupt {
            path: path.to_path_buf(),
            source,
        })?;
        results
            .check_plausible()
            .map_err(|reason| ResultsError::Invalid {
                path: path.to_path_buf(),
                reason,
            })?;
        Ok(results)
    }

    /// Checks what serde cannot: one entry per (family, workload, design, n), and every time
    /// a plausible measurement ([`Estimate::implausible`], [`implausible_time`] for each
    /// sample and sweep point).
    ///
    /// # Errors
    /// The first problem, naming the benchmark.
    pub fn check_plausible(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for b in &self.benchmarks {
            let id = b.id();
            if !seen.insert((b.family, &b.workload, &b.design, b.n)) {
                return Err(format!("{id}: two entries for one benchmark"));
            }
            if let Some(why) = b.ns_per_op.as_ref().and_then(Estimate::implausible) {
                return Err(format!("{id}: {why}"));
            }
            if let Some(why) = b
                .samples_ns_per_op
                .iter()
                .find_map(|&ns| implausible_time(ns))
            {
                return Err(format!("{id}: a sample: {why}"));
            }
        }
        let points = self.sweeps.iter().flat_map(|s| &s.points);
        for p in points {
            if let Some(why) = p.ns_per_op.and_then(implausible_time) {
                return Err(format!(
                    "sweep point {}/{}/{}/{}: {why}",
                    p.family, p.workload, p.design, p.n
                ));
            }
        }
        Ok(())
    }

    /// Reads a results file's JSON of any readable version (the version is not checked
    /// here; [`Results::load`] checks it first), upgraded to this schema.
    ///
    /// # Errors
    /// The JSON does not have this schema's shape.
    pub fn from_value(mut value: serde_json::Value) -> Result<Self, serde_json::Error> {
        let has_families = value.get("families").is_some();
        if let Some(benchmarks) = value.get_mut("benchmarks").and_then(|b| b.as_array_mut()) {
            for b in benchmarks.iter_mut().filter_map(|b| b.as_object_mut()) {
                if b.contains_key("metrics") {
                    continue;
                }
                if let Some(m) = crate::family::take_v3_metrics(b)? {
                    b.insert("metrics".to_string(), serde_json::to_value(m)?);
                }
            }
        }
        let mut results: Self = serde_json::from_value(value)?;
        if !has_families {
            results.families = FamilyRecord::builtin_all();
        }
        results.schema_version = SCHEMA_VERSION;
        Ok(results)
    }

    /// Loads `path` if it exists, else returns `new()` (an empty run), so a measurement pass
    /// can merge its fields into whatever `cargo bench` wrote.
    ///
    /// # Errors
    /// The file exists but cannot be read or is of an unreadable version.
    pub fn load_or(path: &Path, new: impl FnOnce() -> Self) -> Result<Self, ResultsError> {
        if path.exists() {
            return Self::load(path);
        }
        Ok(new())
    }

    /// A run with no designs, workloads or benchmarks yet, listing the built-in families.
    pub fn empty(
        machine: Machine,
        commit: String,
        toolchain: String,
        created_unix: u64,
        mode: &str,
    ) -> Self {
        Self {
            schema_version: SCHEMA_VERSION,
            machine,
            commit,
            toolchain,
            created_unix,
            mode: mode.to_string(),
            families: FamilyRecord::builtin_all(),
            designs: Vec::new(),
            workloads: Vec::new(),
            benchmarks: Vec::new(),
            sweeps: None,
            steps: Vec::new(),
        }
    }

    /// The record of `family`: the run's, else the built-in one.
    pub fn family_record(&self, family: Family) -> Option<FamilyRecord> {
        self.families
            .iter()
            .find(|r| r.family == family)
            .cloned()
            .or_else(|| FamilyRecord::builtin(family))
    }

    /// The entry for (family, workload, design, n), created (unmeasured, with `ops`) if absent.
    pub fn entry(
        &mut self,
        family: Family,
        workload: &str,
        design: &str,
        n: u64,
        ops: u64,
    ) -> &mut Benchmark {
        let found = self.benchmarks.iter().position(|b| {
            b.family == family && b.workload == workload && b.design == design && b.n == n
        });
        let index = match found {
            Some(i) => i,
            None => {
                self.benchmarks
                    .push(Benchmark::new(family, workload, design, n, ops));
                self.benchmarks.len() - 1
            }
        };
        &mut self.benchmarks[index]
    }

    /// Writes the file by [`write_atomically`]'s rule: a temporary file beside the file (a
    /// symbolic link's target), flushed to disk, then renamed over it, so readers see the old
    /// or the new file, never a torn one.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::CacheSizes;

    fn empty() -> Results {
        let machine = Machine {
            name: "test-box".into(),
            cpu_model: "test".into(),
            cores: 1,
            caches: CacheSizes::default(),
            os: "linux".into(),
            arch: "x86_64".into(),
            hw_counters_available: false,
            hw_counters_reason: None,
        };
        Results::empty(machine, "c".into(), "rustc".into(), 1, "quick")
    }

    #[test]
    fn refuses_other_versions_and_corrupt_files_with_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        std::fs::write(&p, r#"{"schema_version": 99}"#).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version 99"), "{e}");
        assert!(e.contains("versions 1 to 7"), "{e}");
        std::fs::write(&p, "{not json").unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("not a dodbench results file"), "{e}");
        let e = Results::load(&dir.path().join("missing.json")).unwrap_err();
        assert!(matches!(e, ResultsError::Io { .. }));
    }

    #[test]
    fn a_schema_version_of_the_wrong_type_is_named_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        let mut v = serde_json::to_value(empty()).unwrap();
        v["schema_version"] = "4".into();
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version \"4\","), "{e}");
        v.as_object_mut().unwrap().remove("schema_version");
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version none"), "{e}");
    }

    #[test]
    fn a_baseline_is_named_with_the_file_to_read_instead() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("baseline.json");
        let baseline = serde_json::json!({
            "format": BASELINE_FORMAT,
            "format_version": 1,
            "commit": "abc",
            "benchmarks": [],
        });
        std::fs::write(&p, serde_json::to_vec(&baseline).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("a baseline of the CI gate"), "{e}");
        assert!(e.contains(REFERENCE_RUN), "{e}");
        assert_eq!(e.matches(&*p.display().to_string()).count(), 1, "{e}");
    }

    #[test]
    fn implausible_times_and_duplicate_benchmarks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        let timed = |median: f64| {
            let mut b = Benchmark::new(Family::IdTable, "churn", "holey", 10, 20);
            b.ns_per_op = Some(Estimate {
                median,
                lower: median * 0.9,
                upper: median * 1.1,
            });
            b
        };
        let cases = [
            (vec![timed(1e308)], "above the plausible maximum"),
            (vec![timed(0.0)], "not positive"),
            (vec![timed(-3.0)], "not positive"),
            (
                vec![timed(5.0), timed(6.0)],
                "two entries for one benchmark",
            ),
        ];
        for (benchmarks, expected) in cases {
            let mut r = empty();
            r.benchmarks = benchmarks;
            std::fs::write(&p, serde_json::to_vec(&r).unwrap()).unwrap();
            let e = Results::load(&p).unwrap_err().to_string();
            assert!(e.contains("id_table/churn/holey/10"), "{e}");
            assert!(e.contains(expected), "{e}");
            // compare reads the same file and refuses it as clearly.
            let e = crate::compare::Run::load(&p).unwrap_err().to_string();
            assert!(e.contains(expected), "{e}");
        }
        let mut r = empty();
        r.benchmarks = vec![timed(5.0)];
        r.benchmarks[0].ns_per_op.as_mut().unwrap().lower = 7.0;
        std::fs::write(&p, serde_json::to_vec(&r).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("does not hold"), "{e}");
    }

    #[test]
    fn unknown_family_or_status_names_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        for (field, bad) in [("family", "idtable"), ("status", "ok")] {
            let mut v = serde_json::to_value(empty()).unwrap();
            let mut b =
                serde_json::to_value(Benchmark::new(Family::IdTable, "churn", "holey", 10, 20))
                    .unwrap();
            b[field] = bad.into();
            v["benchmarks"] = serde_json::json!([b]);
            std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
            let e = Results::load(&p).unwrap_err().to_string();
            assert!(e.contains("not a dodbench results file"), "{e}");
            assert!(e.contains(&format!("unknown variant `{bad}`")), "{e}");
        }
    }

    #[test]
    fn reads_version_1_files_and_merges_entries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v1.json");
        let mut v1 = serde_json::to_value(empty()).unwrap();
        v1["schema_version"] = 1.into();
        let obj = v1.as_object_mut().unwrap();
        obj.remove("sweeps");
        obj.remove("families");
        let mut b = serde_json::to_value(Benchmark::new(Family::IdTable, "churn", "holey", 10, 20))
            .unwrap();
        let b_obj = b.as_object_mut().unwrap();
        for new in [
            "sim",
            "hw",
            "hw_reason",
            "alloc_calls_per_op",
            "memory",
            "latency",
            "metrics",
        ] {
            b_obj.remove(new);
        }
        b_obj.remove("bytes_per_object");
        b_obj.insert("bytes_per_live_object".into(), 40.0.into());
        v1["benchmarks"] = serde_json::json!([b]);
        std::fs::write(&p, serde_json::to_vec(&v1).unwrap()).unwrap();
        let mut r = Results::load(&p).unwrap();
        assert_eq!(r.schema_version, SCHEMA_VERSION);
        assert_eq!(r.benchmarks[0].bytes_per_object, Some(40.0));
        assert_eq!(r.benchmarks[0].sim, None);
        assert_eq!(r.families, FamilyRecord::builtin_all());
        r.entry(Family::IdTable, "churn", "holey", 10, 20).verified = true;
        r.entry(Family::IdTable, "churn", "packed", 10, 20);
        assert_eq!(r.benchmarks.len(), 2);
        assert!(r.benchmarks[0].verified);
        assert_eq!(r.benchmarks[1].status, Status::Unmeasured);
    }

    #[test]
    fn reads_version_3_tags_and_alloc_fields_into_metrics() {
        let tags = serde_json::json!({
            "tags_after_setup": 10, "bytes_per_tag": 12.5, "memory_bytes_after_body": 100,
            "setup_alloc_calls_per_tag": 0.1, "alloc_calls_per_op": 0.0,
        });
        let alloc = serde_json::json!({
            "arena_bytes": 4096, "utilization_at_peak": 0.5, "utilization_mean": 0.4,
            "internal_fragmentation_at_peak": 0.5, "external_fragmentation_at_peak": null,
            "largest_free_over_arena_at_peak": 0.25, "metadata_bits_per_block": 2.0,
            "live_fraction_at_first_failure": null,
        });
        let mut v3 = serde_json::to_value(empty()).unwrap();
        v3["schema_version"] = 3.into();
        v3.as_object_mut().unwrap().remove("families");
        let mut benchmarks = Vec::new();
        for (family, field, value) in [
            (Family::Tags, "tags", tags),
            (Family::Alloc, "alloc", alloc),
            (Family::IdTable, "tags", serde_json::Value::Null),
        ] {
            let mut b = serde_json::to_value(Benchmark::new(family, "w", "d", 1, 1)).unwrap();
            let obj = b.as_object_mut().unwrap();
            obj.remove("metrics");
            obj.insert(field.into(), value);
            if field == "tags" {
                obj.insert("alloc".into(), serde_json::Value::Null);
            }
            benchmarks.push(b);
        }
        v3["benchmarks"] = benchmarks.into();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v3.json");
        std::fs::write(&p, serde_json::to_vec(&v3).unwrap()).unwrap();
        let r = Results::load(&p).unwrap();
        let tags = r.benchmarks[0].metrics.as_ref().unwrap();
        assert_eq!(tags.family, Family::Tags);
        assert_eq!(tags.number("bytes_per_tag"), Some(12.5));
        assert_eq!(tags.number("tags_after_setup"), Some(10.0));
        let alloc = r.benchmarks[1].metrics.as_ref().unwrap();
        assert_eq!(alloc.family, Family::Alloc);
        assert_eq!(alloc.number("largest_free_over_arena_at_peak"), Some(0.25));
        assert!(alloc.get("external_fragmentation_at_peak").is_none());
        assert_eq!(r.benchmarks[2].metrics, None);
        assert_eq!(r.families, FamilyRecord::builtin_all());
        // Saved as version 4 and read back unchanged.
        r.save(&p).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(r#""kind": "alloc""#), "{text}");
        assert!(!text.contains(r#""tags": {"#), "{text}");
        assert_eq!(Results::load(&p).unwrap(), r);
        // A v3 `tags` block of the wrong shape is a clear error, not a panic.
        v3["benchmarks"][0]["tags"] = serde_json::json!({"tags_after_setup": "many"});
        v3["benchmarks"][0]
            .as_object_mut()
            .unwrap()
            .remove("metrics");
        std::fs::write(&p, serde_json::to_vec(&v3).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("not a dodbench results file"), "{e}");
    }

    #[test]
    fn version_4_keeps_the_runs_own_families() {
        let mut r = empty();
        r.families[0].reference_design = "packed".into();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v4.json");
        r.save(&p).unwrap();
        let back = Results::load(&p).unwrap();
        assert_eq!(back.families[0].reference_design, "packed");
        assert_eq!(
            back.family_record(Family::IdTable)
                .unwrap()
                .reference_design,
            "packed"
        );
        assert!(back.family_record(Family::Reference).is_none());
    }
}
