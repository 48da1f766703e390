//! Spawn: a level is the caller's; a bad parent link must be refused before `compile`, and
//! extreme data words (tag counts, NaN point masses) must spawn as the model says.

use super::*;

#[test]
fn spawners_refuse_bad_levels_and_spawn_extreme_data() {
    let component = |kind, data| LevelComponent { kind, data };
    let nan = f32::NAN.to_bits();
    let good = Level {
        entities: vec![
            LevelEntity {
                parent: None,
                components: vec![
                    component(ComponentKind::Transform, [u32::MAX; 4]),
                    component(
                        ComponentKind::PointMass,
                        [nan, f32::MAX.to_bits(), u32::MAX, 0],
                    ),
                    component(ComponentKind::Tags, [u32::MAX, 1, 2, 3]),
                    component(ComponentKind::Mesh, [u32::MAX; 4]),
                    component(ComponentKind::UnknownB, [u32::MAX; 4]),
                ],
            },
            LevelEntity {
                parent: Some(0),
                components: vec![component(ComponentKind::Tags, [u32::MAX - 1, 9, 9, 9])],
            },
        ],
    };
    good.check().unwrap();
    let bad_levels = [
        vec![(None, 0), (Some(u32::MAX), 0)],
        vec![(Some(0), 0)],
        vec![(None, 0), (Some(1), 0)],
        vec![(None, 0), (None, 0), (Some(0), 0)],
    ];

    struct V {
        good: Level,
        bad: Vec<Level>,
    }
    impl SpawnDesignVisitor for V {
        fn visit<S: Spawner + 'static>(&mut self) {
            let name = S::INFO.meta.name;
            for level in &self.bad {
                let got = impls::spawn::compile_checked::<S>(level).map(|_| ());
                assert!(
                    matches!(got, Err(impls::spawn::SpawnError::BadLevel { .. })),
                    "{name}: {level:?} gave {got:?}"
                );
            }
            let blob = impls::spawn::compile_checked::<S>(&self.good).unwrap();
            let mut world = S::World::default();
            let spawned = S::spawn(&blob, &mut world);
            assert_eq!(spawned.len(), 2, "{name}");
            world.check_invariants().unwrap();
            let mut tags = Vec::new();
            world.visit(|_, c| {
                if let impls::spawn::ComponentRef::Tags(t) = c {
                    tags.push(t.len());
                }
            });
            tags.sort_unstable();
            assert_eq!(tags, [3, 3], "{name}: tag counts are clamped to MAX_TAGS");
        }
    }
    let bad = bad_levels
        .iter()
        .map(|entities| Level {
            entities: entities
                .iter()
                .map(|&(parent, _)| LevelEntity {
                    parent,
                    components: Vec::new(),
                })
                .collect(),
        })
        .collect();
    impls::spawn::for_each_spawn_design(&mut V { good, bad });
}
