//! The one list of tag-store designs. Benchmarks, the CLI, the tests and the reports iterate
//! over it; adding a design is one line in [`for_each_tag_design`].
//!
//! Dispatch stays static: a [`TagDesignVisitor`] is called once per design type.

use super::{
    TagDesignInfo, TagStore, boxed_nodes, buddy_arrays, fixed, linked_chunks, linked_nodes, peers,
    sorted_chunks, vec_of_vecs,
};

crate::registry::design_registry! {
    /// Something done once per tag-store design, e.g. "run the property test".
    pub trait TagDesignVisitor { fn visit<D: TagStore>; }
    pub fn for_each_tag_design;
    pub fn tag_designs -> TagDesignInfo;
    pub fn find_tag_design;
    designs {
        vec_of_vecs::VecOfVecs;
        vec_of_vecs::VecOfVecs<vec_of_vecs::AddOne>;
        vec_of_vecs::VecOfVecs<vec_of_vecs::AddSixteen>;
        vec_of_vecs::VecOfVecs<vec_of_vecs::TimesOneAndHalf>;
        vec_of_vecs::VecOfVecs<vec_of_vecs::TimesTwo>;
        fixed::Fixed;
        linked_nodes::LinkedNodes;
        boxed_nodes::BoxedNodes;
        linked_chunks::LinkedChunks<8>;
        linked_chunks::LinkedChunks<14>;
        sorted_chunks::SortedChunks<8>;
        sorted_chunks::SortedChunks<13>;
        sorted_chunks::SortedChunks<8, true>;
        buddy_arrays::BuddyArrays;
        peers::smallvec::SmallVecPeer;
        peers::arrayvec::ArrayVecPeer;
    }
}
