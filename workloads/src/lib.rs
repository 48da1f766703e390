//! Workload traces for dodbench: sequences of operations on *logical handles*.
//!
//! Handle `k` is the `k`-th object added by a trace, so one trace replays on any ID table
//! whatever its ID type: the replayer keeps a flat `Vec` from handle to the ID the table gave.
//! A [`Trace`] has an untimed setup prefix (building the starting state) and a
//! timed body. Generators are deterministic functions of `(n, seed, params)`.
//!
//! Modules, bottom to top (each imports only modules listed before it):
//!
//! * [`trace`]: the trace ([`Trace`], generic over its op vocabulary), its header and
//!   [`InvalidTrace`](trace::InvalidTrace); knows no vocabulary. [`rng`]: the one PRNG and its
//!   sampling helpers (uniform, Zipf, shuffle). [`payload`]: the ID tables' stored object.
//! * [`codec`]: the bytes an op vocabulary needs for its file encoding (the op fields'
//!   varints) and [`FormatError`](codec::FormatError).
//! * [`family`]: what each family's op vocabulary provides ([`TraceOp`], [`TraceStats`]), the
//!   methods of [`Trace`] built on it (validation), and [`AnyTrace`], a trace of any family
//!   with its op type erased; names no vocabulary.
//! * The op vocabularies, one module each: [`op`] (ID tables), [`tag_op`] (tag stores),
//!   [`alloc_op`] (block allocators), [`component_op`] (component managers), [`relation_op`]
//!   (one-to-many indices), [`transform_op`] (transform hierarchies).
//! * [`vocabularies`]: the one list of the vocabularies (family names, dispatch from a family
//!   name to its op type, the default family of old trace files).
//! * [`format`](mod@format): the binary trace file format, save and load with full validation
//!   (re-exports [`codec`]'s public items).
//! * [`generators`] (files in `src/gen/`): one generator per workload; [`convert`]: outside
//!   trace formats into traces (the `wee_alloc` recordings); [`registry`]: the list of the
//!   generators, dispatch by name with JSON parameters.
//!
//! This crate knows nothing of the designs that replay its traces.
#![deny(missing_docs)]

pub mod alloc_op;
pub mod codec;
pub mod component_op;
pub mod convert;
pub mod data_op;
pub mod family;
pub mod format;
#[path = "gen/mod.rs"]
pub mod generators;
pub mod op;
pub mod payload;
pub mod registry;
pub mod relation_op;
pub mod rng;
pub mod spatial_op;
pub mod spawn_op;
pub mod tag_op;
pub mod trace;
pub mod transform_op;
pub mod vocabularies;

pub use alloc_op::AllocOp;
pub use component_op::ComponentOp;
pub use data_op::DataOp;
pub use family::{AnyTrace, TraceOp, TraceStats, WorkingSet};
pub use op::{BodyStats, Handle, Op};
pub use payload::{Object, Payload, Payload8, Payload128, PayloadSize};
pub use relation_op::RelationOp;
pub use spatial_op::SpatialOp;
pub use spawn_op::SpawnOp;
pub use tag_op::TagOp;
pub use trace::Trace;
pub use transform_op::TransformOp;
