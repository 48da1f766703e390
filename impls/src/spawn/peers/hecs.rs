//! Peers: `hecs` (an archetype ECS) spawning the level into a `hecs::World`, entity by entity
//! with [`hecs::EntityBuilder`] and `World::spawn` ([`HecsSpawn`], `hecs_spawn`), or per
//! archetype with `World::spawn_column_batch` ([`HecsBatch`], `hecs_batch`: hecs's fastest
//! batch path, the `spawn_batch` of dynamic component sets).
//!
//! The resource is an owned list of typed entity records (what a deserialiser would hand to
//! hecs). The batch design groups entities by their set of component types at compile time;
//! since a parent may be in another archetype, children's transforms get their parent entity
//! in a second pass after all batches (`get::<&mut _>`), a cost hecs users pay too.

use hecs::{ColumnBatchBuilder, ColumnBatchType, Entity, EntityBuilder, World};

use crate::components::PointMass;
use crate::spawn::{
    ComponentKind, ComponentRef, Level, MAX_TAGS, MeshRecord, SpawnDesignInfo, SpawnDesignKind,
    SpawnWorld, Spawner, mesh_of, point_mass_of, tags_of,
};
use crate::transforms::Affine;

const HECS: SpawnDesignKind = SpawnDesignKind::Peer {
    crate_name: "hecs",
    version: "0.11.2",
};

/// A transform component: local matrix and parent entity.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    /// Local transform.
    pub local: Affine,
    /// The parent entity, if any.
    pub parent: Option<Entity>,
}

/// A tags component: up to [`MAX_TAGS`] tags inline.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tags {
    /// Tags held.
    pub len: u8,
    /// The tags, `len` of them used.
    pub tags: [u32; MAX_TAGS],
}

/// A level entity as typed records.
#[derive(Debug, Clone, Copy, Default)]
pub struct Record {
    /// Parent level index, `u32::MAX` for a root.
    pub parent: u32,
    /// Transform local, if the entity has one.
    pub transform: Option<Affine>,
    /// Point mass, if any.
    pub mass: Option<PointMass>,
    /// Tags, if any.
    pub tags: Option<Tags>,
    /// Mesh record, if any.
    pub mesh: Option<MeshRecord>,
}

impl Record {
    fn mask(&self) -> u8 {
        u8::from(self.transform.is_some())
            | u8::from(self.mass.is_some()) << 1
            | u8::from(self.tags.is_some()) << 2
            | u8::from(self.mesh.is_some()) << 3
    }
}

/// The owned records of `level` (unknown kinds dropped; a later component of a kind an entity
/// already has is refused by the level generator, so at most one per kind).
fn records(level: &Level) -> Vec<Record> {
    level
        .entities
        .iter()
        .map(|e| {
            let mut r = Record {
                parent: e.parent.unwrap_or(u32::MAX),
                ..Record::default()
            };
            for c in &e.components {
                let w = c.resource_words();
                match c.kind {
                    ComponentKind::Transform => r.transform = Some(Affine::from_pose(w[0])),
                    ComponentKind::PointMass => r.mass = Some(point_mass_of(&w)),
                    ComponentKind::Tags => {
                        let t = tags_of(&w);
                        let mut tags = Tags {
                            len: t.len() as u8,
                            ..Tags::default()
                        };
                        tags.tags[..t.len()].copy_from_slice(t);
                        r.tags = Some(tags);
                    }
                    ComponentKind::Mesh => r.mesh = Some(mesh_of(&w)),
                    ComponentKind::UnknownA | ComponentKind::UnknownB => {}
                }
            }
            r
        })
        .collect()
}

/// A `hecs::World` as a spawn world.
#[derive(Default)]
pub struct HecsWorld(pub World);

impl SpawnWorld for HecsWorld {
    type Entity = Entity;

    fn clear(&mut self) {
        self.0 = World::new();
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

/// `hecs` entity by entity: one `EntityBuilder` and `World::spawn` per entity.
#[derive(Debug, Clone, Copy, Default)]
pub struct HecsSpawn;

impl Spawner for HecsSpawn {
    type World = HecsWorld;
    type Blob = Vec<Record>;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        name: "hecs_spawn",
        description: "peer (own world): hecs World::spawn per entity from an EntityBuilder of typed records",
        kind: HECS,
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Vec<Record> {
        records(level)
    }

    fn blob_bytes(blob: &Vec<Record>) -> usize {
        blob.len() * size_of::<Record>()
    }

    fn spawn(blob: &Vec<Record>, world: &mut HecsWorld) -> Vec<Entity> {
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
            out.push(world.0.spawn(builder.build()));
        }
        out
    }
}

/// The batch resource: entities grouped by archetype (component set).
#[derive(Debug, Clone, Default)]
pub struct Batches {
    /// Level entities.
    entities: usize,
    /// Per archetype: its mask and its entities' records with their level indices.
    groups: Vec<(u8, Vec<(u32, Record)>)>,
    /// Children with a transform: (level index, parent level index), in level order.
    children: Vec<(u32, u32)>,
}

/// `hecs` per archetype: one `World::spawn_column_batch` per component set, then parents.
#[derive(Debug, Clone, Copy, Default)]
pub struct HecsBatch;

impl Spawner for HecsBatch {
    type World = HecsWorld;
    type Blob = Batches;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        name: "hecs_batch",
        description: "peer (own world): hecs spawn_column_batch per archetype, then a parent fix-up pass",
        kind: HECS,
        entity_bytes: size_of::<Entity>(),
    };

    fn compile(level: &Level) -> Batches {
        let recs = records(level);
        let mut groups: Vec<(u8, Vec<(u32, Record)>)> = Vec::new();
        let mut children = Vec::new();
        for (i, r) in recs.iter().enumerate() {
            let mask = r.mask();
            match groups.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, g)) => g.push((i as u32, *r)),
                None => groups.push((mask, vec![(i as u32, *r)])),
            }
            if r.transform.is_some() && r.parent != u32::MAX {
                children.push((i as u32, r.parent));
            }
        }
        Batches {
            entities: recs.len(),
            groups,
            children,
        }
    }

    fn blob_bytes(blob: &Batches) -> usize {
        blob.groups
            .iter()
            .map(|(_, g)| g.len() * size_of::<(u32, Record)>())
            .sum::<usize>()
            + blob.children.len() * size_of::<(u32, u32)>()
    }

    fn spawn(blob: &Batches, world: &mut HecsWorld) -> Vec<Entity> {
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
                    let local = r.transform.expect("mask");
                    let _ = w.push(Transform {
                        local,
                        parent: None,
                    });
                }
            }
            if let Some(mut w) = builder.writer::<PointMass>() {
                for (_, r) in group {
                    let _ = w.push(r.mass.expect("mask"));
                }
            }
            if let Some(mut w) = builder.writer::<Tags>() {
                for (_, r) in group {
                    let _ = w.push(r.tags.expect("mask"));
                }
            }
            if let Some(mut w) = builder.writer::<MeshRecord>() {
                for (_, r) in group {
                    let _ = w.push(r.mesh.expect("mask"));
                }
            }
            let batch = builder.build().expect("every column filled");
            for ((i, _), e) in group.iter().zip(world.0.spawn_column_batch(batch)) {
                out[*i as usize] = e;
            }
        }
        for &(i, p) in &blob.children {
            let parent = out[p as usize];
            if let Ok(mut t) = world.0.get::<&mut Transform>(out[i as usize]) {
                t.parent = Some(parent);
            }
        }
        out
    }
}
