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
//!
//! The inner arrays' growth policy is a parameter ([`Growth`]): [`StdGrowth`] (the article's
//! baseline, what `Vec::push` does: 4, then doubling) and the four policies the article weighs
//! for a growing array, [`AddOne`], [`AddSixteen`], [`TimesOneAndHalf`], [`TimesTwo`] (tuned
//! variants: only the capacity a full inner array grows to differs). Additive growth reallocates
//! (and may copy the whole list) every 1 or 16 pushes, so pushes cost O(tags) amortised and
//! memory slack is at most 0 or 15 tags; geometric growth reallocates rarely, each time copying
//! everything, which is the periodic hitch the latency pass's p99.9 / max shows, and leaves up
//! to a third or a half of the capacity unused.

use super::list_per_entity::{ListPerEntity, TagList};
use super::{Tag, TagDesignInfo, TagDesignKind, count_capacity_change};
use crate::DesignMeta;

/// How a full inner array grows: the registry name and description of the design using it,
/// and the next capacity.
pub trait Growth: 'static {
    /// The design's registry name.
    const NAME: &'static str;
    /// The design's one-line description.
    const DESCRIPTION: &'static str;
    /// Article baseline or tuned variant.
    const KIND: TagDesignKind;
    /// The capacity a full array of capacity `cap` grows to (more than `cap`).
    fn grown(cap: usize) -> usize;
}

/// What `Vec::push` does for `u32`: 4 on the first push, then doubling.
#[derive(Debug, Clone, Copy, Default)]
pub struct StdGrowth;
impl Growth for StdGrowth {
    const NAME: &'static str = "vec_of_vecs";
    const DESCRIPTION: &'static str =
        "Vec<Vec<u32>>: one heap allocation per entity (the article's baseline)";
    const KIND: TagDesignKind = TagDesignKind::Article;
    fn grown(cap: usize) -> usize {
        (cap * 2).max(4)
    }
}

/// Grow by one tag: a reallocation on every push, no slack.
#[derive(Debug, Clone, Copy, Default)]
pub struct AddOne;
impl Growth for AddOne {
    const NAME: &'static str = "vec_of_vecs_grow_add1";
    const DESCRIPTION: &'static str =
        "vec_of_vecs whose inner arrays grow by +1: a reallocation per push, no slack";
    const KIND: TagDesignKind = TagDesignKind::Tuned;
    fn grown(cap: usize) -> usize {
        cap + 1
    }
}

/// Grow by sixteen tags: a reallocation every 16 pushes, at most 15 tags of slack.
#[derive(Debug, Clone, Copy, Default)]
pub struct AddSixteen;
impl Growth for AddSixteen {
    const NAME: &'static str = "vec_of_vecs_grow_add16";
    const DESCRIPTION: &'static str =
        "vec_of_vecs whose inner arrays grow by +16: a reallocation every 16 pushes";
    const KIND: TagDesignKind = TagDesignKind::Tuned;
    fn grown(cap: usize) -> usize {
        cap + 16
    }
}

/// Grow by half: capacities 1, 2, 3, 4, 6, 9, 13, ...
#[derive(Debug, Clone, Copy, Default)]
pub struct TimesOneAndHalf;
impl Growth for TimesOneAndHalf {
    const NAME: &'static str = "vec_of_vecs_grow_x1_5";
    const DESCRIPTION: &'static str =
        "vec_of_vecs whose inner arrays grow x1.5 (from 1): rare reallocations, up to 1/3 slack";
    const KIND: TagDesignKind = TagDesignKind::Tuned;
    fn grown(cap: usize) -> usize {
        (cap + cap / 2).max(cap + 1)
    }
}

/// Double: capacities 1, 2, 4, 8, ...
#[derive(Debug, Clone, Copy, Default)]
pub struct TimesTwo;
impl Growth for TimesTwo {
    const NAME: &'static str = "vec_of_vecs_grow_x2";
    const DESCRIPTION: &'static str =
        "vec_of_vecs whose inner arrays double (from 1): rarest reallocations, up to 1/2 slack";
    const KIND: TagDesignKind = TagDesignKind::Tuned;
    fn grown(cap: usize) -> usize {
        (cap * 2).max(1)
    }
}

/// One `Vec<u32>` per entity, grown by `G`.
pub type VecOfVecs<G = StdGrowth> = ListPerEntity<Vec<Tag>, G>;

/// The list of a [`VecOfVecs`]: a `Vec<u32>` whose buffer grows by `G` and is freed with its
/// entity.
impl<G: Growth> TagList<G> for Vec<Tag> {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: G::NAME,
            description: G::DESCRIPTION,
            kind: G::KIND,
        },
        tags_per_entity_cap: None,
    };

    #[inline]
    fn push_tag(&mut self, tag: Tag, calls: &mut u64) -> Result<(), usize> {
        let before = self.capacity();
        if self.len() == before {
            self.reserve_exact(G::grown(before) - self.len());
        }
        self.push(tag);
        count_capacity_change(before, self.capacity(), calls);
        Ok(())
    }

    vector_tag_list_ops!();

    fn free(&mut self, calls: &mut u64) {
        count_capacity_change(std::mem::take(self).capacity(), 0, calls);
    }

    fn heap_bytes(&self) -> usize {
        self.capacity() * size_of::<Tag>()
    }

    fn holds_anything(&self) -> bool {
        self.capacity() != 0
    }
}
