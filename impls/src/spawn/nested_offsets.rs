//! Article design E4 (`nested_offsets`): the nested resource with the fixed-size fields first
//! and offset tables, spawned entity by entity.
//!
//! Layout (32-bit words): `EntitiesResource { num_roots; offset_to_root[num_roots]; roots[] }`
//! with `EntityResource { num_components; num_children; offset_to_component_data[num_components];
//! offset_to_child_data[num_children]; ComponentData components[]; EntityResource children[] }`,
//! offsets in words from the start of the entity's header (the article's `(const char
//! *)resource + offset`), root offsets from the blob's start.
//!
//! Spawn: as [`super::nested`], but the i-th component and the j-th child are reached in O(1)
//! through the tables instead of by walking sizes. Trade-off: a word per component and child
//! more, for access the article says "may or may not matter in practice" (a sequential spawn
//! walks everything anyway).

use super::nested::{emit_component_data, spawn_component_data};
use super::world::World;
use super::{Level, SpawnDesignInfo, SpawnDesignKind, Spawner, Words};
use crate::DesignMeta;
use crate::components::entities::Entity;

/// The nested resource with fixed fields first and offset tables (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct NestedOffsets;

fn emit(level: &Level, children: &[Vec<u32>], i: u32, out: &mut Words) {
    let e = &level.entities[i as usize];
    let kids = &children[i as usize];
    let base = out.len();
    out.push(e.components.len() as u32);
    out.push(kids.len() as u32);
    let tables = out.len();
    out.resize(tables + e.components.len() + kids.len(), 0);
    for (k, c) in e.components.iter().enumerate() {
        out[tables + k] = (out.len() - base) as u32;
        emit_component_data(c, out);
    }
    for (k, &c) in kids.iter().enumerate() {
        out[tables + e.components.len() + k] = (out.len() - base) as u32;
        emit(level, children, c, out);
    }
}

fn spawn_entity(
    words: &[u32],
    base: usize,
    parent: Option<Entity>,
    world: &mut World,
    out: &mut Vec<Entity>,
) {
    let entity = world.create();
    out.push(entity);
    let (num_components, num_children) = (words[base] as usize, words[base + 1] as usize);
    let offsets = &words[base + 2..base + 2 + num_components + num_children];
    for &offset in &offsets[..num_components] {
        spawn_component_data(words, base + offset as usize, entity, parent, world);
    }
    for &offset in &offsets[num_components..] {
        spawn_entity(words, base + offset as usize, Some(entity), world, out);
    }
}

impl Spawner for NestedOffsets {
    type World = World;
    type Blob = Words;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "nested_offsets",
            description: "nested EntityResource with fixed fields first and component/child offset tables, spawned entity by entity",
            kind: SpawnDesignKind::Article,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> Words {
        let children = level.children();
        let roots = level.roots();
        let mut out = vec![roots.len() as u32];
        out.resize(1 + roots.len(), 0);
        for (k, &r) in roots.iter().enumerate() {
            out[1 + k] = out.len() as u32;
            emit(level, &children, r, &mut out);
        }
        out
    }

    fn spawn(blob: &Words, world: &mut World) -> Vec<Entity> {
        let mut out = Vec::new();
        let num_roots = blob[0] as usize;
        for &offset in &blob[1..1 + num_roots] {
            spawn_entity(blob, offset as usize, None, world, &mut out);
        }
        out
    }
}
