//! The one list of relation-index designs. Benchmarks, the CLI, the tests and the reports
//! iterate over it; adding a design is one line in [`for_each_relation_design`].

use super::{
    RelationDesignInfo, RelationIndex, btree_pairs, clustered, intrusive, intrusive_2idx,
    multimap_scan_remove, peers, scan, small_sets, vec_of_vecs,
};

crate::registry::design_registry! {
    /// Something done once per relation-index design.
    pub trait RelationDesignVisitor { fn visit<D: RelationIndex>; }
    pub fn for_each_relation_design;
    pub fn relation_designs -> RelationDesignInfo;
    pub fn find_relation_design;
    designs {
        scan::Scan;
        vec_of_vecs::VecOfVecs;
        intrusive::IntrusiveStd;
        intrusive::IntrusiveOpen;
        intrusive_2idx::Intrusive2Idx;
        intrusive_2idx::Intrusive2IdxOpen;
        small_sets::OpenSmallSets;
        multimap_scan_remove::MultimapScanRemove;
        btree_pairs::BTreePairs;
        clustered::Clustered;
        peers::multimap::MultimapPeer;
        peers::hashbrown_smallvec::HashbrownSmallVec;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_articles_index_is_one_sided() {
        assert_eq!(
            super::find_relation_design("intrusive").map(|d| d.indexes_b),
            Some(false)
        );
    }
}
