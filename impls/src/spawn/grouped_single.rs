//! Ablation of the article's pivot (`grouped_single`): the grouped-by-type resource of
//! [`super::grouped`], but entities created and their components attached one entity at a
//! time (the per-instance `add_*` path of the world).
//!
//! Spawn: one cursor per known type; for each entity in level order, `create`, then each
//! type's instances belonging to it. Same resource as [`super::grouped_batched`], same spawn
//! order as [`super::nested`]: the difference to `nested` is the layout alone, the difference
//! to `grouped_batched` the batching alone.

use super::world::World;
use super::{Level, SpawnDesignInfo, SpawnDesignKind, Spawner, Words, grouped};
use crate::DesignMeta;
use crate::components::entities::Entity;

/// The grouped resource spawned entity by entity (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct GroupedSingle;

impl Spawner for GroupedSingle {
    type World = World;
    type Blob = Words;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "grouped_single",
            description: "ablation: the grouped-by-type resource, but entities created and components attached one entity at a time",
            kind: SpawnDesignKind::Tuned,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> Words {
        grouped::compile(level)
    }

    fn spawn(blob: &Words, world: &mut World) -> Vec<Entity> {
        let (parents, sections) = grouped::read(blob);
        // (section, next instance): at most one per known type.
        let mut cursors: Vec<(grouped::Section<'_>, usize)> = sections.map(|s| (s, 0)).collect();
        let mut out: Vec<Entity> = Vec::with_capacity(parents.len());
        for (i, &p) in parents.iter().enumerate() {
            let entity = world.create();
            out.push(entity);
            let parent = (p != u32::MAX).then(|| out[p as usize]);
            for (s, next) in &mut cursors {
                let words = s.kind.words();
                while s.entity_index.get(*next) == Some(&(i as u32)) {
                    let data = &s.data[*next * words..(*next + 1) * words];
                    world.add_component(entity, parent, s.kind, data);
                    *next += 1;
                }
            }
        }
        out
    }
}
