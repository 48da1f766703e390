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
pub const SCHEMA_VERSION: u32 = 3;

/// Older versions [`Results::load`] still reads (their missing fields take defaults; version
/// 1's `bytes_per_live_object` is read as `bytes_per_object`). Version 3 added the `tags`,
/// `alloc` and `system` families and the per-benchmark `tags` and `alloc` metrics.
pub const READABLE_VERSIONS: [u32; 3] = [1, 2, 3];

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
    /// Working-set sweeps from `dodbench sweep`: ns/op against N, for where each design's curve
    /// bends relative to the cache sizes.
    #[serde(default)]
    pub sweeps: Option<Sweeps>,
}

/// The simulated cache hierarchy of `dodbench cache`: fixed, so counts agree across machines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimConfig {
    /// Simulated L1 instruction cache, valgrind syntax `size,associativity,line`.
    pub i1: String,
    /// Simulated L1 data cache.
    pub d1: String,
    /// Simulated last-level cache.
    pub ll: String,
    /// `valgrind --version`.
    pub valgrind: String,
    /// What the simulated caches hold when collection starts (e.g. warmed by one uncollected
    /// replay of a read-only body).
    pub start_state: String,
}

/// Callgrind's counts for the body of one replay (collection toggled on the body only),
/// divided by the body's work units. Deterministic: the same binary and trace give the same
/// counts. The names `ir`, `d1_miss` and `ll_miss` are read by `compare` and the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimPerOp {
    /// Instructions executed per op (Ir).
    pub ir: f64,
    /// Data reads per op (Dr).
    pub data_reads: f64,
    /// Data writes per op (Dw).
    pub data_writes: f64,
    /// L1 data misses per op, reads plus writes (D1mr + D1mw).
    pub d1_miss: f64,
    /// Last-level data misses per op, reads plus writes (DLmr + DLmw).
    pub ll_miss: f64,
    /// L1 data read misses per op (D1mr).
    pub d1_read_miss: f64,
    /// Last-level data read misses per op (DLmr).
    pub ll_read_miss: f64,
    /// Bytes moved into the simulated L1 per op: `d1_miss` times the line size. For `iterate-*`
    /// at sizes above L1 this is the memory an iteration streams per visited object.
    pub bytes_streamed: f64,
    /// Work units the counts were divided by.
    pub ops: u64,
    /// The simulated hierarchy.
    pub config: SimConfig,
}

/// Hardware counters per op around the body, from `perf_event_open`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HwPerOp {
    /// Retired instructions per op.
    pub instructions: f64,
    /// CPU cycles per op.
    pub cycles: f64,
    /// L1 data read misses per op.
    pub l1d_read_miss: f64,
    /// Last-level cache misses per op.
    pub llc_miss: f64,
    /// Data TLB misses per op.
    pub dtlb_miss: f64,
}

/// Memory metrics of one benchmark from `dodbench memory` (counting global allocator).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryMetrics {
    /// Heap bytes the design reports holding after the setup ([`Benchmark::memory_bytes`]
    /// recomputed by this pass).
    pub design_bytes: u64,
    /// Heap bytes the counting allocator saw the table hold after the setup (live bytes after
    /// setup minus before, the handle map excluded).
    pub allocator_bytes: u64,
    /// `allocator_bytes` per live object after the setup.
    pub allocator_bytes_per_object: Option<f64>,
    /// Highest allocator live bytes during the body above the level before it (for `fill`: the
    /// peak during the fill, including the moment a growing array holds old and new buffers).
    pub peak_body_bytes: u64,
    /// Allocator calls (alloc, realloc, dealloc) during the body.
    pub alloc_calls: u64,
    /// Memory held every `every_ops` body ops, for `fill` and `churn`.
    #[serde(default)]
    pub series: Vec<MemorySample>,
}

/// One point of the memory-over-time series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemorySample {
    /// Body ops replayed so far.
    pub ops: u64,
    /// The design's own accounting ([`impls::id_table::IdTable::memory_bytes`]).
    pub design_bytes: u64,
    /// The counting allocator's live bytes above the level before the setup (table plus handle
    /// map).
    pub allocator_bytes: u64,
}

/// Per-op latency of the body from `dodbench latency`: ops timed in batches, clock overhead
/// subtracted, divided by the batch's work units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Ops per timed batch (an `Iterate` op counts its visited objects as work units).
    pub batch_ops: usize,
    /// Median cost of one clock read pair, subtracted from every batch.
    pub clock_overhead_ns: f64,
    /// Batches timed.
    pub batches: u64,
    /// Median ns per work unit.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Slowest batch.
    pub max: f64,
}

/// The `sweeps` section: ns/op against N.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweeps {
    /// `quick` or `full`.
    pub mode: String,
    /// Largest N swept and why it stops there (cache multiple, memory or time cap).
    pub max_n: u64,
    /// The reason for `max_n`.
    pub cap: String,
    /// Every measured point.
    pub points: Vec<SweepPoint>,
}

/// One (workload, design, N) point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// Family, e.g. `id_table`.
    pub family: String,
    /// Workload name.
    pub workload: String,
    /// Design name.
    pub design: String,
    /// Live size.
    pub n: u64,
    /// Median ns per work unit over the samples, `None` if not verified.
    pub ns_per_op: Option<f64>,
    /// The design's heap bytes after the setup: the working set the body runs on.
    pub working_set_bytes: Option<u64>,
    /// `verified`, `failed` or `unsupported`.
    pub status: String,
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
    /// The design's documented limits in its family's terms (tags per entity, alignment, bad
    /// frees), for families whose designs have no ID size or stale detection to report.
    #[serde(default)]
    pub limits: Option<String>,
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
    /// Timed work units in the body (see [`workloads::TraceStats::work_units`]).
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
    /// Criterion's raw samples in nanoseconds per work unit (each sample's time divided by its
    /// iterations and by `ops`), in sample order; empty when not timed or not recorded.
    #[serde(default)]
    pub samples_ns_per_op: Vec<f64>,
    /// Tag-store memory metrics (family `tags`), from an untimed replay.
    #[serde(default)]
    pub tags: Option<TagMetrics>,
    /// Block-allocator metrics (family `alloc`), from an untimed replay.
    #[serde(default)]
    pub alloc: Option<AllocMetrics>,
}

/// The metrics one family measures beyond time, as a family's replayer returns them
/// ([`crate::replay::Replayer::measure`]).
#[derive(Debug, Clone, PartialEq)]
pub enum FamilyMetrics {
    /// A tag store's.
    Tags(TagMetrics),
    /// A block allocator's.
    Alloc(AllocMetrics),
}

impl Benchmark {
    /// Stores `metrics` in the field of its family.
    pub fn set_family_metrics(&mut self, metrics: FamilyMetrics) {
        match metrics {
            FamilyMetrics::Tags(m) => self.tags = Some(m),
            FamilyMetrics::Alloc(m) => self.alloc = Some(m),
        }
    }
}

/// Memory metrics of a tag store on one trace, measured by an untimed replay with the design's
/// own accounting ([`impls::tags::TagStore::memory_bytes`] and `allocator_calls`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TagMetrics {
    /// Tags held after the setup.
    pub tags_after_setup: u64,
    /// Heap bytes per tag held after the setup (`memory_bytes / tags_after_setup`); `None`
    /// with no tags.
    pub bytes_per_tag: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Allocator calls the design made during the setup, per tag held after it (the heap
    /// traffic of building the store).
    pub setup_alloc_calls_per_tag: Option<f64>,
    /// Allocator calls the design made during the body, per work unit.
    pub alloc_calls_per_op: f64,
}

/// Space metrics of a block allocator on one trace, sampled after every op of an untimed
/// replay on the arena the timed replays use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllocMetrics {
    /// Arena size of the replay (from the trace's peak; the same for every design).
    pub arena_bytes: u64,
    /// Requested live bytes over reserved bytes at the moment of peak requested bytes.
    pub utilization_at_peak: f64,
    /// Mean over ops of requested live bytes over reserved bytes (ops with nothing live are
    /// skipped).
    pub utilization_mean: f64,
    /// Internal fragmentation at peak: `(reserved - requested) / reserved`.
    pub internal_fragmentation_at_peak: f64,
    /// External fragmentation at peak: `1 - largest free block / free bytes` (the bytes on the
    /// design's free lists); `None` where the design cannot tell both.
    pub external_fragmentation_at_peak: Option<f64>,
    /// Largest free block over the arena size at peak; `None` where unknown.
    pub largest_free_over_arena_at_peak: Option<f64>,
    /// Allocator metadata (in the arena and on the host heap) in bits per live block, at peak.
    pub metadata_bits_per_block: f64,
    /// Separately, on an arena of `arena_bytes`: a seeded stream of allocations from the
    /// trace's size mix until the first failure; requested live bytes then over the arena.
    pub live_fraction_at_first_failure: Option<f64>,
}

impl Benchmark {
    /// An entry with no measurement yet, for a pass that fills its own fields.
    pub fn new(family: &str, workload: &str, design: &str, n: u64, ops: u64) -> Self {
        Self {
            family: family.to_string(),
            workload: workload.to_string(),
            design: design.to_string(),
            n,
            ops,
            verified: false,
            status: "unmeasured".to_string(),
            reason: None,
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
            tags: None,
            alloc: None,
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
    /// Another schema version.
    #[error("{path}: schema version {found}, this dodbench reads versions 1 to {SCHEMA_VERSION}")]
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
        if !READABLE_VERSIONS.iter().any(|&v| u64::from(v) == found) {
            return Err(ResultsError::Version {
                path: path.to_path_buf(),
                found,
            });
        }
        let mut results: Self =
            serde_json::from_value(value).map_err(|source| ResultsError::Corrupt {
                path: path.to_path_buf(),
                source,
            })?;
        results.schema_version = SCHEMA_VERSION;
        Ok(results)
    }

    /// Loads `path` if it exists, else starts an empty run measured on this machine, so a
    /// measurement pass can merge its fields into whatever `cargo bench` wrote.
    ///
    /// # Errors
    /// The file exists but cannot be read or is of an unreadable version.
    pub fn load_or_new(path: &Path, mode: &str) -> Result<Self, ResultsError> {
        if path.exists() {
            return Self::load(path);
        }
        Ok(Self {
            schema_version: SCHEMA_VERSION,
            machine: Machine::current(),
            commit: crate::suite::current_commit(),
            toolchain: crate::suite::toolchain().to_string(),
            created_unix: crate::suite::unix_now(),
            mode: mode.to_string(),
            designs: Vec::new(),
            workloads: Vec::new(),
            benchmarks: Vec::new(),
            sweeps: None,
        })
    }

    /// The entry for (family, workload, design, n), created (unmeasured, with `ops`) if absent.
    pub fn entry(
        &mut self,
        family: &str,
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
    // The temporary file is created private (0600); the result is an ordinary readable file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
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
    fn reads_version_1_files_and_merges_entries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v1.json");
        let mut v1 = serde_json::to_value(Results::load_or_new(&p, "quick").unwrap()).unwrap();
        v1["schema_version"] = 1.into();
        v1.as_object_mut().unwrap().remove("sweeps");
        let mut b =
            serde_json::to_value(Benchmark::new("id_table", "churn", "holey", 10, 20)).unwrap();
        let b_obj = b.as_object_mut().unwrap();
        for new in [
            "sim",
            "hw",
            "hw_reason",
            "alloc_calls_per_op",
            "memory",
            "latency",
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
        r.entry("id_table", "churn", "holey", 10, 20).verified = true;
        r.entry("id_table", "churn", "packed", 10, 20);
        assert_eq!(r.benchmarks.len(), 2);
        assert!(r.benchmarks[0].verified);
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
