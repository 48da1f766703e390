//! The one list of spawn designs. Benchmarks, the CLI, the tests and the reports iterate over
//! it; adding a design is one line in [`for_each_spawn_design`].

use super::{
    SpawnDesignInfo, Spawner,
    archetype_batched::ArchetypeBatched,
    archetype_world::ArchetypeWorldSpawner,
    bincode_owned::BincodeOwned,
    grouped_batched::GroupedBatched,
    grouped_single::GroupedSingle,
    nested::Nested,
    nested_offsets::NestedOffsets,
    peers,
    rkyv_archived::{RkyvChecked, RkyvUnchecked},
};

crate::registry::design_registry! {
    /// Something done once per spawn design.
    pub trait SpawnDesignVisitor { fn visit<S: Spawner>; }
    pub fn for_each_spawn_design;
    pub fn spawn_designs -> SpawnDesignInfo;
    pub fn find_spawn_design;
    designs {
        Nested;
        NestedOffsets;
        GroupedSingle;
        GroupedBatched;
        ArchetypeBatched;
        ArchetypeWorldSpawner;
        BincodeOwned;
        RkyvChecked;
        RkyvUnchecked;
        peers::hecs::HecsSpawn;
        peers::hecs::HecsSpawnBuilder;
        peers::hecs::HecsBatch;
        #[cfg(feature = "bevy")]
        peers::bevy::BevySpawn;
        #[cfg(feature = "bevy")]
        peers::bevy::BevyBatch;
    }
}

#[cfg(test)]
mod tests {
    use super::find_spawn_design;

    #[test]
    fn finds_the_designs_by_name_and_bevy_only_with_its_feature() {
        assert!(find_spawn_design("grouped_batched").is_some());
        assert!(find_spawn_design("archetype_batched").is_some());
        assert!(find_spawn_design("rkyv_unchecked").is_some());
        assert!(find_spawn_design("hecs_spawn").is_some());
        assert!(find_spawn_design("hecs_spawn_builder").is_some());
        assert_eq!(
            find_spawn_design("bevy_batch").is_some(),
            cfg!(feature = "bevy")
        );
    }
}
