//! Linked list of `{ tag, next }` nodes in one `Vec` (the article's linked-list design with
//! offsets instead of pointers).
//!
//! Layout: a head index per entity (4 bytes) and 8-byte nodes in a single buffer; node 0 is
//! reserved as nil, as in the article, so `next == 0` ends a list. Freed nodes form a LIFO free
//! list threaded through their own `next` fields and are reused before the buffer grows.
//! Cost: add O(1) (push at the front), remove and has O(tags of the entity), clear O(tags).
//! Trade-off: one allocation for all tags and no cap, but half of every node is the link, and
//! after churn the links jump around the buffer (a potential cache miss per tag).

use super::entities::Bookkeeping;
use super::linked::{self, Linked, NIL};
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore};
use crate::DesignMeta;

/// One tag in a singly linked list.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    tag: Tag,
    /// The next node of the same entity (or of the free list), `NIL` at the end.
    next: u32,
}

/// `{ tag, next }` nodes in one `Vec`, node 0 nil, a free list of nodes.
#[derive(Debug, Clone, Default)]
pub struct LinkedNodes {
    book: Bookkeeping,
    /// `heads[e]`: first node of entity `e`, `NIL` if it has no tags. Invariant: one per entity
    /// handle; released entities have `NIL`.
    heads: Vec<u32>,
    /// Invariant: empty, or `nodes[0]` is the unused nil node and every other node is on
    /// exactly one list: a live entity's, or the free list.
    nodes: Vec<Node>,
    /// First free node, `NIL` if none.
    free_head: u32,
}

impl LinkedNodes {
    fn head(&self, entity: Entity) -> Result<u32, TagError> {
        self.book.record(&self.heads, entity).copied()
    }

    /// The nodes of the list starting at `head`, in order.
    fn chain(&self, head: u32) -> impl Iterator<Item = u32> + '_ {
        linked::chain(&self.nodes, head)
    }

    /// A node holding `tag` and linking to `next`, from the free list or a new slot.
    fn alloc_node(&mut self, tag: Tag, next: u32) -> Result<u32, TagError> {
        let node = Node { tag, next };
        linked::store(
            &mut self.nodes,
            &mut self.free_head,
            node,
            "nodes",
            &mut self.book.allocator_calls,
        )
    }
}

impl Linked for Node {
    const NIL_ELEMENT: Self = Node { tag: 0, next: NIL };

    #[inline]
    fn next(&self) -> u32 {
        self.next
    }
}

impl TagStore for LinkedNodes {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "linked_nodes",
            description: "{ tag, next } nodes in one Vec, node 0 nil, free list: no cap, 50% of memory is links",
            kind: TagDesignKind::Article,
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    answered_by_the_bookkeeping! { create: heads = NIL, destroy: clear_entity }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let head = self.head(entity)?;
        self.heads[entity as usize] = self.alloc_node(tag, head)?;
        self.book.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let mut prev = NIL;
        let mut cursor = self.head(entity)?;
        while cursor != NIL {
            let node = self.nodes[cursor as usize];
            if node.tag == tag {
                if prev == NIL {
                    self.heads[entity as usize] = node.next;
                } else {
                    self.nodes[prev as usize].next = node.next;
                }
                self.nodes[cursor as usize].next = self.free_head;
                self.free_head = cursor;
                self.book.tag_count -= 1;
                return Ok(true);
            }
            prev = cursor;
            cursor = node.next;
        }
        Ok(false)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let head = self.head(entity)?;
        Ok(self.chain(head).any(|n| self.nodes[n as usize].tag == tag))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        let head = self.head(entity)?;
        self.chain(head).for_each(|n| f(self.nodes[n as usize].tag));
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have NIL heads.
        for (e, &head) in self.heads.iter().enumerate() {
            self.chain(head)
                .for_each(|n| f(e as Entity, self.nodes[n as usize].tag));
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let head = self.head(entity)?;
        let Some(tail) = self.chain(head).last() else {
            return Ok(());
        };
        let n = self.chain(head).count();
        self.nodes[tail as usize].next = self.free_head;
        self.free_head = head;
        self.heads[entity as usize] = NIL;
        self.book.tag_count -= n;
        Ok(())
    }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.heads) + self.nodes.capacity() * size_of::<Node>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.heads, "heads")?;
        let mut owner = vec![false; self.nodes.len()];
        let mut walk = |head: u32, what: &str| -> Result<usize, String> {
            let mut count = 0;
            let mut cursor = head;
            while cursor != NIL {
                let i = cursor as usize;
                if i >= owner.len() || owner[i] {
                    return Err(format!("{what}: node {i} is out of range or on two lists"));
                }
                owner[i] = true;
                count += 1;
                cursor = self.nodes[i].next;
            }
            Ok(count)
        };
        let mut total = 0;
        for (e, &head) in self.heads.iter().enumerate() {
            if head != NIL && !self.book.entities.is_live(e as Entity) {
                return Err(format!("released entity {e} has nodes"));
            }
            total += walk(head, &format!("entity {e}"))?;
        }
        walk(self.free_head, "free list")?;
        self.book.check_tag_count(total)?;
        linked::check_all_listed(&owner, "node")
    }
}
