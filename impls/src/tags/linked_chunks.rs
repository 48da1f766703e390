//! Linked chunks: `{ n, tags: [u32; K], next }` chunks in one `Vec` (the article's "make the
//! nodes a little bigger" design), registered for K = 8 (the article's `MAX_TAGS_PER_NODE`) and
//! K = 14 (4 + 56 + 4 = 64 bytes: one chunk per cache line, if the buffer were line-aligned;
//! a `Vec` only guarantees 4-byte alignment, so a chunk usually straddles two lines).
//!
//! Layout: a head chunk index per entity (4 bytes); chunks of `4 * (K + 2)` bytes in a single
//! buffer, chunk 0 reserved as nil. Invariant that keeps memory tight: only an entity's head
//! chunk may be partly filled; every later chunk is full. Add writes into the head chunk, or
//! pushes a new head chunk in front; remove fills the hole with the head chunk's last tag and
//! frees the head chunk when it empties. Freed chunks form a LIFO free list through `next`.
//!
//! Cost: add O(1), remove/has/visit O(tags of the entity) with one potential cache miss per
//! chunk instead of per tag. Trade-off (the article's): at 3 tags per entity a K = 8 chunk
//! stores 12 useful bytes of 40; larger K wastes more on small entities, smaller K jumps more.

use super::entities::Bookkeeping;
use super::linked::{self, Linked, NIL};
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, count_capacity_change};
use crate::DesignMeta;

/// Up to `K` tags of one entity, and the link to its next chunk.
#[derive(Debug, Clone, Copy)]
struct Chunk<const K: usize> {
    /// Tags in use: `tags[..n]`. Invariant: `1 <= n <= K` for a chunk on an entity's list (and
    /// `n == K` unless it is the head), `n == 0` for a free chunk.
    n: u32,
    tags: [Tag; K],
    /// The entity's next (full) chunk, or the next free chunk; `NIL` at the end.
    next: u32,
}

// The chunk sizes the module doc gives: 40 bytes for K = 8, one 64-byte line for K = 14.
const _: () = assert!(size_of::<Chunk<8>>() == 40 && size_of::<Chunk<14>>() == 64);

impl<const K: usize> Chunk<K> {
    const EMPTY: Self = Self {
        n: 0,
        tags: [0; K],
        next: NIL,
    };

    fn tags(&self) -> &[Tag] {
        &self.tags[..self.n as usize]
    }
}

impl<const K: usize> Linked for Chunk<K> {
    const NIL_ELEMENT: Self = Self::EMPTY;

    #[inline]
    fn next(&self) -> u32 {
        self.next
    }
}

/// `{ n, tags: [u32; K], next }` chunks in one `Vec`, only the head chunk partly filled.
#[derive(Debug, Clone)]
pub struct LinkedChunks<const K: usize> {
    book: Bookkeeping,
    /// `heads[e]`: entity `e`'s first chunk, `NIL` if it has no tags. Invariant: one per entity
    /// handle; released entities have `NIL`.
    heads: Vec<u32>,
    /// Invariant: empty, or `chunks[0]` is the unused nil chunk and every other chunk is on
    /// exactly one list: a live entity's, or the free list.
    chunks: Vec<Chunk<K>>,
    /// First free chunk, `NIL` if none.
    free_head: u32,
}

impl<const K: usize> LinkedChunks<K> {
    const NAME: &'static str = match K {
        8 => "linked_chunks_8",
        14 => "linked_chunks_14",
        _ => panic!("give this chunk size a registry name"),
    };

    fn head(&self, entity: Entity) -> Result<u32, TagError> {
        self.book.record(&self.heads, entity).copied()
    }

    /// The chunks of the list starting at `head`, in order.
    fn chain(&self, head: u32) -> impl Iterator<Item = u32> + '_ {
        linked::chain(&self.chunks, head)
    }

    /// A chunk holding just `tag` and linking to `next`, from the free list or a new slot.
    fn alloc_chunk(&mut self, tag: Tag, next: u32) -> Result<u32, TagError> {
        let mut chunk = Chunk::EMPTY;
        chunk.n = 1;
        chunk.tags[0] = tag;
        chunk.next = next;
        linked::store(
            &mut self.chunks,
            &mut self.free_head,
            chunk,
            "chunks",
            &mut self.book.allocator_calls,
        )
    }

    /// Creates one entity per tag list of `lists`, holding that list's tags, when no released
    /// entity and no free chunk wait for reuse: then the state is the one `create_entity` and
    /// `add_tag` per tag would leave (a list of `L` tags fills chunks of `K` in order, the last
    /// one the head, each linking to the one before), with the head and chunk arrays grown
    /// once. Returns the new entities, `None` (changing nothing) when something waits for
    /// reuse: the caller creates one by one.
    ///
    /// `lists` is read twice: once to count the chunks, once to fill them.
    ///
    /// # Errors
    /// [`TagError::IndexSpaceExhausted`] when the entities or the chunks would run out of
    /// `u32` indices (nothing changes).
    pub fn create_fresh_run<'a>(
        &mut self,
        lists: impl ExactSizeIterator<Item = &'a [Tag]> + Clone,
    ) -> Result<Option<std::ops::Range<Entity>>, TagError> {
        if self.free_head != NIL {
            return Ok(None);
        }
        let needed: usize = lists.clone().map(|l| l.len().div_ceil(K)).sum();
        let nil = usize::from(self.chunks.is_empty() && needed > 0);
        // Chunk indices stay below `u32::MAX`, as `alloc_chunk` keeps them.
        if self.chunks.len() + nil + needed > u32::MAX as usize {
            return Err(TagError::IndexSpaceExhausted {
                what: "chunks",
                limit: u64::from(u32::MAX),
            });
        }
        let Some(created) = self.book.entities.create_fresh_run(
            lists.len(),
            u32::MAX,
            &mut self.book.allocator_calls,
        )?
        else {
            return Ok(None);
        };
        let before = (self.heads.capacity(), self.chunks.capacity());
        self.heads.reserve(lists.len());
        self.chunks.reserve(nil + needed);
        if nil == 1 {
            self.chunks.push(Chunk::EMPTY);
        }
        for list in lists {
            let mut head = NIL;
            for part in list.chunks(K) {
                let mut chunk = Chunk::EMPTY;
                chunk.n = part.len() as u32;
                // A loop, not `copy_from_slice`: a few tags, not worth a `memcpy` call.
                for (to, &tag) in chunk.tags.iter_mut().zip(part) {
                    *to = tag;
                }
                chunk.next = head;
                head = self.chunks.len() as u32;
                self.chunks.push(chunk);
            }
            self.heads.push(head);
            self.book.tag_count += list.len();
        }
        let after = (self.heads.capacity(), self.chunks.capacity());
        count_capacity_change(before.0, after.0, &mut self.book.allocator_calls);
        count_capacity_change(before.1, after.1, &mut self.book.allocator_calls);
        Ok(Some(created))
    }

    /// Reserves room for `entities` more entities and `chunks` more chunks (no change of state).
    pub fn reserve(&mut self, entities: usize, chunks: usize) {
        self.heads.reserve(entities);
        self.chunks
            .reserve(chunks + usize::from(self.chunks.is_empty()));
    }

    fn free_chunk(&mut self, index: u32) {
        let chunk = &mut self.chunks[index as usize];
        chunk.n = 0;
        chunk.next = self.free_head;
        self.free_head = index;
    }
}

impl<const K: usize> TagStore for LinkedChunks<K> {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: Self::NAME,
            description: match K {
                8 => {
                    "{ n, tags: [u32; 8], next } chunks in one Vec (article): 40-byte chunks, only the head chunk partly filled"
                }
                _ => {
                    "{ n, tags: [u32; 14], next } chunks in one Vec: 64-byte chunks, fewer jumps, more waste on small entities"
                }
            },
            kind: if K == 8 {
                TagDesignKind::Article
            } else {
                TagDesignKind::Tuned
            },
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self {
            book: Bookkeeping::new(),
            heads: Vec::new(),
            chunks: Vec::new(),
            free_head: NIL,
        }
    }

    answered_by_the_bookkeeping! { create: heads = NIL, destroy: clear_entity }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let head = self.head(entity)?;
        if head != NIL {
            let chunk = &mut self.chunks[head as usize];
            if (chunk.n as usize) < K {
                chunk.tags[chunk.n as usize] = tag;
                chunk.n += 1;
                self.book.tag_count += 1;
                return Ok(());
            }
        }
        self.heads[entity as usize] = self.alloc_chunk(tag, head)?;
        self.book.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let head = self.head(entity)?;
        let found = self.chain(head).find_map(|c| {
            let i = self.chunks[c as usize]
                .tags()
                .iter()
                .position(|&t| t == tag)?;
            Some((c, i))
        });
        let Some((c, i)) = found else {
            return Ok(false);
        };
        // Fill the hole with the head chunk's last tag, keeping later chunks full.
        let head_chunk = &mut self.chunks[head as usize];
        head_chunk.n -= 1;
        let last = head_chunk.tags[head_chunk.n as usize];
        let emptied = head_chunk.n == 0;
        let next = head_chunk.next;
        self.chunks[c as usize].tags[i] = last;
        if emptied {
            self.heads[entity as usize] = next;
            self.free_chunk(head);
        }
        self.book.tag_count -= 1;
        Ok(true)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let head = self.head(entity)?;
        Ok(self
            .chain(head)
            .any(|c| self.chunks[c as usize].tags().contains(&tag)))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        let head = self.head(entity)?;
        for c in self.chain(head) {
            self.chunks[c as usize].tags().iter().for_each(|&t| f(t));
        }
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have NIL heads.
        for (e, &head) in self.heads.iter().enumerate() {
            for c in self.chain(head) {
                for &t in self.chunks[c as usize].tags() {
                    f(e as Entity, t);
                }
            }
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let head = self.head(entity)?;
        let mut cursor = head;
        while cursor != NIL {
            let chunk = &mut self.chunks[cursor as usize];
            self.book.tag_count -= chunk.n as usize;
            chunk.n = 0;
            cursor = if chunk.next == NIL {
                // Splice the whole chain onto the free list.
                chunk.next = self.free_head;
                self.free_head = head;
                NIL
            } else {
                chunk.next
            };
        }
        self.heads[entity as usize] = NIL;
        Ok(())
    }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.heads) + self.chunks.capacity() * size_of::<Chunk<K>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.heads, "heads")?;
        let mut on_list = vec![false; self.chunks.len()];
        let mut total = 0;
        let lists = self
            .heads
            .iter()
            .enumerate()
            .map(|(e, &h)| (Some(e), h))
            .chain([(None, self.free_head)]);
        for (entity, head) in lists {
            if let Some(e) = entity
                && head != NIL
                && !self.book.entities.is_live(e as Entity)
            {
                return Err(format!("released entity {e} has chunks"));
            }
            let mut cursor = head;
            while cursor != NIL {
                let i = cursor as usize;
                if i >= on_list.len() || on_list[i] {
                    return Err(format!("chunk {i} is out of range or on two lists"));
                }
                on_list[i] = true;
                let chunk = &self.chunks[i];
                let n = chunk.n as usize;
                let ok = match entity {
                    None => n == 0,
                    Some(_) if cursor == head => (1..=K).contains(&n),
                    Some(_) => n == K,
                };
                if !ok {
                    return Err(format!("chunk {i} of {entity:?} has n = {n}"));
                }
                total += n;
                cursor = chunk.next;
            }
        }
        self.book.check_tag_count(total)?;
        linked::check_all_listed(&on_list, "chunk")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tags::fixtures::{one_entity_with_tags, tags_of};

    #[test]
    fn a_fresh_run_is_a_create_and_an_add_per_tag() {
        let lists: [&[Tag]; 4] = [&[1, 2, 3], &[], &[7], &[10, 11, 12, 13, 14, 15, 16, 17, 18]];
        let mut run = LinkedChunks::<8>::new();
        let mut one_by_one = LinkedChunks::<8>::new();
        for _ in 0..2 {
            let created = run.create_fresh_run(lists.iter().copied()).unwrap();
            let mut expected = Vec::new();
            for list in lists {
                let e = one_by_one.create_entity().unwrap();
                for &t in list {
                    one_by_one.add_tag(e, t).unwrap();
                }
                expected.push(e);
            }
            assert_eq!(created.map(Iterator::collect::<Vec<_>>), Some(expected));
            assert_eq!(run.heads, one_by_one.heads);
            assert_eq!(
                format!("{:?}", run.chunks),
                format!("{:?}", one_by_one.chunks)
            );
            assert_eq!(run.tag_count(), one_by_one.tag_count());
            run.check_invariants().unwrap();
        }
        run.destroy_entity(2).unwrap();
        assert_eq!(run.create_fresh_run(lists.iter().copied()), Ok(None));
        run.check_invariants().unwrap();
    }

    #[test]
    fn removing_refills_from_the_head_chunk() {
        let (mut store, e) = one_entity_with_tags::<LinkedChunks<8>>(0..9);
        // Chunks: head {8}, then {0..8}. Removing 3 moves 8 into its place and frees the head.
        assert!(store.remove_tag(e, 3).unwrap());
        store.check_invariants().unwrap();
        assert_eq!(store.chain(store.heads[0]).count(), 1);
        assert_eq!(tags_of(&mut store, e), [0, 1, 2, 8, 4, 5, 6, 7]);
    }
}
