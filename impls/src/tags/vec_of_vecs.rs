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

use super::entities::{Created, EntitySet};
use super::{
    Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, count_capacity_change,
    push_counted,
};
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
#[derive(Debug, Clone, Default)]
pub struct VecOfVecs<G = StdGrowth> {
    growth: std::marker::PhantomData<G>,
    entities: EntitySet,
    /// `lists[e]` holds entity `e`'s tags. Invariant: `lists.len() == entities.slots()`, and
    /// the list of a released entity is empty with no capacity.
    lists: Vec<Vec<Tag>>,
    /// Total tags over all lists.
    tag_count: usize,
    allocator_calls: u64,
}

impl<G: Growth> VecOfVecs<G> {
    fn list(&mut self, entity: Entity) -> Result<&mut Vec<Tag>, TagError> {
        self.entities.check(entity)?;
        Ok(&mut self.lists[entity as usize])
    }

    /// The design's vectors: `lists()[e]` is entity `e`'s tags (empty for a released entity).
    /// For the harness's `ref-direct-vec_of_vecs` loop, which uses the `Vec<Vec<u32>>` directly.
    pub fn lists(&self) -> &[Vec<Tag>] {
        &self.lists
    }

    /// The design's vectors taken out of the store, as [`lists`](Self::lists) orders them, and
    /// its released entities, most recently released last (the next `create_entity` reuses the
    /// last): a reference loop's throwaway state.
    pub fn into_parts(self) -> (Vec<Vec<Tag>>, Vec<Entity>) {
        (self.lists, self.entities.into_released())
    }
}

impl<G: Growth + Default> TagStore for VecOfVecs<G> {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: G::NAME,
            description: G::DESCRIPTION,
            kind: G::KIND,
        },
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
        let list = self.list(entity)?;
        let before = list.capacity();
        if list.len() == before {
            list.reserve_exact(G::grown(before) - list.len());
        }
        list.push(tag);
        count_capacity_change(before, list.capacity(), &mut self.allocator_calls);
        self.tag_count += 1;
        Ok(())
    }

    one_list_per_entity!();

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
