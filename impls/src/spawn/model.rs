//! The reference spawner: a level copied as it is into a plain world of `Vec`s, entity by
//! entity. Every design's spawned world must digest like it ([`super::world_digest`]). Not a
//! benchmarked design: it is not in the registry.

use super::{
    ComponentKind, ComponentRef, Level, MeshRecord, SpawnDesignInfo, SpawnDesignKind, SpawnWorld,
    Spawner, mesh_of, point_mass_of, tags_of,
};
use crate::DesignMeta;
use crate::components::PointMass;
use crate::transforms::Affine;

/// A component of the plain world.
#[derive(Debug, Clone, PartialEq)]
enum Plain {
    Transform(Affine, Option<u32>),
    PointMass(PointMass),
    Tags(Vec<u32>),
    Mesh(MeshRecord),
}

/// The plain world: entities are `0..entities`, components a list of `(entity, component)`.
#[derive(Debug, Clone, Default)]
pub struct PlainWorld {
    /// Entities created (the next entity's number).
    entities: u32,
    /// Every component, in creation order. Invariant: every entity `< entities`.
    components: Vec<(u32, Plain)>,
}

impl SpawnWorld for PlainWorld {
    type Entity = u32;
    // The model records what the digest reads: local matrices and parent entities.
    const TRANSFORM_HIERARCHY: bool = false;

    fn clear(&mut self) {
        *self = PlainWorld::default();
    }

    fn entity_count(&self) -> usize {
        self.entities as usize
    }

    fn visit(&mut self, mut f: impl FnMut(u32, ComponentRef<'_, u32>)) {
        for (e, c) in &self.components {
            match c {
                Plain::Transform(a, p) => f(*e, ComponentRef::Transform(a, *p)),
                Plain::PointMass(m) => f(*e, ComponentRef::PointMass(m)),
                Plain::Tags(t) => f(*e, ComponentRef::Tags(t)),
                Plain::Mesh(m) => f(*e, ComponentRef::Mesh(*m)),
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        self.components.capacity() * size_of::<(u32, Plain)>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        match self.components.iter().find(|(e, _)| *e >= self.entities) {
            Some((e, _)) => Err(format!("component of entity {e} never created")),
            None => Ok(()),
        }
    }
}

/// The reference spawner (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct ModelSpawner;

impl Spawner for ModelSpawner {
    type World = PlainWorld;
    type Blob = Level;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference: the level copied into a plain world, entity by entity",
            kind: SpawnDesignKind::Article,
        },
        entity_bytes: 4,
    };

    fn compile(level: &Level) -> Level {
        level.clone()
    }

    fn spawn(level: &Level, world: &mut PlainWorld) -> Vec<u32> {
        let first = world.entities;
        world.entities += level.entities.len() as u32;
        for (i, e) in level.entities.iter().enumerate() {
            let entity = first + i as u32;
            let parent = e.parent.map(|p| first + p);
            for c in &e.components {
                let words = c.resource_words();
                let plain = match c.kind {
                    ComponentKind::Transform => {
                        Plain::Transform(Affine::from_pose(words[0]), parent)
                    }
                    ComponentKind::PointMass => Plain::PointMass(point_mass_of(&words)),
                    ComponentKind::Tags => Plain::Tags(tags_of(&words).to_vec()),
                    ComponentKind::Mesh => Plain::Mesh(mesh_of(&words)),
                    ComponentKind::UnknownA | ComponentKind::UnknownB => continue,
                };
                world.components.push((entity, plain));
            }
        }
        (first..world.entities).collect()
    }
}
