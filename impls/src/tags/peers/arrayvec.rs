//! Peer: `Vec<ArrayVec<u32, 8>>` (the `arrayvec` crate): the article's fixed-size design in a
//! crate.
//!
//! Design: the same single buffer of fixed records as `fixed` (`ArrayVec<u32, 8>` is a `u32`
//! length and eight tags, 36 bytes), with the crate's bounds-checked push. A ninth tag is a
//! [`TagError::CapacityExceeded`](crate::tags::TagError::CapacityExceeded) (from `try_push`'s `CapacityError`), never a panic.
//! Cost and trade-off: as `fixed`.

use ::arrayvec::ArrayVec;

use crate::DesignMeta;
use crate::tags::list_per_entity::{ListPerEntity, TagList};
use crate::tags::{Tag, TagDesignInfo, TagDesignKind};

/// The most tags one entity can hold.
pub const CAP: usize = 8;

/// One entity's tags.
pub type List = ArrayVec<Tag, CAP>;

// 36 bytes, like `fixed`'s record.
const _: () = assert!(size_of::<List>() == 36);

/// `Vec<ArrayVec<u32, 8>>` behind [`TagStore`](crate::tags::TagStore).
pub type ArrayVecPeer = ListPerEntity<List>;

impl TagList for List {
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

    /// `try_push`, refused past [`CAP`].
    #[inline]
    fn push_tag(&mut self, tag: Tag, _: &mut u64) -> Result<(), usize> {
        self.try_push(tag).map_err(|_| CAP)
    }

    vector_tag_list_ops!();

    /// Only clears: the tags are inline.
    fn free(&mut self, _: &mut u64) {
        self.clear();
    }

    fn heap_bytes(&self) -> usize {
        0
    }

    fn holds_anything(&self) -> bool {
        !self.is_empty()
    }
}
