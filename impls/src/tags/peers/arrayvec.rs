//! Peer: `Vec<ArrayVec<u32, 8>>` (the `arrayvec` crate): the article's fixed-size design in a
//! crate.
//!
//! Design: the same single buffer of fixed records as `fixed` (`ArrayVec<u32, 8>` is a `u32`
//! length and eight tags, 36 bytes), with the crate's bounds-checked push. A ninth tag is a
//! [`TagError::CapacityExceeded`] (from `try_push`'s `CapacityError`), never a panic.
//! Cost and trade-off: as `fixed`.

use crate::DesignMeta;
use ::arrayvec::ArrayVec;

use crate::tags::entities::{Created, EntitySet};
use crate::tags::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, push_counted};

/// The most tags one entity can hold.
pub const CAP: usize = 8;

/// One entity's tags.
pub type List = ArrayVec<Tag, CAP>;

/// `Vec<ArrayVec<u32, 8>>` behind [`TagStore`].
#[derive(Debug, Clone, Default)]
pub struct ArrayVecPeer {
    entities: EntitySet,
    /// `lists[e]` holds entity `e`'s tags. Invariant: `lists.len() == entities.slots()`;
    /// released entities have an empty list.
    lists: Vec<List>,
    tag_count: usize,
    allocator_calls: u64,
}

impl ArrayVecPeer {
    fn list(&mut self, entity: Entity) -> Result<&mut List, TagError> {
        self.entities.check(entity)?;
        Ok(&mut self.lists[entity as usize])
    }

    /// The crate's vectors: `lists()[e]` is entity `e`'s tags (empty for a released entity).
    /// For the harness's `ref-direct-arrayvec` loop, which uses the crate directly.
    pub fn lists(&self) -> &[List] {
        &self.lists
    }

    /// The crate's vectors taken out of the store, as [`lists`](Self::lists) orders them, and
    /// its released entities, most recently released last (the next `create_entity` reuses the
    /// last): a reference loop's throwaway state.
    pub fn into_parts(self) -> (Vec<List>, Vec<Entity>) {
        (self.lists, self.entities.into_released())
    }
}

impl TagStore for ArrayVecPeer {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "arrayvec",
            description: "Vec<ArrayVec<u32, 8>>: the fixed design in a crate, hard cap of 8 tags",
            kind: TagDesignKind::Peer {
                crate_name: "arrayvec",
                version: "0.7.8",
                idiom: "Vec<ArrayVec<u32, 8>> indexed by entity: try_push (refused past 8), contains, iter over a slice, position + swap_remove",
                docs: "https://docs.rs/arrayvec/0.7.8/arrayvec/struct.ArrayVec.html",
                adapter: "Each op on an entity first tests its `EntitySet` bit (the `TagStore` contract: a released entity is `NoSuchEntity`); `add_tag` and `remove_tag` keep `tag_count`, and a refused `try_push` becomes `CapacityExceeded`. `visit_all` adds nothing. Our designs make the same check.",
            },
        },
        tags_per_entity_cap: Some(CAP),
    };

    fn new() -> Self {
        Self::default()
    }

    fn create_entity(&mut self) -> Result<Entity, TagError> {
        match self.entities.create(u32::MAX, &mut self.allocator_calls)? {
            Created::Reused(e) => Ok(e),
            Created::Fresh(e) => {
                push_counted(&mut self.lists, List::new(), &mut self.allocator_calls);
                Ok(e)
            }
        }
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        self.list(entity)?
            .try_push(tag)
            .map_err(|_| TagError::CapacityExceeded { entity, cap: CAP })?;
        self.tag_count += 1;
        Ok(())
    }

    one_list_per_entity!();

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        self.clear_entity(entity)?;
        self.entities.destroy(entity, &mut self.allocator_calls)
    }

    fn entity_count(&self) -> usize {
        self.entities.len()
    }

    fn tag_count(&self) -> usize {
        self.tag_count
    }

    fn memory_bytes(&self) -> usize {
        self.entities.memory_bytes() + self.lists.capacity() * size_of::<List>()
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
            if !self.entities.is_live(e as Entity) && !list.is_empty() {
                return Err(format!("released entity {e} still holds tags"));
            }
        }
        let total: usize = self.lists.iter().map(|l| l.len()).sum();
        if total != self.tag_count {
            return Err(format!("tag_count {} but {total} tags", self.tag_count));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_36_bytes_like_fixed() {
        assert_eq!(size_of::<List>(), 36);
    }
}
