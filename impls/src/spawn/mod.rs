//! The entity-resource family: loading a level (entities, their components and parent links)
//! into a world, timed from a compiled resource blob to live components.
//!
//! From "Building a Data-Oriented Entity System Part 4: Entity Resources" (BitSquid, 2014): the
//! naive resource nests each entity's components and children ([`nested`]), a quick fix puts
//! the fixed fields first and adds offset tables ([`nested_offsets`]), and the article's pivot
//! groups the data by component type and spawns it in batches, "create 100 entities" then one
//! spawn function per component type in spawn order ([`grouped_batched`]). [`grouped_single`]
//! is the ablation: the grouped layout spawned entity by entity, which separates the layout
//! effect from the batching effect. [`archetype_batched`] is the tuned design that takes
//! `hecs`'s `spawn_column_batch` into the same world: grouped by component set into decoded
//! columns, one entity run, one bulk append per store and batch. [`archetype_world`] takes
//! hecs's world as well: archetype tables of typed columns for the four known types, a
//! transform holding its parent entity only, as the peers keep it (so it is ranked with them:
//! [`SpawnWorld::TRANSFORM_HIERARCHY`]). Baselines load the level with published serialisers into
//! the same world, entity by entity: `bincode` decoding owned records ([`bincode_owned`]) and
//! `rkyv` walking an archive in place ([`rkyv_archived`]), both over the records of [`owned`].
//! Peers (`hecs` `spawn` of a static bundle, `spawn` from an `EntityBuilder` and
//! `spawn_column_batch`; `bevy_ecs` `spawn` and `spawn_batch` behind the `bevy` feature) spawn
//! into their own worlds and are marked as such.
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/spawn_model.rs`)
//! * A [`Level`] is a list of entities in pre-order (an entity's subtree follows it), each with
//!   an optional parent (an earlier entity on the current ancestor path) and components of the
//!   [`ComponentKind`]s: transform, point mass, tags, mesh, and two kinds the world does not
//!   know, which every design skips.
//! * [`Spawner::spawn`] creates one entity per level entity and returns them in level order
//!   (the "resource entity index"); every known component is attached to its entity; a
//!   transform records its entity's parent entity (the parent link lives in the transform, as
//!   in the article's TransformComponent) and is linked under the parent's transform node when
//!   the parent has one.
//! * [`world_digest`] reads the world back (every store, through [`SpawnWorld::visit`]) and
//!   maps entities to resource indices through the spawned lists, so entity numbering may
//!   differ between designs.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing [`Spawner`], then
//! add one line to [`registry::for_each_spawn_design`].

pub mod archetype_batched;
pub mod archetype_world;
pub mod bincode_owned;
pub mod grouped;
pub mod grouped_batched;
pub mod grouped_single;
pub mod model;
pub mod nested;
pub mod nested_offsets;
pub mod owned;
pub mod peers;
pub mod registry;
pub mod rkyv_archived;
pub mod world;

pub use registry::{SpawnDesignVisitor, find_spawn_design, for_each_spawn_design, spawn_designs};

use crate::DesignMeta;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

use thiserror::Error;

use crate::transforms::Affine;

/// The point mass a level's `PointMass` component holds (the components family's type), for
/// code that spawns levels without naming that family.
pub use crate::components::PointMass;

/// Where a design comes from (the kind every family shares).
pub use crate::kind::DesignKind as SpawnDesignKind;

/// What the registry and the reports know of a spawn design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpawnDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// Bytes of the design's entity handle.
    pub entity_bytes: usize,
}

/// A component type of a level. The identifiers are the resource's `component_identifier`s;
/// the order of the known kinds is the article's `spawn_order` (a transform before what hangs
/// off it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ComponentKind {
    /// A local transform ([`Affine::from_pose`] of a pose word), linked under the parent's.
    Transform = 0,
    /// A point mass (mass and position; velocity and acceleration zero).
    PointMass = 1,
    /// Up to [`MAX_TAGS`] tags.
    Tags = 2,
    /// A mesh record: a mesh resource id and a material id.
    Mesh = 3,
    /// A type the world does not know (e.g. a script component of another game): skipped.
    UnknownA = 4,
    /// A second unknown type, with another size: skipped.
    UnknownB = 5,
}

/// Every kind, in spawn order.
pub const KINDS: [ComponentKind; 6] = [
    ComponentKind::Transform,
    ComponentKind::PointMass,
    ComponentKind::Tags,
    ComponentKind::Mesh,
    ComponentKind::UnknownA,
    ComponentKind::UnknownB,
];

/// Most tags a tags component holds.
pub const MAX_TAGS: usize = 3;

impl ComponentKind {
    /// The kind with identifier `id`.
    pub fn from_id(id: u32) -> Option<Self> {
        KINDS.get(id as usize).copied()
    }

    /// Whether the world knows the kind (the unknown kinds are skipped).
    pub fn is_known(self) -> bool {
        !matches!(self, ComponentKind::UnknownA | ComponentKind::UnknownB)
    }

    /// 32-bit words of the kind's data in a resource (unknown kinds have other sizes, so
    /// skipping by size is exercised).
    pub fn words(self) -> usize {
        match self {
            ComponentKind::Transform => 1,
            ComponentKind::PointMass => 4,
            ComponentKind::Tags => 1 + MAX_TAGS,
            ComponentKind::Mesh => 2,
            ComponentKind::UnknownA => 3,
            ComponentKind::UnknownB => 6,
        }
    }
}

/// One component of a level entity: its kind and four data words, read per kind (transform:
/// pose; point mass: mass, x, y, z as `f32` bits; tags: count then tags; mesh: mesh,
/// material; unknown kinds: their payload, repeated to the kind's size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LevelComponent {
    /// The component type.
    pub kind: ComponentKind,
    /// The data words.
    pub data: [u32; 4],
}

impl LevelComponent {
    /// The kind's resource words (exactly [`ComponentKind::words`] of them).
    pub fn resource_words(&self) -> Vec<u32> {
        (0..self.kind.words()).map(|k| self.data[k % 4]).collect()
    }
}

/// One entity of a level.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct LevelEntity {
    /// The parent's level index (an earlier entity on the ancestor path), `None` for a root.
    pub parent: Option<u32>,
    /// The components, in resource order.
    pub components: Vec<LevelComponent>,
}

/// The most entities a [`Level`] may hold: level indices (parent links, the designs' offset
/// tables) are `u32`s.
pub const MAX_LEVEL_ENTITIES: usize = u32::MAX as usize - 1;

/// A failure a user of a spawn design can cause.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpawnError {
    /// The level breaks [`Level::check`]: a parent that is not an earlier entity on the
    /// ancestor path, or more than [`MAX_LEVEL_ENTITIES`] entities.
    #[error("bad level: {reason}")]
    BadLevel {
        /// What [`Level::check`] found.
        reason: String,
    },
}

/// [`Spawner::compile`] of a level checked first ([`Level::check`], O(entities)): the entry
/// point for a level that did not come from a validated trace.
///
/// # Errors
/// [`SpawnError::BadLevel`], before anything is compiled.
pub fn compile_checked<S: Spawner>(level: &Level) -> Result<S::Blob, SpawnError> {
    level
        .check()
        .map_err(|reason| SpawnError::BadLevel { reason })?;
    Ok(S::compile(level))
}

/// A level: entities in pre-order (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Level {
    /// The entities; index = resource entity index.
    pub entities: Vec<LevelEntity>,
}

impl Level {
    /// Checks the pre-order rule: every parent is an earlier entity on the current ancestor
    /// path; and that the level has at most [`MAX_LEVEL_ENTITIES`] entities.
    ///
    /// # Errors
    /// The first entity that breaks it.
    pub fn check(&self) -> Result<(), String> {
        if self.entities.len() > MAX_LEVEL_ENTITIES {
            return Err(format!(
                "{} entities: a level holds at most {MAX_LEVEL_ENTITIES} (u32 indices)",
                self.entities.len()
            ));
        }
        let mut path: Vec<u32> = Vec::new();
        for (i, e) in self.entities.iter().enumerate() {
            match e.parent {
                None => path.clear(),
                Some(p) => {
                    while path.last().is_some_and(|&top| top != p) {
                        path.pop();
                    }
                    if path.is_empty() {
                        return Err(format!(
                            "entity {i}: parent {p} is not an ancestor on the path"
                        ));
                    }
                }
            }
            path.push(i as u32);
        }
        Ok(())
    }

    /// The children of every entity, in level order.
    pub fn children(&self) -> Vec<Vec<u32>> {
        let mut children = vec![Vec::new(); self.entities.len()];
        for (i, e) in self.entities.iter().enumerate() {
            if let Some(p) = e.parent {
                children[p as usize].push(i as u32);
            }
        }
        children
    }

    /// The roots, in level order.
    pub fn roots(&self) -> Vec<u32> {
        (0..self.entities.len() as u32)
            .filter(|&i| self.entities[i as usize].parent.is_none())
            .collect()
    }
}

/// A mesh record: what the mesh component keeps per instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MeshRecord {
    /// The mesh resource id.
    pub mesh: u32,
    /// The material id.
    pub material: u32,
}

/// A point mass from a component's data words.
pub fn point_mass_of(data: &[u32]) -> PointMass {
    PointMass {
        mass: f32::from_bits(data[0]),
        position: [
            f32::from_bits(data[1]),
            f32::from_bits(data[2]),
            f32::from_bits(data[3]),
        ],
        ..PointMass::default()
    }
}

/// The tags of a tags component's data words (`data[0]` is the count, clamped).
pub fn tags_of(data: &[u32]) -> &[u32] {
    let n = (data[0] as usize).min(MAX_TAGS);
    &data[1..1 + n]
}

/// A mesh record from a component's data words.
pub fn mesh_of(data: &[u32]) -> MeshRecord {
    MeshRecord {
        mesh: data[0],
        material: data[1],
    }
}

/// A component as a world holds it, handed to [`SpawnWorld::visit`].
#[derive(Debug, Clone, Copy)]
pub enum ComponentRef<'a, E> {
    /// A transform: its local matrix and the parent entity recorded with it.
    Transform(&'a Affine, Option<E>),
    /// A point mass.
    PointMass(&'a PointMass),
    /// A tags component's tags (order design-defined).
    Tags(&'a [u32]),
    /// A mesh record.
    Mesh(MeshRecord),
}

/// A world a design spawns into: the shared [`world::World`] of the article designs, a plain
/// world for the model, a peer's own.
pub trait SpawnWorld: Default {
    /// The world's entity handle.
    type Entity: Copy + Eq + Hash + Debug;

    /// Whether a spawned transform is a node of a transform hierarchy, linked under its
    /// parent's node with its world matrix computed (the world designs' [`world::World`]), or
    /// holds its local matrix and parent entity only (the ECS peers' worlds): what the family's
    /// contract asks, and work the others leave to a later pass. Recorded as a contract gap
    /// where it is `false`, so rankings set a world without one against its like.
    const TRANSFORM_HIERARCHY: bool;

    /// Removes every entity and component (a world reset).
    fn clear(&mut self);

    /// Live entities.
    fn entity_count(&self) -> usize;

    /// Calls `f(entity, component)` once per component held, store by store. Takes `&mut
    /// self` because some stores reorganise on access.
    fn visit(&mut self, f: impl FnMut(Self::Entity, ComponentRef<'_, Self::Entity>));

    /// Heap bytes the world holds now, by its stores' own accounting.
    fn memory_bytes(&self) -> usize;

    /// Checks every store's invariants.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// A compiled resource, sized as it would be loaded from disk.
pub trait ResourceBlob {
    /// Bytes of the resource.
    fn bytes(&self) -> usize;
}

/// A resource kept in one `Vec`: a word stream ([`Words`]), encoded bytes, typed records.
impl<T> ResourceBlob for Vec<T> {
    fn bytes(&self) -> usize {
        self.len() * size_of::<T>()
    }
}

/// The model's resource is the level itself, not a compiled format: no bytes to load.
impl ResourceBlob for Level {
    fn bytes(&self) -> usize {
        0
    }
}

/// A resource format and its spawn function. See the [module docs](self).
pub trait Spawner {
    /// The world the design spawns into.
    type World: SpawnWorld;
    /// The compiled resource.
    type Blob: ResourceBlob;

    /// Name, kind and description.
    const INFO: SpawnDesignInfo;

    /// Compiles `level` into the design's resource (untimed: the content pipeline).
    ///
    /// The level's parent links index the designs' tables, so `level` must pass
    /// [`Level::check`] (a trace's validation guarantees it); [`compile_checked`] checks it
    /// and refuses a bad level with [`SpawnError::BadLevel`].
    ///
    /// # Panics
    /// May panic on a level that fails [`Level::check`]; use [`compile_checked`] for a level
    /// that was not checked.
    fn compile(level: &Level) -> Self::Blob;

    /// Bytes of the compiled resource (what would be loaded from disk): the blob's own
    /// [`ResourceBlob::bytes`].
    fn blob_bytes(blob: &Self::Blob) -> usize {
        blob.bytes()
    }

    /// Spawns the resource into `world` and returns the created entities in level order
    /// (timed).
    fn spawn(
        blob: &Self::Blob,
        world: &mut Self::World,
    ) -> Vec<<Self::World as SpawnWorld>::Entity>;

    /// Removes every entity (untimed where the trace allows: a world reset).
    fn despawn_all(world: &mut Self::World) {
        world.clear();
    }
}

/// The entity type of a design's world.
pub type EntityOf<S> = <<S as Spawner>::World as SpawnWorld>::Entity;

/// A resource blob of 32-bit words (the designs' formats are word streams, so offsets are word
/// offsets and reading needs no `unsafe`).
pub type Words = Vec<u32>;

fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn hash_words(words: impl IntoIterator<Item = u32>) -> u64 {
    words
        .into_iter()
        .fold(0x243F_6A88_85A3_08D3, |h, w| mix64(h ^ u64::from(w)))
}

/// The hash of a component's data as the world holds it (tags as an order-independent sum).
pub fn component_hash<E>(c: &ComponentRef<'_, E>) -> (ComponentKind, u64) {
    match c {
        ComponentRef::Transform(local, _) => (ComponentKind::Transform, hash_words(local.bits())),
        ComponentRef::PointMass(m) => (ComponentKind::PointMass, hash_words(m.bits())),
        ComponentRef::Tags(tags) => (
            ComponentKind::Tags,
            tags.iter().fold(tags.len() as u64, |s, &t| {
                s.wrapping_add(mix64(u64::from(t) + 1))
            }),
        ),
        ComponentRef::Mesh(m) => (ComponentKind::Mesh, hash_words([m.mesh, m.material])),
    }
}

/// The order-independent digest of `world` (a sum over resource entity index,
/// component type, hash of data and parent resource index), `spawned` being the entities of the
/// live spawns in order (spawn `k` of a level of `level_len` entities at `k * level_len..`).
/// An entity the world holds that no spawn returned counts as index `u64::MAX`, so strays
/// change the digest.
pub fn world_digest<W: SpawnWorld>(world: &mut W, spawned: &[W::Entity]) -> u64 {
    let index: HashMap<W::Entity, u64> = spawned
        .iter()
        .enumerate()
        .map(|(k, &e)| (e, k as u64))
        .collect();
    let of = |e: &W::Entity| index.get(e).copied().unwrap_or(u64::MAX);
    let mut sum = (world.entity_count() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    world.visit(|entity, c| {
        let parent = match &c {
            ComponentRef::Transform(_, Some(p)) => of(p),
            _ => u64::MAX - 1,
        };
        let (kind, data) = component_hash(&c);
        let term =
            mix64(mix64(of(&entity) ^ (kind as u64) << 56) ^ data.rotate_left(17) ^ mix64(parent));
        sum = sum.wrapping_add(term);
    });
    sum
}
