//! Fixed size: at most [`MAX_TAGS`] tags per entity, all in one `Vec` (the article's first
//! design).
//!
//! Layout: one 36-byte record `{ n, tags: [u32; 8] }` per entity in a single buffer, so an
//! entity's tags are one contiguous read and visit-all is one linear scan. Cost: add O(1),
//! remove and has O(n) within one record; the only allocator calls are growths of the one
//! buffer. Trade-off: the hard limit. Adding a ninth tag is a [`TagError::CapacityExceeded`],
//! and every entity pays for eight tags whatever it uses (3 tags use 12 of 36 bytes).

use super::entities::{Created, EntitySet};
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, push_counted};
use crate::DesignMeta;

/// The article's `MAX_TAGS`: the most tags one entity can hold.
pub const MAX_TAGS: usize = 8;

/// One entity's tags.
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    /// Tags in use: `tags[..n]`. Invariant: `n <= MAX_TAGS`; 0 for released entities.
    n: u32,
    /// Slots past `n` hold stale values and are never read.
    tags: [Tag; MAX_TAGS],
}

impl Record {
    fn tags(&self) -> &[Tag] {
        &self.tags[..self.n as usize]
    }
}

/// `{ n, tags: [u32; 8] }` per entity in one `Vec`.
#[derive(Debug, Clone, Default)]
pub struct Fixed {
    entities: EntitySet,
    /// `records[e]` is entity `e`'s. Invariant: `records.len() == entities.slots()`.
    records: Vec<Record>,
    tag_count: usize,
    allocator_calls: u64,
}

impl Fixed {
    fn record(&mut self, entity: Entity) -> Result<&mut Record, TagError> {
        self.entities.check(entity)?;
        Ok(&mut self.records[entity as usize])
    }
}

impl TagStore for Fixed {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "fixed",
            description: "{ n, tags: [u32; 8] } per entity in one Vec: one linear buffer, hard cap of 8 tags",
            kind: TagDesignKind::Article,
        },
        tags_per_entity_cap: Some(MAX_TAGS),
    };

    fn new() -> Self {
        Self::default()
    }

    fn create_entity(&mut self) -> Result<Entity, TagError> {
        match self.entities.create(u32::MAX, &mut self.allocator_calls)? {
            Created::Reused(e) => Ok(e),
            Created::Fresh(e) => {
                push_counted(
                    &mut self.records,
                    Record::default(),
                    &mut self.allocator_calls,
                );
                Ok(e)
            }
        }
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let record = self.record(entity)?;
        let n = record.n as usize;
        if n == MAX_TAGS {
            return Err(TagError::CapacityExceeded {
                entity,
                cap: MAX_TAGS,
            });
        }
        record.tags[n] = tag;
        record.n += 1;
        self.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let record = self.record(entity)?;
        let Some(i) = record.tags().iter().position(|&t| t == tag) else {
            return Ok(false);
        };
        record.n -= 1;
        record.tags[i] = record.tags[record.n as usize];
        self.tag_count -= 1;
        Ok(true)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        Ok(self.record(entity)?.tags().contains(&tag))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        self.record(entity)?.tags().iter().for_each(|&t| f(t));
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have n == 0.
        for (e, record) in self.records.iter().enumerate() {
            for &t in record.tags() {
                f(e as Entity, t);
            }
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let record = self.record(entity)?;
        let n = record.n as usize;
        record.n = 0;
        self.tag_count -= n;
        Ok(())
    }

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
        self.entities.memory_bytes() + self.records.capacity() * size_of::<Record>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        if self.records.len() != self.entities.slots() {
            return Err(format!(
                "{} records for {} entity slots",
                self.records.len(),
                self.entities.slots()
            ));
        }
        let mut total = 0;
        for (e, record) in self.records.iter().enumerate() {
            let n = record.n as usize;
            if n > MAX_TAGS || (n > 0 && !self.entities.is_live(e as Entity)) {
                return Err(format!("record {e} has n = {n}"));
            }
            total += n;
        }
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
    fn record_is_36_bytes() {
        assert_eq!(size_of::<Record>(), 36);
    }

    #[test]
    fn ninth_tag_is_a_clear_error_and_changes_nothing() {
        let mut store = Fixed::new();
        let e = store.create_entity().unwrap();
        for t in 0..8 {
            store.add_tag(e, t).unwrap();
        }
        let err = store.add_tag(e, 8).unwrap_err();
        assert_eq!(err, TagError::CapacityExceeded { entity: e, cap: 8 });
        assert_eq!(err.to_string(), "entity 0 already holds its cap of 8 tags");
        assert_eq!(store.tag_count(), 8);
        assert!(!store.has_tag(e, 8).unwrap());
        store.check_invariants().unwrap();
    }
}
