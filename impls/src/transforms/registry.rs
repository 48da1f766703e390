//! The one list of transform designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_transform_design`].

use super::{
    TransformDesignInfo, TransformStore, deferred_dirty_list, deferred_flag_scan,
    immediate_iterative, immediate_local, immediate_recursive, oop_tree, peers,
};

/// Something done once per transform design, e.g. "run the property test".
pub trait TransformDesignVisitor {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: TransformStore + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order.
pub fn for_each_transform_design<V: TransformDesignVisitor>(visitor: &mut V) {
    visitor.visit::<immediate_recursive::ImmediateRecursive>();
    visitor.visit::<immediate_iterative::ImmediateIterative>();
    visitor.visit::<immediate_local::ImmediateLocal>();
    visitor.visit::<deferred_flag_scan::DeferredFlagScan>();
    visitor.visit::<deferred_dirty_list::DeferredDirtyList<5>>();
    visitor.visit::<deferred_dirty_list::DeferredDirtyList<0>>();
    visitor.visit::<oop_tree::OopTree>();
    visitor.visit::<peers::indextree::IndexTreePeer>();
}

/// The [`TransformDesignInfo`] of every registered design, in registry order.
pub fn transform_designs() -> Vec<TransformDesignInfo> {
    struct Collect(Vec<TransformDesignInfo>);
    impl TransformDesignVisitor for Collect {
        fn visit<D: TransformStore + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_transform_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_transform_design(name: &str) -> Option<TransformDesignInfo> {
    transform_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = transform_designs();
        for (i, d) in all.iter().enumerate() {
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "bad design name {:?}",
                d.name
            );
            assert!(all[..i].iter().all(|e| e.name != d.name), "{}", d.name);
        }
    }
}
