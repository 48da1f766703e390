//! The store shared by the designs that keep one inline-or-heap list per entity in an outer
//! `Vec` ([`vec_of_vecs`](super::vec_of_vecs), [`fixed`](super::fixed), and the
//! [`smallvec`](super::peers::smallvec) and [`arrayvec`](super::peers::arrayvec) peers).
//!
//! The designs differ only in the list type: where its tags live (a heap buffer, an inline
//! array, inline then spilled), how it grows and what it frees, so each design file is its list
//! (a [`TagList`]) and this module is the store, written once:
//!
//! * `lists[e]` holds entity `e`'s tags; an entity's tags are one contiguous read, and
//!   `visit_all` walks the outer `Vec` in entity order;
//! * removal swaps the list's last tag into the hole (order is not kept), `clear_entity` keeps
//!   the list's storage, `destroy_entity` frees it ([`TagList::free`]);
//! * a released entity's list is empty (and holds no heap buffer), so `visit_all` needs no
//!   liveness check.

use std::marker::PhantomData;
use std::ops::Deref;

use super::entities::Bookkeeping;
use super::{Entity, Tag, TagDesignInfo, TagError, TagStore};

/// One entity's tags in a [`ListPerEntity`] store: a list that derefs to its tags, with the
/// vector operations the store uses. `P` is the store's growth policy, for a list type that
/// takes one (`vec_of_vecs`'s `Vec`); `()` for the others.
pub trait TagList<P = ()>: Default + Deref<Target = [Tag]> {
    /// The design whose lists these are.
    const INFO: TagDesignInfo;

    /// Appends `tag`, adding the allocator calls it made (a growth, a spill) to `calls`.
    ///
    /// # Errors
    /// The list's capacity, when it is full and cannot grow.
    fn push_tag(&mut self, tag: Tag, calls: &mut u64) -> Result<(), usize>;

    /// Removes the tag at `i`, moving the last tag into its place.
    fn remove_at(&mut self, i: usize);

    /// Removes every tag, keeping the list's storage.
    fn clear_tags(&mut self);

    /// Empties the list of a destroyed entity and frees its heap storage, adding the allocator
    /// calls that made to `calls`.
    fn free(&mut self, calls: &mut u64);

    /// Heap bytes the list holds beyond its place in the outer `Vec`.
    fn heap_bytes(&self) -> usize;

    /// Whether the list holds tags or heap storage (a released entity's must not).
    fn holds_anything(&self) -> bool;
}

/// One list of type `L` per entity, in one outer `Vec`, grown by the policy `P`.
#[derive(Debug, Clone, Default)]
pub struct ListPerEntity<L, P = ()> {
    book: Bookkeeping,
    /// `lists[e]` holds entity `e`'s tags. Invariant: one list per entity handle; a released
    /// entity's list holds nothing ([`TagList::holds_anything`]).
    lists: Vec<L>,
    policy: PhantomData<P>,
}

impl<L, P> ListPerEntity<L, P> {
    /// The store's lists: `lists()[e]` is entity `e`'s tags (empty for a released entity). For
    /// the harness's `ref-direct-<design>` loops, which use the vectors directly.
    pub fn lists(&self) -> &[L] {
        &self.lists
    }

    /// The store's lists taken out of it, as [`lists`](Self::lists) orders them, and its
    /// released entities, most recently released last (the next `create_entity` reuses the
    /// last): a reference loop's throwaway state.
    pub fn into_parts(self) -> (Vec<L>, Vec<Entity>) {
        (self.lists, self.book.entities.into_released())
    }
}

impl<L: TagList<P>, P> TagStore for ListPerEntity<L, P> {
    const INFO: TagDesignInfo = L::INFO;

    fn new() -> Self {
        Self {
            book: Bookkeeping::new(),
            lists: Vec::new(),
            policy: PhantomData,
        }
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        self.book
            .record_mut(&mut self.lists, entity)?
            .push_tag(tag, &mut self.book.allocator_calls)
            .map_err(|cap| TagError::CapacityExceeded { entity, cap })?;
        self.book.tag_count += 1;
        Ok(())
    }

    /// Inlined into the replay's loop for every list type, as `has_tag`: left to the compiler,
    /// `fixed`'s stayed a call out of that loop while the peers' lists were inlined, which
    /// `dodbench cache --family tags --workload tags-mutate-r0` shows as more simulated
    /// instructions per op for `fixed` than for `arrayvec`.
    #[inline(always)]
    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let list = self.book.record_mut(&mut self.lists, entity)?;
        let Some(i) = list.iter().position(|&t| t == tag) else {
            return Ok(false);
        };
        list.remove_at(i);
        self.book.tag_count -= 1;
        Ok(true)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        Ok(self.book.record(&self.lists, entity)?.contains(&tag))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        self.book
            .record(&self.lists, entity)?
            .iter()
            .for_each(|&t| f(t));
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have empty lists, so no liveness check is needed.
        for (e, list) in self.lists.iter().enumerate() {
            for &t in list.iter() {
                f(e as Entity, t);
            }
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = self.book.record_mut(&mut self.lists, entity)?;
        let n = list.len();
        list.clear_tags();
        self.book.tag_count -= n;
        Ok(())
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = self.book.record_mut(&mut self.lists, entity)?;
        self.book.tag_count -= list.len();
        list.free(&mut self.book.allocator_calls);
        self.book.release(entity)
    }

    answered_by_the_bookkeeping! { create: lists = L::default() }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.lists) + self.lists.iter().map(L::heap_bytes).sum::<usize>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.lists, "lists")?;
        self.book.check_released(&self.lists, L::holds_anything)?;
        self.book
            .check_tag_count(self.lists.iter().map(|l| l.len()).sum())
    }
}
