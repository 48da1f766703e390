//! Peer: `slab::Slab` behind [`IdTable`](crate::id_table::IdTable).
//!
//! Design: array with holes and a LIFO free list through the holes, with no generation at all.
//! Key: a plain `usize` slot index, 8 bytes on 64-bit targets. Insert, get, remove O(1);
//! iteration walks every entry with a branch per entry.
//!
//! Stale keys are NOT detected: once a slot is reused, an old key resolves to the new object.
//! The adapter does not fake a generation; it reports `detects_stale: false`, and callers must
//! not pass stale keys (the shared tests skip stale checks for it).
//!
//! Memory: `capacity() * size_of::<Entry>()` where, per slab's `lib.rs`,
//! `Entry<T> = enum { Vacant(usize), Occupied(T) }` (40 bytes for a 32-byte, 8-aligned `T`).

use crate::DesignMeta;
use crate::id_table::{DesignKind, StaleDetection};

/// Same shape as slab 0.4's private `Entry`, only measured.
#[allow(dead_code)]
enum EntryMirror<T> {
    Vacant(usize),
    Occupied(T),
}

// The mirror has the size the module doc derives from the crate's layout.
const _: () = assert!(std::mem::size_of::<EntryMirror<[u64; 4]>>() == 40);

forward_to_the_crate! {
    /// `slab::Slab<T>` as an [`IdTable`](crate::id_table::IdTable); its keys carry no generation.
    pub struct SlabPeer<T>(::slab::Slab<T>);

    /// The crate's slab, for `ref-direct-slab` on a body that only reads: it calls `Slab::get` and
    /// `iter()` on it directly.
    pub fn slab(&self);

    /// The crate's slab, mutably, for `ref-direct-slab` on a body that writes: it calls
    /// `Slab::insert`, `get_mut`, `try_remove` and `iter_mut()` on it directly.
    pub fn slab_mut(&mut self);

    id: usize,
    new: ::slab::Slab::new(),
    remove: try_remove,
    contains: contains,
    iterate: pairs,
    meta: DesignMeta {
        name: "slab",
        description: "slab::Slab: array with holes, LIFO free list, bare usize index with no generation (does not detect stale keys)",
        kind: DesignKind::Peer {
            crate_name: "slab",
            version: "0.4.12",
            idiom: "Slab<T>: insert, get, get_mut, try_remove by usize key; iter() / iter_mut() to iterate",
            docs: "https://docs.rs/slab/0.4.12/slab/struct.Slab.html",
            adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut` are `Slab::get`/`get_mut` on the bare `usize` key, `remove` is `try_remove` (`None` for a vacant key where `remove` would panic), and `insert` wraps the key in `Ok`. No generation is faked, so stale keys are not detected (`StaleDetection::None`).",
        },
    },
    stale: StaleDetection::None,
    memory: |slab| slab.capacity() * std::mem::size_of::<EntryMirror<T>>(),
}
