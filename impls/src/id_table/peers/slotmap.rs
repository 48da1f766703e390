//! Peer: `slotmap::SlotMap` (basic slot map) behind [`IdTable`].
//!
//! Design: array with holes, like `holey`. Key (`DefaultKey`): 32-bit index + 32-bit version,
//! 8 bytes. A slot is a union of the value and a 32-bit free-list link, plus a `u32` version
//! whose parity is the occupied flag (odd = occupied); slot 0 is a sentinel. Insert, get,
//! remove O(1); iteration walks every slot and branches on the version per slot. Versions wrap
//! after 2^31 reuses of one slot, so a stale key could then match again (slotmap documents this
//! as "incredibly unlikely"); we count it as detecting stale keys.
//!
//! Memory: `(capacity() + 1) * size_of::<Slot>()` where, per slotmap's `basic.rs`,
//! `Slot<T> = { u: union { value: ManuallyDrop<T>, next_free: u32 }, version: u32 }`: that is
//! `max(size_of::<T>(), 4) + 4` rounded up to `max(align_of::<T>(), 4)` (40 bytes for a
//! 32-byte, 8-aligned `T`). `capacity()` hides the sentinel, hence the `+ 1`.

use crate::DesignMeta;
use std::mem::ManuallyDrop;

use ::slotmap::{DefaultKey, SlotMap};

use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// Same shape as slotmap 1.1's private `basic::SlotUnion`, only measured.
#[allow(dead_code)]
union SlotUnionMirror<T> {
    value: ManuallyDrop<T>,
    next_free: u32,
}

/// Same shape as slotmap 1.1's private `basic::Slot`, only measured.
#[allow(dead_code)]
struct SlotMirror<T> {
    u: SlotUnionMirror<T>,
    version: u32,
}

/// `slotmap::SlotMap<DefaultKey, T>` as an [`IdTable`].
#[derive(Debug)]
pub struct SlotMapPeer<T>(SlotMap<DefaultKey, T>);

impl<T> SlotMapPeer<T> {
    /// The crate's map, for `ref-direct-slotmap` on a body that only reads: it calls `SlotMap::get`
    /// and `values()` on it directly.
    pub fn map(&self) -> &SlotMap<DefaultKey, T> {
        &self.0
    }

    /// The crate's map, mutably, for `ref-direct-slotmap` on a body that writes: it calls
    /// `SlotMap::insert`, `get_mut`, `remove` and `values_mut()` on it directly.
    pub fn map_mut(&mut self) -> &mut SlotMap<DefaultKey, T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for SlotMapPeer<T> {
    type Id = DefaultKey;

    const INFO: DesignInfo = DesignInfo::new::<DefaultKey>(
        DesignMeta {
            name: "slotmap",
            description: "slotmap::SlotMap: array with holes, union slot + u32 version (parity = occupied), 32-bit index + 32-bit version",
            kind: DesignKind::Peer {
                crate_name: "slotmap",
                version: "1.1.1",
                idiom: "SlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() to iterate",
                docs: "https://docs.rs/slotmap/1.1.1/slotmap/struct.SlotMap.html",
                adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `SlotMap::get`/`get_mut`/`remove` on the crate's own `DefaultKey`, `insert` wraps its key in `Ok`, and `iter` is `values()`. No key conversion, side array or count is added.",
            },
        },
        StaleDetection::UntilSlotReuses(1 << 31),
    );

    forward_to_the_crate! {
        id: DefaultKey,
        new: SlotMap::new(),
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
        assert_eq!(std::mem::size_of::<SlotMirror<u8>>(), 8);
    }
}
