//! The one list of block-allocator designs. Benchmarks, the CLI, the tests and the reports all
//! iterate over it; adding a design is one line in [`for_each_alloc_design`].
//!
//! Dispatch stays static: an [`AllocDesignVisitor`] is called once per design type.

use super::{AllocDesignInfo, BlockAllocator, buddy, buddy_scan, buddy_vec_lists, peers, slab};

crate::registry::design_registry! {
    /// Something done once per allocator design, e.g. "run the property test".
    pub trait AllocDesignVisitor { fn visit<A: BlockAllocator>; }
    pub fn for_each_alloc_design;
    pub fn alloc_designs -> AllocDesignInfo;
    pub fn find_alloc_design;
    designs {
        buddy::Buddy;
        buddy_vec_lists::BuddyVecLists;
        buddy_scan::BuddyScan;
        slab::Slab;
        slab::SlabClassLists;
        peers::buddy_system_allocator::BuddySystemAllocatorPeer;
        peers::buddy_alloc::BuddyAllocPeer;
        peers::rlsf::RlsfPeer;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn max_align_is_a_power_of_two() {
        for d in super::alloc_designs() {
            assert!(d.max_align.is_power_of_two(), "{}: max_align", d.meta.name);
        }
    }
}
