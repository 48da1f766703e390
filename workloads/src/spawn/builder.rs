//! What the spawn generators (`spawn-*`) share: a random level written as setup ops
//! ([`SpawnOp::Entity`], [`SpawnOp::Component`], then [`SpawnOp::Compile`]).
//!
//! # The level
//! Entities are roots or children in chains (a root followed by up to `max_chain - 1`
//! descendants, each the child of the one before), so the level is in pre-order. A chain starts
//! after a root with the probability that makes `child_fraction` of the entities children.
//! Each entity has 1 to 4 distinct known components (P = 0.1, 0.2, 0.36, 0.34: mean 2.94),
//! always a transform when it is in a chain, and one of the two unknown kinds with probability
//! `unknown_per_entity` (0.06 by default: components per entity 1 to 5, mean 3, 2 % unknown).
//!
//! Data words: a transform's pose (any `u32`, see `Affine::from_pose`); a point mass's mass in
//! [1, 10) and position in ±100 as `f32` bits; tags: a count 1..=3 and tags below 1000; a mesh:
//! a mesh id below 100 and a material below 20; unknown kinds: any words.

use crate::rng::TraceRng;
use crate::spawn::{KINDS, KNOWN_KINDS, NO_PARENT, SpawnOp};

use crate::generate::parts::TraceParts;

/// The shape of a generated level.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LevelShape {
    /// Fraction of entities that are children.
    pub child_fraction: f64,
    /// Longest chain, root included.
    pub max_chain: u32,
    /// Probability that an entity has an unknown component.
    pub unknown_per_entity: f64,
}

fn f32_in(rng: &mut TraceRng, lo: f64, hi: f64) -> u32 {
    ((lo + rng.unit_f64() * (hi - lo)) as f32).to_bits()
}

/// Appends one entity's components (at most one per kind, `transform` forcing a transform).
fn components(
    rng: &mut TraceRng,
    shape: &LevelShape,
    transform: bool,
    parts: &mut TraceParts<SpawnOp>,
) {
    let u = rng.unit_f64();
    let count = if u < 0.1 {
        1
    } else if u < 0.3 {
        2
    } else if u < 0.66 {
        3
    } else {
        4
    };
    let mut kinds: Vec<u32> = (0..KNOWN_KINDS).collect();
    rng.shuffle(&mut kinds);
    kinds.truncate(count);
    if transform && !kinds.contains(&0) {
        kinds[0] = 0;
    }
    kinds.sort_unstable();
    if rng.unit_f64() < shape.unknown_per_entity {
        kinds.push(KNOWN_KINDS + rng.below(u64::from(KINDS - KNOWN_KINDS)) as u32);
    }
    for kind in kinds {
        let data = match kind {
            0 => [rng.next_u64() as u32, 0, 0, 0],
            1 => [
                f32_in(rng, 1.0, 10.0),
                f32_in(rng, -100.0, 100.0),
                f32_in(rng, -100.0, 100.0),
                f32_in(rng, -100.0, 100.0),
            ],
            2 => [
                1 + rng.below(3) as u32,
                rng.below(1000) as u32,
                rng.below(1000) as u32,
                rng.below(1000) as u32,
            ],
            3 => [rng.below(100) as u32, rng.below(20) as u32, 0, 0],
            _ => {
                let w = rng.next_u64();
                [w as u32, (w >> 32) as u32, kind, 0]
            }
        };
        parts.push(SpawnOp::Component { kind, data });
    }
}

/// Appends a root at level index `root` and a chain of `children` descendants under it.
pub(crate) fn chain(
    rng: &mut TraceRng,
    shape: &LevelShape,
    root: u32,
    children: u32,
    parts: &mut TraceParts<SpawnOp>,
) {
    parts.push(SpawnOp::Entity { parent: NO_PARENT });
    components(rng, shape, children > 0, parts);
    for k in 0..children {
        parts.push(SpawnOp::Entity { parent: root + k });
        components(rng, shape, true, parts);
    }
}

/// Appends a level of `n` entities of `shape` (pre-order) and the `Compile` op to the setup.
pub(crate) fn level(
    rng: &mut TraceRng,
    n: usize,
    shape: &LevelShape,
    parts: &mut TraceParts<SpawnOp>,
) {
    let children_per_root = shape.child_fraction / (1.0 - shape.child_fraction).max(1e-9);
    let mean_chain = f64::from(shape.max_chain.max(2)) / 2.0;
    let chain_chance = (children_per_root / mean_chain).min(1.0);
    let mut made = 0usize;
    while made < n {
        let children = if shape.max_chain > 1 && rng.unit_f64() < chain_chance {
            1 + rng.below(u64::from(shape.max_chain - 1)) as usize
        } else {
            0
        };
        let children = children.min(n - made - 1);
        chain(rng, shape, made as u32, children as u32, parts);
        made += 1 + children;
    }
    parts.push(SpawnOp::Compile);
}
