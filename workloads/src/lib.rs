//! Workload traces for dodbench: sequences of operations on *logical handles*.
//!
//! Handle `k` is the `k`-th object added by a trace, so one trace replays on any ID table
//! whatever its ID type: the replayer keeps a flat `Vec` from handle to the ID the table gave.
//! A [`Trace`] has an untimed setup prefix (building the starting state) and a
//! timed body. Generators are deterministic functions of `(n, seed, params)`.
//!
//! * [`op`], [`payload`], [`trace`]: the vocabulary, the stored object, the trace and its
//!   validation.
//! * [`rng`]: the one PRNG and its sampling helpers (uniform, Zipf, shuffle).
//! * [`generators`] (files in `src/gen/`): one generator per workload; [`registry`]: the list
//!   of them, dispatch by name with JSON parameters.
//! * [`convert`]: outside trace formats into traces (the `wee_alloc` recordings).
//! * [`format`](mod@format): the binary trace file format, save and load with full validation.
//! * [`family`]: what each family's op vocabulary provides ([`TraceOp`]) and the one
//!   `AnyTrace` holding a trace of any family; each vocabulary is one module of its own (the
//!   ID tables' is [`op`]); [`Trace`] is generic over it.
//!
//! This crate knows nothing of the designs that replay its traces.
#![deny(missing_docs)]

pub mod alloc_op;
pub mod convert;
pub mod family;
pub mod format;
#[path = "gen/mod.rs"]
pub mod generators;
pub mod op;
pub mod payload;
pub mod registry;
pub mod rng;
pub mod tag_op;
pub mod trace;

pub use alloc_op::AllocOp;
pub use family::{AnyTrace, AnyTraceVisitor, TraceOp, TraceStats};
pub use op::{BodyStats, Handle, Op};
pub use payload::Payload;
pub use tag_op::TagOp;
pub use trace::Trace;
