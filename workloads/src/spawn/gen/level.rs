//! `spawn-level`: the article's case, a level of `n` entities spawned once ("a level can
//! easily have 10 000 objects or more").

use crate::generate::parts::{Recorder, TraceParts};
use crate::spawn::SpawnOp;
use crate::spawn::builder::{LevelShape, level};
use crate::trace::Trace;

crate::generate::workload! {
    /// a level of n entities (1-5 components, mean 3; 10% children in chains <= 5; 2% unknown
    /// components); body: spawn it once
    pub struct SpawnLevelParams for "spawn-level" {
        /// Fraction of entities that are children (in chains).
        pub child_fraction: f64 = 0.1, in 0.0..=0.9,
        /// Longest chain, root included.
        pub max_chain: u32 = 5, in 1..=64,
        /// Probability that an entity has one unknown component (0.06: 2 % of components).
        pub unknown_per_entity: f64 = 0.06, in 0.0..=1.0,
    }
}

/// Setup: the level, `Compile`. Body: one `Spawn`.
pub fn generate(n: usize, seed: u64, params: &SpawnLevelParams) -> Trace<SpawnOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = LevelShape {
            child_fraction: params.child_fraction,
            max_chain: params.max_chain,
            unknown_per_entity: params.unknown_per_entity,
        };
        level(rng, n, &shape, parts);
        parts.start_body();
        parts.push(SpawnOp::Spawn { times: 1 });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn has_the_issue_s_shape() {
        let s = default_stats(generate, 20_000, 3);
        assert_eq!((s.level_entities, s.entities_spawned), (20_000, 20_000));
        let per_entity = s.level_components as f64 / s.level_entities as f64;
        assert!((2.8..3.2).contains(&per_entity), "{per_entity}");
        let unknown = s.unknown_components as f64 / s.level_components as f64;
        assert!((0.01..0.03).contains(&unknown), "{unknown}");
        let children = s.children as f64 / s.level_entities as f64;
        assert!((0.07..0.13).contains(&children), "{children}");
    }
}
