//! The one list of relation-index designs. Benchmarks, the CLI, the tests and the reports
//! iterate over it; adding a design is one line in [`for_each_relation_design`].

use super::{
    RelationDesignInfo, RelationIndex, btree_pairs, clustered, intrusive, intrusive_2idx,
    multimap_scan_remove, peers, scan, vec_of_vecs,
};

/// Something done once per relation-index design.
pub trait RelationDesignVisitor {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: RelationIndex + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order.
pub fn for_each_relation_design<V: RelationDesignVisitor>(visitor: &mut V) {
    visitor.visit::<scan::Scan>();
    visitor.visit::<vec_of_vecs::VecOfVecs>();
    visitor.visit::<intrusive::IntrusiveStd>();
    visitor.visit::<intrusive::IntrusiveOpen>();
    visitor.visit::<intrusive_2idx::Intrusive2Idx>();
    visitor.visit::<multimap_scan_remove::MultimapScanRemove>();
    visitor.visit::<btree_pairs::BTreePairs>();
    visitor.visit::<clustered::Clustered>();
    visitor.visit::<peers::multimap::MultimapPeer>();
    visitor.visit::<peers::hashbrown_smallvec::HashbrownSmallVec>();
}

/// The [`RelationDesignInfo`] of every registered design, in registry order.
pub fn relation_designs() -> Vec<RelationDesignInfo> {
    struct Collect(Vec<RelationDesignInfo>);
    impl RelationDesignVisitor for Collect {
        fn visit<D: RelationIndex + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_relation_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_relation_design(name: &str) -> Option<RelationDesignInfo> {
    relation_designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = relation_designs();
        for (i, d) in all.iter().enumerate() {
            assert!(
                d.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "bad design name {:?}",
                d.name
            );
            assert!(
                all[..i].iter().all(|e| e.name != d.name),
                "duplicate {}",
                d.name
            );
        }
        assert_eq!(
            find_relation_design("intrusive").map(|d| d.indexes_b),
            Some(false)
        );
    }
}
