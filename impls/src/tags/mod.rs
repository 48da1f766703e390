//! The tag storage family: a list of `u32` tags per entity, the "array of arrays" problem.
//!
//! From "Allocation Adventures 2: Arrays of Arrays" (BitSquid, 2015): store the tags of every
//! entity without one heap allocation per entity, i.e. find an alternative to
//! `Vec<Vec<u32>>`. The designs trade memory per tag, allocator calls and locality of
//! [`TagStore::visit_entity`] / [`TagStore::visit_all`] against each other.
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/tags_model.rs`)
//! * An entity's tags are a **multiset**, like a `Vec<u32>` that is only pushed to:
//!   [`add_tag`](TagStore::add_tag) always appends (duplicates allowed),
//!   [`remove_tag`](TagStore::remove_tag) removes one occurrence. The order in which an
//!   entity's tags are visited is design-defined (designs fill holes by moving another tag).
//! * Entity handles are `u32` indices. [`destroy_entity`](TagStore::destroy_entity) releases a
//!   handle and [`create_entity`](TagStore::create_entity) reuses released handles, most recently
//!   released first (the shared [`entities::EntitySet`]). Handles carry no generation: using a
//!   destroyed handle gives [`TagError::NoSuchEntity`] until it is handed out again, after which
//!   it names the new entity. Callers must not keep handles past `destroy_entity`.
//! * User errors are [`TagError`]s and change nothing; no operation panics on user input.
//! * Accessing an entity may reorganise storage (`sorted_chunks` sorts incrementally on every
//!   access), so the visit and lookup operations take `&mut self`.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing [`TagStore`] (a
//! store that keeps one vector per entity implements [`list_per_entity::TagList`] for its
//! vector instead), then add one line to [`registry::for_each_tag_design`].
//!
//! [`model::ModelStore`] is the obviously correct reference the property tests and the
//! harness's replay verification compare every design with; it is not a registered design.
//!
//! [`buddy_arrays`] is the one design built on another family: each entity's tags live in a
//! power-of-two block that the block-allocator family's buddy allocator
//! ([`crate::alloc::buddy`]) carves from one arena.

/// Writes the [`TagStore`] operations a store answers from its [`entities::Bookkeeping`]
/// (`self.book`): `create_entity` (a fresh handle appends `fresh` to the per-entity array
/// named in the call, a reused one keeps its emptied entry; handles stay below `limit`,
/// `u32::MAX` if not given), the entity count, the tag count and the allocator calls; with
/// `destroy: clear_entity`, also `destroy_entity` for a store that destroys an entity by
/// clearing its tags and releasing the handle.
macro_rules! answered_by_the_bookkeeping {
    (
        create: $records:ident = $fresh:expr
        $(, limit: $limit:expr)?
        $(, destroy: $clear:ident)?
        $(,)?
    ) => {
        fn create_entity(&mut self) -> Result<Entity, TagError> {
            self.book.create(
                answered_by_the_bookkeeping!(@limit $($limit)?),
                &mut self.$records,
                || $fresh,
            )
        }

        $(
            fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
                self.$clear(entity)?;
                self.book.release(entity)
            }
        )?

        fn entity_count(&self) -> usize {
            self.book.entities.len()
        }

        fn tag_count(&self) -> usize {
            self.book.tag_count
        }

        fn allocator_calls(&self) -> u64 {
            self.book.allocator_calls
        }
    };
    (@limit) => {
        u32::MAX
    };
    (@limit $limit:expr) => {
        $limit
    };
}

/// Writes the [`list_per_entity::TagList`] operations a vector type already has under the
/// names `swap_remove` and `clear` (`Vec`, `SmallVec`, `ArrayVec`): `remove_at` and
/// `clear_tags`.
macro_rules! vector_tag_list_ops {
    () => {
        #[inline]
        fn remove_at(&mut self, i: usize) {
            self.swap_remove(i);
        }

        fn clear_tags(&mut self) {
            self.clear();
        }
    };
}

pub mod boxed_nodes;
pub mod buddy_arrays;
pub mod entities;
pub mod fixed;
pub(crate) mod linked;
pub mod linked_chunks;
pub mod linked_nodes;
pub mod list_per_entity;
pub mod model;
pub mod peers;
pub mod registry;
pub mod sorted_chunks;
pub mod vec_of_vecs;

pub use registry::{TagDesignVisitor, find_tag_design, for_each_tag_design, tag_designs};

use crate::DesignMeta;
use thiserror::Error;

/// An entity handle: an index, reused after [`TagStore::destroy_entity`].
pub type Entity = u32;

/// A tag: in the article, the hash of a string such as `"player"` or `"enemy"`.
pub type Tag = u32;

/// A failure a user of a tag store can cause. The store is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TagError {
    /// The handle names no live entity (never created, or destroyed and not yet reused).
    #[error("no live entity {entity}")]
    NoSuchEntity {
        /// The handle passed in.
        entity: Entity,
    },
    /// A fixed-capacity design already holds `cap` tags for this entity.
    #[error("entity {entity} already holds its cap of {cap} tags")]
    CapacityExceeded {
        /// The entity that is full.
        entity: Entity,
        /// The most tags one entity can hold in this design.
        cap: usize,
    },
    /// No further entity handle (or internal node/chunk index) fits the design's index type.
    #[error("index space exhausted: {what} would exceed {limit}")]
    IndexSpaceExhausted {
        /// What ran out: `"entities"`, `"nodes"`, `"chunks"` or `"arena bytes"`.
        what: &'static str,
        /// The largest count the design can address.
        limit: u64,
    },
}

/// Where a tag-store design comes from (the kind every family shares).
pub use crate::kind::DesignKind as TagDesignKind;

/// What the registry and the reports know of a tag-store design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// The most tags one entity can hold, for fixed-capacity designs
    /// ([`TagError::CapacityExceeded`] past it).
    pub tags_per_entity_cap: Option<usize>,
}

/// Per-entity lists of `u32` tags. See the [module docs](self) for the shared semantics.
///
/// # Contract (checked for every design by `impls/tests/integration/tags_model.rs`)
/// * The tags of an entity are the multiset of its successful `add_tag`s minus its successful
///   `remove_tag`s since its creation or last `clear_entity`.
/// * Every method taking an entity returns [`TagError::NoSuchEntity`] for a handle that is not
///   live, and then changes nothing.
/// * [`visit_all`](TagStore::visit_all) yields every `(entity, tag)` pair of every live entity
///   exactly once (per occurrence), in a design-defined order.
pub trait TagStore: Sized {
    /// Name, kind and capabilities of this design.
    const INFO: TagDesignInfo;

    /// An empty store: no entities, no heap memory.
    fn new() -> Self;

    /// Creates an entity with no tags and returns its handle (a released handle if any).
    ///
    /// # Errors
    /// [`TagError::IndexSpaceExhausted`] when no handle is left.
    fn create_entity(&mut self) -> Result<Entity, TagError>;

    /// Appends `tag` to the entity's tags (duplicates allowed).
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`]; [`TagError::CapacityExceeded`] for a fixed-capacity design
    /// when the entity is full; [`TagError::IndexSpaceExhausted`] when the design's internal
    /// index type is used up.
    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError>;

    /// Removes one occurrence of `tag` from the entity; `Ok(false)` if it has none.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`].
    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError>;

    /// Whether the entity has `tag` at least once.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`].
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError>;

    /// Calls `f` once per tag of the entity (per occurrence), in a design-defined order.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`] (then `f` is not called).
    fn visit_entity(&mut self, entity: Entity, f: impl FnMut(Tag)) -> Result<(), TagError>;

    /// Calls `f(entity, tag)` once per tag of every live entity, in a design-defined order.
    fn visit_all(&mut self, f: impl FnMut(Entity, Tag));

    /// Removes every tag of the entity; the entity stays live.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`].
    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError>;

    /// Removes the entity and its tags and releases its handle for reuse.
    ///
    /// # Errors
    /// [`TagError::NoSuchEntity`].
    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError>;

    /// Number of live entities.
    fn entity_count(&self) -> usize;

    /// Number of tags over all live entities (each occurrence counted).
    fn tag_count(&self) -> usize;

    /// Bytes of heap memory the store holds now (its own accounting: reserved capacity times
    /// element size of every buffer, including the shared entity bookkeeping). Excludes
    /// `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// Calls to the global allocator the store has made since [`new`](TagStore::new), by its
    /// own accounting: every change of a heap buffer's capacity (allocation, growth,
    /// deallocation) counts one.
    fn allocator_calls(&self) -> u64;

    /// Checks the design's internal invariants (list threading, counts, free lists).
    /// Called by the property tests after every operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// Counts one allocator call if a buffer's capacity changed from `before` to `after`.
/// Every design reports [`TagStore::allocator_calls`] through this one rule.
#[inline]
pub(crate) fn count_capacity_change(before: usize, after: usize, calls: &mut u64) {
    if before != after {
        *calls += 1;
    }
}

/// Pushes onto `vec`, counting a growth of its buffer as one allocator call.
#[inline]
pub(crate) fn push_counted<T>(vec: &mut Vec<T>, value: T, calls: &mut u64) {
    let before = vec.capacity();
    vec.push(value);
    count_capacity_change(before, vec.capacity(), calls);
}

/// The `u32` index of an element (an entity handle, a node, a chunk) appended at position `len`
/// of a buffer of `what`, if it stays below `limit`, the design's index space.
///
/// # Errors
/// [`TagError::IndexSpaceExhausted`] otherwise.
pub(crate) fn index_below(len: usize, what: &'static str, limit: u32) -> Result<u32, TagError> {
    u32::try_from(len)
        .ok()
        .filter(|&i| i < limit)
        .ok_or(TagError::IndexSpaceExhausted {
            what,
            limit: u64::from(limit),
        })
}

/// Fixtures the designs' unit tests share.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{Entity, Tag, TagStore};

    /// A fresh store of design `S` with one entity holding `tags`, added in order with the
    /// invariants checked after each, and that entity.
    pub(crate) fn one_entity_with_tags<S: TagStore>(tags: std::ops::Range<Tag>) -> (S, Entity) {
        let mut store = S::new();
        let e = store.create_entity().unwrap();
        for t in tags {
            store.add_tag(e, t).unwrap();
            store.check_invariants().unwrap();
        }
        (store, e)
    }

    /// The tags of `e`, in the order the store visits them.
    pub(crate) fn tags_of<S: TagStore>(store: &mut S, e: Entity) -> Vec<Tag> {
        let mut tags = Vec::new();
        store.visit_entity(e, |t| tags.push(t)).unwrap();
        tags
    }
}
