//! Tuned design (`archetype_world`): `hecs`'s world layout, written for the level's four known
//! component types. Entities live in archetype tables (one per component set, each component
//! a typed column); the level is compiled into those columns, so a spawn allocates one run of
//! entities and appends each group's columns to its table with one copy per column.
//!
//! It keeps what the `hecs` peers keep and no more: a transform holds its local matrix and its
//! parent entity, with no hierarchy node, child links or world matrix (the world designs
//! compute those at spawn, [`super::archetype_batched`]); so it is ranked against the peers
//! that keep the same, not against the world designs, and its record says so.
//!
//! What it takes from `hecs` (`World::spawn_column_batch`, the `hecs_batch` peer): archetype
//! tables of typed columns, entities allocated as one run (`alloc_many`), per group one bulk
//! append per column. What it does differently, because the whole level is known when it is
//! compiled:
//! * the columns are built once, at compile time: `hecs_batch` fills a `ColumnBatchBuilder`
//!   per spawn and then moves it into the archetype, two copies where this design has one;
//! * the run of entities is allocated before any column is written, so a child's transform
//!   gets its parent entity as its column is appended: no fix-up pass after the batches
//!   (`hecs_batch` sets each child's parent with `World::get::<&mut Transform>`);
//! * the component sets are known (16 of them), so a table is found by indexing an array with
//!   the set's mask instead of hashing the set's type ids;
//! * the family despawns only the whole world, so an entity's generation is the world's:
//!   [`ArchetypeWorld::clear`] bumps one epoch instead of a generation per slot.
//!
//! Cost: a spawn is O(entities + groups); a reset O(tables). Per entity the world holds a
//! location (8 bytes) and a row entity (8 bytes) beside its components' values.

use std::num::NonZeroU32;

use super::peers::{Tags, records};
use super::{
    ComponentRef, Level, MeshRecord, ResourceBlob, SpawnDesignInfo, SpawnDesignKind, SpawnWorld,
    Spawner,
};
use crate::DesignMeta;
use crate::components::PointMass;
use crate::transforms::Affine;

/// Component sets: a mask of transform 1, point mass 2, tags 4, mesh 8.
const SETS: usize = 16;

/// A level index's parent, where the entity is a root.
const NO_PARENT: u32 = u32::MAX;

/// An entity of an [`ArchetypeWorld`]: its index in the world's location table and the epoch
/// the world was in when it was spawned (a handle from before a reset differs from every
/// handle after it, until the epoch wraps after 2^32 - 1 resets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WorldEntity {
    /// Index into [`ArchetypeWorld::locations`].
    index: u32,
    /// The world's epoch at spawn; non-zero, so an `Option<WorldEntity>` is 8 bytes.
    epoch: NonZeroU32,
}

/// A transform as this world keeps it: the local matrix and the parent entity.
#[derive(Debug, Clone, Copy)]
pub struct Transform {
    /// Local transform.
    pub local: Affine,
    /// The parent entity, if any.
    pub parent: Option<WorldEntity>,
}

/// Where an entity's components are: its table (component set) and row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Location {
    /// The component set, the index of its table.
    set: u8,
    /// The row in that table.
    row: u32,
}

/// One archetype table. Invariant: `entities` has one entry per row; a column of a kind in
/// the table's set has exactly as many entries, a column of another kind is empty.
#[derive(Debug, Clone, Default)]
struct Table {
    /// The entity of each row.
    entities: Vec<WorldEntity>,
    /// Transforms, one per row when the set has transform (bit 0).
    transforms: Vec<Transform>,
    /// Point masses (bit 1).
    masses: Vec<PointMass>,
    /// Tags (bit 2).
    tags: Vec<Tags>,
    /// Mesh records (bit 3).
    meshes: Vec<MeshRecord>,
}

impl Table {
    /// The columns' lengths, in mask-bit order.
    fn column_lens(&self) -> [usize; 4] {
        [
            self.transforms.len(),
            self.masses.len(),
            self.tags.len(),
            self.meshes.len(),
        ]
    }

    fn clear(&mut self) {
        self.entities.clear();
        self.transforms.clear();
        self.masses.clear();
        self.tags.clear();
        self.meshes.clear();
    }

    fn memory_bytes(&self) -> usize {
        self.entities.capacity() * size_of::<WorldEntity>()
            + self.transforms.capacity() * size_of::<Transform>()
            + self.masses.capacity() * size_of::<PointMass>()
            + self.tags.capacity() * size_of::<Tags>()
            + self.meshes.capacity() * size_of::<MeshRecord>()
    }
}

/// The archetype world. Invariant: `locations[i]` names the row whose entity has index `i`,
/// and every row's entity has the current epoch (a reset empties every table).
#[derive(Debug, Clone)]
pub struct ArchetypeWorld {
    /// The epoch of the entities live now; bumped by a reset.
    epoch: NonZeroU32,
    /// Per entity index, its table and row.
    locations: Vec<Location>,
    /// One table per component set, indexed by its mask.
    tables: [Table; SETS],
}

impl Default for ArchetypeWorld {
    fn default() -> Self {
        ArchetypeWorld {
            epoch: NonZeroU32::MIN,
            locations: Vec::new(),
            tables: Default::default(),
        }
    }
}

impl SpawnWorld for ArchetypeWorld {
    type Entity = WorldEntity;
    const TRANSFORM_HIERARCHY: bool = false;

    /// Empties every table and the location table, keeping their storage for the next level
    /// (as `hecs::World::clear` does), and starts a new epoch.
    fn clear(&mut self) {
        self.locations.clear();
        for table in &mut self.tables {
            table.clear();
        }
        self.epoch = self.epoch.checked_add(1).unwrap_or(NonZeroU32::MIN);
    }

    fn entity_count(&self) -> usize {
        self.locations.len()
    }

    fn visit(&mut self, mut f: impl FnMut(WorldEntity, ComponentRef<'_, WorldEntity>)) {
        for table in &self.tables {
            for (&e, t) in table.entities.iter().zip(&table.transforms) {
                f(e, ComponentRef::Transform(&t.local, t.parent));
            }
            for (&e, m) in table.entities.iter().zip(&table.masses) {
                f(e, ComponentRef::PointMass(m));
            }
            for (&e, t) in table.entities.iter().zip(&table.tags) {
                f(e, ComponentRef::Tags(&t.tags[..usize::from(t.len)]));
            }
            for (&e, &m) in table.entities.iter().zip(&table.meshes) {
                f(e, ComponentRef::Mesh(m));
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        self.locations.capacity() * size_of::<Location>()
            + self.tables.iter().map(Table::memory_bytes).sum::<usize>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut rows = 0;
        for (set, table) in self.tables.iter().enumerate() {
            rows += table.entities.len();
            for (bit, len) in table.column_lens().into_iter().enumerate() {
                let expected = if set & (1 << bit) != 0 {
                    table.entities.len()
                } else {
                    0
                };
                if len != expected {
                    return Err(format!(
                        "table {set:#06b}: column {bit} holds {len} values for {} rows",
                        table.entities.len()
                    ));
                }
            }
            for (row, e) in table.entities.iter().enumerate() {
                if e.epoch != self.epoch {
                    return Err(format!(
                        "table {set:#06b} row {row}: an entity of another epoch"
                    ));
                }
                let here = Location {
                    set: set as u8,
                    row: row as u32,
                };
                if self.locations.get(e.index as usize) != Some(&here) {
                    return Err(format!(
                        "table {set:#06b} row {row}: entity {} is located elsewhere",
                        e.index
                    ));
                }
            }
        }
        if rows != self.locations.len() {
            return Err(format!(
                "{rows} rows for {} locations",
                self.locations.len()
            ));
        }
        Ok(())
    }
}

/// The entities of one component set, in columns. Invariant: `levels` holds one level index
/// per entity; a column of a kind in `set` holds one value per entity (`parents` beside
/// `locals`), a column of another kind is empty.
#[derive(Debug, Clone, Default)]
pub struct Group {
    /// The component set.
    set: u8,
    /// Each entity's level index.
    levels: Vec<u32>,
    /// Each transform's parent level index, [`NO_PARENT`] for a root.
    parents: Vec<u32>,
    /// Local transforms, decoded.
    locals: Vec<Affine>,
    /// Point masses.
    masses: Vec<PointMass>,
    /// Tags.
    tags: Vec<Tags>,
    /// Mesh records.
    meshes: Vec<MeshRecord>,
}

impl Group {
    fn bytes(&self) -> usize {
        (self.levels.len() + self.parents.len()) * size_of::<u32>()
            + self.locals.len() * size_of::<Affine>()
            + self.masses.len() * size_of::<PointMass>()
            + self.tags.len() * size_of::<Tags>()
            + self.meshes.len() * size_of::<MeshRecord>()
    }
}

/// The compiled level: its groups in spawn order, and each level entity's position in the run
/// of entities a spawn allocates (the groups' entities one after another).
#[derive(Debug, Clone, Default)]
pub struct ArchetypeColumns {
    /// Per level index, its position in the run.
    run_position: Vec<u32>,
    /// The groups, in order of their set's first entity in the level.
    groups: Vec<Group>,
}

impl ResourceBlob for ArchetypeColumns {
    fn bytes(&self) -> usize {
        self.run_position.len() * size_of::<u32>()
            + self.groups.iter().map(Group::bytes).sum::<usize>()
    }
}

/// The design. See the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct ArchetypeWorldSpawner;

impl Spawner for ArchetypeWorldSpawner {
    type World = ArchetypeWorld;
    type Blob = ArchetypeColumns;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "archetype_world",
            description: "hecs's archetype world for the four known component types: the level compiled into typed columns per component set; a spawn allocates one entity run and appends one copy per column (transforms keep local + parent only, as the hecs peers)",
            kind: SpawnDesignKind::Tuned,
        },
        entity_bytes: size_of::<WorldEntity>(),
    };

    /// Groups the level's entities by component set (unknown kinds dropped; a second
    /// component of a kind an entity has, which trace validation refuses, replaces the first,
    /// as in the `hecs` peers' records).
    fn compile(level: &Level) -> ArchetypeColumns {
        let mut group_of_set = [usize::MAX; SETS];
        let mut groups: Vec<Group> = Vec::new();
        for (i, r) in records(level).into_iter().enumerate() {
            let set = r.mask();
            if group_of_set[usize::from(set)] == usize::MAX {
                group_of_set[usize::from(set)] = groups.len();
                groups.push(Group {
                    set,
                    ..Group::default()
                });
            }
            let g = &mut groups[group_of_set[usize::from(set)]];
            g.levels.push(i as u32);
            if let Some(local) = r.transform {
                g.locals.push(local);
                g.parents.push(r.parent);
            }
            g.masses.extend(r.mass);
            g.tags.extend(r.tags);
            g.meshes.extend(r.mesh);
        }
        let mut run_position = vec![0; level.entities.len()];
        for (position, &i) in groups.iter().flat_map(|g| &g.levels).enumerate() {
            run_position[i as usize] = position as u32;
        }
        ArchetypeColumns {
            run_position,
            groups,
        }
    }

    /// # Panics
    /// If the world would hold more than `u32::MAX` entities (its location indices are
    /// `u32`s).
    fn spawn(blob: &ArchetypeColumns, world: &mut ArchetypeWorld) -> Vec<WorldEntity> {
        let epoch = world.epoch;
        assert!(
            world.locations.len() + blob.run_position.len() <= u32::MAX as usize,
            "an archetype world holds at most u32::MAX entities"
        );
        let first = world.locations.len() as u32;
        let out: Vec<WorldEntity> = blob
            .run_position
            .iter()
            .map(|&p| WorldEntity {
                index: first + p,
                epoch,
            })
            .collect();
        world.locations.reserve(blob.run_position.len());
        let mut start = first;
        for g in &blob.groups {
            let table = &mut world.tables[usize::from(g.set)];
            let row = table.entities.len() as u32;
            let len = g.levels.len() as u32;
            world
                .locations
                .extend((row..row + len).map(|row| Location { set: g.set, row }));
            table
                .entities
                .extend((start..start + len).map(|index| WorldEntity { index, epoch }));
            table
                .transforms
                .extend(
                    g.locals
                        .iter()
                        .zip(&g.parents)
                        .map(|(&local, &p)| Transform {
                            local,
                            parent: (p != NO_PARENT).then(|| out[p as usize]),
                        }),
                );
            table.masses.extend_from_slice(&g.masses);
            table.tags.extend_from_slice(&g.tags);
            table.meshes.extend_from_slice(&g.meshes);
            start += len;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spawn::{ComponentKind, LevelComponent, LevelEntity};

    fn entity(parent: Option<u32>, kinds: &[ComponentKind]) -> LevelEntity {
        LevelEntity {
            parent,
            components: kinds
                .iter()
                .map(|&kind| LevelComponent {
                    kind,
                    data: [1, 2, 3, 4],
                })
                .collect(),
        }
    }

    #[test]
    fn groups_by_component_set_and_links_children_to_their_parents() {
        use ComponentKind::{Mesh, PointMass, Transform, UnknownA};
        let level = Level {
            entities: vec![
                entity(None, &[Transform, Mesh]),
                entity(Some(0), &[Transform, PointMass]),
                entity(Some(1), &[Transform, Mesh, UnknownA]),
                entity(None, &[]),
            ],
        };
        let blob = ArchetypeWorldSpawner::compile(&level);
        assert_eq!(blob.groups.len(), 3, "{{T, M}}, {{T, P}}, {{}}");
        assert_eq!(blob.run_position, [0, 2, 1, 3], "run: 0, 2, then 1, then 3");
        let mut world = ArchetypeWorld::default();
        let out = ArchetypeWorldSpawner::spawn(&blob, &mut world);
        world.check_invariants().unwrap();
        assert_eq!(world.entity_count(), 4);
        let mut parents = Vec::new();
        world.visit(|e, c| {
            if let ComponentRef::Transform(_, parent) = c {
                parents.push((e, parent));
            }
        });
        parents.sort_by_key(|(e, _)| e.index);
        assert_eq!(
            parents,
            [
                (out[0], None),
                (out[2], Some(out[1])),
                (out[1], Some(out[0]))
            ]
        );
    }

    #[test]
    fn a_reset_keeps_storage_and_starts_a_new_epoch() {
        let level = Level {
            entities: vec![entity(None, &[ComponentKind::Tags]); 3],
        };
        let blob = ArchetypeWorldSpawner::compile(&level);
        let mut world = ArchetypeWorld::default();
        let before = ArchetypeWorldSpawner::spawn(&blob, &mut world);
        let bytes = world.memory_bytes();
        ArchetypeWorldSpawner::despawn_all(&mut world);
        assert_eq!((world.entity_count(), world.memory_bytes()), (0, bytes));
        let after = ArchetypeWorldSpawner::spawn(&blob, &mut world);
        world.check_invariants().unwrap();
        assert_eq!(before[0].index, after[0].index);
        assert_ne!(before[0], after[0], "same index, another epoch");
        assert_eq!(size_of::<Option<WorldEntity>>(), 8);
    }
}
