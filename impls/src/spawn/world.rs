//! The one world every article design spawns into, built from the other families' stores
//! (reused, not copied): entities from the ID-table family's `holey` table (through the
//! component family's [`Entities`]), point masses in the component family's article
//! [`SingleBuffer`] (SoA arrays in one allocation), transforms in the transform family's
//! article [`DeferredDirtyList`], tags in the tag family's [`LinkedChunks`], and a plain
//! `Vec` of mesh records.
//!
//! Each component type has three entry points: one instance at a time (`add_*`, the path of
//! the entity-by-entity designs), the article's `SpawnFunction(entity_lookup, num_instances,
//! entity_index, data)` (`spawn_*`), which reserves once and runs one tight loop per type, and
//! a run of decoded instances for a run of entities (`append_*`, after [`World::create_run`]
//! and [`World::reserve_instances`]: the path of the archetype batches), which hands each store
//! whole columns to copy. All three leave the same state.

use crate::components::PointMass;
use crate::components::entities::{Entities, Entity};
use crate::components::packed::InstanceStorage;
use crate::components::single_buffer::SingleBuffer;
use crate::tags::TagStore;
use crate::tags::linked_chunks::LinkedChunks;
use crate::transforms::deferred_dirty_list::DeferredDirtyList;
use crate::transforms::{Affine, TransformStore};

use super::{ComponentKind, ComponentRef, MeshRecord, SpawnWorld, mesh_of, point_mass_of, tags_of};

/// No transform node for an entity index.
const NO_NODE: u32 = u32::MAX;

/// The transform store: the article's deferred dirty list (evicting after 5 unmoved frames).
type Transforms = DeferredDirtyList<5>;

/// One transform component instance.
#[derive(Debug, Clone, Copy)]
struct TransformRow {
    entity: Entity,
    /// Its node in the transform store.
    node: u32,
    /// The entity's parent (the link the resource gave), whether or not it has a transform.
    parent: Option<Entity>,
}

/// The shared world of the article designs (see the module docs).
#[derive(Debug, Clone)]
pub struct World {
    entities: Entities,
    transforms: Transforms,
    /// Transform instances, in creation order.
    transform_rows: Vec<TransformRow>,
    /// `node_of[entity index]`: the entity's transform node, [`NO_NODE`] for none.
    /// Invariant: exactly the entities of `transform_rows` have one.
    node_of: Vec<u32>,
    /// Point masses (each instance records its entity).
    masses: SingleBuffer,
    tags: LinkedChunks<8>,
    /// Tags instances: the entity and its handle in the tag store.
    tag_rows: Vec<(Entity, u32)>,
    meshes: Vec<(Entity, MeshRecord)>,
}

impl Default for World {
    fn default() -> Self {
        Self {
            entities: Entities::default(),
            transforms: Transforms::new(),
            transform_rows: Vec::new(),
            node_of: Vec::new(),
            masses: SingleBuffer::default(),
            tags: LinkedChunks::new(),
            tag_rows: Vec::new(),
            meshes: Vec::new(),
        }
    }
}

impl World {
    /// Creates one entity.
    ///
    /// # Panics
    /// If the entity table's 2^32 indices are exhausted.
    #[inline]
    pub fn create(&mut self) -> Entity {
        self.entities.create().expect("entity index space")
    }

    /// The article's "create N entities": appends `n` new entities to `out`.
    pub fn create_many(&mut self, n: usize, out: &mut Vec<Entity>) {
        out.reserve(n);
        for _ in 0..n {
            out.push(self.create());
        }
    }

    /// Attaches one component of `kind` with resource words `data` to `entity`; unknown
    /// kinds are skipped. `parent` is the entity's parent (used by a transform).
    #[inline]
    pub fn add_component(
        &mut self,
        entity: Entity,
        parent: Option<Entity>,
        kind: ComponentKind,
        data: &[u32],
    ) {
        match kind {
            ComponentKind::Transform => self.add_transform(entity, parent, data[0]),
            ComponentKind::PointMass => self.add_point_mass(entity, point_mass_of(data)),
            ComponentKind::Tags => self.add_tags(entity, tags_of(data)),
            ComponentKind::Mesh => self.add_mesh(entity, mesh_of(data)),
            ComponentKind::UnknownA | ComponentKind::UnknownB => {}
        }
    }

    /// Attaches a transform of local [`Affine::from_pose`]`(pose)`, linked under the parent's
    /// node when the parent has one.
    #[inline]
    pub fn add_transform(&mut self, entity: Entity, parent: Option<Entity>, pose: u32) {
        let parent_node = parent
            .and_then(|p| self.node_of.get(p.index() as usize).copied())
            .filter(|&n| n != NO_NODE);
        let node = self
            .transforms
            .create(parent_node, Affine::from_pose(pose))
            .expect("parent node is live");
        let at = entity.index() as usize;
        if self.node_of.len() <= at {
            self.node_of.resize(at + 1, NO_NODE);
        }
        self.node_of[at] = node;
        self.transform_rows.push(TransformRow {
            entity,
            node,
            parent,
        });
    }

    /// Attaches a point mass.
    #[inline]
    pub fn add_point_mass(&mut self, entity: Entity, value: PointMass) {
        self.masses.push(entity, value);
    }

    /// Attaches a tags component.
    #[inline]
    pub fn add_tags(&mut self, entity: Entity, tags: &[u32]) {
        let handle = self.tags.create_entity().expect("tag entity");
        for &t in tags {
            self.tags.add_tag(handle, t).expect("live tag entity");
        }
        self.tag_rows.push((entity, handle));
    }

    /// Attaches a mesh record.
    #[inline]
    pub fn add_mesh(&mut self, entity: Entity, mesh: MeshRecord) {
        self.meshes.push((entity, mesh));
    }

    /// Creates `n` entities and appends them to `out`: one run of fresh indices when no
    /// index waits for reuse (every index this world hands out stays live until `clear`, so
    /// always), one by one otherwise ([`Entities::create_run`]).
    ///
    /// # Panics
    /// If the entity table's 2^32 indices are exhausted.
    pub fn create_run(&mut self, n: usize, out: &mut Vec<Entity>) {
        self.entities
            .create_run(n, out)
            .expect("entity index space");
    }

    /// Reserves room for `transforms`, `masses`, `tags` and `meshes` more instances in their
    /// stores, so that the runs appended next grow no array (no change of state).
    pub fn reserve_instances(
        &mut self,
        transforms: usize,
        masses: usize,
        tags: usize,
        meshes: usize,
    ) {
        self.transforms.reserve(transforms);
        self.transform_rows.reserve(transforms);
        self.masses.reserve_for(self.masses.len() + masses);
        self.tags.reserve(tags, tags);
        self.tag_rows.reserve(tags);
        self.meshes.reserve(meshes);
    }

    /// Attaches a transform of local `locals[k]` to each entity `entities[k]` of a run, its
    /// parent `parents[k]` (`None`: every one a root), linked under the parent's node when the
    /// parent has one: the state an [`add_transform`](Self::add_transform) per instance
    /// leaves, with the store's arrays extended once per run
    /// ([`DeferredDirtyList::create_run`]). The locals come decoded (`Affine::from_pose` of
    /// the pose, done when the resource was compiled).
    ///
    /// # Panics
    /// If the slices differ in length, or an entity already has a transform.
    pub fn append_transforms(
        &mut self,
        entities: &[Entity],
        parents: Option<&[Entity]>,
        locals: &[Affine],
    ) {
        assert!(
            locals.len() == entities.len() && parents.is_none_or(|p| p.len() == entities.len()),
            "one local (and parent) per entity"
        );
        if let Some(max) = entities.iter().map(|e| e.index()).max()
            && self.node_of.len() <= max as usize
        {
            self.node_of.resize(max as usize + 1, NO_NODE);
        }
        let node_of = &self.node_of;
        let parent_nodes = parents.into_iter().flatten().map(|p| {
            node_of
                .get(p.index() as usize)
                .copied()
                .filter(|&n| n != NO_NODE)
        });
        let nodes = match parents {
            Some(_) => self.transforms.create_run(locals, parent_nodes),
            None => self.transforms.create_run(locals, std::iter::repeat(None)),
        }
        .expect("parent node is live");
        for (&e, &node) in entities.iter().zip(nodes) {
            let slot = &mut self.node_of[e.index() as usize];
            assert_eq!(*slot, NO_NODE, "one transform per entity");
            *slot = node;
        }
        let row = |(&entity, &node), parent| TransformRow {
            entity,
            node,
            parent,
        };
        let rows = entities.iter().zip(nodes);
        match parents {
            None => self.transform_rows.extend(rows.map(|r| row(r, None))),
            Some(ps) => self
                .transform_rows
                .extend(rows.zip(ps).map(|(r, &p)| row(r, Some(p)))),
        }
    }

    /// Attaches a point mass at rest (mass `masses[k]`, position `positions[k]`) to each entity
    /// `entities[k]` of a run: one copy per region of the store's buffer
    /// ([`SingleBuffer::push_run_at_rest`]).
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn append_point_masses(
        &mut self,
        entities: &[Entity],
        masses: &[f32],
        positions: &[[f32; 3]],
    ) {
        self.masses.push_run_at_rest(entities, masses, positions);
    }

    /// Attaches a tags component holding `lists[k]` to each entity `entities[k]` of a run: one
    /// run of tag-store entities with their chunks ([`LinkedChunks::create_fresh_run`]), or
    /// [`add_tags`](Self::add_tags) per instance when the tag store has something to reuse.
    ///
    /// # Panics
    /// If `lists` does not hold one list per entity, or the tag store runs out of indices.
    pub fn append_tags<'a>(
        &mut self,
        entities: &[Entity],
        lists: impl ExactSizeIterator<Item = &'a [u32]> + Clone,
    ) {
        assert_eq!(lists.len(), entities.len(), "one tag list per entity");
        match self
            .tags
            .create_fresh_run(lists.clone())
            .expect("tag entities")
        {
            Some(handles) => self.tag_rows.extend(entities.iter().copied().zip(handles)),
            None => {
                for (&e, list) in entities.iter().zip(lists) {
                    self.add_tags(e, list);
                }
            }
        }
    }

    /// Attaches mesh `meshes[k]` to each entity `entities[k]` of a run: one `extend`.
    ///
    /// # Panics
    /// If the slices differ in length.
    pub fn append_meshes(&mut self, entities: &[Entity], meshes: &[MeshRecord]) {
        assert_eq!(meshes.len(), entities.len(), "one mesh per entity");
        self.meshes
            .extend(entities.iter().copied().zip(meshes.iter().copied()));
    }

    /// Spawn function of transforms: instance `k` goes to `entities[entity_index[k]]`, its
    /// parent `entities[parents[entity_index[k]]]` (`u32::MAX`: a root), its pose `poses[k]`.
    /// Instances come in level order, so a parent's node exists before its children's.
    pub fn spawn_transforms(
        &mut self,
        entities: &[Entity],
        parents: &[u32],
        entity_index: &[u32],
        poses: &[u32],
    ) {
        self.transform_rows.reserve(entity_index.len());
        if let Some(max) = entities.iter().map(|e| e.index()).max() {
            let need = max as usize + 1;
            if self.node_of.len() < need {
                self.node_of.resize(need, NO_NODE);
            }
        }
        for (&i, &pose) in entity_index.iter().zip(poses) {
            let p = parents[i as usize];
            let parent = (p != u32::MAX).then(|| entities[p as usize]);
            self.add_transform(entities[i as usize], parent, pose);
        }
    }

    /// Spawn function of point masses: reserves once, then writes each instance in place.
    pub fn spawn_point_masses(&mut self, entities: &[Entity], entity_index: &[u32], data: &[u32]) {
        let words = ComponentKind::PointMass.words();
        let start = self.masses.len();
        self.masses.reserve_for(start + entity_index.len());
        for (k, (&i, d)) in entity_index
            .iter()
            .zip(data.chunks_exact(words))
            .enumerate()
        {
            self.masses
                .put(start + k, entities[i as usize], &point_mass_of(d));
        }
        self.masses.set_len(start + entity_index.len());
    }

    /// Spawn function of tags.
    pub fn spawn_tags(&mut self, entities: &[Entity], entity_index: &[u32], data: &[u32]) {
        let words = ComponentKind::Tags.words();
        self.tag_rows.reserve(entity_index.len());
        for (&i, d) in entity_index.iter().zip(data.chunks_exact(words)) {
            self.add_tags(entities[i as usize], tags_of(d));
        }
    }

    /// Spawn function of meshes: one `extend` of the records.
    pub fn spawn_meshes(&mut self, entities: &[Entity], entity_index: &[u32], data: &[u32]) {
        let words = ComponentKind::Mesh.words();
        self.meshes.extend(
            entity_index
                .iter()
                .zip(data.chunks_exact(words))
                .map(|(&i, d)| (entities[i as usize], mesh_of(d))),
        );
    }
}

impl SpawnWorld for World {
    type Entity = Entity;
    const TRANSFORM_HIERARCHY: bool = true;

    fn clear(&mut self) {
        *self = World::default();
    }

    fn entity_count(&self) -> usize {
        self.entities.len()
    }

    fn visit(&mut self, mut f: impl FnMut(Entity, ComponentRef<'_, Entity>)) {
        for row in &self.transform_rows {
            let local = self.transforms.local(row.node).expect("live node");
            f(row.entity, ComponentRef::Transform(&local, row.parent));
        }
        for i in 0..self.masses.len() {
            let m = self.masses.get(i);
            f(self.masses.entity(i), ComponentRef::PointMass(&m));
        }
        let mut tags = Vec::new();
        for &(entity, handle) in &self.tag_rows {
            tags.clear();
            self.tags
                .visit_entity(handle, |t| tags.push(t))
                .expect("live tag entity");
            f(entity, ComponentRef::Tags(&tags));
        }
        for &(entity, mesh) in &self.meshes {
            f(entity, ComponentRef::Mesh(mesh));
        }
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes()
            + self.transforms.memory_bytes()
            + self.transform_rows.capacity() * size_of::<TransformRow>()
            + self.node_of.capacity() * size_of::<u32>()
            + self.masses.memory_bytes()
            + self.tags.memory_bytes()
            + self.tag_rows.capacity() * size_of::<(Entity, u32)>()
            + self.meshes.capacity() * size_of::<(Entity, MeshRecord)>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        self.transforms.check_invariants()?;
        self.tags.check_invariants()?;
        let with_node = self.node_of.iter().filter(|&&n| n != NO_NODE).count();
        if with_node != self.transform_rows.len() || self.transforms.len() != with_node {
            return Err(format!(
                "{with_node} entities with a node, {} transform rows, {} nodes",
                self.transform_rows.len(),
                self.transforms.len()
            ));
        }
        for row in &self.transform_rows {
            if self.node_of.get(row.entity.index() as usize) != Some(&row.node) {
                return Err(format!(
                    "transform row of {:?} disagrees with node_of",
                    row.entity
                ));
            }
        }
        let alive = |e: &Entity| self.entities.alive(*e);
        let masses_alive = (0..self.masses.len()).all(|i| alive(&self.masses.entity(i)));
        if !masses_alive
            || !self.tag_rows.iter().all(|(e, _)| alive(e))
            || !self.meshes.iter().all(|(e, _)| alive(e))
        {
            return Err("a component of a dead entity".into());
        }
        Ok(())
    }
}
