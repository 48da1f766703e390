//! The one list of spawn designs. Benchmarks, the CLI, the tests and the reports iterate over
//! it; adding a design is one line in [`for_each_spawn_design`].

use super::{
    SpawnDesignInfo, Spawner,
    bincode_owned::BincodeOwned,
    grouped_batched::GroupedBatched,
    grouped_single::GroupedSingle,
    nested::Nested,
    nested_offsets::NestedOffsets,
    peers,
    rkyv_archived::{RkyvChecked, RkyvUnchecked},
};

/// Something done once per spawn design.
pub trait SpawnDesignVisitor {
    /// Called once per registered design `S`.
    fn visit<S: Spawner + 'static>(&mut self);
}

/// Calls `visitor.visit::<S>()` for every registered design, in registry order.
pub fn for_each_spawn_design<V: SpawnDesignVisitor>(visitor: &mut V) {
    visitor.visit::<Nested>();
    visitor.visit::<NestedOffsets>();
    visitor.visit::<GroupedSingle>();
    visitor.visit::<GroupedBatched>();
    visitor.visit::<BincodeOwned>();
    visitor.visit::<RkyvChecked>();
    visitor.visit::<RkyvUnchecked>();
    visitor.visit::<peers::hecs::HecsSpawn>();
    visitor.visit::<peers::hecs::HecsBatch>();
    #[cfg(feature = "bevy")]
    {
        visitor.visit::<peers::bevy::BevySpawn>();
        visitor.visit::<peers::bevy::BevyBatch>();
    }
}

/// The [`SpawnDesignInfo`] of every registered design, in registry order.
pub fn spawn_designs() -> Vec<SpawnDesignInfo> {
    struct Collect(Vec<SpawnDesignInfo>);
    impl SpawnDesignVisitor for Collect {
        fn visit<S: Spawner + 'static>(&mut self) {
            self.0.push(S::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_spawn_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_spawn_design(name: &str) -> Option<SpawnDesignInfo> {
    spawn_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let designs = spawn_designs();
        for (k, d) in designs.iter().enumerate() {
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "bad design name {:?}",
                d.name
            );
            assert!(
                designs[..k].iter().all(|e| e.name != d.name),
                "duplicate {}",
                d.name
            );
        }
        assert!(find_spawn_design("grouped_batched").is_some());
        assert!(find_spawn_design("rkyv_unchecked").is_some());
        assert_eq!(
            find_spawn_design("bevy_batch").is_some(),
            cfg!(feature = "bevy")
        );
    }
}
