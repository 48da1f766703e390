//! `Vec<Vec<u32>>`: the baseline the article sets out to replace.
//!
//! Layout: one `Vec<Tag>` per entity, each its own heap allocation (24-byte header per entity
//! in the outer `Vec`, plus the inner buffer: capacity 4 after the first push, doubling).
//! Cost: add amortised O(1), remove and has O(tags of the entity), visit one entity is one
//! pointer chase then a linear scan; visit-all chases one pointer per entity into buffers
//! scattered over the heap. Every inner growth is a call to the global allocator.
//!
//! `clear_entity` keeps the inner buffer's capacity (as `Vec::clear` does); `destroy_entity`
//! frees it.

use super::entities::{Created, EntitySet};
use super::{
    Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, count_capacity_change,
    push_counted,
};

/// One `Vec<u32>` per entity.
#[derive(Debug, Clone, Default)]
pub struct VecOfVecs {
    entities: EntitySet,
    /// `lists[e]` holds entity `e`'s tags. Invariant: `lists.len() == entities.slots()`, and
    /// the list of a released entity is empty with no capacity.
    lists: Vec<Vec<Tag>>,
    /// Total tags over all lists.
    tag_count: usize,
    allocator_calls: u64,
}

impl VecOfVecs {
    fn list(&mut self, entity: Entity) -> Result<&mut Vec<Tag>, TagError> {
        self.entities.check(entity)?;
        Ok(&mut self.lists[entity as usize])
    }
}

impl TagStore for VecOfVecs {
    const INFO: TagDesignInfo = TagDesignInfo {
        name: "vec_of_vecs",
        description: "Vec<Vec<u32>>: one heap allocation per entity (the article's baseline)",
        kind: TagDesignKind::Article,
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn create_entity(&mut self) -> Result<Entity, TagError> {
        match self.entities.create(u32::MAX, &mut self.allocator_calls)? {
            Created::Reused(e) => Ok(e),
            Created::Fresh(e) => {
                push_counted(&mut self.lists, Vec::new(), &mut self.allocator_calls);
                Ok(e)
            }
        }
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let mut calls = 0;
        push_counted(self.list(entity)?, tag, &mut calls);
        self.allocator_calls += calls;
        self.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let list = self.list(entity)?;
        let Some(i) = list.iter().position(|&t| t == tag) else {
            return Ok(false);
        };
        list.swap_remove(i);
        self.tag_count -= 1;
        Ok(true)
    }

    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        Ok(self.list(entity)?.contains(&tag))
    }

    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        self.list(entity)?.iter().for_each(|&t| f(t));
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have empty lists, so no liveness check is needed.
        for (e, list) in self.lists.iter().enumerate() {
            for &t in list {
                f(e as Entity, t);
            }
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = self.list(entity)?;
        let n = list.len();
        list.clear();
        self.tag_count -= n;
        Ok(())
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = std::mem::take(self.list(entity)?);
        self.tag_count -= list.len();
        count_capacity_change(list.capacity(), 0, &mut self.allocator_calls);
        self.entities.destroy(entity, &mut self.allocator_calls)
    }

    fn entity_count(&self) -> usize {
        self.entities.len()
    }

    fn tag_count(&self) -> usize {
        self.tag_count
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes()
            + self.lists.capacity() * size_of::<Vec<Tag>>()
            + self
                .lists
                .iter()
                .map(|l| l.capacity() * size_of::<Tag>())
                .sum::<usize>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        if self.lists.len() != self.entities.slots() {
            return Err(format!(
                "{} lists for {} entity slots",
                self.lists.len(),
                self.entities.slots()
            ));
        }
        for (e, list) in self.lists.iter().enumerate() {
            if !self.entities.is_live(e as Entity) && list.capacity() != 0 {
                return Err(format!("released entity {e} still holds a buffer"));
            }
        }
        let total: usize = self.lists.iter().map(Vec::len).sum();
        if total != self.tag_count {
            return Err(format!("tag_count {} but {total} tags", self.tag_count));
        }
        Ok(())
    }
}
