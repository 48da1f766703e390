//! The reference model: an obviously correct tag store, whose answers every design's replay
//! must reproduce (`bench-harness` verification, `impls/tests/integration/tags_model.rs`). Not a
//! benchmarked design: it is not in the registry.
//!
//! Layout: `Vec<Option<Vec<Tag>>>`, `Some` exactly for live entities, plus a stack of released
//! handles. The handle rule is the family's ([`super::entities::EntitySet`]'s: a released
//! handle is handed out again before a new one, most recently released first) written out
//! again with plain `Vec`s rather than shared, so a bug in `EntitySet` shows as a disagreement.
//! Removal keeps the order of the remaining tags; every operation is a linear scan at most.

use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, count_capacity_change};
use crate::DesignMeta;

/// Reference model of the [`TagStore`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelStore {
    /// `lists[e]` is `Some(tags)` exactly while entity `e` is live.
    lists: Vec<Option<Vec<Tag>>>,
    /// Released handles, most recently released last. Invariant: exactly the `e` with
    /// `lists[e] == None`, each once.
    released: Vec<Entity>,
    /// Allocator calls by the family's rule (every capacity change of a buffer counts one).
    allocator_calls: u64,
}

impl ModelStore {
    /// The tags of entity `entity` in insertion order (minus removals), or `None` if it is not
    /// live.
    pub fn tags(&self, entity: Entity) -> Option<&[Tag]> {
        self.lists.get(entity as usize)?.as_deref()
    }

    /// Handles ever handed out (live or released).
    pub fn slots(&self) -> usize {
        self.lists.len()
    }

    fn list(&mut self, entity: Entity) -> Result<&mut Vec<Tag>, TagError> {
        self.lists
            .get_mut(entity as usize)
            .and_then(Option::as_mut)
            .ok_or(TagError::NoSuchEntity { entity })
    }

    /// Runs `change` on a buffer, counting one allocator call if its capacity changed.
    fn counted<T, R>(
        vec: &mut Vec<T>,
        calls: &mut u64,
        change: impl FnOnce(&mut Vec<T>) -> R,
    ) -> R {
        let before = vec.capacity();
        let result = change(vec);
        count_capacity_change(before, vec.capacity(), calls);
        result
    }
}

impl TagStore for ModelStore {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: Vec<Option<Vec<u32>>> and a released-handle stack (verification only)",
            kind: TagDesignKind::Article,
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn create_entity(&mut self) -> Result<Entity, TagError> {
        let calls = &mut self.allocator_calls;
        if let Some(entity) = Self::counted(&mut self.released, calls, Vec::pop) {
            self.lists[entity as usize] = Some(Vec::new());
            return Ok(entity);
        }
        let entity = Entity::try_from(self.lists.len())
            .ok()
            .filter(|&e| e < u32::MAX)
            .ok_or(TagError::IndexSpaceExhausted {
                what: "entities",
                limit: u64::from(u32::MAX),
            })?;
        Self::counted(&mut self.lists, calls, |l| l.push(Some(Vec::new())));
        Ok(entity)
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let mut calls = 0;
        Self::counted(self.list(entity)?, &mut calls, |l| l.push(tag));
        self.allocator_calls += calls;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let list = self.list(entity)?;
        match list.iter().position(|&t| t == tag) {
            Some(i) => {
                list.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        Ok(self.list(entity)?.contains(&tag))
    }

    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        for &t in self.list(entity)?.iter() {
            f(t);
        }
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        for (e, list) in self.lists.iter().enumerate() {
            for &t in list.iter().flatten() {
                f(e as Entity, t);
            }
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        self.list(entity)?.clear();
        Ok(())
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = std::mem::take(self.list(entity)?);
        count_capacity_change(list.capacity(), 0, &mut self.allocator_calls);
        self.lists[entity as usize] = None;
        Self::counted(&mut self.released, &mut self.allocator_calls, |r| {
            r.push(entity);
        });
        Ok(())
    }

    fn entity_count(&self) -> usize {
        self.lists.iter().flatten().count()
    }

    fn tag_count(&self) -> usize {
        self.lists.iter().flatten().map(Vec::len).sum()
    }

    fn memory_bytes(&self) -> usize {
        self.lists.capacity() * size_of::<Option<Vec<Tag>>>()
            + self.released.capacity() * size_of::<Entity>()
            + self
                .lists
                .iter()
                .flatten()
                .map(|l| l.capacity() * size_of::<Tag>())
                .sum::<usize>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut released: Vec<Entity> = self.released.clone();
        released.sort_unstable();
        let dead: Vec<Entity> = (0..self.lists.len())
            .filter(|&e| self.lists[e].is_none())
            .map(|e| e as Entity)
            .collect();
        if released != dead {
            return Err(format!(
                "released handles {released:?} are not exactly the dead ones {dead:?}"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reuses_released_handles_last_first_and_keeps_multisets() {
        let mut m = ModelStore::new();
        let handles: Vec<Entity> = (0..4).map(|_| m.create_entity().unwrap()).collect();
        assert_eq!(handles, [0, 1, 2, 3]);
        m.add_tag(1, 7).unwrap();
        m.add_tag(1, 7).unwrap();
        m.add_tag(1, 9).unwrap();
        assert_eq!(m.remove_tag(1, 7), Ok(true));
        assert_eq!(m.tags(1), Some(&[7, 9][..]));
        m.destroy_entity(1).unwrap();
        m.destroy_entity(3).unwrap();
        assert_eq!(m.has_tag(1, 9), Err(TagError::NoSuchEntity { entity: 1 }));
        assert_eq!(m.create_entity(), Ok(3));
        assert_eq!(m.create_entity(), Ok(1));
        assert_eq!(m.create_entity(), Ok(4));
        assert_eq!(m.tags(1), Some(&[][..]));
        assert_eq!((m.entity_count(), m.tag_count(), m.slots()), (5, 0, 5));
        m.check_invariants().unwrap();
        assert!(m.allocator_calls() > 0);
    }
}
