//! Peers: `bevy_ecs` (behind the `bevy` cargo feature) spawning the level into a
//! `bevy_ecs::World`, entity by entity with `World::spawn` of one bundle per entity
//! ([`BevySpawn`], `bevy_spawn`), or per archetype with `World::spawn_batch` ([`BevyBatch`],
//! `bevy_batch`: bevy's batch path, which reserves the archetype's table once and writes its
//! rows in a loop).
//!
//! The resource is the hecs peers' typed records ([`super::Record`], grouped into
//! [`super::Batches`]). Bevy bundles are static types, so an entity's component set (a 4-bit
//! mask) picks one of 16 bundle types through a `match` ([`with_bundle`]); that is per entity
//! for `bevy_spawn` (as for `hecs_spawn`) and per group for `bevy_batch`. Children's
//! transforms get their parent entity in a second pass after the batches, as in `hecs_batch`.
//! Table storage (bevy's default) for every component.

use crate::DesignMeta;
use bevy_ecs::bundle::{Bundle, NoBundleEffect};
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;

use super::{Batches, Record, Tags, records};
use crate::components::PointMass;
use crate::spawn::{
    ComponentRef, Level, MeshRecord, SpawnDesignInfo, SpawnDesignKind, SpawnWorld, Spawner,
};
use crate::transforms::Affine;

/// A bevy design's record kind, with its `idiom`, `docs` and `adapter`.
const fn bevy(idiom: &'static str, docs: &'static str, adapter: &'static str) -> SpawnDesignKind {
    SpawnDesignKind::Peer {
        crate_name: "bevy_ecs",
        version: "0.16.1",
        idiom,
        docs,
        adapter,
    }
}

/// A transform component: local matrix and parent entity.
#[derive(Component, Debug, Clone, Copy)]
pub struct BevyTransform {
    /// Local transform.
    pub local: Affine,
    /// The parent entity, if any.
    pub parent: Option<Entity>,
}

/// A point mass component.
#[derive(Component, Debug, Clone, Copy)]
pub struct BevyMass(pub PointMass);

/// A tags component.
#[derive(Component, Debug, Clone, Copy)]
pub struct BevyTags(pub Tags);

/// A mesh component.
#[derive(Component, Debug, Clone, Copy)]
pub struct BevyMesh(pub MeshRecord);

/// Expands to `$f($arg, ..., make)` with `make: Fn(&Record, Option<Entity>) -> B` building
/// the bundle of component set `$mask` (transform 1, point mass 2, tags 4, mesh 8; the
/// transform's parent from the second argument).
macro_rules! with_bundle {
    ($mask:expr, $f:ident($($arg:expr),*)) => {
        match $mask {
            0 => $f($($arg,)* |_r: &Record, _p: Option<Entity>| ()),
            1 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p },)),
            2 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyMass(r.mass.expect("mask")),)),
            3 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyMass(r.mass.expect("mask")),)),
            4 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyTags(r.tags.expect("mask")),)),
            5 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyTags(r.tags.expect("mask")),)),
            6 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyMass(r.mass.expect("mask")), BevyTags(r.tags.expect("mask")),)),
            7 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyMass(r.mass.expect("mask")), BevyTags(r.tags.expect("mask")),)),
            8 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyMesh(r.mesh.expect("mask")),)),
            9 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyMesh(r.mesh.expect("mask")),)),
            10 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyMass(r.mass.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            11 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyMass(r.mass.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            12 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyTags(r.tags.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            13 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyTags(r.tags.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            14 => $f($($arg,)* |r: &Record, _p: Option<Entity>| (BevyMass(r.mass.expect("mask")), BevyTags(r.tags.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            15 => $f($($arg,)* |r: &Record, p: Option<Entity>| (BevyTransform { local: r.transform.expect("mask"), parent: p }, BevyMass(r.mass.expect("mask")), BevyTags(r.tags.expect("mask")), BevyMesh(r.mesh.expect("mask")),)),
            _ => unreachable!("a component set has four bits"),
        }
    };
}

/// A `bevy_ecs::World` as a spawn world.
#[derive(Default)]
pub struct BevyWorld(pub World);

impl BevyWorld {
    /// Live instances of component `C`.
    fn count<C: Component>(&self) -> usize {
        self.0
            .try_query::<&C>()
            .map_or(0, |mut q| q.iter(&self.0).count())
    }
}

impl SpawnWorld for BevyWorld {
    type Entity = Entity;
    const TRANSFORM_HIERARCHY: bool = false;

    /// The crate's own reset, `World::clear_entities`, which keeps the world's storage for the next
    /// level, as a game restarting a level calls it.
    fn clear(&mut self) {
        self.0.clear_entities();
    }

    fn entity_count(&self) -> usize {
        self.0.entities().len() as usize
    }

    fn visit(&mut self, mut f: impl FnMut(Entity, ComponentRef<'_, Entity>)) {
        let w = &mut self.0;
        for (e, t) in w.query::<(Entity, &BevyTransform)>().iter(w) {
            f(e, ComponentRef::Transform(&t.local, t.parent));
        }
        for (e, m) in w.query::<(Entity, &BevyMass)>().iter(w) {
            f(e, ComponentRef::PointMass(&m.0));
        }
        for (e, t) in w.query::<(Entity, &BevyTags)>().iter(w) {
            f(e, ComponentRef::Tags(&t.0.tags[..t.0.len as usize]));
        }
        for (e, m) in w.query::<(Entity, &BevyMesh)>().iter(w) {
            f(e, ComponentRef::Mesh(m.0));
        }
    }

    /// An estimate: the component bytes of every live component plus 16 bytes of entity
    /// metadata per entity (bevy reports no capacities).
    fn memory_bytes(&self) -> usize {
        self.entity_count() * 16
            + self.count::<BevyTransform>() * size_of::<BevyTransform>()
            + self.count::<BevyMass>() * size_of::<BevyMass>()
            + self.count::<BevyTags>() * size_of::<BevyTags>()
            + self.count::<BevyMesh>() * size_of::<BevyMesh>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Spawns one entity with the bundle `make` builds.
fn spawn_one<B: Bundle>(
    world: &mut World,
    r: &Record,
    parent: Option<Entity>,
    make: impl Fn(&Record, Option<Entity>) -> B,
) -> Entity {
    world.spawn(make(r, parent)).id()
}

/// Spawns a group of one component set with one `spawn_batch`, writing its entities to `out`
/// at the records' level indices (parents left for the fix-up pass).
fn spawn_group<B: Bundle<Effect: NoBundleEffect>>(
    world: &mut World,
    group: &[(u32, Record)],
    out: &mut [Entity],
    make: impl Fn(&Record, Option<Entity>) -> B,
) {
    let spawned = world.spawn_batch(group.iter().map(|(_, r)| make(r, None)));
    for ((i, _), e) in group.iter().zip(spawned) {
        out[*i as usize] = e;
    }
}

/// `bevy_ecs` entity by entity: `World::spawn` of the entity's bundle.
#[derive(Debug, Clone, Copy, Default)]
pub struct BevySpawn;

impl Spawner for BevySpawn {
    type World = BevyWorld;
    type Blob = Vec<Record>;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "bevy_spawn",
            description: "peer (own world): bevy_ecs World::spawn per entity of a bundle of typed records (cargo feature `bevy`)",
            kind: bevy(
                "World::spawn(bundle) per entity, the bundle of the record's components",
                "https://docs.rs/bevy_ecs/0.16.1/bevy_ecs/world/struct.World.html#method.spawn",
                "`spawn` makes the direct loop's calls (`World::spawn` of the record's bundle, picked by a `match` on its component set) and adds nothing per entity; the family's loop, as for our designs, only matches each op and keeps each spawn's entity list, as the direct loop does. A `DespawnAll` is the crate's `World::clear_entities`, as in the direct loop.",
            ),
        },
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Vec<Record> {
        records(level)
    }

    fn spawn(blob: &Vec<Record>, world: &mut BevyWorld) -> Vec<Entity> {
        let mut out: Vec<Entity> = Vec::with_capacity(blob.len());
        for r in blob {
            let parent = (r.parent != u32::MAX).then(|| out[r.parent as usize]);
            let w = &mut world.0;
            let e = with_bundle!(r.mask(), spawn_one(w, r, parent));
            out.push(e);
        }
        out
    }
}

/// `bevy_ecs` per archetype: one `World::spawn_batch` per component set, then parents.
#[derive(Debug, Clone, Copy, Default)]
pub struct BevyBatch;

impl Spawner for BevyBatch {
    type World = BevyWorld;
    type Blob = Batches;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "bevy_batch",
            description: "peer (own world): bevy_ecs spawn_batch per archetype, then a parent fix-up pass (cargo feature `bevy`)",
            kind: bevy(
                "World::spawn_batch(iterator of bundles) per archetype, then World::get_mut::<Transform> to set each child's parent",
                "https://docs.rs/bevy_ecs/0.16.1/bevy_ecs/world/struct.World.html#method.spawn_batch",
                "`spawn` makes the direct loop's calls (`World::spawn_batch` per component set, then `World::get_mut::<BevyTransform>` per child) and adds nothing per entity; the family's loop, as for our designs, only matches each op and keeps each spawn's entity list, as the direct loop does. A `DespawnAll` is the crate's `World::clear_entities`, as in the direct loop.",
            ),
        },
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Batches {
        Batches::of(level)
    }

    fn spawn(blob: &Batches, world: &mut BevyWorld) -> Vec<Entity> {
        let mut out = vec![Entity::PLACEHOLDER; blob.entities];
        let w = &mut world.0;
        for (mask, group) in &blob.groups {
            with_bundle!(*mask, spawn_group(w, group, &mut out));
        }
        for &(i, p) in &blob.children {
            let parent = out[p as usize];
            if let Some(mut t) = w.get_mut::<BevyTransform>(out[i as usize]) {
                t.parent = Some(parent);
            }
        }
        out
    }
}
