//! Tuned design (`archetype_batched`): the level compiled as `hecs` compiles it for
//! `World::spawn_column_batch` (entities grouped by archetype, each group's components in
//! typed columns), spawned into the article designs' shared [`World`]: one run of entities for
//! the whole level, then per batch one bulk append per component store.
//!
//! Where [`super::grouped_batched`] spends what `hecs_batch` does not (read in the code):
//! * Entities: `World::create_many` calls `create` per entity, which reads the table's
//!   reserved bytes twice around a `Holey::insert` (a free-list test, a push that grows the
//!   slots by doubling).
//! * Transforms, per instance (`spawn_transforms` → `add_transform`): the pose is decoded at
//!   spawn (`Affine::from_pose`: a square root and four divisions), then
//!   `DeferredDirtyList::create` → `Hierarchy::push` pops the free ids, pushes on `slot_of`
//!   and on each of the eight per-slot arrays (the new spare slot), each push with its own
//!   capacity check and doubling growth, then links and computes the world matrix; then
//!   `node_of` is checked and a row pushed.
//! * Point masses: `point_mass_of` builds each 40-byte value from words and
//!   `SingleBuffer::put` stores its 12 words one checked index at a time.
//! * Tags, per instance (`add_tags`): a tag-store entity (`EntitySet::create`, a counted push
//!   of its head), then `add_tag` per tag, each a liveness check, the first one a free-list
//!   test and a counted push of a 40-byte chunk in `alloc_chunk`, each `expect`ed.
//! * Every instance finds its entity through `entity_index` and its data as `u32` words.
//!
//! What this design does instead, and from whom:
//! * From `hecs` (`World::spawn_column_batch`, the `hecs_batch` peer): the level is grouped by
//!   component set when it is compiled, each group's data decoded into typed columns (local
//!   `Affine`s, masses, positions, inline tag lists, mesh records), so a spawn copies columns
//!   and decodes nothing; the entities are one run ([`World::create_run`], hecs's
//!   `alloc_many`), each batch a contiguous part of it. Each store is extended once per
//!   batch, with no per-instance dispatch: [`World::append_transforms`] (every hierarchy
//!   array extended or filled once, `Hierarchy::push_run`), [`World::append_point_masses`]
//!   (one copy or fill per region of the single buffer), [`World::append_tags`] (one run of
//!   tag entities and their chunks), [`World::append_meshes`] (one `extend`); and
//!   [`World::reserve_instances`] sizes every store for the whole level first, so no array
//!   grows twice.
//! * Unlike `hecs`, our transforms are linked under their parent's node when created (the
//!   world's contract), so hecs's fix-up pass after the batches (`get::<&mut Transform>` per
//!   child) would be a relink here. Instead an entity with a transform is keyed by its depth
//!   as well: batches are spawned by ascending depth, a parent's node exists before its
//!   children's, and a child batch gathers its parents' entities in one pass.
//! * From the article: the world and its stores (the holey entity table, the deferred dirty
//!   list, the single buffer, linked chunks) with what they keep per instance, and "create N
//!   entities" before any component. Unknown types cost nothing at spawn: the compiler drops
//!   them.
//!
//! What stays, because the world keeps it and `hecs` does not: a transform is a node of the
//! hierarchy (id, local and world matrices, four links, a dirty counter, its `slot_of` entry:
//! 121 bytes) plus its 24-byte row and its `node_of` entry, and a child's world is computed at
//! creation (one `Affine::mul`); a tags component is an entity of the tag store with a 40-byte
//! chunk, a head and a 12-byte row; a point mass is 48 bytes (its entity, zero velocity and
//! acceleration); every entity is a 12-byte slot. Per entity that is about twice what the
//! `hecs` world writes (a transform of 56 bytes, a point mass of 40, a tag list of 16, a mesh
//! of 8, an entity of 16 by its adapter's estimate; the `world_bytes_per_entity` metric of
//! `spawn-level` shows both), which no spawn order removes.
//!
//! Cost O(entities + components + batches): at most 16 component sets per depth. A second
//! component of a kind its entity already has (an archetype holds one) is kept aside and
//! attached one instance at a time after the batches.

use std::collections::BTreeMap;
use std::ops::Range;

use super::world::World;
use super::{
    ComponentKind, Level, LevelComponent, MAX_TAGS, MeshRecord, ResourceBlob, SpawnDesignInfo,
    SpawnDesignKind, Spawner, mesh_of, point_mass_of, tags_of,
};
use crate::DesignMeta;
use crate::components::entities::Entity;
use crate::transforms::Affine;

/// A tags instance's tags, inline.
#[derive(Debug, Clone, Copy, Default)]
pub struct TagList {
    /// Tags held, `<= MAX_TAGS`.
    len: u8,
    /// The tags, `len` of them used.
    tags: [u32; MAX_TAGS],
}

impl TagList {
    fn of(tags: &[u32]) -> Self {
        let mut list = TagList {
            len: tags.len() as u8,
            ..TagList::default()
        };
        list.tags[..tags.len()].copy_from_slice(tags);
        list
    }

    fn tags(&self) -> &[u32] {
        &self.tags[..usize::from(self.len)]
    }
}

/// One archetype batch: entities sharing a component set (and, with a transform, a depth),
/// their components in columns. Invariant: every column is empty (the kind is not in the set)
/// or holds one value per entity of the batch.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// The batch's entities: these positions of the creation order.
    entities: Range<usize>,
    /// The level index of each entity's parent: a batch of depth > 0 only (its entities all
    /// have a transform and a parent at the depth above); empty for depth 0, whose transforms
    /// are roots.
    parents: Vec<u32>,
    /// Local transforms, decoded (`Affine::from_pose`).
    locals: Vec<Affine>,
    /// Point masses' masses.
    masses: Vec<f32>,
    /// Point masses' positions.
    positions: Vec<[f32; 3]>,
    /// Tags instances.
    tags: Vec<TagList>,
    /// Mesh records.
    meshes: Vec<MeshRecord>,
}

impl Batch {
    fn bytes(&self) -> usize {
        self.parents.len() * size_of::<u32>()
            + self.locals.len() * size_of::<Affine>()
            + self.masses.len() * size_of::<f32>()
            + self.positions.len() * size_of::<[f32; 3]>()
            + self.tags.len() * size_of::<TagList>()
            + self.meshes.len() * size_of::<MeshRecord>()
    }
}

/// A component an archetype cannot hold (a second one of a kind its entity has), attached one
/// instance at a time.
#[derive(Debug, Clone)]
struct Extra {
    /// Its entity's level index.
    entity: u32,
    /// Its entity's parent's level index.
    parent: Option<u32>,
    kind: ComponentKind,
    /// The kind's resource words.
    words: Vec<u32>,
}

/// The compiled level: batches by depth, then component set.
#[derive(Debug, Clone, Default)]
pub struct ArchetypeLevel {
    /// `created_at[i]`: where level entity `i` is in the order the entities are created (the
    /// batches' entities one batch after another). A permutation of `0..entities`.
    created_at: Vec<u32>,
    /// In spawn order: ascending depth, so a parent's transform node exists before its
    /// children's.
    batches: Vec<Batch>,
    /// Instances of the transform, point mass, tags and mesh columns over all batches.
    instances: [usize; 4],
    /// Components no batch holds, in level order.
    extras: Vec<Extra>,
}

/// The resource words of the first component of `kind` among `components` (present: the
/// entity's mask says so).
fn words_of(components: &[LevelComponent], kind: ComponentKind) -> Vec<u32> {
    components
        .iter()
        .find(|c| c.kind == kind)
        .expect("the mask names the kind")
        .resource_words()
}

/// The batch of the level entities `members` (all with component set `mask`), placed at
/// `start..` of the spawn order.
fn batch(level: &Level, members: &[u32], mask: u8, depth: u32, start: usize) -> Batch {
    let mut b = Batch {
        entities: start..start + members.len(),
        ..Batch::default()
    };
    let has = |kind: ComponentKind| mask & (1 << kind as u8) != 0;
    for &i in members {
        let e = &level.entities[i as usize];
        if has(ComponentKind::Transform) {
            let pose = words_of(&e.components, ComponentKind::Transform)[0];
            b.locals.push(Affine::from_pose(pose));
            if depth > 0 {
                b.parents
                    .push(e.parent.expect("an entity below depth 0 has a parent"));
            }
        }
        if has(ComponentKind::PointMass) {
            let m = point_mass_of(&words_of(&e.components, ComponentKind::PointMass));
            b.masses.push(m.mass);
            b.positions.push(m.position);
        }
        if has(ComponentKind::Tags) {
            let words = words_of(&e.components, ComponentKind::Tags);
            b.tags.push(TagList::of(tags_of(&words)));
        }
        if has(ComponentKind::Mesh) {
            b.meshes
                .push(mesh_of(&words_of(&e.components, ComponentKind::Mesh)));
        }
    }
    b
}

/// Each entity's component set (bit `k`: the known kind with identifier `k`), its components
/// beyond the first of a kind set aside in `extras`.
fn masks(level: &Level, extras: &mut Vec<Extra>) -> Vec<u8> {
    let mut masks = Vec::with_capacity(level.entities.len());
    for (i, e) in level.entities.iter().enumerate() {
        let mut mask = 0u8;
        for c in e.components.iter().filter(|c| c.kind.is_known()) {
            let bit = 1 << c.kind as u8;
            if mask & bit == 0 {
                mask |= bit;
            } else {
                extras.push(Extra {
                    entity: i as u32,
                    parent: e.parent,
                    kind: c.kind,
                    words: c.resource_words(),
                });
            }
        }
        masks.push(mask);
    }
    masks
}

impl ResourceBlob for ArchetypeLevel {
    fn bytes(&self) -> usize {
        self.created_at.len() * size_of::<u32>()
            + self.batches.iter().map(Batch::bytes).sum::<usize>()
            + self
                .extras
                .iter()
                .map(|x| size_of::<Extra>() + x.words.len() * size_of::<u32>())
                .sum::<usize>()
    }
}

/// The archetype batches (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct ArchetypeBatched;

impl Spawner for ArchetypeBatched {
    type World = World;
    type Blob = ArchetypeLevel;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "archetype_batched",
            description: "hecs's spawn_column_batch on our world: grouped by component set and depth into decoded columns; one entity run, then one bulk append per store and batch",
            kind: SpawnDesignKind::Tuned,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> ArchetypeLevel {
        let mut depth: Vec<u32> = Vec::with_capacity(level.entities.len());
        for e in &level.entities {
            depth.push(e.parent.map_or(0, |p| depth[p as usize] + 1));
        }
        let mut extras = Vec::new();
        let masks = masks(level, &mut extras);
        // Keyed by (depth of a transform's node, component set): ascending depth first.
        let mut groups: BTreeMap<(u32, u8), Vec<u32>> = BTreeMap::new();
        for (i, &mask) in masks.iter().enumerate() {
            let with_transform = mask & (1 << ComponentKind::Transform as u8) != 0;
            let d = if with_transform { depth[i] } else { 0 };
            groups.entry((d, mask)).or_default().push(i as u32);
        }
        let mut blob = ArchetypeLevel {
            created_at: vec![0; level.entities.len()],
            extras,
            ..ArchetypeLevel::default()
        };
        let mut created = 0;
        for ((d, mask), members) in groups {
            let b = batch(level, &members, mask, d, created);
            for (count, column) in blob.instances.iter_mut().zip([
                b.locals.len(),
                b.masses.len(),
                b.tags.len(),
                b.meshes.len(),
            ]) {
                *count += column;
            }
            for &i in &members {
                blob.created_at[i as usize] = created as u32;
                created += 1;
            }
            blob.batches.push(b);
        }
        blob
    }

    fn spawn(blob: &ArchetypeLevel, world: &mut World) -> Vec<Entity> {
        let n = blob.created_at.len();
        let mut created = Vec::with_capacity(n);
        world.create_run(n, &mut created);
        let out: Vec<Entity> = blob
            .created_at
            .iter()
            .map(|&j| created[j as usize])
            .collect();
        let [transforms, masses, tags, meshes] = blob.instances;
        world.reserve_instances(transforms, masses, tags, meshes);
        let mut parents = Vec::new();
        for b in &blob.batches {
            let entities = &created[b.entities.clone()];
            if !b.locals.is_empty() {
                let of_batch = (!b.parents.is_empty()).then(|| {
                    parents.clear();
                    parents.extend(b.parents.iter().map(|&p| out[p as usize]));
                    parents.as_slice()
                });
                world.append_transforms(entities, of_batch, &b.locals);
            }
            if !b.masses.is_empty() {
                world.append_point_masses(entities, &b.masses, &b.positions);
            }
            if !b.tags.is_empty() {
                world.append_tags(entities, b.tags.iter().map(TagList::tags));
            }
            if !b.meshes.is_empty() {
                world.append_meshes(entities, &b.meshes);
            }
        }
        for x in &blob.extras {
            let parent = x.parent.map(|p| out[p as usize]);
            world.add_component(out[x.entity as usize], parent, x.kind, &x.words);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spawn::model::ModelSpawner;
    use crate::spawn::{LevelEntity, SpawnWorld, world_digest};

    fn c(kind: ComponentKind, w: u32) -> LevelComponent {
        LevelComponent {
            kind,
            data: [w, 2, 3, 4],
        }
    }

    /// A chain whose middle entity has no transform, and an entity with two components of
    /// each non-transform kind and an unknown one.
    fn level() -> Level {
        let e = |parent, components| LevelEntity { parent, components };
        Level {
            entities: vec![
                e(None, vec![c(ComponentKind::Transform, 1)]),
                e(Some(0), vec![c(ComponentKind::Mesh, 5)]),
                e(
                    Some(1),
                    vec![c(ComponentKind::Transform, 7), c(ComponentKind::Tags, 2)],
                ),
                e(
                    Some(2),
                    vec![
                        c(ComponentKind::Transform, 8),
                        c(ComponentKind::PointMass, 9),
                        c(ComponentKind::PointMass, 10),
                        c(ComponentKind::Tags, 3),
                        c(ComponentKind::Tags, 1),
                        c(ComponentKind::UnknownB, 6),
                        c(ComponentKind::Mesh, 11),
                        c(ComponentKind::Mesh, 12),
                    ],
                ),
            ],
        }
    }

    #[test]
    fn batches_by_depth_and_spawns_like_the_model() {
        let level = level();
        let blob = ArchetypeBatched::compile(&level);
        let keys: Vec<(usize, usize)> = blob
            .batches
            .iter()
            .map(|b| (b.entities.len(), b.parents.len()))
            .collect();
        // Depth 0: {transform} root, {mesh} (no transform: depth 0 whatever its parent);
        // then the transform children at depths 2 and 3.
        assert_eq!(keys, [(1, 0), (1, 0), (1, 1), (1, 1)]);
        assert_eq!(blob.extras.len(), 3);
        let mut world = World::default();
        let mut model = <ModelSpawner as Spawner>::World::default();
        let mut spawned = Vec::new();
        let mut model_spawned = Vec::new();
        for _ in 0..2 {
            spawned.extend(ArchetypeBatched::spawn(&blob, &mut world));
            model_spawned.extend(ModelSpawner::spawn(&level, &mut model));
            world.check_invariants().unwrap();
            assert_eq!(
                world_digest(&mut world, &spawned),
                world_digest(&mut model, &model_spawned)
            );
        }
    }
}
