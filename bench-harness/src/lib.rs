//! dodbench's harness: joins designs (`impls`) and workloads (`workloads`), replays traces,
//! verifies every replay against a model, and measures.
//!
//! * [`replay`]: the [`replay::Family`] and [`replay::Replayer`] traits, one replayer per
//!   family; [`families`]: the one list of families;
//! * [`assemble`]: the one place results are assembled (bench and passes);
//! * [`verify`]: the model's expected answers and the per-design verdict;
//! * [`timing`]: timed, verified replays (used by `cargo bench` and `dodbench replay`);
//! * [`results`]: the versioned `results.json` schema; [`machine`]: the machine section;
//! * [`suite`]: the matrix and run metadata; [`criterion_output`]: reads criterion's estimates;
//! * [`measure`]: cache simulation, memory, hardware counters, latency and sweeps, one module
//!   per metric;
//! * [`compare`]: two runs (or a run and the committed baseline) compared with noise-aware
//!   rules; [`history`]: the JSON-lines history of runs; [`export`]: Bencher Metric Format and
//!   github-action-benchmark exports; [`ab`]: the statistics of `scripts/ab.sh`.
#![deny(missing_docs)]

pub mod ab;
pub mod assemble;
pub mod compare;
pub mod criterion_output;
pub mod export;
pub mod families;
pub mod history;
pub mod machine;
pub mod measure;
pub mod replay;
pub mod results;
pub mod suite;
pub mod timing;
pub mod verify;
