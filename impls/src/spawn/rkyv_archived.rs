//! Baseline (`rkyv_checked`, `rkyv_unchecked`): the level as owned records ([`super::owned`])
//! archived with `rkyv` 0.8 into one aligned buffer; spawning reads the archive in place
//! (zero-copy: no decode pass, no allocation but the world's) and spawns the records entity by
//! entity through the world's per-instance path, like [`super::bincode_owned`] after its
//! decode.
//!
//! `rkyv_checked` validates the whole archive with `bytecheck` before reading it
//! (`rkyv::access`, timed: a loader must do it for bytes from disk); `rkyv_unchecked` trusts
//! it (`rkyv::access_unchecked`), which is sound here because the blob is the one
//! [`Spawner::compile`] archived from the same types in this process and is only ever borrowed
//! immutably. The pair measures what validation costs. Cost O(entities + components) either
//! way; the archive holds relative pointers, so each entity's component list is one indirection
//! away (as `nested`'s words are not) and unknown components are skipped by their enum tag.

use crate::DesignMeta;
use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::owned::{ArchivedOwnedComponent, ArchivedOwnedLevel, OwnedLevel, point_mass};
use super::world::World;
use super::{Level, MAX_TAGS, MeshRecord, ResourceBlob, SpawnDesignInfo, SpawnDesignKind, Spawner};
use crate::components::entities::Entity;

/// An rkyv archive of the owned records spawned entity by entity; `VALIDATE`: whether the
/// archive is checked before it is read (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct RkyvArchived<const VALIDATE: bool>;

/// Validated access (`rkyv::access`).
pub type RkyvChecked = RkyvArchived<true>;
/// Trusted access (`rkyv::access_unchecked`).
pub type RkyvUnchecked = RkyvArchived<false>;

/// The archive's bytes.
impl ResourceBlob for AlignedVec {
    fn bytes(&self) -> usize {
        self.len()
    }
}

/// The archived level in `blob`.
///
/// # Panics
/// If `VALIDATE` and the blob is not a valid archive (it always is: see the module docs).
fn access<const VALIDATE: bool>(blob: &AlignedVec) -> &ArchivedOwnedLevel {
    if VALIDATE {
        rkyv::access::<ArchivedOwnedLevel, rancor::Error>(blob)
            .expect("the blob is compile's archive")
    } else {
        // SAFETY: the blob was written by `rkyv::to_bytes` of an `OwnedLevel` in `compile`
        // (same types, same process) and has not been mutated since: it is only ever
        // borrowed immutably, so a valid `ArchivedOwnedLevel` sits at its root position.
        // Reached by `rkyv_unchecked` in `spawn_model.rs` and the tests below.
        unsafe { rkyv::access_unchecked::<ArchivedOwnedLevel>(blob) }
    }
}

impl<const VALIDATE: bool> Spawner for RkyvArchived<VALIDATE> {
    type World = World;
    type Blob = AlignedVec;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: if VALIDATE {
                "rkyv_checked"
            } else {
                "rkyv_unchecked"
            },
            description: if VALIDATE {
                "baseline (rkyv 0.8.18): validate the archived per-entity records (bytecheck), walk them in place, spawn entity by entity"
            } else {
                "baseline (rkyv 0.8.18): walk the archived per-entity records in place without validation, spawn entity by entity"
            },
            kind: SpawnDesignKind::Tuned,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> AlignedVec {
        rkyv::to_bytes::<rancor::Error>(&OwnedLevel::of(level))
            .expect("owned records always archive")
    }

    fn spawn(blob: &AlignedVec, world: &mut World) -> Vec<Entity> {
        let level = access::<VALIDATE>(blob);
        let mut out: Vec<Entity> = Vec::with_capacity(level.entities.len());
        for e in level.entities.iter() {
            let entity = world.create();
            let parent = e.parent.as_ref().map(|p| out[p.to_native() as usize]);
            out.push(entity);
            for c in e.components.iter() {
                match c {
                    ArchivedOwnedComponent::Transform { pose } => {
                        world.add_transform(entity, parent, pose.to_native())
                    }
                    ArchivedOwnedComponent::PointMass { mass, position } => world.add_point_mass(
                        entity,
                        point_mass(mass.to_native(), position.map(|p| p.to_native())),
                    ),
                    ArchivedOwnedComponent::Tags { tags } => {
                        let mut native = [0u32; MAX_TAGS];
                        let n = tags.len().min(MAX_TAGS);
                        for (to, from) in native.iter_mut().zip(tags.iter()) {
                            *to = from.to_native();
                        }
                        world.add_tags(entity, &native[..n]);
                    }
                    ArchivedOwnedComponent::Mesh { mesh, material } => world.add_mesh(
                        entity,
                        MeshRecord {
                            mesh: mesh.to_native(),
                            material: material.to_native(),
                        },
                    ),
                    ArchivedOwnedComponent::Unknown { .. } => {}
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spawn::owned;
    use crate::spawn::{SpawnWorld, world_digest};

    #[test]
    fn archive_round_trips_and_both_accesses_spawn_the_same_world() {
        let level = owned::sample_level();
        let blob = RkyvChecked::compile(&level);
        let back: OwnedLevel =
            rkyv::deserialize::<OwnedLevel, rancor::Error>(access::<true>(&blob)).unwrap();
        assert_eq!(back, OwnedLevel::of(&level));
        let unchecked = access::<false>(&blob);
        assert_eq!(unchecked.entities.len(), 2);
        assert_eq!(
            unchecked.entities[1].parent.as_ref().map(|p| p.to_native()),
            Some(0)
        );
        let mut digests = Vec::new();
        for spawn in [RkyvChecked::spawn, RkyvUnchecked::spawn] {
            let mut world = World::default();
            let out = spawn(&blob, &mut world);
            assert_eq!(out.len(), 2);
            world.check_invariants().unwrap();
            digests.push(world_digest(&mut world, &out));
        }
        assert_eq!(digests[0], digests[1]);
    }

    #[test]
    fn validation_refuses_a_corrupted_archive() {
        let blob = RkyvChecked::compile(&owned::sample_level());
        let mut bad = AlignedVec::<16>::new();
        bad.extend_from_slice(&blob[..blob.len() - 4]);
        bad.extend_from_slice(&[0xff; 4]);
        assert!(rkyv::access::<ArchivedOwnedLevel, rancor::Error>(&bad).is_err());
    }
}
