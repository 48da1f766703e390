//! The one list of tag-store designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_tag_design`].
//!
//! Dispatch stays static: a [`TagDesignVisitor`] is called once per design type.

use super::{
    TagDesignInfo, TagStore, boxed_nodes, buddy_arrays, fixed, linked_chunks, linked_nodes, peers,
    sorted_chunks, vec_of_vecs,
};

/// Something done once per tag-store design, e.g. "run the property test".
pub trait TagDesignVisitor {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: TagStore + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order.
pub fn for_each_tag_design<V: TagDesignVisitor>(visitor: &mut V) {
    visitor.visit::<vec_of_vecs::VecOfVecs>();
    visitor.visit::<vec_of_vecs::VecOfVecs<vec_of_vecs::AddOne>>();
    visitor.visit::<vec_of_vecs::VecOfVecs<vec_of_vecs::AddSixteen>>();
    visitor.visit::<vec_of_vecs::VecOfVecs<vec_of_vecs::TimesOneAndHalf>>();
    visitor.visit::<vec_of_vecs::VecOfVecs<vec_of_vecs::TimesTwo>>();
    visitor.visit::<fixed::Fixed>();
    visitor.visit::<linked_nodes::LinkedNodes>();
    visitor.visit::<boxed_nodes::BoxedNodes>();
    visitor.visit::<linked_chunks::LinkedChunks<8>>();
    visitor.visit::<linked_chunks::LinkedChunks<14>>();
    visitor.visit::<sorted_chunks::SortedChunks<8>>();
    visitor.visit::<sorted_chunks::SortedChunks<13>>();
    visitor.visit::<sorted_chunks::SortedChunks<8, true>>();
    visitor.visit::<buddy_arrays::BuddyArrays>();
    visitor.visit::<peers::smallvec::SmallVecPeer>();
    visitor.visit::<peers::arrayvec::ArrayVecPeer>();
}

/// The [`TagDesignInfo`] of every registered design, in registry order.
pub fn tag_designs() -> Vec<TagDesignInfo> {
    struct Collect(Vec<TagDesignInfo>);
    impl TagDesignVisitor for Collect {
        fn visit<D: TagStore + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_tag_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_tag_design(name: &str) -> Option<TagDesignInfo> {
    tag_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = tag_designs();
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
            assert!(
                all[..i].iter().all(|e| e.name != d.name),
                "duplicate design name {}",
                d.name
            );
        }
    }
}
