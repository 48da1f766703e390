//! The workloads of the data components ([`DataOp`](crate::DataOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).

pub mod grow_strings;
pub mod health_only;
pub mod keys_sweep;
pub mod overrides;
pub mod sheet;
pub mod snapshot;

use crate::generate::{Entry, entry, variant};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(sheet, sheet::KvSheetParams, stale: false),
    entry!(health_only, health_only::KvHealthOnlyParams, stale: false),
    entry!(keys_sweep, keys_sweep::KvKeysSweepParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k1",
        r#"{"keys": 1}"#,
        "kv-keys-sweep at keys = 1 (the key-count sweep: where linear search stops beating a map)"
    ),
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k2",
        r#"{"keys": 2}"#,
        "kv-keys-sweep at keys = 2"
    ),
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k4",
        r#"{"keys": 4}"#,
        "kv-keys-sweep at keys = 4"
    ),
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k16",
        r#"{"keys": 16}"#,
        "kv-keys-sweep at keys = 16"
    ),
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k32",
        r#"{"keys": 32}"#,
        "kv-keys-sweep at keys = 32"
    ),
    variant!(
        keys_sweep,
        keys_sweep::KvKeysSweepParams,
        "kv-keys-sweep-k64",
        r#"{"keys": 64}"#,
        "kv-keys-sweep at keys = 64"
    ),
    entry!(grow_strings, grow_strings::KvGrowStringsParams, stale: false),
    entry!(snapshot, snapshot::KvSnapshotParams, stale: false),
    entry!(overrides, overrides::KvOverridesParams, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        overrides,
        overrides::KvOverridesParams,
        "kv-overrides-o0",
        r#"{"override_percent": 0}"#,
        "kv-overrides with no field overridden (the override-percent sweep)"
    ),
    variant!(
        overrides,
        overrides::KvOverridesParams,
        "kv-overrides-o50",
        r#"{"override_percent": 50}"#,
        "kv-overrides with half the fields overridden"
    ),
    variant!(
        overrides,
        overrides::KvOverridesParams,
        "kv-overrides-o100",
        r#"{"override_percent": 100}"#,
        "kv-overrides with every field overridden"
    ),
];
