//! Peer: `Vec<SmallVec<[u32; 4]>>` (the `smallvec` crate).
//!
//! Design: `vec_of_vecs` with the first four tags of each entity stored inline in the outer
//! `Vec`'s element; a fifth tag spills the list to a heap buffer (capacity 8, doubling) that
//! stays until the entity is destroyed. Cost: like `vec_of_vecs`, but entities with at most
//! four tags need no allocation and no pointer chase. Trade-off: every entity pays the inline
//! capacity (`size_of::<SmallVec<[u32; 4]>>()` bytes, 24 with smallvec 1.x on 64-bit targets),
//! and spilled entities pay it on top of their heap buffer.

use ::smallvec::SmallVec;

use crate::DesignMeta;
use crate::tags::list_per_entity::{ListPerEntity, TagList};
use crate::tags::{Tag, TagDesignInfo, TagDesignKind};

/// One entity's tags: inline up to 4, then on the heap.
pub type List = SmallVec<[Tag; 4]>;

/// `Vec<SmallVec<[u32; 4]>>` behind [`TagStore`](crate::tags::TagStore).
pub type SmallVecPeer = ListPerEntity<List>;

impl TagList for List {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "smallvec",
            description: "Vec<SmallVec<[u32; 4]>>: up to 4 tags inline, then one heap buffer per entity",
            kind: TagDesignKind::Peer {
                crate_name: "smallvec",
                version: "1.16.5",
                idiom: "Vec<SmallVec<[u32; 4]>> indexed by entity: push, contains, iter over a slice, position + swap_remove",
                docs: "https://docs.rs/smallvec/1.16.5/smallvec/struct.SmallVec.html",
                adapter: "Each op on an entity first tests its `EntitySet` bit (the `TagStore` contract: a released entity is `NoSuchEntity`); `add_tag` and `remove_tag` keep `tag_count`, and `add_tag` compares `capacity()` around `push` to count allocator calls. `visit_all` adds nothing. Our designs make the same check.",
            },
        },
        tags_per_entity_cap: None,
    };

    #[inline]
    fn push_tag(&mut self, tag: Tag, calls: &mut u64) -> Result<(), usize> {
        // `push` grows the buffer exactly when the list is full (`capacity()` is the inline
        // capacity until the list spills), so a spill and every later growth each count one
        // call: the crate's own test, read once before the push rather than `capacity()`
        // compared around it.
        let grows = self.len() == self.capacity();
        self.push(tag);
        *calls += u64::from(grows);
        Ok(())
    }

    vector_tag_list_ops!();

    /// Back to the inline, empty list; a spilled buffer is freed.
    fn free(&mut self, calls: &mut u64) {
        if std::mem::take(self).spilled() {
            *calls += 1;
        }
    }

    fn heap_bytes(&self) -> usize {
        if self.spilled() {
            self.capacity() * size_of::<Tag>()
        } else {
            0
        }
    }

    fn holds_anything(&self) -> bool {
        self.spilled() || !self.is_empty()
    }
}
