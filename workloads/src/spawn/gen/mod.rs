//! The workloads of the entity resources ([`SpawnOp`](crate::SpawnOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).
//!
//! Entity resources ([`SpawnOp`](crate::SpawnOp); `n` is the number of entities spawned; see
//! `builder.rs` for the level; work units one per spawned entity):
//!
//! | workload        | setup (default params)                               | body (default params)                  |
//! |-----------------|------------------------------------------------------|----------------------------------------|
//! | `spawn-level`   | a level of `n` entities, Compile                     | Spawn once                             |
//! | `spawn-prefab`  | a 5-entity prefab (root + chain of 4), Compile       | Spawn it `n / 5` times                 |
//! | `spawn-restart` | as `spawn-level`                                     | Spawn, then 9 × (DespawnAll, Spawn)    |

pub mod level;
pub mod prefab;
pub mod restart;

use crate::generate::{Entry, entry};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(level, stale: false),
    entry!(prefab, stale: false),
    entry!(restart, stale: false),
];
