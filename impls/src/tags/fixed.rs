//! Fixed size: at most [`MAX_TAGS`] tags per entity, all in one `Vec` (the article's first
//! design).
//!
//! Layout: one 36-byte record `{ n, tags: [u32; 8] }` per entity in a single buffer, so an
//! entity's tags are one contiguous read and visit-all is one linear scan. Cost: add O(1),
//! remove and has O(n) within one record; the only allocator calls are growths of the one
//! buffer. Trade-off: the hard limit. Adding a ninth tag is a
//! [`TagError::CapacityExceeded`](super::TagError::CapacityExceeded),
//! and every entity pays for eight tags whatever it uses (3 tags use 12 of 36 bytes).

use super::list_per_entity::{ListPerEntity, TagList};
use super::{Tag, TagDesignInfo, TagDesignKind};
use crate::DesignMeta;

/// The article's `MAX_TAGS`: the most tags one entity can hold.
pub const MAX_TAGS: usize = 8;

/// `{ n, tags: [u32; 8] }` per entity in one `Vec`.
pub type Fixed = ListPerEntity<Record>;

/// One entity's tags: a list of at most [`MAX_TAGS`] held inline, 36 bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Record {
    /// Tags in use: `tags[..n]`. Invariant: `n <= MAX_TAGS`; 0 for released entities.
    n: u32,
    /// Slots past `n` hold stale values and are never read.
    tags: [Tag; MAX_TAGS],
}

const _: () = assert!(size_of::<Record>() == 36);

impl std::ops::Deref for Record {
    type Target = [Tag];

    /// The tags in use.
    fn deref(&self) -> &[Tag] {
        &self.tags[..self.n as usize]
    }
}

impl TagList for Record {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "fixed",
            description: "{ n, tags: [u32; 8] } per entity in one Vec: one linear buffer, hard cap of 8 tags",
            kind: TagDesignKind::Article,
        },
        tags_per_entity_cap: Some(MAX_TAGS),
    };

    /// The capacity test is the slot's own bounds check (`get_mut`), so the write needs no
    /// second one.
    #[inline]
    fn push_tag(&mut self, tag: Tag, _: &mut u64) -> Result<(), usize> {
        let slot = self.tags.get_mut(self.n as usize).ok_or(MAX_TAGS)?;
        *slot = tag;
        self.n += 1;
        Ok(())
    }

    #[inline]
    fn remove_at(&mut self, i: usize) {
        self.n -= 1;
        self.tags[i] = self.tags[self.n as usize];
    }

    fn clear_tags(&mut self) {
        self.n = 0;
    }

    /// Only clears: the tags are inline, the one buffer is the store's.
    fn free(&mut self, _: &mut u64) {
        self.n = 0;
    }

    fn heap_bytes(&self) -> usize {
        0
    }

    fn holds_anything(&self) -> bool {
        self.n > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tags::fixtures::one_entity_with_tags;
    use crate::tags::{TagError, TagStore};

    #[test]
    fn ninth_tag_is_a_clear_error_and_changes_nothing() {
        let (mut store, e) = one_entity_with_tags::<Fixed>(0..8);
        let err = store.add_tag(e, 8).unwrap_err();
        assert_eq!(err, TagError::CapacityExceeded { entity: e, cap: 8 });
        assert_eq!(err.to_string(), "entity 0 already holds its cap of 8 tags");
        assert_eq!(store.tag_count(), 8);
        assert!(!store.has_tag(e, 8).unwrap());
        store.check_invariants().unwrap();
    }
}
