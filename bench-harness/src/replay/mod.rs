//! Replay: one driver per family applies a trace's ops to a design and digests what it
//! observed; the harness around it (verification, timing, the bench driver) is written once,
//! generic over [`Replayer`].
//!
//! One module per family holds its [`Family`] marker and its replayer. A family ([`Family`]) names its op vocabulary, its digest, the replayer of its reference
//! model, its designs ([`Family::for_each_replayer`]) and everything a consumer needs to run,
//! measure and report it (sizes, pass workloads, time reference); a [`Replayer`] is one
//! design's replay state. Every replay loop is monomorphised per design: no dynamic dispatch and
//! no allocation per op in the timed loop. The passes around it (verification, timing,
//! measurement) take the design as an object ([`erased`]), compiled once per family. The list of families is [`crate::families`].
//!
//! The traits and the helpers written once over them are [`contract`], which names no family;
//! the families and the shared replay machinery ([`resolved`], [`shared`], [`erased`]) import
//! them from there, and this module declares the families and re-exports what the harness's
//! consumers use.

pub mod alloc;
pub mod components;
pub mod contract;
pub mod data_component;
pub mod erased;
pub mod glue;
pub mod id_table;
pub mod locking;
pub mod metric_fields;
pub mod relations;
pub mod resolved;
pub mod shared;
pub mod spatial;
pub mod spawn;
pub mod tags;
pub mod transforms;

pub(crate) mod pass_states;

pub use contract::{
    DigestOf, External, ExtraDesigns, Family, GAP_NO_STALE_DETECTION, HostsDesign, MetricsOf,
    NoMetrics, OpOf, ReferenceLoop, ReplayDigest, ReplayError, Replayer, ReplayerVisitor,
    ResolvedPair, Role, Scale, StandaloneRepro, StatsOf, describe_mismatch, design_record_of,
    design_records_with, family_metrics, for_each_replayer_with, mirrored_designs,
    reference_loop_names, replayer_names,
};

pub use alloc::{AllocDigest, AllocFamily, AllocReplay, SystemAlloc};
pub use components::{ComponentDigest, ComponentFamily, ComponentReplay};
pub use data_component::{DataComponentDigest, DataComponentFamily, DataComponentReplay};
pub use erased::{Design, Resolved, State, design};
pub use id_table::{IdTableDigest, IdTableFamily, IdTableReplay, IdTableState, mix_object};
pub use locking::{LockingDigest, LockingFamily, LockingReplay};
pub use relations::{RelationDigest, RelationFamily, RelationReplay};
pub use resolved::{HandleIds, HandleMap, IdMismatch, ResolvedBody};
pub use shared::{CellStates, Shared, SharedState};
pub use spatial::{SpatialDigest, SpatialFamily, SpatialReplay};
pub use spawn::{SpawnDigest, SpawnFamily, SpawnReplay};
pub use tags::{TagDigest, TagFamily, TagReplay};
pub use transforms::{TransformDigest, TransformFamily, TransformReplay};

pub use crate::host::{repeatable, set_repeatable};

#[cfg(test)]
pub(crate) mod testing;
