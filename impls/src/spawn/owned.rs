//! The owned level records of the baseline formats, shared by [`super::bincode_owned`] (which
//! decodes them) and [`super::rkyv_archived`] (which walks their archive in place): what a game
//! would write with a general-purpose serialiser, one record per entity in level order with its
//! parent's index and its components as an enum, unknown types kept as opaque payloads.
//!
//! Both baselines spawn these records entity by entity into the shared [`World`], through the
//! world's per-instance `add_*` path (the path of [`super::nested`]), so against `nested` only
//! the format differs: a serialiser's records instead of a hand-made word stream.

use super::world::World;
use super::{ComponentKind, Level, MeshRecord, mesh_of, point_mass_of, tags_of};
use crate::components::PointMass;
use crate::components::entities::Entity;

pub use records::{
    ArchivedOwnedComponent, ArchivedOwnedEntity, ArchivedOwnedLevel, OwnedComponent, OwnedEntity,
    OwnedLevel,
};

/// The record types. `missing_docs` is allowed here only because rkyv's derive generates a
/// resolver enum whose variant fields carry no docs; every item written here is documented.
#[allow(missing_docs)]
mod records {
    /// Derives, on each item, what the format needs: `serde` for the bincode design, `rkyv` for
    /// the archived one, and the comparisons of the tests.
    macro_rules! records {
        ($($item:item)*) => {$(
            #[derive(
                Debug,
                Clone,
                PartialEq,
                serde::Serialize,
                serde::Deserialize,
                rkyv::Archive,
                rkyv::Serialize,
                rkyv::Deserialize,
            )]
            $item
        )*};
    }

    records! {
        /// A level as owned records (see the module docs).
        #[derive(Default)]
        pub struct OwnedLevel {
            /// The entities, in level (pre-)order: index = resource entity index.
            pub entities: Vec<OwnedEntity>,
        }

        /// One entity's record.
        #[derive(Default)]
        pub struct OwnedEntity {
            /// The parent's level index. Invariant: smaller than this entity's index.
            pub parent: Option<u32>,
            /// The components, in resource order.
            pub components: Vec<OwnedComponent>,
        }

        /// One component, typed.
        pub enum OwnedComponent {
            /// A transform: the pose word of its local matrix.
            Transform {
                /// The pose word ([`crate::transforms::Affine::from_pose`]).
                pose: u32,
            },
            /// A point mass (velocity and acceleration zero).
            PointMass {
                /// Mass.
                mass: f32,
                /// Position.
                position: [f32; 3],
            },
            /// A tags component.
            Tags {
                /// Its tags (at most [`super::MAX_TAGS`]).
                tags: Vec<u32>,
            },
            /// A mesh record.
            Mesh {
                /// Mesh resource id.
                mesh: u32,
                /// Material id.
                material: u32,
            },
            /// A type the world does not know: its identifier and its resource words, skipped when
            /// spawning (a general-purpose deserialiser still decodes it).
            Unknown {
                /// The component identifier.
                id: u32,
                /// Its resource words.
                payload: Vec<u32>,
            },
        }
    }
}

impl OwnedComponent {
    /// The record of a level component.
    fn of(kind: ComponentKind, words: &[u32]) -> Self {
        match kind {
            ComponentKind::Transform => OwnedComponent::Transform { pose: words[0] },
            ComponentKind::PointMass => {
                let m = point_mass_of(words);
                OwnedComponent::PointMass {
                    mass: m.mass,
                    position: m.position,
                }
            }
            ComponentKind::Tags => OwnedComponent::Tags {
                tags: tags_of(words).to_vec(),
            },
            ComponentKind::Mesh => {
                let MeshRecord { mesh, material } = mesh_of(words);
                OwnedComponent::Mesh { mesh, material }
            }
            ComponentKind::UnknownA | ComponentKind::UnknownB => OwnedComponent::Unknown {
                id: kind as u32,
                payload: words.to_vec(),
            },
        }
    }
}

impl OwnedLevel {
    /// The records of `level` (the untimed content pipeline of both baselines).
    pub fn of(level: &Level) -> Self {
        let entities = level
            .entities
            .iter()
            .map(|e| OwnedEntity {
                parent: e.parent,
                components: e
                    .components
                    .iter()
                    .map(|c| OwnedComponent::of(c.kind, &c.resource_words()))
                    .collect(),
            })
            .collect();
        OwnedLevel { entities }
    }
}

/// A point mass at rest with `mass` at `position`.
pub fn point_mass(mass: f32, position: [f32; 3]) -> PointMass {
    PointMass {
        mass,
        position,
        ..PointMass::default()
    }
}

/// Spawns the owned records entity by entity (what [`super::bincode_owned`] does after
/// decoding).
pub fn spawn(level: &OwnedLevel, world: &mut World) -> Vec<Entity> {
    let mut out: Vec<Entity> = Vec::with_capacity(level.entities.len());
    for e in &level.entities {
        let entity = world.create();
        let parent = e.parent.map(|p| out[p as usize]);
        out.push(entity);
        for c in &e.components {
            match c {
                OwnedComponent::Transform { pose } => world.add_transform(entity, parent, *pose),
                OwnedComponent::PointMass { mass, position } => {
                    world.add_point_mass(entity, point_mass(*mass, *position))
                }
                OwnedComponent::Tags { tags } => world.add_tags(entity, tags),
                OwnedComponent::Mesh { mesh, material } => world.add_mesh(
                    entity,
                    MeshRecord {
                        mesh: *mesh,
                        material: *material,
                    },
                ),
                OwnedComponent::Unknown { .. } => {}
            }
        }
    }
    out
}

/// A two-entity level with a transform, a skipped unknown component, a child and its tags: the
/// baselines' blob round-trip tests.
#[cfg(test)]
pub(crate) fn sample_level() -> Level {
    use super::{LevelComponent, LevelEntity};
    Level {
        entities: vec![
            LevelEntity {
                parent: None,
                components: vec![
                    LevelComponent {
                        kind: ComponentKind::Transform,
                        data: [7, 0, 0, 0],
                    },
                    LevelComponent {
                        kind: ComponentKind::UnknownB,
                        data: [1, 2, 3, 4],
                    },
                ],
            },
            LevelEntity {
                parent: Some(0),
                components: vec![
                    LevelComponent {
                        kind: ComponentKind::Tags,
                        data: [2, 10, 11, 12],
                    },
                    LevelComponent {
                        kind: ComponentKind::PointMass,
                        data: [1.5f32.to_bits(), 2.0f32.to_bits(), 0, 3],
                    },
                ],
            },
        ],
    }
}
