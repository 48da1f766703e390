//! Peers: `hecs` (an archetype ECS) spawning the level into a `hecs::World`, three ways:
//!
//! * entity by entity with `World::spawn` of the static tuple of the entity's components
//!   ([`HecsSpawn`], `hecs_spawn`): the level's component sets are 16 combinations of four
//!   types known at compile time, so a `match` on the record's component set picks one of 16
//!   tuple types (`spawn_record`), as hecs's docs spawn known components
//!   (`world.spawn((a, b))`);
//! * entity by entity with one reused [`hecs::EntityBuilder`] and `World::spawn(builder.build())`
//!   ([`HecsSpawnBuilder`], `hecs_spawn_builder`): hecs's route for component sets not known at
//!   compile time, so its gap to `hecs_spawn` is what dynamic component sets cost in hecs;
//! * per archetype with `World::spawn_column_batch` ([`HecsBatch`], `hecs_batch`: hecs's fastest
//!   batch path, the `spawn_batch` of dynamic component sets).
//!
//! The resource is an owned list of typed entity records (what a deserialiser would hand to
//! hecs, [`super::records`]). The batch design groups entities by their set of component types
//! at compile time ([`Batches`]); since a parent may be in another archetype, children's
//! transforms get their parent entity in a second pass after all batches (`get::<&mut _>`), a
//! cost hecs users pay too. The entity-by-entity designs write the parent's entity (spawned
//! earlier: a level is in pre-order) into the child's transform as they build it.

use crate::DesignMeta;
use hecs::{ColumnBatchBuilder, ColumnBatchType, Entity, EntityBuilder, World};

use super::{Batches, Record, Tags, records};
use crate::components::PointMass;
use crate::spawn::{
    ComponentRef, Level, MeshRecord, SpawnDesignInfo, SpawnDesignKind, SpawnWorld, Spawner,
};
use crate::transforms::Affine;

/// A hecs design's record kind, with its `idiom`, `docs` and `adapter`.
const fn hecs(idiom: &'static str, docs: &'static str, adapter: &'static str) -> SpawnDesignKind {
    SpawnDesignKind::Peer {
        crate_name: "hecs",
        version: "0.11.2",
        idiom,
        docs,
        adapter,
    }
}

/// A transform component: local matrix and parent entity.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    /// Local transform.
    pub local: Affine,
    /// The parent entity, if any.
    pub parent: Option<Entity>,
}

/// A `hecs::World` as a spawn world.
#[derive(Default)]
pub struct HecsWorld(pub World);

impl SpawnWorld for HecsWorld {
    type Entity = Entity;
    const TRANSFORM_HIERARCHY: bool = false;

    /// The crate's own reset, `World::clear`, which keeps the world's storage for the next
    /// level, as a game restarting a level calls it.
    fn clear(&mut self) {
        self.0.clear();
    }

    fn entity_count(&self) -> usize {
        self.0.len() as usize
    }

    fn visit(&mut self, mut f: impl FnMut(Entity, ComponentRef<'_, Entity>)) {
        for (e, t) in self.0.query::<(Entity, &Transform)>().iter() {
            f(e, ComponentRef::Transform(&t.local, t.parent));
        }
        for (e, m) in self.0.query::<(Entity, &PointMass)>().iter() {
            f(e, ComponentRef::PointMass(m));
        }
        for (e, t) in self.0.query::<(Entity, &Tags)>().iter() {
            f(e, ComponentRef::Tags(&t.tags[..t.len as usize]));
        }
        for (e, m) in self.0.query::<(Entity, &MeshRecord)>().iter() {
            f(e, ComponentRef::Mesh(*m));
        }
    }

    /// An estimate: the component bytes of every live component plus 16 bytes of entity
    /// metadata per entity (hecs exposes no capacities).
    fn memory_bytes(&self) -> usize {
        self.0.len() as usize * 16
            + self.0.query::<&Transform>().iter().count() * size_of::<Transform>()
            + self.0.query::<&PointMass>().iter().count() * size_of::<PointMass>()
            + self.0.query::<&Tags>().iter().count() * size_of::<Tags>()
            + self.0.query::<&MeshRecord>().iter().count() * size_of::<MeshRecord>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Spawns record `r` with `World::spawn` of the static tuple of its components (its transform's
/// parent `parent`), the tuple type picked by a `match` on its component set: the calls of
/// [`spawn_records`], written once.
pub fn spawn_record(world: &mut World, r: &Record, parent: Option<Entity>) -> Entity {
    let transform = r.transform.map(|local| Transform { local, parent });
    match (transform, r.mass, r.tags, r.mesh) {
        (None, None, None, None) => world.spawn(()),
        (Some(t), None, None, None) => world.spawn((t,)),
        (None, Some(m), None, None) => world.spawn((m,)),
        (Some(t), Some(m), None, None) => world.spawn((t, m)),
        (None, None, Some(g), None) => world.spawn((g,)),
        (Some(t), None, Some(g), None) => world.spawn((t, g)),
        (None, Some(m), Some(g), None) => world.spawn((m, g)),
        (Some(t), Some(m), Some(g), None) => world.spawn((t, m, g)),
        (None, None, None, Some(h)) => world.spawn((h,)),
        (Some(t), None, None, Some(h)) => world.spawn((t, h)),
        (None, Some(m), None, Some(h)) => world.spawn((m, h)),
        (Some(t), Some(m), None, Some(h)) => world.spawn((t, m, h)),
        (None, None, Some(g), Some(h)) => world.spawn((g, h)),
        (Some(t), None, Some(g), Some(h)) => world.spawn((t, g, h)),
        (None, Some(m), Some(g), Some(h)) => world.spawn((m, g, h)),
        (Some(t), Some(m), Some(g), Some(h)) => world.spawn((t, m, g, h)),
    }
}

/// Spawns `blob` with [`spawn_record`] per entity, each child given its parent's entity: the
/// calls of [`HecsSpawn`] and of its direct loop (`ref-direct-hecs_spawn`), written once.
pub fn spawn_records(world: &mut World, blob: &[Record]) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::with_capacity(blob.len());
    for r in blob {
        let parent = (r.parent != u32::MAX).then(|| out[r.parent as usize]);
        out.push(spawn_record(world, r, parent));
    }
    out
}

/// Spawns `blob` through one reused `EntityBuilder`, `World::spawn(builder.build())` per entity,
/// each child's transform built with its parent's entity: the calls of [`HecsSpawnBuilder`]
/// and of its direct loop (`ref-direct-hecs_spawn_builder`), written once.
pub fn spawn_with_builder(world: &mut World, blob: &[Record]) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::with_capacity(blob.len());
    let mut builder = EntityBuilder::new();
    for r in blob {
        if let Some(local) = r.transform {
            let parent = (r.parent != u32::MAX).then(|| out[r.parent as usize]);
            builder.add(Transform { local, parent });
        }
        if let Some(m) = r.mass {
            builder.add(m);
        }
        if let Some(t) = r.tags {
            builder.add(t);
        }
        if let Some(m) = r.mesh {
            builder.add(m);
        }
        out.push(world.spawn(builder.build()));
    }
    out
}

/// Spawns `blob` with one `ColumnBatchBuilder` filled column by column and
/// `World::spawn_column_batch` per component set, then `World::get::<&mut Transform>` per child
/// to set its parent (a parent may sit in another batch): the calls of [`HecsBatch`] and of its
/// direct loop (`ref-direct-hecs_batch`), written once. Returns the entities in level order.
pub fn spawn_column_batches(world: &mut World, blob: &Batches) -> Vec<Entity> {
    let mut out = vec![Entity::DANGLING; blob.entities];
    for (mask, group) in &blob.groups {
        let mut ty = ColumnBatchType::new();
        if mask & 1 != 0 {
            ty.add::<Transform>();
        }
        if mask & 2 != 0 {
            ty.add::<PointMass>();
        }
        if mask & 4 != 0 {
            ty.add::<Tags>();
        }
        if mask & 8 != 0 {
            ty.add::<MeshRecord>();
        }
        let builder = ColumnBatchBuilder::new(ty, group.len() as u32);
        if let Some(mut w) = builder.writer::<Transform>() {
            for (_, r) in group {
                let local = r.transform.expect("in the component set");
                let _ = w.push(Transform {
                    local,
                    parent: None,
                });
            }
        }
        if let Some(mut w) = builder.writer::<PointMass>() {
            for (_, r) in group {
                let _ = w.push(r.mass.expect("in the component set"));
            }
        }
        if let Some(mut w) = builder.writer::<Tags>() {
            for (_, r) in group {
                let _ = w.push(r.tags.expect("in the component set"));
            }
        }
        if let Some(mut w) = builder.writer::<MeshRecord>() {
            for (_, r) in group {
                let _ = w.push(r.mesh.expect("in the component set"));
            }
        }
        let batch = builder.build().expect("every column filled");
        for ((i, _), e) in group.iter().zip(world.spawn_column_batch(batch)) {
            out[*i as usize] = e;
        }
    }
    for &(i, p) in &blob.children {
        let parent = out[p as usize];
        if let Ok(mut t) = world.get::<&mut Transform>(out[i as usize]) {
            t.parent = Some(parent);
        }
    }
    out
}

/// `hecs` entity by entity: `World::spawn` of the static tuple of the entity's components.
#[derive(Debug, Clone, Copy, Default)]
pub struct HecsSpawn;

impl Spawner for HecsSpawn {
    type World = HecsWorld;
    type Blob = Vec<Record>;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "hecs_spawn",
            description: "peer (own world): hecs World::spawn per entity of a static bundle, the tuple of its typed record's components",
            kind: hecs(
                "World::spawn((components...)) per entity, the tuple of the record's components picked by a match on its component set (16 tuple types)",
                "https://docs.rs/hecs/0.11.2/hecs/struct.World.html#method.spawn",
                "`spawn` makes the direct loop's calls (`World::spawn` of the record's tuple, picked by a `match` on its component set) and adds nothing per entity; the family's loop, as for our designs, only matches each op and keeps each spawn's entity list, as the direct loop does. A `DespawnAll` is the crate's `World::clear`, as in the direct loop.",
            ),
        },
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Vec<Record> {
        records(level)
    }

    fn spawn(blob: &Vec<Record>, world: &mut HecsWorld) -> Vec<Entity> {
        spawn_records(&mut world.0, blob)
    }
}

/// `hecs` entity by entity through an `EntityBuilder`: one reused builder,
/// `World::spawn(builder.build())` per entity (hecs's route for dynamic component sets).
#[derive(Debug, Clone, Copy, Default)]
pub struct HecsSpawnBuilder;

impl Spawner for HecsSpawnBuilder {
    type World = HecsWorld;
    type Blob = Vec<Record>;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "hecs_spawn_builder",
            description: "peer (own world): hecs World::spawn per entity from an EntityBuilder of typed records (hecs's route for component sets not known at compile time)",
            kind: hecs(
                "EntityBuilder::add per component, World::spawn(builder.build()) per entity, one builder reused",
                "https://docs.rs/hecs/0.11.2/hecs/struct.EntityBuilder.html",
                "`spawn` makes the direct loop's calls (one reused `EntityBuilder`, `World::spawn(builder.build())` per entity) and adds nothing per entity; the family's loop, as for our designs, only matches each op and keeps each spawn's entity list, as the direct loop does. A `DespawnAll` is the crate's `World::clear`, as in the direct loop.",
            ),
        },
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Vec<Record> {
        records(level)
    }

    fn spawn(blob: &Vec<Record>, world: &mut HecsWorld) -> Vec<Entity> {
        spawn_with_builder(&mut world.0, blob)
    }
}

/// `hecs` per archetype: one `World::spawn_column_batch` per component set, then parents.
#[derive(Debug, Clone, Copy, Default)]
pub struct HecsBatch;

impl Spawner for HecsBatch {
    type World = HecsWorld;
    type Blob = Batches;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "hecs_batch",
            description: "peer (own world): hecs spawn_column_batch per archetype, then a parent fix-up pass",
            kind: hecs(
                "ColumnBatchBuilder per archetype, World::spawn_column_batch, then World::get::<&mut Transform> to set each child's parent",
                "https://docs.rs/hecs/0.11.2/hecs/struct.ColumnBatchBuilder.html",
                "`spawn` makes the direct loop's calls (`World::spawn_column_batch` per component set, then `World::get::<&mut Transform>` per child) and adds nothing per entity; the family's loop, as for our designs, only matches each op and keeps each spawn's entity list, as the direct loop does. A `DespawnAll` is the crate's `World::clear`, as in the direct loop.",
            ),
        },
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Batches {
        Batches::of(level)
    }

    fn spawn(blob: &Batches, world: &mut HecsWorld) -> Vec<Entity> {
        spawn_column_batches(&mut world.0, blob)
    }
}
