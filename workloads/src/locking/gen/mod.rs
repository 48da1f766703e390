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

pub mod hot;
pub mod mixed;
pub mod none;

use crate::generate::{Entry, entry};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(none, none::LockNoneParams, stale: false),
    entry!(mixed, mixed::LockMixedParams, stale: false),
    entry!(hot, hot::LockHotParams, stale: false),
];
