//! Peer: `Vec<SmallVec<[u32; 4]>>` (the `smallvec` crate).
//!
//! Design: `vec_of_vecs` with the first four tags of each entity stored inline in the outer
//! `Vec`'s element; a fifth tag spills the list to a heap buffer (capacity 8, doubling) that
//! stays until the entity is destroyed. Cost: like `vec_of_vecs`, but entities with at most
//! four tags need no allocation and no pointer chase. Trade-off: every entity pays the inline
//! capacity (`size_of::<SmallVec<[u32; 4]>>()` bytes, 24 with smallvec 1.x on 64-bit targets),
//! and spilled entities pay it on top of their heap buffer.

use crate::DesignMeta;
use ::smallvec::SmallVec;

use crate::tags::entities::{Created, EntitySet};
use crate::tags::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, push_counted};

/// One entity's tags: inline up to 4, then on the heap.
pub type List = SmallVec<[Tag; 4]>;

/// `Vec<SmallVec<[u32; 4]>>` behind [`TagStore`].
#[derive(Debug, Clone, Default)]
pub struct SmallVecPeer {
    entities: EntitySet,
    /// `lists[e]` holds entity `e`'s tags. Invariant: `lists.len() == entities.slots()`;
    /// released entities have an empty, unspilled list.
    lists: Vec<List>,
    tag_count: usize,
    allocator_calls: u64,
}

impl SmallVecPeer {
    fn list(&mut self, entity: Entity) -> Result<&mut List, TagError> {
        self.entities.check(entity)?;
        Ok(&mut self.lists[entity as usize])
    }

    /// The crate's vectors: `lists()[e]` is entity `e`'s tags (empty for a released entity).
    /// For the harness's `ref-direct-smallvec` loop, which uses the crate directly.
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

impl TagStore for SmallVecPeer {
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
        let list = self.list(entity)?;
        // `push` grows the buffer exactly when the list is full (`capacity()` is the inline
        // capacity until the list spills), so a spill and every later growth each count one
        // call: the crate's own test, read once before the push rather than `capacity()`
        // compared around it.
        let grows = list.len() == list.capacity();
        list.push(tag);
        self.allocator_calls += u64::from(grows);
        self.tag_count += 1;
        Ok(())
    }

    one_list_per_entity!();

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = std::mem::take(self.list(entity)?);
        self.tag_count -= list.len();
        if list.spilled() {
            self.allocator_calls += 1;
        }
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
            + self.lists.capacity() * size_of::<List>()
            + self
                .lists
                .iter()
                .filter(|l| l.spilled())
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
            if !self.entities.is_live(e as Entity) && (list.spilled() || !list.is_empty()) {
                return Err(format!("released entity {e} still holds tags or a buffer"));
            }
        }
        let total: usize = self.lists.iter().map(|l| l.len()).sum();
        if total != self.tag_count {
            return Err(format!("tag_count {} but {total} tags", self.tag_count));
        }
        Ok(())
    }
}
