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
//! * The families, one folder each: `src/<family>/mod.rs` the op vocabulary, `builder.rs` its
//!   trace builder, `gen/<workload>.rs` its generators and `gen/mod.rs` their registry lines
//!   (module `<family>::generators`): [`id_table`] (ID tables), [`tags`] (tag stores),
//!   [`alloc`] (block allocators, and the `wee_alloc` recordings' converter), [`components`]
//!   (component managers), [`relations`] (one-to-many indices), [`transforms`] (transform
//!   hierarchies), [`data_component`] (data components), [`spatial`] (spatial indices),
//!   [`spawn`] (entity resources), [`locking`] (multithreaded gameplay). They build on [`generate`], what every generator shares
//!   (parameter structs, limits, the trace builder's parts, a registry entry).
//! * [`vocabularies`]: the one list of the vocabularies (family names, dispatch from a family
//!   name to its op type, the default family of old trace files).
//! * [`format`](mod@format): the binary trace file format, save and load with full validation
//!   (re-exports [`codec`]'s public items).
//! * [`convert`]: outside trace formats into traces (the `wee_alloc` recordings);
//!   [`registry`]: the one list of the families' workload lists, dispatch by name with JSON
//!   parameters.
//!
//! This crate knows nothing of the designs that replay its traces.
#![deny(missing_docs)]

pub mod alloc;
pub mod codec;
pub mod components;
pub mod convert;
pub mod data_component;
pub mod family;
pub mod format;
pub mod generate;
pub mod id_table;
pub mod locking;
pub mod payload;
pub mod registry;
pub mod relations;
pub mod rng;
pub mod spatial;
pub mod spawn;
pub mod tags;
pub mod trace;
pub mod transforms;
pub mod vocabularies;

pub use alloc::AllocOp;
pub use components::ComponentOp;
pub use data_component::DataOp;
pub use family::{AnyTrace, TraceOp, TraceStats, WorkingSet};
pub use id_table::{Handle, IdTableOp, IdTableStats};
pub use locking::LockingOp;
pub use payload::{Object, Payload, Payload8, Payload128, PayloadSize};
pub use relations::RelationOp;
pub use spatial::SpatialOp;
pub use spawn::SpawnOp;
pub use tags::TagOp;
pub use trace::Trace;
pub use transforms::TransformOp;
