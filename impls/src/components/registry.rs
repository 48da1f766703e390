//! The one list of component designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_component_design`].

use super::{
    ComponentDesignInfo, ComponentStore, aos, chain, direct, five_vecs, oop_fields, oop_objects,
    oop_pools, peers, single_buffer, split_xyz,
};

/// Something done once per component design, e.g. "run the property test".
pub trait ComponentDesignVisitor {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: ComponentStore + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order.
pub fn for_each_component_design<V: ComponentDesignVisitor>(visitor: &mut V) {
    visitor.visit::<single_buffer::BufferHash>();
    visitor.visit::<direct::BufferDirect>();
    visitor.visit::<single_buffer::BufferVecMap>();
    visitor.visit::<single_buffer::BufferHashCallback>();
    visitor.visit::<single_buffer::BufferHashSweep>();
    visitor.visit::<five_vecs::FiveVecsHash>();
    visitor.visit::<aos::AosHash>();
    visitor.visit::<split_xyz::SplitXyzHash>();
    visitor.visit::<chain::BufferChain>();
    visitor.visit::<oop_objects::OopObjects>();
    visitor.visit::<oop_fields::OopFields>();
    visitor.visit::<oop_pools::OopPools>();
    peers::for_each_peer(visitor);
}

/// The [`ComponentDesignInfo`] of every registered design, in registry order.
pub fn component_designs() -> Vec<ComponentDesignInfo> {
    struct Collect(Vec<ComponentDesignInfo>);
    impl ComponentDesignVisitor for Collect {
        fn visit<D: ComponentStore + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_component_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_component_design(name: &str) -> Option<ComponentDesignInfo> {
    component_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = component_designs();
        for (i, d) in all.iter().enumerate() {
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "bad design name {:?}",
                d.name
            );
            assert!(!d.description.is_empty());
            assert!(
                all[..i].iter().all(|e| e.name != d.name),
                "duplicate {}",
                d.name
            );
        }
    }
}
