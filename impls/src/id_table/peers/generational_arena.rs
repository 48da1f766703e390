//! Peer: `generational_arena::Arena` behind [`IdTable`](crate::id_table::IdTable).
//!
//! Design: array with holes, like `holey`, but with one arena-wide `u64` generation counter
//! (bumped on every removal) instead of a per-slot one. `Index`: `usize` index + `u64`
//! generation, 16 bytes on 64-bit targets. Insert, get, remove O(1); iteration walks every
//! entry, holes included, with a branch per entry. A 64-bit generation never wraps in practice,
//! so stale indices are always detected.
//!
//! Memory: `capacity() * size_of::<Entry>()` where, per generational-arena's `lib.rs`,
//! `Entry<T> = enum { Free { next_free: Option<usize> }, Occupied { generation: u64, value: T } }`
//! (48 bytes for a 32-byte, 8-aligned `T`: tag + generation + value). The arena eagerly fills
//! its `Vec` with free entries, so `capacity()` (the entry count) is the allocation.

use crate::id_table::StaleDetection;

/// Same shape as generational-arena 0.2.9's private `Entry`, only measured.
#[allow(dead_code)]
enum EntryMirror<T> {
    Free { next_free: Option<usize> },
    Occupied { generation: u64, value: T },
}

// The mirror has the size the module doc derives from the crate's layout.
const _: () = assert!(std::mem::size_of::<EntryMirror<[u64; 4]>>() == 48);

arena_peer! {
    /// `generational_arena::Arena<T>` as an [`IdTable`](crate::id_table::IdTable).
    pub struct GenerationalArenaPeer<T>(generational_arena::Arena);
    name: "generational-arena",
    description: "generational_arena::Arena: array with holes, arena-wide u64 generation, usize index + u64 generation",
    version: "0.2.9",
    docs: "https://docs.rs/generational-arena/0.2.9/generational_arena/struct.Arena.html",
    stale: StaleDetection::UntilRemovals(u64::MAX),
    memory: |arena| arena.capacity() * std::mem::size_of::<EntryMirror<T>>(),
}
