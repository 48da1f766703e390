//! The one list of ID-table designs. Benchmarks, the CLI, the tests and the reports all iterate
//! over it; adding a design is one line in [`ctors`] and one in [`for_each_design_ctor`].
//!
//! Dispatch stays static: a [`DesignVisitor`] is called once per design type, so each caller
//! gets a monomorphised copy of its generic code per design and no dynamic dispatch.

use super::{
    DesignInfo, IdTable, holey, holey_skip, holey_tuned, holey32, holey32_lifo, map, model, packed,
    packed_boxed_handles, packed_fixed, packed_tuned, peers, pool, pool_linked, pool_lowest,
    pool_sorted_vec, pool_tuned,
};

/// A design as a *type constructor*: its table type for any object type `T`, with one ID type
/// for all of them. The registry names designs this way so one registry line serves every
/// object size the replay stores ([`workloads::PayloadSize`]).
pub trait Design: 'static {
    /// The design's ID type (the same whatever the objects).
    type Id: Copy + Eq + std::hash::Hash + std::fmt::Debug + 'static;
    /// The design's table of `T`s.
    type Table<T: 'static>: IdTable<T, Id = Self::Id> + 'static;
}

/// Names a design's table type for every `T`: `design!(Name, T => Type<T>)` declares the unit
/// type `Name` implementing [`Design`].
macro_rules! design {
    ($(#[doc = $doc:literal])* $name:ident, $t:ident => $ty:ty) => {
        $(#[doc = $doc])*
        #[doc = concat!("The design constructor of `", stringify!($ty), "`.")]
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        const _: () = {
            type Of<$t> = $ty;
            impl Design for $name {
                type Id = <Of<u64> as IdTable<u64>>::Id;
                type Table<$t: 'static> = $ty;
            }
        };
    };
}

/// The registered designs as type constructors (see [`Design`]), one unit type each.
pub mod ctors {
    use super::{
        Design, IdTable, holey, holey_skip, holey_tuned, holey32, holey32_lifo, map, model, packed,
        packed_boxed_handles, packed_fixed, packed_tuned, peers, pool, pool_linked, pool_lowest,
        pool_sorted_vec, pool_tuned,
    };

    design!(BTreeMapTable, T => map::BTreeMapTable<T>);
    design!(HashMapTable, T => map::HashMapTable<T>);
    design!(Holey, T => holey::Holey<T>);
    design!(Holey32, T => holey32::Holey32<T>);
    design!(Holey32Split20, T => holey32::Holey32<T, 20>);
    design!(Holey32Split24, T => holey32::Holey32<T, 24>);
    design!(Holey32Lifo, T => holey32_lifo::Holey32Lifo<T>);
    design!(Packed, T => packed::Packed<T>);
    design!(PackedFixed, T => packed_fixed::PackedFixed<T>);
    design!(PackedBoxedHandles, T => packed_boxed_handles::PackedBoxedHandles<T>);
    design!(PackedTuned, T => packed_tuned::PackedTuned<T>);
    design!(HoleySkip, T => holey_skip::HoleySkip<T>);
    design!(HoleyTuned, T => holey_tuned::HoleyTuned<T>);
    design!(Pool, T => pool::Pool<T>);
    design!(PoolLowest, T => pool_lowest::PoolLowest<T>);
    design!(PoolSortedVec, T => pool_sorted_vec::PoolSortedVec<T>);
    design!(PoolLinked, T => pool_linked::PoolLinked<T>);
    design!(PoolTuned, T => pool_tuned::PoolTuned<T>);
    design!(SlotMap, T => peers::slotmap::SlotMapPeer<T>);
    design!(HopSlotMap, T => peers::slotmap_hop::HopSlotMapPeer<T>);
    design!(DenseSlotMap, T => peers::slotmap_dense::DenseSlotMapPeer<T>);
    design!(GenerationalArena, T => peers::generational_arena::GenerationalArenaPeer<T>);
    design!(Thunderdome, T => peers::thunderdome::ThunderdomePeer<T>);
    design!(Slab, T => peers::slab::SlabPeer<T>);
    design!(
        /// The reference model ([`model::ModelTable`]); not registered.
        Model, T => model::ModelTable<T>
    );
}

/// Something done once per design type constructor, e.g. "replay a trace of any object size".
pub trait DesignCtorVisitor {
    /// Called once per registered design `D`; `D::Table<T>::INFO` describes it.
    fn visit<D: Design>(&mut self);
}

/// Calls `visitor.visit::<D>()` for every registered design, in registry order: the one list
/// of ID-table designs.
pub fn for_each_design_ctor<V: DesignCtorVisitor>(visitor: &mut V) {
    visitor.visit::<ctors::BTreeMapTable>();
    visitor.visit::<ctors::HashMapTable>();
    visitor.visit::<ctors::Holey>();
    visitor.visit::<ctors::Holey32>();
    visitor.visit::<ctors::Holey32Split20>();
    visitor.visit::<ctors::Holey32Split24>();
    visitor.visit::<ctors::Holey32Lifo>();
    visitor.visit::<ctors::Packed>();
    visitor.visit::<ctors::PackedFixed>();
    visitor.visit::<ctors::PackedBoxedHandles>();
    visitor.visit::<ctors::PackedTuned>();
    visitor.visit::<ctors::HoleySkip>();
    visitor.visit::<ctors::HoleyTuned>();
    visitor.visit::<ctors::Pool>();
    visitor.visit::<ctors::PoolLowest>();
    visitor.visit::<ctors::PoolSortedVec>();
    visitor.visit::<ctors::PoolLinked>();
    visitor.visit::<ctors::PoolTuned>();
    visitor.visit::<ctors::SlotMap>();
    visitor.visit::<ctors::HopSlotMap>();
    visitor.visit::<ctors::DenseSlotMap>();
    visitor.visit::<ctors::GenerationalArena>();
    visitor.visit::<ctors::Thunderdome>();
    visitor.visit::<ctors::Slab>();
}

/// Something done once per design at one object type `T`, e.g. "run the property test".
pub trait DesignVisitor<T: 'static> {
    /// Called once per registered design `D`; `D::INFO` describes it.
    fn visit<D: IdTable<T> + 'static>(&mut self);
}

/// Calls `visitor.visit::<D::Table<T>>()` for every registered design, in registry order
/// ([`for_each_design_ctor`] at one object type).
pub fn for_each_design<T: 'static, V: DesignVisitor<T>>(visitor: &mut V) {
    struct At<'a, T, V>(&'a mut V, std::marker::PhantomData<T>);
    impl<T: 'static, V: DesignVisitor<T>> DesignCtorVisitor for At<'_, T, V> {
        fn visit<D: Design>(&mut self) {
            self.0.visit::<D::Table<T>>();
        }
    }
    for_each_design_ctor(&mut At(visitor, std::marker::PhantomData));
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
