//! Peer: `slotmap::SlotMap` (basic slot map) behind [`IdTable`](crate::id_table::IdTable).
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

use std::mem::ManuallyDrop;

use ::slotmap::SlotMap;

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

// The mirror has the size the module doc derives from the crate's layout.
const _: () = assert!(std::mem::size_of::<SlotMirror<[u64; 4]>>() == 40);
const _: () = assert!(std::mem::size_of::<SlotMirror<u8>>() == 8);

slotmap_peer! {
    /// `slotmap::SlotMap<DefaultKey, T>` as an [`IdTable`](crate::id_table::IdTable).
    pub struct SlotMapPeer<T>(SlotMap);
    name: "slotmap",
    description: "slotmap::SlotMap: array with holes, union slot + u32 version (parity = occupied), 32-bit index + 32-bit version",
    idiom: "SlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() to iterate",
    docs: "https://docs.rs/slotmap/1.1.1/slotmap/struct.SlotMap.html",
    memory: |map| (map.capacity() + 1) * std::mem::size_of::<SlotMirror<T>>(),
}
