//! The one list of block-allocator designs. Benchmarks, the CLI, the tests and the reports all
//! iterate over it; adding a design is one line in [`for_each_alloc_design`].
//!
//! Dispatch stays static: an [`AllocDesignVisitor`] is called once per design type.

use super::{AllocDesignInfo, BlockAllocator, buddy, buddy_scan, buddy_vec_lists, peers, slab};

/// Something done once per allocator design, e.g. "run the property test".
pub trait AllocDesignVisitor {
    /// Called once per registered design `A`; `A::INFO` describes it.
    fn visit<A: BlockAllocator + 'static>(&mut self);
}

/// Calls `visitor.visit::<A>()` for every registered design, in registry order.
pub fn for_each_alloc_design<V: AllocDesignVisitor>(visitor: &mut V) {
    visitor.visit::<buddy::Buddy>();
    visitor.visit::<buddy_vec_lists::BuddyVecLists>();
    visitor.visit::<buddy_scan::BuddyScan>();
    visitor.visit::<slab::Slab>();
    visitor.visit::<peers::buddy_system_allocator::BuddySystemAllocatorPeer>();
    visitor.visit::<peers::buddy_alloc::BuddyAllocPeer>();
    visitor.visit::<peers::rlsf::RlsfPeer>();
}

/// The [`AllocDesignInfo`] of every registered design, in registry order.
pub fn alloc_designs() -> Vec<AllocDesignInfo> {
    struct Collect(Vec<AllocDesignInfo>);
    impl AllocDesignVisitor for Collect {
        fn visit<A: BlockAllocator + 'static>(&mut self) {
            self.0.push(A::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_alloc_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_alloc_design(name: &str) -> Option<AllocDesignInfo> {
    alloc_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = alloc_designs();
        for (i, d) in all.iter().enumerate() {
            assert!(
                d.name.bytes().all(|b| b.is_ascii_lowercase()
                    || b.is_ascii_digit()
                    || b == b'_'
                    || b == b'-'),
                "bad design name {:?}",
                d.name
            );
            assert!(!d.description.is_empty(), "{} has no description", d.name);
            assert!(d.max_align.is_power_of_two(), "{}: max_align", d.name);
            assert!(
                all[..i].iter().all(|e| e.name != d.name),
                "duplicate design name {}",
                d.name
            );
        }
    }
}
