//! The one list of DataComponent designs. Benchmarks, the CLI, the tests and the reports
//! iterate over it; adding a design is one line in [`for_each_kv_design`].

use super::{
    DataStore, KvDesignInfo, buddy_arena, co_allocated, flat_aos, flat_soa, map_hashed,
    meet_in_middle, peers, slim_values, tree_strings, two_regions, value_buffer,
};

/// Something done once per design, e.g. "run the property test".
pub trait KvDesignVisitor {
    /// Called once per registered design `D`.
    fn visit<D: DataStore + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in the article's order.
pub fn for_each_kv_design<V: KvDesignVisitor>(visitor: &mut V) {
    visitor.visit::<tree_strings::TreeStrings>();
    visitor.visit::<map_hashed::MapHashed>();
    visitor.visit::<flat_aos::FlatAos>();
    visitor.visit::<flat_aos::FlatSorted>();
    visitor.visit::<flat_soa::FlatSoa>();
    visitor.visit::<co_allocated::CoAllocated>();
    visitor.visit::<value_buffer::ValueBuffer>();
    visitor.visit::<slim_values::SlimValues>();
    visitor.visit::<meet_in_middle::MeetInMiddle>();
    visitor.visit::<two_regions::TwoRegionBuffer>();
    visitor.visit::<buddy_arena::BuddyArena>();
    visitor.visit::<peers::serde_json::SerdeJsonPeer>();
    visitor.visit::<peers::litemap::LiteMapPeer>();
    visitor.visit::<peers::hashmap::HashMapPeer>();
}

/// The [`KvDesignInfo`] of every registered design, in registry order.
pub fn kv_designs() -> Vec<KvDesignInfo> {
    struct Collect(Vec<KvDesignInfo>);
    impl KvDesignVisitor for Collect {
        fn visit<D: DataStore + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_kv_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_kv_design(name: &str) -> Option<KvDesignInfo> {
    kv_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = kv_designs();
        for (i, d) in all.iter().enumerate() {
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "bad design name {:?}",
                d.name
            );
            assert!(
                all[..i].iter().all(|e| e.name != d.name),
                "duplicate {}",
                d.name
            );
        }
    }
}
