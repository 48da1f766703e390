//! dodbench's harness: joins designs (`impls`) and workloads (`workloads`), replays traces,
//! verifies every replay against a model, and measures.
//!
//! * [`replay`]: the [`replay::Family`] and [`replay::Replayer`] traits, one replayer per
//!   family; [`families`]: the one list of families;
//! * [`assemble`]: the one place results are assembled (bench and passes);
//! * [`verify`]: the model's expected answers and the per-design verdict; [`shrink`]: a failed
//!   verification reduced to the smallest trace that still fails;
//! * [`timing`]: timed, verified replays (used by `cargo bench` and `dodbench replay`);
//!   [`rounds`]: the designs of one cell timed together in interleaved rounds;
//! * [`machine`]: probes the machine section of results (the schema itself is the `results`
//!   crate); [`host`]: what the host offers now (available memory); [`instance`]: a cell's
//!   work in a process of its own;
//! * [`suite`]: the matrix and run metadata; [`criterion_output`]: reads criterion's estimates;
//! * [`measure`]: cache simulation, memory, hardware counters, latency and sweeps, one module
//!   per metric;
//!
//! Comparing runs, the history, the exports and the A/B statistics read results only and live
//! in the `results` crate.
#![deny(missing_docs)]

pub mod assemble;
pub mod criterion_output;
pub mod families;
pub mod host;
pub mod instance;
pub mod machine;
pub mod measure;
pub mod replay;
pub mod rounds;
pub mod shrink;
pub mod suite;
pub mod timing;
pub mod verify;
