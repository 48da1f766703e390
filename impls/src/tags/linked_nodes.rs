//! Linked list of `{ tag, next }` nodes in one `Vec` (the article's linked-list design with
//! offsets instead of pointers).
//!
//! Layout: a head index per entity (4 bytes) and 8-byte nodes in a single buffer; node 0 is
//! reserved as nil, as in the article, so `next == 0` ends a list. Freed nodes form a LIFO free
//! list threaded through their own `next` fields and are reused before the buffer grows.
//! Cost: add O(1) (push at the front), remove and has O(tags of the entity), clear O(tags).
//! Trade-off: one allocation for all tags and no cap, but half of every node is the link, and
//! after churn the links jump around the buffer (a potential cache miss per tag).

use super::entities::{Created, EntitySet};
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, push_counted};
use crate::DesignMeta;

/// The nil node index.
const NIL: u32 = 0;

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
    entities: EntitySet,
    /// `heads[e]`: first node of entity `e`, `NIL` if it has no tags. Invariant:
    /// `heads.len() == entities.slots()`; released entities have `NIL`.
    heads: Vec<u32>,
    /// Invariant: empty, or `nodes[0]` is the unused nil node and every other node is on
    /// exactly one list: a live entity's, or the free list.
    nodes: Vec<Node>,
    /// First free node, `NIL` if none.
    free_head: u32,
    tag_count: usize,
    allocator_calls: u64,
}

impl LinkedNodes {
    fn head(&self, entity: Entity) -> Result<u32, TagError> {
        self.entities.check(entity)?;
        Ok(self.heads[entity as usize])
    }

    /// The nodes of the list starting at `head`, in order.
    fn chain(&self, head: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(head).filter(|&n| n != NIL), |&n| {
            Some(self.nodes[n as usize].next).filter(|&n| n != NIL)
        })
    }

    /// A node holding `tag` and linking to `next`, from the free list or a new slot.
    fn alloc_node(&mut self, tag: Tag, next: u32) -> Result<u32, TagError> {
        let node = Node { tag, next };
        if self.free_head != NIL {
            let index = self.free_head;
            self.free_head = self.nodes[index as usize].next;
            self.nodes[index as usize] = node;
            return Ok(index);
        }
        let index = self.nodes.len().max(1);
        let index = u32::try_from(index).ok().filter(|&i| i != u32::MAX).ok_or(
            TagError::IndexSpaceExhausted {
                what: "nodes",
                limit: u64::from(u32::MAX),
            },
        )?;
        if self.nodes.is_empty() {
            push_counted(&mut self.nodes, Node::default(), &mut self.allocator_calls);
        }
        push_counted(&mut self.nodes, node, &mut self.allocator_calls);
        Ok(index)
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

    fn create_entity(&mut self) -> Result<Entity, TagError> {
        match self.entities.create(u32::MAX, &mut self.allocator_calls)? {
            Created::Reused(e) => Ok(e),
            Created::Fresh(e) => {
                push_counted(&mut self.heads, NIL, &mut self.allocator_calls);
                Ok(e)
            }
        }
    }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let head = self.head(entity)?;
        self.heads[entity as usize] = self.alloc_node(tag, head)?;
        self.tag_count += 1;
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
                self.tag_count -= 1;
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
        self.entities.memory_bytes()
            + self.heads.capacity() * size_of::<u32>()
            + self.nodes.capacity() * size_of::<Node>()
    }

    fn allocator_calls(&self) -> u64 {
        self.allocator_calls
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.entities.check_invariants()?;
        if self.heads.len() != self.entities.slots() {
            return Err(format!(
                "{} heads for {} entity slots",
                self.heads.len(),
                self.entities.slots()
            ));
        }
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
            if head != NIL && !self.entities.is_live(e as Entity) {
                return Err(format!("released entity {e} has nodes"));
            }
            total += walk(head, &format!("entity {e}"))?;
        }
        walk(self.free_head, "free list")?;
        if total != self.tag_count {
            return Err(format!("tag_count {} but {total} tags", self.tag_count));
        }
        if let Some(lost) = owner.iter().skip(1).position(|&o| !o) {
            return Err(format!("node {} is on no list", lost + 1));
        }
        Ok(())
    }
}
