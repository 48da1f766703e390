//! dodbench's harness: joins designs (`impls`) and workloads (`workloads`), replays traces,
//! verifies every replay against a model, and measures.
//!
//! * [`replay`]: the one generic replay driver and its [`replay::Digest`];
//! * [`verify`]: the model's expected answers and the per-design verdict;
//! * [`timing`]: timed, verified replays (used by `cargo bench` and `dodbench replay`);
//! * [`recording`]: records an application's table operations as a trace;
//! * [`machine`]: probes the machine section of results; [`run_file`]: starts or extends
//!   results.json for this machine and tree (the schema itself is the `results` crate);
//! * [`reference`]: plain-`Vec` and hand-written-loop baselines;
//! * [`suite`]: the matrix and run metadata; [`criterion_output`]: reads criterion's estimates;
//! * [`measure`]: cache simulation, memory, hardware counters, latency and sweeps, one module
//!   per metric.
//!
//! Comparing runs, the history, the exports and the A/B statistics read results only and live
//! in the `results` crate.
#![deny(missing_docs)]

pub mod criterion_output;
pub mod machine;
pub mod measure;
pub mod recording;
pub mod reference;
pub mod replay;
pub mod run_file;
pub mod suite;
pub mod timing;
pub mod verify;
