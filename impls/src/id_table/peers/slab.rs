//! Peer: `slab::Slab` behind [`IdTable`].
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
use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// Same shape as slab 0.4's private `Entry`, only measured.
#[allow(dead_code)]
enum EntryMirror<T> {
    Vacant(usize),
    Occupied(T),
}

/// `slab::Slab<T>` as an [`IdTable`]; its keys carry no generation.
#[derive(Debug)]
pub struct SlabPeer<T>(::slab::Slab<T>);

impl<T> SlabPeer<T> {
    /// The crate's slab, for `ref-direct-slab` on a body that only reads: it calls `Slab::get` and
    /// `iter()` on it directly.
    pub fn slab(&self) -> &::slab::Slab<T> {
        &self.0
    }

    /// The crate's slab, mutably, for `ref-direct-slab` on a body that writes: it calls
    /// `Slab::insert`, `get_mut`, `try_remove` and `iter_mut()` on it directly.
    pub fn slab_mut(&mut self) -> &mut ::slab::Slab<T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for SlabPeer<T> {
    type Id = usize;

    const INFO: DesignInfo = DesignInfo::new::<usize>(
        DesignMeta {
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
        StaleDetection::None,
    );

    forward_to_the_crate! {
        id: usize,
        new: ::slab::Slab::new(),
        remove: try_remove,
        contains: contains,
        iterate: pairs,
    }

    fn memory_bytes(&self) -> usize {
        self.0.capacity() * std::mem::size_of::<EntryMirror<T>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_formula_matches_the_documented_layout() {
        assert_eq!(std::mem::size_of::<EntryMirror<[u64; 4]>>(), 40);
    }
}
