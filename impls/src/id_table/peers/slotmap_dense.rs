//! Peer: `slotmap::DenseSlotMap` behind [`IdTable`].
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

use crate::DesignMeta;
use ::slotmap::{DefaultKey, DenseSlotMap};

use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// Same shape as slotmap 1.1's private `dense::Slot`, only measured.
#[allow(dead_code)]
struct SparseSlotMirror {
    version: u32,
    idx_or_free: u32,
}

/// `slotmap::DenseSlotMap<DefaultKey, T>` as an [`IdTable`].
#[derive(Debug)]
pub struct DenseSlotMapPeer<T>(DenseSlotMap<DefaultKey, T>);

impl<T> DenseSlotMapPeer<T> {
    /// The crate's map, for `ref-direct-slotmap-dense` on a body that only reads: it calls
    /// `DenseSlotMap::get` and `values()` on it directly.
    pub fn map(&self) -> &DenseSlotMap<DefaultKey, T> {
        &self.0
    }

    /// The crate's map, mutably, for `ref-direct-slotmap-dense` on a body that writes: it calls
    /// `DenseSlotMap::insert`, `get_mut`, `remove` and `values_mut()` on it directly.
    pub fn map_mut(&mut self) -> &mut DenseSlotMap<DefaultKey, T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for DenseSlotMapPeer<T> {
    type Id = DefaultKey;

    const INFO: DesignInfo = DesignInfo::new::<DefaultKey>(
        DesignMeta {
            name: "slotmap-dense",
            description: "slotmap::DenseSlotMap: packed values + keys, sparse index table, 32-bit index + 32-bit version",
            kind: DesignKind::Peer {
                crate_name: "slotmap",
                version: "1.1.1",
                idiom: "DenseSlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() over the packed values",
                docs: "https://docs.rs/slotmap/1.1.1/slotmap/dense/struct.DenseSlotMap.html",
                adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `DenseSlotMap::get`/`get_mut`/`remove` on the crate's own `DefaultKey`, `insert` wraps its key in `Ok`, and `iter` is `values()`. No key conversion, side array or count is added.",
            },
        },
        StaleDetection::UntilSlotReuses(1 << 31),
    );

    forward_to_the_crate! {
        id: DefaultKey,
        new: DenseSlotMap::new(),
        remove: remove,
        contains: contains_key,
        iterate: values,
    }

    fn memory_bytes(&self) -> usize {
        let capacity = self.0.capacity();
        capacity * (std::mem::size_of::<DefaultKey>() + std::mem::size_of::<T>())
            + (capacity + 1) * std::mem::size_of::<SparseSlotMirror>()
    }
}
