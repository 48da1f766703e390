//! Workload traces for dodbench: sequences of operations on *logical handles*.
//!
//! Handle `k` is the `k`-th object added by a trace, so one trace replays on any ID table
//! whatever its ID type: the replayer keeps a flat `Vec` from handle to the ID the table gave.
//! A [`Trace`](trace::Trace) has an untimed setup prefix (building the starting state) and a
//! timed body. Generators are deterministic functions of `(n, seed, params)`.
//!
//! This crate knows nothing of the designs that replay its traces.
#![deny(missing_docs)]

pub mod op;
pub mod payload;
pub mod trace;

pub use op::{Handle, Op};
pub use payload::Payload;
pub use trace::Trace;
