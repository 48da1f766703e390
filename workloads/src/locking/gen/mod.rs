//! The workloads of the locking family ([`LockingOp`](crate::LockingOp) traces), one
//! generator per file, and `ENTRIES`, their lines of the [registry](crate::registry).
//!
//! Multithreaded gameplay ([`LockingOp`](crate::LockingOp); `n` is the number of units; see
//! `builder.rs` for the world: uniform over a square where a raycast of radius 8 finds ~8
//! units; work units one per job):
//!
//! | workload     | setup (default params)                      | body (default params)                                              |
//! |--------------|---------------------------------------------|--------------------------------------------------------------------|
//! | `lock-none`  | Script (64 work iterations, r = 8, k = 16), `n` units | 4 frames × every unit's job (read, raycast, push itself) |
//! | `lock-mixed` | as `lock-none`                              | as `lock-none`, 5 % of jobs also push a random other unit          |
//! | `lock-hot`   | as `lock-none`                              | as `lock-none`, every job also pushes unit 0 (the player)          |
//!
//! `lock-mixed-c0`, `-c128`, `-c256` and `-c1024` are `lock-mixed` at 0 to 1,024 iterations of
//! script work between API calls (64 by default): the sweep claim H2 is read across.

pub mod hot;
pub mod mixed;
pub mod none;

use crate::generate::{Entry, entry, variant};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(none, stale: false),
    entry!(mixed, stale: false),
    // Points of its parameter sweep (default and full runs only): the script's work between
    // API calls, where a lock per call stops costing the speed-up threads bring.
    variant!(
        mixed,
        "lock-mixed-c0",
        r#"{"compute": 0}"#,
        "lock-mixed with no script work between API calls (the script-work sweep: where a lock per call stops losing)"
    ),
    variant!(
        mixed,
        "lock-mixed-c128",
        r#"{"compute": 128}"#,
        "lock-mixed at 128 iterations of script work between API calls"
    ),
    variant!(
        mixed,
        "lock-mixed-c256",
        r#"{"compute": 256}"#,
        "lock-mixed at 256 iterations of script work between API calls"
    ),
    variant!(
        mixed,
        "lock-mixed-c1024",
        r#"{"compute": 1024}"#,
        "lock-mixed at 1,024 iterations of script work between API calls"
    ),
    entry!(hot, stale: false),
];
