//! The entity manager of the article designs: the ID-table family's `holey` table (an array
//! with holes, LIFO free list, 32-bit index + 32-bit generation) holding `()`, reused as is.
//!
//! The article's entity manager (Part 1) keeps a generation per index and a free queue; the
//! `holey` table is that minus the queue's delayed reuse, and its [`Id64`] is the entity. An
//! entity's index (`Id64::index`) is what the direct-index and `Vec<u32>` maps index by; the
//! generation tells a dead entity from the new one reusing its index.

use crate::id::Id64;
use crate::id_table::IdTable;
use crate::id_table::holey::Holey;

use super::{ComponentError, count_capacity_change};

/// An entity: index and generation.
pub type Entity = Id64;

/// No entity: the sentinel stored in free slots (the `holey` table never hands out index
/// `u32::MAX`).
pub const NO_ENTITY: Entity = Id64::new(u32::MAX, u32::MAX);

/// Live entities, kept in a `holey` ID table.
#[derive(Debug, Clone)]
pub struct Entities {
    table: Holey<()>,
    /// Allocator calls, counted from changes of the table's reserved bytes.
    allocator_calls: u64,
}

impl Default for Entities {
    fn default() -> Self {
        Self {
            table: Holey::new(),
            allocator_calls: 0,
        }
    }
}

impl Entities {
    /// Creates an entity (reusing the most recently freed index, with a new generation).
    ///
    /// # Errors
    /// [`ComponentError::IndexSpaceExhausted`].
    pub fn create(&mut self) -> Result<Entity, ComponentError> {
        let before = self.table.memory_bytes();
        let entity = self
            .table
            .insert(())
            .map_err(|_| ComponentError::IndexSpaceExhausted { what: "entities" })?;
        count_capacity_change(before, self.table.memory_bytes(), &mut self.allocator_calls);
        Ok(entity)
    }

    /// Creates `n` entities and appends them to `out`, as `n` calls of [`create`](Self::create)
    /// would: when no destroyed index waits for reuse (a world that was only ever spawned into
    /// and cleared), the table grows by one reservation and the entities are one run of fresh
    /// indices (generation 0); otherwise they are created one by one.
    ///
    /// # Errors
    /// [`ComponentError::IndexSpaceExhausted`] (entities created before the table ran out stay
    /// created and in `out`).
    pub fn create_run(&mut self, n: usize, out: &mut Vec<Entity>) -> Result<(), ComponentError> {
        let before = self.table.memory_bytes();
        let run = self
            .table
            .insert_fresh_run(n, ())
            .map_err(|_| ComponentError::IndexSpaceExhausted { what: "entities" })?;
        count_capacity_change(before, self.table.memory_bytes(), &mut self.allocator_calls);
        match run {
            Some(indices) => out.extend(indices.map(|index| Entity::new(index, 0))),
            None => {
                out.reserve(n);
                for _ in 0..n {
                    out.push(self.create()?);
                }
            }
        }
        Ok(())
    }

    /// Destroys a live entity.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    pub fn destroy(&mut self, entity: Entity) -> Result<(), ComponentError> {
        self.table
            .remove(entity)
            .ok_or_else(|| ComponentError::dead(entity))
    }

    /// Whether `entity` is alive (the article's `EntityManager::alive`).
    #[inline]
    pub fn alive(&self, entity: Entity) -> bool {
        self.table.contains(entity)
    }

    /// `Ok` for a live entity.
    ///
    /// # Errors
    /// [`ComponentError::DeadEntity`].
    #[inline]
    pub fn check_alive(&self, entity: Entity) -> Result<(), ComponentError> {
        if self.alive(entity) {
            Ok(())
        } else {
            Err(ComponentError::dead(entity))
        }
    }

    /// Live entities.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether no entity is alive.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Heap bytes of the table.
    pub fn memory_bytes(&self) -> usize {
        self.table.memory_bytes()
    }

    /// Allocator calls of the table.
    pub fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    /// The table's own invariants.
    ///
    /// # Errors
    /// The first broken one.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.table.check_invariants()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_what_creating_one_by_one_hands_out() {
        let mut run = Entities::default();
        let mut one_by_one = Entities::default();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            run.create_run(5, &mut a).unwrap();
            b.extend((0..5).map(|_| one_by_one.create().unwrap()));
        }
        assert_eq!(a, b);
        // With a destroyed index waiting, the run falls back to `create` and reuses it.
        run.destroy(a[3]).unwrap();
        one_by_one.destroy(b[3]).unwrap();
        run.create_run(2, &mut a).unwrap();
        b.extend((0..2).map(|_| one_by_one.create().unwrap()));
        assert_eq!(a, b);
        assert_eq!(run.len(), 11);
        run.check_invariants().unwrap();
    }
}
