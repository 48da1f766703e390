//! The one list of transform designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_transform_design`].

use super::{
    TransformDesignInfo, TransformStore, deferred_dirty_list, deferred_flag_scan,
    immediate_iterative, immediate_local, immediate_recursive, oop_tree, peers,
};

crate::registry::design_registry! {
    /// Something done once per transform design, e.g. "run the property test".
    pub trait TransformDesignVisitor { fn visit<D: TransformStore>; }
    pub fn for_each_transform_design;
    pub fn transform_designs -> TransformDesignInfo;
    pub fn find_transform_design;
    designs {
        immediate_recursive::ImmediateRecursive;
        immediate_iterative::ImmediateIterative;
        immediate_local::ImmediateLocal;
        deferred_flag_scan::DeferredFlagScan;
        deferred_dirty_list::DeferredDirtyList<5>;
        deferred_dirty_list::DeferredDirtyList<0>;
        oop_tree::OopTree;
        peers::indextree::IndexTreePeer;
    }
}
