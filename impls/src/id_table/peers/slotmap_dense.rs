//! Peer: `slotmap::DenseSlotMap` behind [`IdTable`](crate::id_table::IdTable).
//!
//! Design: the article's packed array with an indirection table. Values and their keys sit
//! packed in two parallel `Vec`s (removal swaps the last value into the hole); a sparse `Vec`
//! of slots maps a key's index to the value's position. Key (`DefaultKey`): 32-bit index +
//! 32-bit version, 8 bytes. Insert, get, remove O(1) (get takes one more dependent load than
//! `SlotMap`); iteration is a plain walk of the packed values. Stale keys are detected as in
//! `slotmap` (versions wrap after 2^31 reuses of one slot).
//!
//! Memory, per slotmap's `dense.rs` (`keys: Vec<K>`, `values: Vec<V>`, `slots: Vec<Slot>` with
//! `Slot = { version: u32, idx_or_free: u32 }`): per unit of capacity
//! `size_of::<DefaultKey>() + size_of::<T>() + 8` (48 bytes for a 32-byte `T`). Only the keys'
//! capacity is exposed (`capacity()`); we assume the values `Vec` has the same capacity (both
//! grow in lockstep) and count `capacity() + 1` sparse slots (the slots `Vec` holds one
//! sentinel plus one slot per peak live object; this is an estimate, its true capacity is
//! private).

use ::slotmap::{DefaultKey, DenseSlotMap};

/// Same shape as slotmap 1.1's private `dense::Slot`, only measured.
#[allow(dead_code)]
struct SparseSlotMirror {
    version: u32,
    idx_or_free: u32,
}

slotmap_peer! {
    /// `slotmap::DenseSlotMap<DefaultKey, T>` as an [`IdTable`](crate::id_table::IdTable).
    pub struct DenseSlotMapPeer<T>(DenseSlotMap);
    name: "slotmap-dense",
    description: "slotmap::DenseSlotMap: packed values + keys, sparse index table, 32-bit index + 32-bit version",
    idiom: "DenseSlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() over the packed values",
    docs: "https://docs.rs/slotmap/1.1.1/slotmap/dense/struct.DenseSlotMap.html",
    memory: |map| {
        let capacity = map.capacity();
        capacity * (std::mem::size_of::<DefaultKey>() + std::mem::size_of::<T>())
            + (capacity + 1) * std::mem::size_of::<SparseSlotMirror>()
    },
}
