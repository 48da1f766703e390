//! The one list of component designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_component_design`].

use super::{
    ComponentDesignInfo, ComponentStore, aos, chain, direct, direct_tuned, five_vecs, oop_fields,
    oop_objects, oop_pools, peers, single_buffer, split_xyz,
};

crate::registry::design_registry! {
    /// Something done once per component design, e.g. "run the property test".
    pub trait ComponentDesignVisitor { fn visit<D: ComponentStore>; }
    pub fn for_each_component_design;
    pub fn component_designs -> ComponentDesignInfo;
    pub fn find_component_design;
    designs {
        single_buffer::BufferHash;
        direct::BufferDirect;
        direct_tuned::DirectTuned;
        single_buffer::BufferVecMap;
        single_buffer::BufferHashCallback;
        single_buffer::BufferHashSweep;
        five_vecs::FiveVecsHash;
        aos::AosHash;
        split_xyz::SplitXyzHash;
        chain::BufferChain;
        oop_objects::OopObjects;
        oop_fields::OopFields;
        oop_pools::OopPools;
        peers::hecs::HecsPeer;
        peers::shipyard::ShipyardPeer;
        peers::specs::SpecsVec;
        peers::specs::SpecsDense;
        peers::specs::SpecsHash;
        #[cfg(feature = "bevy")]
        peers::bevy::BevyTable;
        #[cfg(feature = "bevy")]
        peers::bevy::BevySparse;
    }
}
