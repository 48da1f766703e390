//! Baseline (`bincode_owned`): the level as owned records ([`super::owned`]) serialised with
//! `bincode` 2 through serde (`config::standard()`: little-endian, variable-length integers);
//! spawning decodes the whole blob into owned `Vec`s (timed: it is part of loading) and then
//! spawns the records entity by entity through the world's per-instance path.
//!
//! Cost O(entities + components) plus one allocation per entity (its component list) and per
//! tags or unknown component; unknown components are decoded before they are skipped. The
//! trade-off: no hand-written format at all, paid for with a decode pass and the allocations
//! of an owned copy of the level, freed again at the end of the spawn.

use super::owned::{self, OwnedLevel};
use super::world::World;
use super::{Level, SpawnDesignInfo, SpawnDesignKind, Spawner};
use crate::DesignMeta;
use crate::components::entities::Entity;

/// bincode-decoded owned records spawned entity by entity (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct BincodeOwned;

/// The encoding of the blob.
fn config() -> ::bincode::config::Configuration {
    ::bincode::config::standard()
}

impl Spawner for BincodeOwned {
    type World = World;
    type Blob = Vec<u8>;

    const INFO: SpawnDesignInfo = SpawnDesignInfo {
        meta: DesignMeta {
            name: "bincode_owned",
            description: "baseline (bincode 2.0.1, serde): decode owned per-entity records, then spawn entity by entity",
            kind: SpawnDesignKind::Tuned,
        },
        entity_bytes: 8,
    };

    fn compile(level: &Level) -> Vec<u8> {
        ::bincode::serde::encode_to_vec(OwnedLevel::of(level), config())
            .expect("owned records always encode")
    }

    /// # Panics
    /// If the blob is not what [`Self::compile`] wrote (it never is anything else).
    fn spawn(blob: &Vec<u8>, world: &mut World) -> Vec<Entity> {
        let (level, _read): (OwnedLevel, usize) =
            ::bincode::serde::decode_from_slice(blob, config())
                .expect("the blob is the bincode of compile's records");
        owned::spawn(&level, world)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_round_trips_to_the_owned_records() {
        let level = owned::sample_level();
        let blob = BincodeOwned::compile(&level);
        let (back, read): (OwnedLevel, usize) =
            ::bincode::serde::decode_from_slice(&blob, config()).unwrap();
        assert_eq!(read, blob.len());
        assert_eq!(back, OwnedLevel::of(&level));
        assert_eq!(back.entities[1].parent, Some(0));
        assert_eq!(
            back.entities[0].components[1],
            owned::OwnedComponent::Unknown {
                id: 5,
                payload: vec![1, 2, 3, 4, 1, 2]
            }
        );
        let mut world = World::default();
        let out = BincodeOwned::spawn(&blob, &mut world);
        assert_eq!(out.len(), 2);
        assert!(crate::spawn::SpawnWorld::check_invariants(&world).is_ok());
    }
}
