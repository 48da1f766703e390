//! Peer: `thunderdome::Arena` behind [`IdTable`](crate::id_table::IdTable).
//!
//! Design: array with holes, like `holey`: per-slot generation, LIFO free list through the
//! holes. `Index`: 32-bit slot + 32-bit non-zero generation, 8 bytes. Insert, get, remove O(1);
//! iteration walks every entry with a branch per entry. Generations wrap after 2^32 - 1 reuses
//! of one slot (then a stale index could match again); we count it as detecting stale indices.
//!
//! Memory: `capacity() * size_of::<Entry>()` where, per thunderdome's `arena.rs`,
//! `Entry<T> = enum { Occupied { generation: NonZeroU32, value: T },
//! Empty { generation: NonZeroU32, next_free: Option<NonZeroU32> } }` (40 bytes for a 32-byte,
//! 8-aligned `T`).

use std::num::NonZeroU32;

use crate::id_table::StaleDetection;

/// Same shape as thunderdome 0.6's private `Entry`, only measured.
#[allow(dead_code)]
enum EntryMirror<T> {
    Occupied {
        generation: NonZeroU32,
        value: T,
    },
    Empty {
        generation: NonZeroU32,
        next_free: Option<NonZeroU32>,
    },
}

// The mirror has the size the module doc derives from the crate's layout.
const _: () = assert!(std::mem::size_of::<EntryMirror<[u64; 4]>>() == 40);

arena_peer! {
    /// `thunderdome::Arena<T>` as an [`IdTable`](crate::id_table::IdTable).
    pub struct ThunderdomePeer<T>(thunderdome::Arena);
    name: "thunderdome",
    description: "thunderdome::Arena: array with holes, per-slot generation, 32-bit slot + 32-bit generation",
    version: "0.6.1",
    docs: "https://docs.rs/thunderdome/0.6.1/thunderdome/struct.Arena.html",
    stale: StaleDetection::UntilSlotReuses(u32::MAX as u64),
    memory: |arena| arena.capacity() * std::mem::size_of::<EntryMirror<T>>(),
}
