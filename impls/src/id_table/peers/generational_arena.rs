//! Peer: `generational_arena::Arena` behind [`IdTable`].
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

use crate::DesignMeta;
use ::generational_arena::{Arena, Index};

use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// Same shape as generational-arena 0.2.9's private `Entry`, only measured.
#[allow(dead_code)]
enum EntryMirror<T> {
    Free { next_free: Option<usize> },
    Occupied { generation: u64, value: T },
}

/// `generational_arena::Arena<T>` as an [`IdTable`].
#[derive(Debug)]
pub struct GenerationalArenaPeer<T>(Arena<T>);

impl<T> GenerationalArenaPeer<T> {
    /// The crate's arena, for `ref-direct-generational-arena` on a body that only reads: it calls
    /// `Arena::get` and `iter()` on it directly.
    pub fn arena(&self) -> &Arena<T> {
        &self.0
    }

    /// The crate's arena, mutably, for `ref-direct-generational-arena` on a body that writes: it
    /// calls `Arena::insert`, `get_mut`, `remove` and `iter_mut()` on it directly.
    pub fn arena_mut(&mut self) -> &mut Arena<T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for GenerationalArenaPeer<T> {
    type Id = Index;

    const INFO: DesignInfo = DesignInfo::new::<Index>(
        DesignMeta {
            name: "generational-arena",
            description: "generational_arena::Arena: array with holes, arena-wide u64 generation, usize index + u64 generation",
            kind: DesignKind::Peer {
                crate_name: "generational-arena",
                version: "0.2.9",
                idiom: "Arena<T>: insert, get, get_mut, remove by Index; iter() / iter_mut() to iterate",
                docs: "https://docs.rs/generational-arena/0.2.9/generational_arena/struct.Arena.html",
                adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `Arena::get`/`get_mut`/`remove` on the crate's own `Index`, and `insert` wraps its `Index` in `Ok`. No key conversion, side array or count is added; `iter` only drops the index from each `(Index, &T)` pair.",
            },
        },
        StaleDetection::UntilRemovals(u64::MAX),
    );

    forward_to_the_crate! {
        id: Index,
        new: Arena::new(),
        remove: remove,
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
        assert_eq!(std::mem::size_of::<EntryMirror<[u64; 4]>>(), 48);
    }
}
