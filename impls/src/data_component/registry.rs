//! The one list of DataComponent designs. Benchmarks, the CLI, the tests and the reports
//! iterate over it; adding a design is one line in [`for_each_kv_design`].

use super::{
    DataStore, KvDesignInfo, buddy_arena, co_allocated, flat_aos, flat_soa, map_hashed,
    meet_in_middle, peers, slim_values, tree_strings, two_regions, value_buffer,
};

crate::registry::design_registry! {
    /// Something done once per design, e.g. "run the property test".
    pub trait KvDesignVisitor { fn visit<D: DataStore>; }
    pub fn for_each_kv_design;
    pub fn kv_designs -> KvDesignInfo;
    pub fn find_kv_design;
    // In the article's order.
    designs {
        tree_strings::TreeStrings;
        map_hashed::MapHashed;
        flat_aos::FlatAos;
        flat_aos::FlatSorted;
        flat_soa::FlatSoa;
        co_allocated::CoAllocated;
        value_buffer::ValueBuffer;
        slim_values::SlimValues;
        meet_in_middle::MeetInMiddle;
        two_regions::TwoRegionBuffer;
        buddy_arena::BuddyArena;
        peers::serde_json::SerdeJsonPeer;
        peers::litemap::LiteMapPeer;
        peers::hashmap::HashMapPeer;
    }
}
