//! Heap-linked nodes: one `Box<{ tag, next }>` per tag, the article's "even worse than vector
//! of vectors" linked list, ported as the article describes it (pointers, not offsets).
//!
//! Layout: a head `Option<Box<Node>>` per entity (8 bytes, the null pointer is `None`) and one
//! 16-byte heap node per tag (`u32` tag, padding, 8-byte `next` pointer) wherever the global
//! allocator puts it. Cost: add O(1) (push at the front, one allocator call), remove O(tags of
//! the entity) plus one free, has O(tags), clear O(tags) frees. Trade-off against
//! [`linked_nodes`](super::linked_nodes) (the same list with 32-bit offsets into one buffer):
//! every tag is an allocator call and a pointer chase into memory the allocator chose, so
//! visiting follows one potential cache miss per tag and memory per tag doubles (16 B against
//! 8 B, before the allocator's own header).

use super::entities::Bookkeeping;
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore};
use crate::DesignMeta;

/// One tag in a singly linked list of heap nodes.
#[derive(Debug)]
struct Node {
    tag: Tag,
    /// The next node of the same entity, `None` at the end.
    next: Option<Box<Node>>,
}

/// A `Box` per tag, linked from a head pointer per entity.
/// Not `Clone`: a derived clone of a long list would recurse once per node.
#[derive(Debug, Default)]
pub struct BoxedNodes {
    book: Bookkeeping,
    /// `heads[e]`: the first node of entity `e`. Invariant: one per entity handle;
    /// released entities have `None`.
    heads: Vec<Option<Box<Node>>>,
}

impl BoxedNodes {
    fn head_mut(&mut self, entity: Entity) -> Result<&mut Option<Box<Node>>, TagError> {
        self.book.record_mut(&mut self.heads, entity)
    }

    /// The tags of the list starting at `head`, in order.
    fn chain(head: &Option<Box<Node>>) -> impl Iterator<Item = &Node> {
        std::iter::successors(head.as_deref(), |n| n.next.as_deref())
    }

    /// Frees the list at `head` node by node (a recursive `Drop` of a long list would overflow
    /// the stack); returns how many nodes it freed.
    fn free_list(mut head: Option<Box<Node>>) -> usize {
        let mut n = 0;
        while let Some(mut node) = head {
            head = node.next.take();
            n += 1;
        }
        n
    }
}

impl Drop for BoxedNodes {
    fn drop(&mut self) {
        for head in &mut self.heads {
            Self::free_list(head.take());
        }
    }
}

impl TagStore for BoxedNodes {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "boxed_nodes",
            description: "a Box<{ tag, next }> per tag: an allocation and a pointer chase per tag (the article's \"even worse\" list)",
            kind: TagDesignKind::Article,
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    answered_by_the_bookkeeping! { create: heads = None, destroy: clear_entity }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let head = self.head_mut(entity)?;
        let next = head.take();
        *head = Some(Box::new(Node { tag, next }));
        self.book.allocator_calls += 1;
        self.book.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let mut link = self.head_mut(entity)?;
        loop {
            match link {
                None => return Ok(false),
                Some(node) if node.tag == tag => {
                    let next = node.next.take();
                    *link = next;
                    self.book.allocator_calls += 1;
                    self.book.tag_count -= 1;
                    return Ok(true);
                }
                Some(node) => link = &mut node.next,
            }
        }
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let head = self.head_mut(entity)?;
        Ok(Self::chain(head).any(|n| n.tag == tag))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        let head = self.head_mut(entity)?;
        Self::chain(head).for_each(|n| f(n.tag));
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have no nodes.
        for (e, head) in self.heads.iter().enumerate() {
            Self::chain(head).for_each(|n| f(e as Entity, n.tag));
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let list = self.head_mut(entity)?.take();
        let n = Self::free_list(list);
        self.book.allocator_calls += n as u64;
        self.book.tag_count -= n;
        Ok(())
    }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.heads) + self.book.tag_count * size_of::<Node>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.heads, "heads")?;
        let mut total = 0;
        for (e, head) in self.heads.iter().enumerate() {
            if head.is_some() && !self.book.entities.is_live(e as Entity) {
                return Err(format!("released entity {e} has nodes"));
            }
            total += Self::chain(head).count();
        }
        self.book.check_tag_count(total)?;
        Ok(())
    }
}
