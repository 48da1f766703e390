//! Peers: published ECS crates spawning the same levels into their own worlds (their own
//! entity allocators and storage), so they are marked as peers and compared with care. Their
//! resource is the same for every crate: typed per-entity [`Record`]s (what a deserialiser
//! would hand an ECS), grouped by component set into [`Batches`] for the batch designs.
//! `bevy_ecs` is behind the `bevy` cargo feature.

#[cfg(feature = "bevy")]
pub mod bevy;
pub mod hecs;

use crate::components::PointMass;
use crate::spawn::{
    ComponentKind, Level, MAX_TAGS, MeshRecord, ResourceBlob, mesh_of, point_mass_of, tags_of,
};
use crate::transforms::Affine;

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
    /// The component set as a mask: transform 1, point mass 2, tags 4, mesh 8.
    pub fn mask(&self) -> u8 {
        u8::from(self.transform.is_some())
            | u8::from(self.mass.is_some()) << 1
            | u8::from(self.tags.is_some()) << 2
            | u8::from(self.mesh.is_some()) << 3
    }
}

/// The owned records of `level` (unknown kinds dropped; a later component of a kind an entity
/// already has is refused by the level generator, so at most one per kind).
pub fn records(level: &Level) -> Vec<Record> {
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

/// The batch resource: entities grouped by archetype (component set).
#[derive(Debug, Clone, Default)]
pub struct Batches {
    /// Level entities.
    pub entities: usize,
    /// Per archetype: its mask and its entities' records with their level indices.
    pub groups: Vec<(u8, Vec<(u32, Record)>)>,
    /// Children with a transform: (level index, parent level index), in level order.
    pub children: Vec<(u32, u32)>,
}

impl Batches {
    /// Groups `level`'s records by component set, in order of first appearance.
    pub fn of(level: &Level) -> Batches {
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
}

/// The records of every group and the children's parent links.
impl ResourceBlob for Batches {
    fn bytes(&self) -> usize {
        self.groups
            .iter()
            .map(|(_, g)| g.len() * size_of::<(u32, Record)>())
            .sum::<usize>()
            + self.children.len() * size_of::<(u32, u32)>()
    }
}
