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

use serde::{Deserialize, Serialize};

use crate::family::{Family, FamilyRecord};
use crate::family_metrics::FamilyMetrics;
use crate::machine::Machine;
pub use crate::measures::{
    HwPerOp, Latency, MemoryMetrics, MemorySample, SimConfig, SimPerOp, SweepPoint, Sweeps,
};
pub use crate::stats::Estimate;
use crate::stats::Rounds;
pub use crate::status::Status;
use crate::step::StepRecord;

mod load;

pub use load::{BASELINE_FORMAT, MAX_NS_PER_OP, REFERENCE_RUN, ResultsError, implausible_time};

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
    /// For one shard of a run split over machines (`DODBENCH_SHARD=k/n`): which one. Absent
    /// in a whole run and in the merge of its shards ([`crate::shards::merge_shards`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::step::ShardRecord>,
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
    /// What the design does not guarantee of its family's full contract, where that changes
    /// what it must do per op (`detects no stale ID`, `a job may write only its own unit`,
    /// `no updates after the build`, `keeps no transform hierarchy`): a design is ranked
    /// against another as having "the same contract" only when its gaps are among the
    /// other's. Empty for a design with the full contract, and in files written before it was
    /// recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contract_gaps: Vec<String>,
}

impl DesignRecord {
    /// A record of `name` in `family`, of `kind` (`article`, `tuned` or `peer`), with nothing
    /// else known: no description, crate, limits or contract gaps; 8-byte IDs that detect stale
    /// ones. What a results file made by hand (a test, another tool) starts from.
    pub fn new(family: Family, name: &str, kind: &str) -> Self {
        Self {
            family,
            name: name.into(),
            description: String::new(),
            kind: kind.into(),
            crate_version: None,
            id_bytes: 8,
            detects_stale: true,
            capacity: None,
            limits: None,
            idiom: None,
            docs: None,
            adapter: None,
            contract_gaps: Vec::new(),
        }
    }

    /// This record with the contract gaps `gaps` (what the design does not guarantee).
    pub fn with_gaps(mut self, gaps: &[&str]) -> Self {
        self.contract_gaps = gaps.iter().map(|g| g.to_string()).collect();
        self
    }

    /// Whether this design guarantees at least what `other` does (its contract gaps are among
    /// `other`'s), so a time of `other` can be set against it as the same contract's.
    pub fn guarantees_as_much_as(&self, other: &DesignRecord) -> bool {
        self.contract_gaps
            .iter()
            .all(|g| other.contract_gaps.contains(g))
    }

    /// This design's contract gaps that `other` does not have, e.g. what a faster peer skips
    /// that the best of our designs does.
    pub fn gaps_beyond<'a>(&'a self, other: &DesignRecord) -> Vec<&'a str> {
        self.contract_gaps
            .iter()
            .filter(|g| !other.contract_gaps.contains(g))
            .map(String::as_str)
            .collect()
    }
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
    /// What bounds the body on a store larger than the caches, where its family declares it
    /// (compared with the machine's measured limits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bound: Option<crate::limits::MemoryBound>,
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
    /// For a failed verification: the one command that shrinks it to the smallest trace that
    /// still fails (`dodbench shrink ...`), or for a design from another crate the library
    /// call that does (`dodbench::external::shrink`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shrink: Option<String>,
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
            shrink: None,
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

impl Results {
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
            shard: None,
        }
    }

    /// Whether `b` times a peer (its design's record says `kind` `peer`): a published crate
    /// behind an adapter, which [`crate::rank_called_directly`] calls directly or not at all.
    pub fn is_peer(&self, b: &Benchmark) -> bool {
        self.design_record(b).is_some_and(|d| d.kind == "peer")
    }

    /// The record of the design `b` times, if the run lists it.
    pub fn design_record(&self, b: &Benchmark) -> Option<&DesignRecord> {
        self.designs
            .iter()
            .find(|d| d.family == b.family && d.name == b.design)
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
}
