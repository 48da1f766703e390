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
    entry!(sheet, stale: false),
    entry!(health_only, stale: false),
    entry!(keys_sweep, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        keys_sweep,
        "kv-keys-sweep-k1",
        r#"{"keys": 1}"#,
        "kv-keys-sweep at keys = 1 (the key-count sweep: where linear search stops beating a map)"
    ),
    variant!(
        keys_sweep,
        "kv-keys-sweep-k2",
        r#"{"keys": 2}"#,
        "kv-keys-sweep at keys = 2"
    ),
    variant!(
        keys_sweep,
        "kv-keys-sweep-k4",
        r#"{"keys": 4}"#,
        "kv-keys-sweep at keys = 4"
    ),
    variant!(
        keys_sweep,
        "kv-keys-sweep-k16",
        r#"{"keys": 16}"#,
        "kv-keys-sweep at keys = 16"
    ),
    variant!(
        keys_sweep,
        "kv-keys-sweep-k32",
        r#"{"keys": 32}"#,
        "kv-keys-sweep at keys = 32"
    ),
    variant!(
        keys_sweep,
        "kv-keys-sweep-k64",
        r#"{"keys": 64}"#,
        "kv-keys-sweep at keys = 64"
    ),
    entry!(grow_strings, stale: false),
    entry!(snapshot, stale: false),
    entry!(overrides, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        overrides,
        "kv-overrides-o0",
        r#"{"override_percent": 0}"#,
        "kv-overrides with no field overridden (the override-percent sweep)"
    ),
    variant!(
        overrides,
        "kv-overrides-o50",
        r#"{"override_percent": 50}"#,
        "kv-overrides with half the fields overridden"
    ),
    variant!(
        overrides,
        "kv-overrides-o100",
        r#"{"override_percent": 100}"#,
        "kv-overrides with every field overridden"
    ),
];
