//! dodbench's results: the versioned `results.json` schema and everything that only reads or
//! writes it. The bottom layer under the harness (which measures and fills it) and the report
//! (which draws it); it knows no design, workload or measuring code.
//!
//! * [`schema`]: [`Results`], [`Benchmark`] and the per-benchmark sections, [`Status`];
//!   [`family`]: [`Family`] and [`FamilyRecord`] (each family's reference design, claims and
//!   metric specs), the one file that names specific families; [`metric_spec`]: a family's
//!   own metrics as data ([`MetricSection`], [`MetricSpec`]); [`family_metrics`]: a
//!   benchmark's named values ([`FamilyMetrics`]);
//!   [`machine`]: the machine section as plain data; [`limits`]: the machine's measured memory
//!   limits and what bounds a workload's body; [`files`]: the one output rule and default
//!   paths;
//! * [`compare`]: two runs (or a run and the committed baseline) compared with noise-aware
//!   rules; [`history`]: the JSON-lines history of runs; [`export`]: Bencher Metric Format and
//!   github-action-benchmark exports; [`ab`]: the statistics of `scripts/ab.sh`.
//!
//! [`step`]: what each step of a run (the bench, each pass) excluded by its selection;
//! [`merge`]: a filtered run merged into the file of the same commit, machine, mode and seed;
//! [`side_by_side`]: whether runs of several machines may share one report.
//!
//! [`claim`]: the seed articles' quantitative claims as data (quote, reading, quantity, rule),
//! declared by each family and recorded in its [`FamilyRecord`]; [`claim_spec`]: the same as
//! constants ([`ClaimSpec`]), the tables a family declares its claims in; [`verdict`]: each claim
//! judged on a run's own numbers (per N, then confirmed / refuted / mixed / undecided / not
//! measured).
//!
//! [`stats`]: estimates with distribution-free intervals and the paired ratios of designs
//! timed in interleaved rounds; [`ranking`]: a cell's designs ranked with the confidence of
//! the order, and the paired ratios and overheads every benchmark carries; [`agreement`]: how
//! far two runs of the same commit agree (the resolution of the measurement, an A/A check);
//! [`standing`]: where our fastest design stands against the fastest crate with its contract
//! in each cell, and what the run's counts say where it is behind.
//!
//! Modules import downward only: `metric_spec`, `claim` ← `claim_spec`, `family` ←
//! `family_metrics`, `machine`, `limits`, `files`, `step`, `stats` ← `schema` ← `ranking` ← `merge`,
//! `side_by_side`, `compare`, `verdict`, `standing` ← `agreement`, `history`, `export`, `ab`.
//!
//! ```
//! use results::{Benchmark, Family, FamilyMetrics, Status};
//! let b = Benchmark::new(Family::Tags, "churn", "vec_of_vecs", 1000, 4000);
//! assert_eq!(b.status, Status::Unmeasured);
//! match &b.metrics {
//!     Some(m) => println!("{:?} bytes per tag", m.number("bytes_per_tag")),
//!     None => println!("time only"),
//! }
//! let _: Option<&FamilyMetrics> = b.metrics.as_ref();
//! ```
#![deny(missing_docs)]

pub mod ab;
pub mod agreement;
pub mod claim;
pub mod claim_spec;
pub mod compare;
pub mod export;
pub mod family;
pub mod family_metrics;
pub mod files;
pub mod history;
pub mod limits;
pub mod machine;
pub mod measures;
pub mod merge;
pub mod metric_spec;
pub mod ranking;
pub mod schema;
pub mod shards;
pub mod side_by_side;
pub mod standing;
pub mod stats;
pub mod status;
pub mod step;
pub mod verdict;

pub use claim::{Claim, Metric, MetricOf, Operand, Quantity, Rule, Sizes, Untested};
pub use claim_spec::{ClaimMetric, ClaimSpec, OperandSpec, QuantitySpec, UntestedSpec};
pub use family::{Family, FamilyRecord, UnknownFamily};
pub use family_metrics::{FamilyMetrics, MetricValue};
pub use files::{create_output_dir, default_results_path, target_dir, write_atomically};
pub use limits::{LimitShare, MemoryBound, MemoryLimit, MemoryLimits};
pub use machine::{CacheSizes, Machine};
pub use merge::{MergeCounts, SameRun};
pub use metric_spec::{Direction, MetricChart, MetricSection, MetricSpec, Scope, Unit};
pub use ranking::{Gap, Ranking, peers_without_loop, rank, rank_called_directly};
pub use schema::{
    Benchmark, DesignRecord, Estimate, HwPerOp, Latency, MemoryMetrics, MemorySample,
    READABLE_VERSIONS, Results, ResultsError, SCHEMA_VERSION, SimConfig, SimPerOp, Status,
    SweepPoint, Sweeps, WorkloadRecord,
};
pub use stats::{PairedRatio, Rounds};
pub use step::StepRecord;
