//! Article design E6 + E7 (`grouped_batched`), the article's pivot: the grouped-by-type
//! resource of [`super::grouped`], spawned as "create N entities", then each component type in
//! spawn order through its one spawn function `SpawnFunction(entity_lookup, num_instances,
//! entity_index, data)`.
//!
//! Cost O(entities + components) like the others, but each type's code runs once over a
//! contiguous array of its instances (reserving once), which is the article's instruction-
//! and data-cache argument; unknown types cost one jump each.

use super::world::World;
use super::{ComponentKind, Level, SpawnDesignInfo, SpawnDesignKind, Spawner, Words, grouped};
use crate::DesignMeta;
use crate::components::entities::Entity;

/// The grouped resource spawned in batches (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct GroupedBatched;

impl Spawner for GroupedBatched {
    type World = World;
    type Blob = Words;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "grouped_batched",
            description: "the article's pivot: grouped by component type; create N entities, then one spawn function per type in spawn order",
            kind: SpawnDesignKind::Article,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> Words {
        grouped::compile(level)
    }

    fn spawn(blob: &Words, world: &mut World) -> Vec<Entity> {
        let (parents, sections) = grouped::read(blob);
        let mut out = Vec::new();
        world.create_many(parents.len(), &mut out);
        for s in sections {
            match s.kind {
                ComponentKind::Transform => {
                    world.spawn_transforms(&out, parents, s.entity_index, s.data)
                }
                ComponentKind::PointMass => world.spawn_point_masses(&out, s.entity_index, s.data),
                ComponentKind::Tags => world.spawn_tags(&out, s.entity_index, s.data),
                ComponentKind::Mesh => world.spawn_meshes(&out, s.entity_index, s.data),
                ComponentKind::UnknownA | ComponentKind::UnknownB => {}
            }
        }
        out
    }
}
