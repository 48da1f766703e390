//! Extreme caller inputs, for every registered design of every family but spatial
//! (`spatial_limits.rs` covers that one): `u32::MAX`-class IDs, sizes and counts, forged or
//! foreign IDs, and `f32::MAX`, infinite and NaN floats. Each must give the family's error
//! (or its documented behaviour), never a panic, an abort or a hang, and leave the structure
//! unchanged and usable (`check_invariants` passes, a normal op still works).
//!
//! Nothing here allocates much: sizes that a design would have to back with memory are either
//! above a documented limit (refused before anything is allocated) or beyond any host's address
//! space (refused by the fallible allocation), never a size a big machine could satisfy.

use std::any::Any;

use impls::alloc::{AllocDesignVisitor, AllocError, BadFreeDetection, BlockAllocator};
use impls::components::{ComponentDesignVisitor, ComponentStore, PointMass, VectorField};
use impls::data_component::{DataStore, KvDesignVisitor, KvError, ValueRef};
use impls::id::{Id32, Id64, ParityId};
use impls::id_table::{DesignVisitor, IdTable};
use impls::relations::{Record, RelationDesignVisitor, RelationError, RelationIndex};
use impls::spawn::{
    ComponentKind, Level, LevelComponent, LevelEntity, SpawnDesignVisitor, SpawnWorld, Spawner,
};
use impls::tags::{TagDesignVisitor, TagError, TagStore};
use impls::transforms::{Affine, TransformDesignVisitor, TransformStore, XfError, canonical_bits};

/// `f32` values at the edges: the largest finite, infinities, NaN (quiet, with payload and
/// negative), the smallest subnormal, negative zero.
const EXTREME_F32: [f32; 8] = [
    f32::MAX,
    f32::MIN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -f32::NAN,
    f32::from_bits(1),
    -0.0,
];

/// Extreme candidates for a design's ID type: every forgeable ID type of the crate and of the
/// peers, at the top of its index range. A design takes the ones of its own type
/// ([`forged`]).
fn forged_candidates() -> Vec<Box<dyn Any>> {
    vec![
        Box::new(u32::MAX),
        Box::new(u32::MAX - 1),
        Box::new(u64::MAX),
        Box::new(usize::MAX),
        Box::new(Id64::new(u32::MAX, 0)),
        Box::new(Id64::new(u32::MAX, u32::MAX)),
        Box::new(Id64::new(u32::MAX - 1, 1)),
        Box::new(ParityId::new(u32::MAX, 1)),
        Box::new(ParityId::new(u32::MAX, u32::MAX)),
        Box::new(Id32::<16>::new((1 << 16) - 1, 0)),
        Box::new(Id32::<16>::new((1 << 16) - 1, u32::MAX)),
        Box::new(Id32::<20>::new((1 << 20) - 1, 0)),
        Box::new(Id32::<22>::new((1 << 22) - 1, 0)),
        Box::new(Id32::<22>::new((1 << 22) - 1, u32::MAX)),
        Box::new(Id32::<24>::new((1 << 24) - 1, 0)),
        Box::new(slotmap::DefaultKey::from(slotmap::KeyData::from_ffi(
            u64::MAX,
        ))),
        Box::new(slotmap::DefaultKey::from(slotmap::KeyData::from_ffi(
            (1 << 32) | u64::from(u32::MAX - 1),
        ))),
        Box::new(generational_arena::Index::from_raw_parts(
            usize::MAX,
            u64::MAX,
        )),
        Box::new(generational_arena::Index::from_raw_parts(
            u32::MAX as usize,
            0,
        )),
        Box::new(thunderdome::Index::from_bits((1 << 32) | u64::from(u32::MAX)).unwrap()),
        Box::new(hecs::Entity::from_bits((1 << 32) | u64::from(u32::MAX)).unwrap()),
        Box::new(shipyard::EntityId::from_inner(u64::MAX >> 1).unwrap()),
    ]
}

/// The candidates of type `I`.
fn forged<I: Copy + 'static>() -> Vec<I> {
    forged_candidates()
        .iter()
        .filter_map(|c| c.downcast_ref::<I>().copied())
        .collect()
}

/// IDs a design cannot have handed out: forged ones of its type, plus those a second instance
/// of the design handed out beyond the first's (foreign IDs, for ID types nobody can forge).
fn bad_ids<I: Copy + 'static>(foreign: impl IntoIterator<Item = I>) -> Vec<I> {
    let mut ids = forged::<I>();
    ids.extend(foreign);
    ids
}

mod alloc;
mod components;
mod data_component;
mod id_table;
mod relations;
mod spawn;
mod tags;
mod transforms;
