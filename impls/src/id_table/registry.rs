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

crate::registry::design_registry! {
    /// Something done once per design type constructor, e.g. "replay a trace of any object size".
    pub trait DesignCtorVisitor { fn visit<D: Design>; }
    pub fn for_each_design_ctor;
    pub fn designs -> DesignInfo = <D::Table<u64> as IdTable<u64>>::INFO;
    pub fn find_design;
    designs {
        ctors::BTreeMapTable;
        ctors::HashMapTable;
        ctors::Holey;
        ctors::Holey32;
        ctors::Holey32Split20;
        ctors::Holey32Split24;
        ctors::Holey32Lifo;
        ctors::Packed;
        ctors::PackedFixed;
        ctors::PackedBoxedHandles;
        ctors::PackedTuned;
        ctors::HoleySkip;
        ctors::HoleyTuned;
        ctors::Pool;
        ctors::PoolLowest;
        ctors::PoolSortedVec;
        ctors::PoolLinked;
        ctors::PoolTuned;
        ctors::SlotMap;
        ctors::HopSlotMap;
        ctors::DenseSlotMap;
        ctors::GenerationalArena;
        ctors::Thunderdome;
        ctors::Slab;
    }
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
