//! Article design E3 + E5 (`nested`): the naive resource, each entity's components then its
//! children, nested recursively, spawned entity by entity.
//!
//! Layout (32-bit words): `EntitiesResource { num_roots; EntityResource roots[] }` with
//! `EntityResource { num_components; ComponentData components[]; num_children; EntityResource
//! children[] }` and `ComponentData { component_identifier; size; data[size] }`, exactly the
//! article's first format. An unknown component is skipped by its size.
//!
//! Spawn: a recursive walk; per entity one `create`, then per component a dispatch on its
//! identifier to that type's attach code. Cost O(entities + components), but every entity
//! runs the code of every component type it has (the interleaving the article says "messes
//! with our instruction cache") and `num_children` is found only after walking the
//! components.

use super::world::World;
use super::{
    ComponentKind, Level, LevelComponent, SpawnDesignInfo, SpawnDesignKind, Spawner, Words,
};
use crate::DesignMeta;
use crate::components::entities::Entity;

/// The naive nested resource (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct Nested;

/// Appends the article's `ComponentData { component_identifier; size; data[size] }` record of
/// `c`: the component record of both nested formats (this one and
/// [`super::nested_offsets`]).
pub(super) fn emit_component_data(c: &LevelComponent, out: &mut Words) {
    let words = c.resource_words();
    out.push(c.kind as u32);
    out.push(words.len() as u32);
    out.extend(words);
}

/// Attaches the component of the `ComponentData` record at `at` (an unknown type skipped by
/// its size) to `entity`; returns the record's length in words.
#[inline]
pub(super) fn spawn_component_data(
    words: &[u32],
    at: usize,
    entity: Entity,
    parent: Option<Entity>,
    world: &mut World,
) -> usize {
    let (id, size) = (words[at], words[at + 1] as usize);
    if let Some(kind) = ComponentKind::from_id(id) {
        world.add_component(entity, parent, kind, &words[at + 2..at + 2 + size]);
    }
    2 + size
}

fn emit(level: &Level, children: &[Vec<u32>], i: u32, out: &mut Words) {
    let e = &level.entities[i as usize];
    out.push(e.components.len() as u32);
    for c in &e.components {
        emit_component_data(c, out);
    }
    out.push(children[i as usize].len() as u32);
    for &c in &children[i as usize] {
        emit(level, children, c, out);
    }
}

/// Spawns the entity resource at `at` and its children; returns the word after it.
fn spawn_entity(
    words: &[u32],
    mut at: usize,
    parent: Option<Entity>,
    world: &mut World,
    out: &mut Vec<Entity>,
) -> usize {
    let entity = world.create();
    out.push(entity);
    let num_components = words[at];
    at += 1;
    for _ in 0..num_components {
        at += spawn_component_data(words, at, entity, parent, world);
    }
    let num_children = words[at];
    at += 1;
    for _ in 0..num_children {
        at = spawn_entity(words, at, Some(entity), world, out);
    }
    at
}

impl Spawner for Nested {
    type World = World;
    type Blob = Words;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "nested",
            description: "naive nested EntityResource (components, then children, recursively), spawned entity by entity",
            kind: SpawnDesignKind::Article,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> Words {
        let children = level.children();
        let roots = level.roots();
        let mut out = vec![roots.len() as u32];
        for r in roots {
            emit(level, &children, r, &mut out);
        }
        out
    }

    fn spawn(blob: &Words, world: &mut World) -> Vec<Entity> {
        let mut out = Vec::new();
        let mut at = 1;
        for _ in 0..blob[0] {
            at = spawn_entity(blob, at, None, world, &mut out);
        }
        out
    }
}
