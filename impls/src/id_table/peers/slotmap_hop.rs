//! Peer: `slotmap::HopSlotMap` behind [`IdTable`](crate::id_table::IdTable).
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

use std::mem::ManuallyDrop;

use ::slotmap::HopSlotMap;

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

// The mirror has the size the module doc derives from the crate's layout.
const _: () = assert!(std::mem::size_of::<SlotMirror<[u64; 4]>>() == 40);
const _: () = assert!(std::mem::size_of::<SlotMirror<u8>>() == 16);

slotmap_peer! {
    /// `slotmap::HopSlotMap<DefaultKey, T>` as an [`IdTable`](crate::id_table::IdTable).
    pub struct HopSlotMapPeer<T>(HopSlotMap);
    name: "slotmap-hop",
    description: "slotmap::HopSlotMap: array with holes, runs of holes linked so iteration hops over them, 32-bit index + 32-bit version",
    idiom: "HopSlotMap<DefaultKey, T>: insert, get, get_mut, remove by key; values() / values_mut() hopping over holes",
    docs: "https://docs.rs/slotmap/1.1.1/slotmap/hop/struct.HopSlotMap.html",
    memory: |map| (map.capacity() + 1) * std::mem::size_of::<SlotMirror<T>>(),
}
