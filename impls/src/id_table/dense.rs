//! The table shared by the packed designs ([`packed`](super::packed),
//! [`packed_tuned`](super::packed_tuned), [`packed_fixed`](super::packed_fixed),
//! [`packed_boxed_handles`](super::packed_boxed_handles)): the live objects dense in one `Vec`
//! with no holes, and an index whose entries the IDs name and which hold each object's
//! position ("an extra level of indirection, where the IDs point to an array of indices that
//! points to the objects themselves").
//!
//! The designs differ only in the index: the ID it hands out, how it reuses entries, and where
//! an entry lives (a growable table, a fixed array, a heap cell per object). So each design
//! file is its index, a [`DenseIndex`] with the insert, lookup and remove that read and write
//! it, and this module is the dense half, written once:
//!
//! * `objects[p]` is a live object and `owners[p]` the index entry naming it (the article keeps
//!   the ID inside the object instead; our `T` is opaque), so the table's length is
//!   `objects.len()` and iteration is a plain slice walk over exactly the live objects;
//! * removal swaps the last object into the hole and the design repoints the moved object's
//!   entry, found through `owners`;
//! * [`IdTable::sort_by_key`] permutes both `Vec`s into key order and has the design repoint
//!   every entry ([`DenseIndex::relink`]), so every ID still names its object;
//! * every object's entry holds the object's position ([`DenseIndex::position_of`]), checked
//!   here for all designs; each design checks its own entries and free list besides.
//!
//! The table adds no work to a design's operations: `insert`, `get`, `get_mut` and `remove`
//! are the design's own, inlined with the attributes each design states.

use std::fmt::Debug;

use super::{DesignInfo, IdTable};
use crate::TableError;

/// The live objects, dense, and beside each the index entry that names it.
#[derive(Debug, Clone)]
pub struct Dense<T, O> {
    /// The live objects, in the table's iteration order. Invariant: `objects.len() ==
    /// owners.len()` is the table's length.
    pub(crate) objects: Vec<T>,
    /// `owners[p]` is the index entry naming `objects[p]`. Invariant: that entry is live and
    /// holds position `p` (dense and sparse agree both ways).
    pub(crate) owners: Vec<O>,
}

/// The index half of a packed design: what an ID names, how entries are reused, and each live
/// entry's position in the table's [`Dense`] arrays. The operations take the dense arrays
/// beside the index, so a design writes its insert, lookup and remove as one piece of code.
pub trait DenseIndex<T>: Sized {
    /// The ID type handed out by [`insert`](DenseIndex::insert).
    type Id: Copy + Eq + std::hash::Hash + Debug + 'static;
    /// What `owners` records per object: the number of the entry naming it.
    type Owner: Copy + Debug;

    /// Name, kind and capabilities of the design.
    const INFO: DesignInfo;

    /// Objects to reserve room for when the table is made: a fixed-capacity design's whole
    /// capacity, allocated once; 0 for growable designs.
    const UP_FRONT: usize = 0;

    /// An empty index.
    fn new() -> Self;

    /// Stores `value` at the end of `dense` under a free (or new) entry and returns its ID.
    ///
    /// # Errors
    /// As [`IdTable::insert`].
    fn insert(
        &mut self,
        dense: &mut Dense<T, Self::Owner>,
        value: T,
    ) -> Result<Self::Id, TableError>;

    /// The object `id` names, if its entry is live with `id`'s generation.
    fn get<'a>(&self, dense: &'a Dense<T, Self::Owner>, id: Self::Id) -> Option<&'a T>;

    /// The object `id` names, mutably.
    fn get_mut<'a>(&self, dense: &'a mut Dense<T, Self::Owner>, id: Self::Id) -> Option<&'a mut T>;

    /// Removes the object `id` names (moving the last object into its place and repointing
    /// that object's entry) and frees the entry.
    fn remove(&mut self, dense: &mut Dense<T, Self::Owner>, id: Self::Id) -> Option<T>;

    /// Points the live entry `owner` at `position`, where its object now is.
    fn relink(&mut self, owner: Self::Owner, position: usize);

    /// The position the entry `owner` holds, if it is live.
    fn position_of(&self, owner: Self::Owner) -> Option<usize>;

    /// Bytes of heap memory the index holds beside the dense arrays of `dense`.
    fn memory_bytes(&self, dense: &Dense<T, Self::Owner>) -> usize;

    /// Checks the index's own invariants (entry versions, free list, counts against the
    /// `dense.objects.len()` live objects).
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self, dense: &Dense<T, Self::Owner>) -> Result<(), String>;
}

/// A packed design: dense objects and the design's index `I`.
#[derive(Debug, Clone)]
pub struct DenseTable<T, I: DenseIndex<T>> {
    /// The live objects and their owning entries.
    pub(crate) dense: Dense<T, I::Owner>,
    /// The design's index. Invariant: its live entries are exactly those in `dense.owners`.
    pub(crate) index: I,
}

impl<T, I: DenseIndex<T>> DenseTable<T, I> {
    /// The live objects, dense, in the table's iteration order.
    pub fn as_slice(&self) -> &[T] {
        &self.dense.objects
    }
}

impl<T: 'static, I: DenseIndex<T>> IdTable<T> for DenseTable<T, I> {
    type Id = I::Id;

    const INFO: DesignInfo = I::INFO;

    fn new() -> Self {
        let index = I::new();
        Self {
            dense: Dense {
                objects: Vec::with_capacity(I::UP_FRONT),
                owners: Vec::with_capacity(I::UP_FRONT),
            },
            index,
        }
    }

    // The four operations are the design's, inlined as it marks them: these wrappers always
    // inline, so the call site sees exactly the design's method.
    #[inline(always)]
    fn insert(&mut self, value: T) -> Result<I::Id, TableError> {
        self.index.insert(&mut self.dense, value)
    }

    #[inline(always)]
    fn get(&self, id: I::Id) -> Option<&T> {
        self.index.get(&self.dense, id)
    }

    #[inline(always)]
    fn get_mut(&mut self, id: I::Id) -> Option<&mut T> {
        self.index.get_mut(&mut self.dense, id)
    }

    #[inline(always)]
    fn remove(&mut self, id: I::Id) -> Option<T> {
        self.index.remove(&mut self.dense, id)
    }

    fn len(&self) -> usize {
        self.dense.objects.len()
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.dense.objects.iter()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.dense.objects.iter_mut()
    }

    /// Permutes the dense objects into key order, stably, and relinks every entry: IDs stay
    /// valid. O(n log n) time and one O(n) buffer; keeps both `Vec`s' capacity.
    fn sort_by_key(&mut self, mut key: impl FnMut(&T) -> u64) -> bool {
        let Dense { objects, owners } = &mut self.dense;
        let mut keyed: Vec<(u64, T, I::Owner)> = objects
            .drain(..)
            .zip(owners.drain(..))
            .map(|(object, owner)| (key(&object), object, owner))
            .collect();
        keyed.sort_by_key(|entry| entry.0);
        for (position, (_, object, owner)) in keyed.into_iter().enumerate() {
            self.index.relink(owner, position);
            objects.push(object);
            owners.push(owner);
        }
        true
    }

    fn memory_bytes(&self) -> usize {
        self.dense.objects.capacity() * std::mem::size_of::<T>()
            + self.dense.owners.capacity() * std::mem::size_of::<I::Owner>()
            + self.index.memory_bytes(&self.dense)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let len = self.dense.objects.len();
        if self.dense.owners.len() != len {
            return Err(format!(
                "{len} objects but {} owners",
                self.dense.owners.len()
            ));
        }
        for (position, &owner) in self.dense.owners.iter().enumerate() {
            let held = self.index.position_of(owner);
            if held != Some(position) {
                return Err(format!(
                    "object {position} owned by entry {owner:?}, which holds {held:?}"
                ));
            }
        }
        self.index.check_invariants(&self.dense)
    }
}

/// The behaviour every [`DenseIndex`] must show in a [`DenseTable`]; each design's tests call
/// these with its index type, the tests below with all of them.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::id_table::checks;
    use crate::id_table::packed::PackedIndex;
    use crate::id_table::packed_boxed_handles::BoxedHandles;
    use crate::id_table::packed_fixed::FixedIndex;
    use crate::id_table::packed_tuned::TunedIndex;

    /// Removal moves the last object into the hole and its ID keeps naming it: in a table of
    /// `0..4`, the objects of IDs 1, then 3 (just moved to position 1), then 2 (the last, so
    /// nothing moves) are removed. Returns the table, holding `0`, and the four IDs, for the
    /// design's checks of which entry comes back first.
    pub(crate) fn swap_remove_moves_the_last_object<I: DenseIndex<u32>>()
    -> (DenseTable<u32, I>, Vec<I::Id>) {
        let (mut t, ids) = checks::filled::<DenseTable<u32, I>>(4);
        assert_eq!(t.remove(ids[1]), Some(1));
        assert_eq!(t.as_slice(), [0, 3, 2]);
        assert_eq!(t.get(ids[3]), Some(&3));
        *t.get_mut(ids[3]).unwrap() += 0;
        assert_eq!(t.get(ids[1]), None);
        assert_eq!(t.get_mut(ids[1]), None);
        assert_eq!(t.remove(ids[3]), Some(3));
        assert_eq!(t.as_slice(), [0, 2]);
        assert_eq!(t.remove(ids[2]), Some(2));
        assert_eq!(t.as_slice(), [0]);
        assert_eq!(t.remove(ids[3]), None);
        t.check_invariants().unwrap();
        (t, ids)
    }

    /// `sort_by_key` puts the objects in key order and every ID still names its object.
    fn sorting_keeps_every_id<I: DenseIndex<u32>>() {
        let mut t = DenseTable::<u32, I>::new();
        let values = [5, 3, 7, 1, 6];
        let ids: Vec<_> = values.iter().map(|&v| t.insert(v).unwrap()).collect();
        t.remove(ids[2]).unwrap();
        assert!(t.sort_by_key(|&v| u64::from(v)));
        assert_eq!(t.as_slice(), [1, 3, 5, 6]);
        for (&id, &v) in ids.iter().zip(&values).filter(|(_, v)| **v != 7) {
            assert_eq!(t.get(id), Some(&v));
        }
        t.check_invariants().unwrap();
    }

    /// The shared half's checks on one design: removal, sorting, and `check_invariants`
    /// noticing objects whose owners were swapped.
    fn keeps_dense_and_index_in_step<I: DenseIndex<u32>>() {
        swap_remove_moves_the_last_object::<I>();
        sorting_keeps_every_id::<I>();
        let (t, _) = checks::filled::<DenseTable<u32, I>>(2);
        checks::check_invariants_catches(t, |t| t.dense.owners.swap(0, 1));
    }

    #[test]
    fn every_packed_design_keeps_dense_and_index_in_step() {
        keeps_dense_and_index_in_step::<PackedIndex>();
        keeps_dense_and_index_in_step::<PackedIndex<16, 0>>();
        keeps_dense_and_index_in_step::<TunedIndex>();
        keeps_dense_and_index_in_step::<FixedIndex<8>>();
        keeps_dense_and_index_in_step::<BoxedHandles>();
    }
}
