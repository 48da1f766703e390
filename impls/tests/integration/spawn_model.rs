//! The spawn family contract, checked once for every registered design.
//!
//! One generic model-based property test: random levels (pre-order entities with parent
//! chains, every component kind including the two unknown ones) are compiled and spawned by
//! each design, spawned again without despawning (a second instance, as a prefab), despawned
//! and spawned once more; after each step the world must digest like the model's
//! ([`world_digest`]: every store read back, entities mapped to resource indices through the
//! returned lists), hold as many entities, and pass `check_invariants`.

use crate::support;

use impls::spawn::model::ModelSpawner;
use impls::spawn::{
    ComponentKind, EntityOf, KINDS, Level, LevelComponent, LevelEntity, SpawnDesignVisitor,
    SpawnWorld, Spawner, for_each_spawn_design, world_digest,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use support::ModelRun;

/// An entity: whether it continues the current chain (a child of the previous entity) or
/// starts a root, whether it attaches to an ancestor above, and its component kinds as a mask.
fn level_strategy() -> impl Strategy<Value = Level> {
    proptest::collection::vec(
        (0u8..4, 0u8..64, proptest::collection::vec(any::<u32>(), 4)),
        0..40,
    )
    .prop_map(|raw| {
        let mut level = Level::default();
        let mut path: Vec<u32> = Vec::new();
        for (i, (link, mask, data)) in raw.into_iter().enumerate() {
            let parent = match link {
                0 | 1 => None,
                2 => path.last().copied(),
                _ => path.first().copied(),
            };
            match parent {
                None => path.clear(),
                Some(p) => {
                    while path.last() != Some(&p) {
                        path.pop();
                    }
                }
            }
            path.push(i as u32);
            let components = KINDS
                .iter()
                .enumerate()
                .filter(|(k, _)| mask & (1 << k) != 0)
                .map(|(k, &kind)| {
                    let mut d: [u32; 4] = std::array::from_fn(|j| data[j].rotate_left(k as u32));
                    if kind == ComponentKind::Tags {
                        d[0] %= 4;
                    }
                    if kind == ComponentKind::PointMass {
                        // Finite floats: the digest compares bits, NaN payloads would too.
                        for w in &mut d {
                            *w &= 0x3fff_ffff;
                        }
                    }
                    LevelComponent { kind, data: d }
                })
                .collect();
            level.entities.push(LevelEntity { parent, components });
        }
        level
    })
}

fn check<S: Spawner>(level: &Level) -> Result<(), TestCaseError> {
    level.check().map_err(TestCaseError::fail)?;
    let name = S::INFO.meta.name;
    let blob = S::compile(level);
    let model_blob = ModelSpawner::compile(level);
    let mut world = S::World::default();
    let mut model = <ModelSpawner as Spawner>::World::default();
    let mut spawned: Vec<EntityOf<S>> = Vec::new();
    let mut model_spawned: Vec<u32> = Vec::new();
    for step in 0..3 {
        if step == 2 {
            S::despawn_all(&mut world);
            ModelSpawner::despawn_all(&mut model);
            spawned.clear();
            model_spawned.clear();
        }
        let out = S::spawn(&blob, &mut world);
        prop_assert_eq!(
            out.len(),
            level.entities.len(),
            "{}: entities returned",
            name
        );
        spawned.extend(out);
        model_spawned.extend(ModelSpawner::spawn(&model_blob, &mut model));
        world.check_invariants().map_err(TestCaseError::fail)?;
        prop_assert_eq!(
            world.entity_count(),
            model.entity_count(),
            "{}: entities",
            name
        );
        prop_assert_eq!(
            world_digest(&mut world, &spawned),
            world_digest(&mut model, &model_spawned),
            "{}: world digest after step {}",
            name,
            step
        );
    }
    prop_assert!(S::blob_bytes(&blob) > 0 || level.entities.is_empty() || name == "model");
    Ok(())
}

/// The property test per design, through the shared seeded runner.
struct RunAll(ModelRun);

impl SpawnDesignVisitor for RunAll {
    fn visit<S: Spawner + 'static>(&mut self) {
        self.0.check(S::INFO.meta.name, level_strategy(), |level| {
            check::<S>(&level)
        });
    }
}

#[test]
fn every_design_spawns_like_the_model() {
    let mut test = RunAll(ModelRun::new(
        module_path!(),
        "every_design_spawns_like_the_model",
        64,
    ));
    for_each_spawn_design(&mut test);
    test.0.finish();
}

#[test]
fn the_digest_sees_a_wrong_parent_and_a_missing_component() {
    let c = |kind, w| LevelComponent {
        kind,
        data: [w, 1, 2, 3],
    };
    let level = Level {
        entities: vec![
            LevelEntity {
                parent: None,
                components: vec![c(ComponentKind::Transform, 7)],
            },
            LevelEntity {
                parent: Some(0),
                components: vec![c(ComponentKind::Transform, 9), c(ComponentKind::Mesh, 4)],
            },
            LevelEntity {
                parent: None,
                components: vec![c(ComponentKind::Transform, 11)],
            },
        ],
    };
    let digest = |level: &Level| {
        let mut w = <ModelSpawner as Spawner>::World::default();
        let out = ModelSpawner::spawn(level, &mut w);
        world_digest(&mut w, &out)
    };
    let mut reparented = level.clone();
    reparented.entities[1].parent = None;
    let mut fewer = level.clone();
    fewer.entities[1].components.pop();
    assert_ne!(digest(&level), digest(&reparented));
    assert_ne!(digest(&level), digest(&fewer));
}
