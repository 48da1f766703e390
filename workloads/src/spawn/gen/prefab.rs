//! `spawn-prefab`: one small prefab (a root with a chain of children) spawned `n / size` times
//! in a row, so `n` entities are spawned (at n = 50K, 10K spawns of a 5-entity prefab).

use crate::generate::parts::{Recorder, TraceParts};
use crate::spawn::SpawnOp;
use crate::spawn::builder::{LevelShape, chain};
use crate::trace::Trace;

crate::generate::workload! {
    /// a 5-entity prefab (a root and a chain of 4) spawned n/5 times in a row; n entities spawned
    pub struct SpawnPrefabParams for "spawn-prefab" {
        /// Entities of the prefab (a root and a chain of `size - 1`).
        pub size: u32 = 5, in 1..=64,
    }
}

/// Setup: the prefab, `Compile`. Body: one `Spawn` of `max(1, n / size)` instances.
pub fn generate(n: usize, seed: u64, params: &SpawnPrefabParams) -> Trace<SpawnOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = LevelShape {
            child_fraction: 0.0,
            max_chain: params.size,
            unknown_per_entity: 0.06,
        };
        chain(rng, &shape, 0, params.size - 1, parts);
        parts.push(SpawnOp::Compile);
        parts.start_body();
        let times = (n / params.size as usize).max(1);
        parts.push(SpawnOp::Spawn {
            times: u32::try_from(times).unwrap_or(u32::MAX),
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn spawns_n_entities_of_one_prefab() {
        let s = default_stats(generate, 1_000, 5);
        assert_eq!((s.level_entities, s.children), (5, 4));
        assert_eq!((s.spawns, s.entities_spawned), (1, 1_000));
    }
}
