//! Peer: `slotmap::HopSlotMap` behind [`IdTable`].
//!
//! Design: array with holes whose vacant slots form runs ("blocks") linked in a doubly linked
//! free list; each run's ends store the other end, so iteration hops over a whole run of holes
//! at once. Key (`DefaultKey`): 32-bit index + 32-bit version, 8 bytes. Insert and remove do
//! more bookkeeping than `SlotMap` (slotmap: "roughly twice as slow"); iteration costs per live
//! object plus per run of holes. Stale keys are detected as in `slotmap` (versions wrap after
//! 2^31 reuses of one slot).
//!
//! Memory: `(capacity() + 1) * size_of::<Slot>()` where, per slotmap's `hop.rs`,
//! `Slot<T> = { u: union { value: ManuallyDrop<T>, free: { next, prev, other_end: u32 } },
//! version: u32 }`: `max(size_of::<T>(), 12) + 4` rounded up to `max(align_of::<T>(), 4)`
//! (40 bytes for a 32-byte, 8-aligned `T`). The `+ 1` is the sentinel slot.
//!
//! slotmap 1.1 deprecates `HopSlotMap` ("no longer maintained and will be removed in 2.0");
//! we keep measuring it because it is the published design closest to a hole-skipping
//! iteration, the point of our `holey_skip`.

// The deprecation is the crate's maintenance notice, not a defect in the measured design.
#![allow(deprecated)]

use crate::DesignMeta;
use std::mem::ManuallyDrop;

use ::slotmap::{DefaultKey, HopSlotMap};

use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// Same shape as slotmap 1.1's private `hop::FreeListEntry`, only measured.
#[allow(dead_code)]
#[derive(Clone, Copy)]
struct FreeListEntryMirror {
    next: u32,
    prev: u32,
    other_end: u32,
}

/// Same shape as slotmap 1.1's private `hop::SlotUnion`, only measured.
#[allow(dead_code)]
union SlotUnionMirror<T> {
    value: ManuallyDrop<T>,
    free: FreeListEntryMirror,
}

/// Same shape as slotmap 1.1's private `hop::Slot`, only measured.
#[allow(dead_code)]
struct SlotMirror<T> {
    u: SlotUnionMirror<T>,
    version: u32,
}

/// `slotmap::HopSlotMap<DefaultKey, T>` as an [`IdTable`].
#[derive(Debug)]
pub struct HopSlotMapPeer<T>(HopSlotMap<DefaultKey, T>);

impl<T> HopSlotMapPeer<T> {
    /// The crate's map, for `ref-direct-slotmap-hop` on a body that only reads: it calls
    /// `HopSlotMap::get` and `values()` on it directly.
    pub fn map(&self) -> &HopSlotMap<DefaultKey, T> {
        &self.0
    }

    /// The crate's map, mutably, for `ref-direct-slotmap-hop` on a body that writes: it calls
    /// `HopSlotMap::insert`, `get_mut`, `remove` and `values_mut()` on it directly.
    pub fn map_mut(&mut self) -> &mut HopSlotMap<DefaultKey, T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for HopSlotMapPeer<T> {
    type Id = DefaultKey;

    const INFO: DesignInfo = DesignInfo::new::<DefaultKey>(
        DesignMeta {
            name: "slotmap-hop",
            description: "slotmap::HopSlotMap: array with holes, runs of holes linked so iteration hops over them, 32-bit index + 32-bit version",
            kind: DesignKind::Peer {
                crate_name: "slotmap",
                version: "1.1.1",
                idiom: "HopSlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() hopping over holes",
                docs: "https://docs.rs/slotmap/1.1.1/slotmap/hop/struct.HopSlotMap.html",
                adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `HopSlotMap::get`/`get_mut`/`remove` on the crate's own `DefaultKey`, `insert` wraps its key in `Ok`, and `iter` is `values()`. No key conversion, side array or count is added.",
            },
        },
        StaleDetection::UntilSlotReuses(1 << 31),
    );

    forward_to_the_crate! {
        id: DefaultKey,
        new: HopSlotMap::new(),
        remove: remove,
        contains: contains_key,
        iterate: values,
    }

    fn memory_bytes(&self) -> usize {
        (self.0.capacity() + 1) * std::mem::size_of::<SlotMirror<T>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_formula_matches_the_documented_layout() {
        assert_eq!(std::mem::size_of::<SlotMirror<[u64; 4]>>(), 40);
        assert_eq!(std::mem::size_of::<SlotMirror<u8>>(), 16);
    }
}
