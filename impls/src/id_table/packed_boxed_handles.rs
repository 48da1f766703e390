//! Packed array whose handles are heap-allocated index cells: seed 004's swap-remove pool with
//! a `shared_ptr`-like stable handle (Blue Moon Games, part 3: "not the raw pointer, but our
//! own type … deep inside it stores only a pointer, e.g. an `int*` telling which element of the
//! pool this really is"), the design the article rejects for "an extra memory read" and a
//! fragmented heap.
//!
//! Objects are dense in one `Vec<T>` (iteration is a slice walk, as in [`packed`]); each live
//! object owns one individually boxed [`IndexCell`] holding its dense position, allocated on
//! insert and freed on remove, so the cells end up wherever the allocator puts them. Removal
//! swaps the last object into the hole and rewrites the moved object's cell (the article's
//! `Swap(id, lastId)`).
//!
//! The article's handle *is* the cell's address. A safe-Rust ID must be `Copy` and must not
//! dangle once its object is removed, so here the ID names a slot of a never-compacted
//! `Vec` of `Option<Box<IndexCell>>` plus the slot's generation ([`Id64`]): a lookup reads the
//! slot (contiguous, as `packed`'s index entry), then the boxed cell (the seed's extra,
//! scattered read), then the object. That is one read more than the article's raw pointer
//! (the slot), which adds stale-ID detection the article's dangling pointer lacks; the
//! comparison the seed makes, a heap-scattered index cell against `packed`'s contiguous index
//! table, is kept. No `unsafe`.
//!
//! Cost: get three dependent reads (slot, cell, object); insert O(1) amortised plus one heap
//! allocation; remove O(1) plus one free and one object move. Memory per live object:
//! `size_of::<T>()` + 4 (owner) + 16 (slot) + the cell's 4 bytes (and the allocator's minimum
//! chunk, typically 16–32 bytes, not counted). Slots are reused LIFO; a slot whose generation
//! would wrap is retired, so a stale ID never matches again.
//!
//! [`packed`]: super::packed

use super::dense::{Dense, DenseIndex, DenseTable};
use super::pool_table::{NIL, RETIRED, slot_index};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// The heap-allocated handle target: where the object is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexCell {
    /// The object's position in the dense arrays.
    dense: u32,
}

/// One handle slot.
#[derive(Debug, Clone)]
struct Slot {
    /// `Some` exactly while the slot's object is live; its cell holds the object's dense
    /// position, and `owners[cell.dense]` is this slot.
    cell: Option<Box<IndexCell>>,
    /// Live: the generation of the object's IDs. Vacant: the generation the next object gets
    /// (one more than the last occupant's); [`RETIRED`] for a slot never reused.
    generation: u32,
    /// Vacant and on the free list: the next free slot, or `NIL`. Otherwise meaningless.
    next_free: u32,
}

/// Swap-remove packed array with a heap-allocated index cell per object (see the module docs).
///
/// ```
/// use impls::id_table::{IdTable, packed_boxed_handles::PackedBoxedHandles};
///
/// let mut table = PackedBoxedHandles::<&str>::new();
/// let a = table.insert("a").unwrap();
/// let b = table.insert("b").unwrap();
/// assert_eq!(table.remove(a), Some("a")); // "b" moves; its boxed cell is rewritten
/// assert_eq!(table.get(b), Some(&"b"));
/// assert_eq!(table.get(a), None);
/// ```
pub type PackedBoxedHandles<T> = DenseTable<T, BoxedHandles>;

/// The index of [`PackedBoxedHandles`]: handle slots, each live one owning a boxed cell.
#[derive(Debug, Clone)]
pub struct BoxedHandles {
    /// Handle slots, never compacted. Invariant: live slots are exactly those in the table's
    /// `owners`.
    slots: Vec<Slot>,
    /// First free slot (LIFO), or `NIL`. Every vacant, non-retired slot is on it once.
    free_head: u32,
}

impl<T> DenseIndex<T> for BoxedHandles {
    type Id = Id64;
    type Owner = u32;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "packed_boxed_handles",
            description: "swap-remove dense array whose handles are heap-allocated index cells (seed 004's shared_ptr-like handle): an extra scattered read per lookup against packed's contiguous index table",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_head: NIL,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, dense: &mut Dense<T, u32>, value: T) -> Result<Id64, TableError> {
        let position = slot_index(dense.objects.len())?;
        let index = if self.free_head != NIL {
            let index = self.free_head;
            self.free_head = self.slots[index as usize].next_free;
            index
        } else {
            let index = slot_index(self.slots.len())?;
            self.slots.push(Slot {
                cell: None,
                generation: 0,
                next_free: NIL,
            });
            index
        };
        let slot = &mut self.slots[index as usize];
        slot.cell = Some(Box::new(IndexCell { dense: position }));
        dense.objects.push(value);
        dense.owners.push(index);
        Ok(Id64::new(index, slot.generation))
    }

    #[inline]
    fn get<'a>(&self, dense: &'a Dense<T, u32>, id: Id64) -> Option<&'a T> {
        let slot = self.slots.get(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        let cell = slot.cell.as_deref()?;
        dense.objects.get(cell.dense as usize)
    }

    #[inline]
    fn get_mut<'a>(&self, dense: &'a mut Dense<T, u32>, id: Id64) -> Option<&'a mut T> {
        let slot = self.slots.get(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        let cell = slot.cell.as_deref()?;
        dense.objects.get_mut(cell.dense as usize)
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn remove(&mut self, dense: &mut Dense<T, u32>, id: Id64) -> Option<T> {
        let slot = self.slots.get_mut(id.index() as usize)?;
        if slot.generation != id.generation() {
            return None;
        }
        let position = slot.cell.take()?.dense as usize;
        slot.generation += 1;
        if slot.generation != RETIRED {
            slot.next_free = self.free_head;
            self.free_head = id.index();
        }
        let value = dense.objects.swap_remove(position);
        dense.owners.swap_remove(position);
        if let Some(&moved) = dense.owners.get(position) {
            let cell = self.slots[moved as usize]
                .cell
                .as_deref_mut()
                .expect("an owner's slot is live");
            cell.dense = position as u32;
        }
        Some(value)
    }

    fn relink(&mut self, owner: u32, position: usize) {
        if let Some(cell) = self.slots[owner as usize].cell.as_deref_mut() {
            cell.dense = position as u32;
        }
    }

    fn position_of(&self, owner: u32) -> Option<usize> {
        let cell = self.slots.get(owner as usize)?.cell.as_deref()?;
        Some(cell.dense as usize)
    }

    /// The slots, and one cell per live object.
    fn memory_bytes(&self, dense: &Dense<T, u32>) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + dense.objects.len() * std::mem::size_of::<IndexCell>()
    }

    fn check_invariants(&self, dense: &Dense<T, u32>) -> Result<(), String> {
        let live = self.slots.iter().filter(|s| s.cell.is_some()).count();
        if live != dense.objects.len() {
            return Err(format!(
                "{live} slots hold a cell but {} objects are live",
                dense.objects.len()
            ));
        }
        let vacant = self
            .slots
            .iter()
            .filter(|s| s.cell.is_none() && s.generation != RETIRED)
            .count();
        let mut on_list = 0;
        let mut at = self.free_head;
        while at != NIL {
            let slot = self
                .slots
                .get(at as usize)
                .ok_or_else(|| format!("free list names slot {at}, out of range"))?;
            if slot.cell.is_some() || slot.generation == RETIRED {
                return Err(format!("free list holds live or retired slot {at}"));
            }
            on_list += 1;
            if on_list > vacant {
                return Err("free list is longer than the vacant slots (a cycle?)".into());
            }
            at = slot.next_free;
        }
        if on_list != vacant {
            return Err(format!(
                "{vacant} vacant slots but {on_list} on the free list"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::dense::tests::swap_remove_moves_the_last_object;
    use crate::id_table::{IdTable, checks};

    #[test]
    fn freed_slots_come_back_lifo_with_a_new_generation() {
        let (mut t, ids) = swap_remove_moves_the_last_object::<BoxedHandles>();
        let again = t.insert(9).unwrap();
        assert_eq!(again, Id64::new(ids[2].index(), 1));
        assert_eq!(t.get(ids[2]), None);
        assert_eq!(t.get(again), Some(&9));
        t.check_invariants().unwrap();
    }

    #[test]
    fn a_slot_whose_generation_would_wrap_is_retired() {
        let mut t = PackedBoxedHandles::<u32>::new();
        let first = t.insert(0).unwrap();
        t.index.slots[0].generation = RETIRED - 1;
        let id = Id64::new(first.index(), RETIRED - 1);
        assert_eq!(t.remove(id), Some(0));
        assert_eq!(t.index.free_head, NIL);
        assert_eq!(t.insert(1).unwrap().index(), 1);
        t.check_invariants().unwrap();
    }

    #[test]
    fn check_invariants_catches_a_wrong_cell() {
        let (t, _) = checks::filled::<PackedBoxedHandles<u32>>(2);
        checks::check_invariants_catches(t, |t| {
            t.index.slots[0].cell.as_deref_mut().unwrap().dense = 1;
        });
    }
}
