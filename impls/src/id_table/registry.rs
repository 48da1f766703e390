//! The one list of ID-table designs. Benchmarks, the CLI, the tests and the reports all iterate
//! over it; adding a design is one line in [`for_each_design`].
//!
//! Dispatch stays static: a [`DesignVisitor`] is called once per design type, so each caller
//! gets a monomorphised copy of its generic code per design and no dynamic dispatch.

use super::{
    DesignInfo, IdTable, holey, holey_skip, holey32, holey32_lifo, map, packed, packed_fixed,
    peers, pool, pool_linked, pool_lowest, pool_sorted_vec,
};

/// Something done once per design, e.g. "run the property test" or "benchmark every workload".
pub trait DesignVisitor<T: 'static> {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: IdTable<T> + 'static>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order.
pub fn for_each_design<T: 'static, V: DesignVisitor<T>>(visitor: &mut V) {
    visitor.visit::<map::BTreeMapTable<T>>();
    visitor.visit::<map::HashMapTable<T>>();
    visitor.visit::<holey::Holey<T>>();
    visitor.visit::<holey32::Holey32<T>>();
    visitor.visit::<holey32::Holey32<T, 20>>();
    visitor.visit::<holey32::Holey32<T, 24>>();
    visitor.visit::<holey32_lifo::Holey32Lifo<T>>();
    visitor.visit::<packed::Packed<T>>();
    visitor.visit::<packed_fixed::PackedFixed<T>>();
    visitor.visit::<holey_skip::HoleySkip<T>>();
    visitor.visit::<pool::Pool<T>>();
    visitor.visit::<pool_lowest::PoolLowest<T>>();
    visitor.visit::<pool_sorted_vec::PoolSortedVec<T>>();
    visitor.visit::<pool_linked::PoolLinked<T>>();
    visitor.visit::<peers::slotmap::SlotMapPeer<T>>();
    visitor.visit::<peers::slotmap_hop::HopSlotMapPeer<T>>();
    visitor.visit::<peers::slotmap_dense::DenseSlotMapPeer<T>>();
    visitor.visit::<peers::generational_arena::GenerationalArenaPeer<T>>();
    visitor.visit::<peers::thunderdome::ThunderdomePeer<T>>();
    visitor.visit::<peers::slab::SlabPeer<T>>();
}

/// The [`DesignInfo`] of every registered design, in registry order.
pub fn designs() -> Vec<DesignInfo> {
    struct Collect(Vec<DesignInfo>);
    impl DesignVisitor<u64> for Collect {
        fn visit<D: IdTable<u64> + 'static>(&mut self) {
            self.0.push(D::INFO);
        }
    }
    let mut collect = Collect(Vec::new());
    for_each_design(&mut collect);
    collect.0
}

/// The design called `name`, if registered.
pub fn find_design(name: &str) -> Option<DesignInfo> {
    designs().into_iter().find(|d| d.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_well_formed() {
        let all = designs();
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
