//! Peer: `thunderdome::Arena` behind [`IdTable`].
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

use crate::DesignMeta;
use std::num::NonZeroU32;

use ::thunderdome::{Arena, Index};

use crate::TableError;
use crate::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

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

/// `thunderdome::Arena<T>` as an [`IdTable`].
#[derive(Debug)]
pub struct ThunderdomePeer<T>(Arena<T>);

impl<T> ThunderdomePeer<T> {
    /// The crate's arena, for `ref-direct-thunderdome` on a body that only reads: it calls
    /// `Arena::get` and `iter()` on it directly.
    pub fn arena(&self) -> &Arena<T> {
        &self.0
    }

    /// The crate's arena, mutably, for `ref-direct-thunderdome` on a body that writes: it calls
    /// `Arena::insert`, `get_mut`, `remove` and `iter_mut()` on it directly.
    pub fn arena_mut(&mut self) -> &mut Arena<T> {
        &mut self.0
    }
}

impl<T: 'static> IdTable<T> for ThunderdomePeer<T> {
    type Id = Index;

    const INFO: DesignInfo = DesignInfo::new::<Index>(
        DesignMeta {
            name: "thunderdome",
            description: "thunderdome::Arena: array with holes, per-slot generation, 32-bit slot + 32-bit generation",
            kind: DesignKind::Peer {
                crate_name: "thunderdome",
                version: "0.6.1",
                idiom: "Arena<T>: insert, get, get_mut, remove by Index; iter() / iter_mut() to iterate",
                docs: "https://docs.rs/thunderdome/0.6.1/thunderdome/struct.Arena.html",
                adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `Arena::get`/`get_mut`/`remove` on the crate's own `Index`, and `insert` wraps its `Index` in `Ok`. No key conversion, side array or count is added; `iter` only drops the index from each `(Index, &T)` pair.",
            },
        },
        StaleDetection::UntilSlotReuses(u32::MAX as u64),
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
        assert_eq!(std::mem::size_of::<EntryMirror<[u64; 4]>>(), 40);
    }
}
