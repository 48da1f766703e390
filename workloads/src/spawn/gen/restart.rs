//! `spawn-restart`: a level of `n` entities spawned, despawned (a world reset) and spawned
//! again, `rounds` spawns in all: restarting a level.

use crate::generate::parts::{Recorder, TraceParts};
use crate::spawn::SpawnOp;
use crate::spawn::builder::{LevelShape, level};
use crate::trace::Trace;

crate::generate::workload! {
    /// the spawn-level level; body: spawn, then 9 x (despawn all, spawn): 10 spawns
    pub struct SpawnRestartParams for "spawn-restart" {
        /// Spawns of the level (a `DespawnAll` before each but the first).
        pub rounds: u32 = 10, in 1..=1000,
    }
}

/// Setup: the `spawn-level` level, `Compile`. Body: `Spawn`, then `rounds - 1` ×
/// (`DespawnAll`, `Spawn`).
pub fn generate(n: usize, seed: u64, params: &SpawnRestartParams) -> Trace<SpawnOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = LevelShape {
            child_fraction: 0.1,
            max_chain: 5,
            unknown_per_entity: 0.06,
        };
        level(rng, n, &shape, parts);
        parts.start_body();
        parts.push(SpawnOp::Spawn { times: 1 });
        for _ in 1..params.rounds {
            parts.push(SpawnOp::DespawnAll);
            parts.push(SpawnOp::Spawn { times: 1 });
        }
    })
}
