//! Sorted chunks: linked chunks kept "mostly sorted" by a bounded amount of work per access, so
//! that each entity's chain ends up contiguous in the buffer (the article proposes this in "Linked
//! list" but never built it). Registered for K = 8 (compare with `linked_chunks_8`) and K = 13
//! (4 + 4 + 4 + 52 = 64 bytes per chunk).
//!
//! Layout: `{ n, prev, next, tags: [u32; K] }` chunks in one `Vec`, chunk 0 reserved as nil, and
//! `{ head, tail }` per entity. A chain is doubly linked and its two ends name the owner: the
//! head's `prev` and the tail's `next` are `OWNER | entity`, so any chunk can be moved in O(1)
//! (every pointer to it is found from its own fields). Only the tail chunk may be partly filled;
//! add appends to the tail, placing a new tail chunk right after the old one when that slot is
//! free or at the end of the buffer; remove fills the hole with the tail's last tag. Free chunks
//! form a doubly linked free list (so a chosen free slot can be taken in O(1)).
//!
//! # The incremental sort
//! A cursor `scan` sweeps the buffer from 1 to the end and wraps around. One *step* at
//! `p = scan` decides which chunk belongs at `p`, swaps it there, and advances the cursor:
//! * if chunk `p - 1` is live and not a tail, its successor belongs at `p`;
//! * otherwise, if chunk `p` is live, the head of its chain belongs at `p` (found by walking
//!   `prev` links);
//! * otherwise (chunk `p` is free) nothing moves.
//!
//! A chunk is only ever brought in from at or after `p`, so the swept prefix `[1, p)` is never
//! disturbed. Without intervening mutations, after one step at every position each chain is
//! contiguous and in order: the prefix invariant "every link inside `[1, p)` goes to the next
//! slot" holds after every step (proof sketch in [`SortedChunks::sort_step`]). Mutations may
//! break links behind the cursor; the next sweep repairs them.
//!
//! Bound: one step moves at most two chunks (one swap, at most four neighbouring pointers and
//! two entity ends rewritten) and reads at most one chain's `prev` links. Every access to an
//! entity (`add_tag`, `remove_tag`, `has_tag`, `visit_entity`, `clear_entity`,
//! `destroy_entity`) runs one step after its work; `visit_all` runs one step per live entity
//! after its sweep, i.e. about one full sorting pass per `visit_all`.
//!
//! # The article's own suggestion: two-way bubble sort
//! `BUBBLE = true` (registered as `sorted_chunks_8_bubble`) replaces the cursor sweep with what
//! the article names ("Two-way bubble sort perhaps?"): one step compares the chunks in two
//! neighbouring slots `i`, `i + 1` by the key `(owner entity, position in its chain)` (free
//! chunks last) and swaps them if out of order; the position moves one slot per step, back and
//! forth over the buffer (cocktail shaker). A sorted buffer has every chain contiguous and in
//! order, chains in entity order. The key is not stored: it is found by walking the chunk's
//! chain to both ends, so a step costs O(chain length) reads, and a bubble sort needs O(slots)
//! passes, not one, to sort a shuffled buffer: the comparison with the sweep is how fast each
//! keeps up with mutations at a given mutation:read ratio.
//!
//! Pay-off: once sorted, `visit_entity` reads one contiguous run, and `visit_all` is a single
//! linear sweep of the buffer (the owner of each chunk follows from the previous one). Cost:
//! 8 more bytes per chunk than `linked_chunks` (`prev`, and `tail` per entity), and the swaps.

use super::entities::Bookkeeping;
use super::linked::{self, NIL};
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore, push_counted};
use crate::DesignMeta;

/// Set in a chain end's `prev` (head) or `next` (tail): the low bits are the owning entity.
/// Chunk indices and entity handles therefore stay below `OWNER`.
const OWNER: u32 = 1 << 31;

/// A link field: another chunk, or the owner at the end of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Link {
    Chunk(u32),
    Owner(Entity),
}

fn link(field: u32) -> Link {
    if field & OWNER != 0 {
        Link::Owner(field & !OWNER)
    } else {
        Link::Chunk(field)
    }
}

/// Up to `K` tags of one entity, doubly linked.
#[derive(Debug, Clone, Copy)]
struct Chunk<const K: usize> {
    /// Tags in use: `tags[..n]`. Invariant: `n == K` for a live chunk that is not its chain's
    /// tail, `1..=K` for a tail, `0` exactly for free chunks.
    n: u32,
    /// Live: the previous chunk of the chain, or `OWNER | entity` for the head.
    /// Free: the previous free chunk, `NIL` for the first.
    prev: u32,
    /// Live: the next chunk of the chain, or `OWNER | entity` for the tail.
    /// Free: the next free chunk, `NIL` for the last.
    next: u32,
    tags: [Tag; K],
}

// The chunk sizes the module doc gives: 44 bytes for K = 8, 64 for K = 13.
const _: () = assert!(size_of::<Chunk<8>>() == 44 && size_of::<Chunk<13>>() == 64);

impl<const K: usize> Chunk<K> {
    const EMPTY: Self = Self {
        n: 0,
        prev: NIL,
        next: NIL,
        tags: [0; K],
    };

    fn tags(&self) -> &[Tag] {
        &self.tags[..self.n as usize]
    }

    fn is_live(&self) -> bool {
        self.n != 0
    }
}

/// An entity's chain ends, `NIL` for both when it has no tags.
#[derive(Debug, Clone, Copy, Default)]
struct Ends {
    head: u32,
    tail: u32,
}

/// Doubly linked chunks in one `Vec`, incrementally sorted so chains become contiguous: by
/// the cursor sweep, or by a two-way bubble sort when `BUBBLE`.
#[derive(Debug, Clone)]
pub struct SortedChunks<const K: usize, const BUBBLE: bool = false> {
    book: Bookkeeping,
    /// `ends[e]`: entity `e`'s first and last chunk. Invariant: one per entity handle;
    /// released entities have `NIL` ends.
    ends: Vec<Ends>,
    /// Invariant: empty, or `chunks[0]` is the unused nil chunk and every other chunk is on
    /// exactly one list: a live entity's chain, or the free list.
    chunks: Vec<Chunk<K>>,
    /// First free chunk, `NIL` if none.
    free_head: u32,
    /// Where the next sort step looks. Invariant: `1 <= scan` (it wraps at `chunks.len()`;
    /// the bubble sort turns around at the ends instead).
    scan: u32,
    /// Bubble sort only: the step position moves towards slot 1.
    backward: bool,
}

impl<const K: usize, const BUBBLE: bool> SortedChunks<K, BUBBLE> {
    const NAME: &'static str = match (K, BUBBLE) {
        (8, false) => "sorted_chunks_8",
        (13, false) => "sorted_chunks_13",
        (8, true) => "sorted_chunks_8_bubble",
        _ => panic!("give this chunk size a registry name"),
    };

    fn ends(&self, entity: Entity) -> Result<Ends, TagError> {
        self.book.record(&self.ends, entity).copied()
    }

    /// The chunks of the chain starting at `head`, in order.
    fn chain(&self, head: u32) -> impl Iterator<Item = u32> + '_ {
        std::iter::successors(Some(head).filter(|&c| c != NIL), |&c| {
            match link(self.chunks[c as usize].next) {
                Link::Chunk(next) => Some(next),
                Link::Owner(_) => None,
            }
        })
    }

    /// Links of every chain that do not go to the next slot of the buffer: 0 when every chain
    /// is contiguous and in order. A measure of how sorted the store is, for tests and reports.
    pub fn out_of_place_links(&self) -> usize {
        self.chunks
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                c.is_live() && matches!(link(c.next), Link::Chunk(next) if next as usize != i + 1)
            })
            .count()
    }

    /// Slots in the chunk buffer, nil and free ones included: a full sweep of the sort cursor
    /// takes this many steps, so a quiet store is sorted after at most twice this many
    /// accesses.
    pub fn chunk_slots(&self) -> usize {
        self.chunks.len()
    }

    /// Takes free chunk `index` off the free list.
    fn unlink_free(&mut self, index: u32) {
        let Chunk { prev, next, .. } = self.chunks[index as usize];
        if prev == NIL {
            self.free_head = next;
        } else {
            self.chunks[prev as usize].next = next;
        }
        if next != NIL {
            self.chunks[next as usize].prev = prev;
        }
    }

    /// Puts chunk `index` (no longer on any chain) at the front of the free list.
    fn free_chunk(&mut self, index: u32) {
        if self.free_head != NIL {
            self.chunks[self.free_head as usize].prev = index;
        }
        self.chunks[index as usize] = Chunk {
            next: self.free_head,
            ..Chunk::EMPTY
        };
        self.free_head = index;
    }

    /// A slot for a new chunk following `after` (`NIL` for a chain's first chunk): the slot
    /// right after it if that is free or past the end, else any free slot, else a new one.
    fn alloc_slot(&mut self, after: u32) -> Result<u32, TagError> {
        let wanted = after as usize + 1;
        if after != NIL && wanted < self.chunks.len() && !self.chunks[wanted].is_live() {
            self.unlink_free(wanted as u32);
            return Ok(wanted as u32);
        }
        let at_end = after != NIL && wanted == self.chunks.len();
        if !at_end && self.free_head != NIL {
            let index = self.free_head;
            self.unlink_free(index);
            return Ok(index);
        }
        let index = super::index_below(self.chunks.len().max(1), "chunks", OWNER)?;
        if self.chunks.is_empty() {
            push_counted(
                &mut self.chunks,
                Chunk::EMPTY,
                &mut self.book.allocator_calls,
            );
        }
        push_counted(
            &mut self.chunks,
            Chunk::EMPTY,
            &mut self.book.allocator_calls,
        );
        Ok(index)
    }

    /// Swaps the chunks in slots `a` and `b` (live or free) and repoints everything that
    /// referred to either: neighbours, entity ends, the free-list head.
    fn swap_chunks(&mut self, a: u32, b: u32) {
        if a == b {
            return;
        }
        self.chunks.swap(a as usize, b as usize);
        // A field naming slot `a` must now name `b` and vice versa (this also covers a and b
        // being neighbours).
        let remap = |field: u32| match field {
            f if f == a => b,
            f if f == b => a,
            f => f,
        };
        for slot in [a, b] {
            let chunk = &mut self.chunks[slot as usize];
            if chunk.prev & OWNER == 0 {
                chunk.prev = remap(chunk.prev);
            }
            if chunk.next & OWNER == 0 {
                chunk.next = remap(chunk.next);
            }
        }
        for slot in [a, b] {
            let Chunk { n, prev, next, .. } = self.chunks[slot as usize];
            match link(prev) {
                Link::Owner(e) => self.ends[e as usize].head = slot,
                Link::Chunk(NIL) if n == 0 => self.free_head = slot,
                Link::Chunk(NIL) => unreachable!("live chunk without a prev link"),
                Link::Chunk(p) => self.chunks[p as usize].next = slot,
            }
            match link(next) {
                Link::Owner(e) => self.ends[e as usize].tail = slot,
                Link::Chunk(NIL) => {}
                Link::Chunk(nx) => self.chunks[nx as usize].prev = slot,
            }
        }
    }

    /// One step of the incremental sort (see the module docs): puts the right chunk at slot
    /// `scan`, then advances `scan`.
    ///
    /// Why the swept prefix stays sorted: before the step, every link inside `[1, p)` goes to
    /// the next slot, and only chunk `p - 1` may link forward (to a slot `>= p`). If it does,
    /// that successor is moved to `p`. If not, no chunk before `p` links to or from chunk `p`'s
    /// chain, so its whole chain lies at or after `p` and its head is moved to `p`. Either
    /// way, only slots `>= p` move and the invariant holds for `p + 1`. After mutations the
    /// wanted chunk may lie before `p`; then nothing moves and the next sweep repairs it.
    pub fn sort_step(&mut self) {
        if BUBBLE {
            self.bubble_step();
        } else {
            self.sweep_step();
        }
    }

    /// One step of the cursor sweep (see [`sort_step`](Self::sort_step)).
    fn sweep_step(&mut self) {
        if self.chunks.len() <= 2 {
            return;
        }
        if self.scan as usize >= self.chunks.len() {
            self.scan = 1;
        }
        let p = self.scan;
        let before = &self.chunks[p as usize - 1];
        let wanted = match link(before.next) {
            Link::Chunk(next) if p > 1 && before.is_live() => Some(next),
            _ if self.chunks[p as usize].is_live() => {
                let mut head = p;
                while let Link::Chunk(prev) = link(self.chunks[head as usize].prev) {
                    head = prev;
                }
                Some(head)
            }
            _ => None,
        };
        if let Some(w) = wanted.filter(|&w| w > p) {
            self.swap_chunks(p, w);
        }
        self.scan = p + 1;
    }

    /// The bubble sort's key of slot `i`: `(owner, position in the chain)` of a live chunk,
    /// after every live chunk for a free one.
    fn bubble_key(&self, i: u32) -> (u32, u32) {
        if !self.chunks[i as usize].is_live() {
            return (u32::MAX, u32::MAX);
        }
        let mut rank = 0;
        let mut c = i;
        while let Link::Chunk(prev) = link(self.chunks[c as usize].prev) {
            rank += 1;
            c = prev;
        }
        (self.owner(i), rank)
    }

    /// One step of the two-way bubble sort: compares slots `scan` and `scan + 1`, swaps them
    /// if out of order, and moves `scan` one slot, turning around at either end.
    fn bubble_step(&mut self) {
        let len = self.chunks.len() as u32;
        if len <= 2 {
            return;
        }
        let last = len - 2;
        let i = self.scan.min(last);
        if self.bubble_key(i) > self.bubble_key(i + 1) {
            self.swap_chunks(i, i + 1);
        }
        if self.backward && i <= 1 {
            self.backward = false;
        } else if !self.backward && i >= last {
            self.backward = true;
        }
        self.scan = if self.backward {
            (i - 1).max(1)
        } else {
            (i + 1).min(last)
        };
    }

    /// The owner of live chunk `index`, by walking to its chain's tail.
    fn owner(&self, mut index: u32) -> Entity {
        loop {
            match link(self.chunks[index as usize].next) {
                Link::Owner(e) => return e,
                Link::Chunk(next) => index = next,
            }
        }
    }
}

impl<const K: usize, const BUBBLE: bool> TagStore for SortedChunks<K, BUBBLE> {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: Self::NAME,
            description: match (K, BUBBLE) {
                (8, true) => {
                    "sorted_chunks_8 sorted by the article's two-way bubble sort (one compare-and-swap of neighbours per access)"
                }
                (8, false) => {
                    "doubly linked { n, prev, next, tags: [u32; 8] } chunks, sorted incrementally (one swap per access) so chains become contiguous"
                }
                _ => {
                    "doubly linked { n, prev, next, tags: [u32; 13] } 64-byte chunks, sorted incrementally (one swap per access)"
                }
            },
            kind: TagDesignKind::Tuned,
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self {
            book: Bookkeeping::new(),
            ends: Vec::new(),
            chunks: Vec::new(),
            free_head: NIL,
            scan: 1,
            backward: false,
        }
    }

    answered_by_the_bookkeeping! { create: ends = Ends::default(), limit: OWNER, destroy: clear_entity }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let Ends { tail, .. } = self.ends(entity)?;
        if tail != NIL && (self.chunks[tail as usize].n as usize) < K {
            let chunk = &mut self.chunks[tail as usize];
            chunk.tags[chunk.n as usize] = tag;
            chunk.n += 1;
        } else {
            let slot = self.alloc_slot(tail)?;
            let mut chunk = Chunk {
                n: 1,
                prev: if tail == NIL { OWNER | entity } else { tail },
                next: OWNER | entity,
                ..Chunk::EMPTY
            };
            chunk.tags[0] = tag;
            self.chunks[slot as usize] = chunk;
            let ends = &mut self.ends[entity as usize];
            if tail == NIL {
                ends.head = slot;
            } else {
                self.chunks[tail as usize].next = slot;
            }
            ends.tail = slot;
        }
        self.book.tag_count += 1;
        self.sort_step();
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let Ends { head, tail } = self.ends(entity)?;
        let found = self.chain(head).find_map(|c| {
            let i = self.chunks[c as usize]
                .tags()
                .iter()
                .position(|&t| t == tag)?;
            Some((c, i))
        });
        let removed = if let Some((c, i)) = found {
            // Fill the hole with the tail's last tag, keeping earlier chunks full.
            let tail_chunk = &mut self.chunks[tail as usize];
            tail_chunk.n -= 1;
            let last = tail_chunk.tags[tail_chunk.n as usize];
            let (emptied, prev) = (tail_chunk.n == 0, tail_chunk.prev);
            self.chunks[c as usize].tags[i] = last;
            if emptied {
                match link(prev) {
                    Link::Owner(_) => self.ends[entity as usize] = Ends::default(),
                    Link::Chunk(p) => {
                        self.chunks[p as usize].next = OWNER | entity;
                        self.ends[entity as usize].tail = p;
                    }
                }
                self.free_chunk(tail);
            }
            self.book.tag_count -= 1;
            true
        } else {
            false
        };
        self.sort_step();
        Ok(removed)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let Ends { head, .. } = self.ends(entity)?;
        let found = self
            .chain(head)
            .any(|c| self.chunks[c as usize].tags().contains(&tag));
        self.sort_step();
        Ok(found)
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        let Ends { head, .. } = self.ends(entity)?;
        for c in self.chain(head) {
            self.chunks[c as usize].tags().iter().for_each(|&t| f(t));
        }
        self.sort_step();
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // One linear sweep of the buffer. A chunk's owner is its predecessor's when that is
        // the previous slot (the sorted case); otherwise it is read from the chain's tail.
        let mut owner = 0;
        for (i, chunk) in self.chunks.iter().enumerate().skip(1) {
            if !chunk.is_live() {
                continue;
            }
            owner = match link(chunk.prev) {
                Link::Owner(e) => e,
                Link::Chunk(p) if p as usize == i - 1 => owner,
                Link::Chunk(_) => self.owner(i as u32),
            };
            for &t in chunk.tags() {
                f(owner, t);
            }
        }
        for _ in 0..self.book.entities.len() {
            self.sort_step();
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let Ends { head, .. } = self.ends(entity)?;
        let mut cursor = head;
        while cursor != NIL {
            let chunk = self.chunks[cursor as usize];
            self.book.tag_count -= chunk.n as usize;
            self.free_chunk(cursor);
            cursor = match link(chunk.next) {
                Link::Chunk(next) => next,
                Link::Owner(_) => NIL,
            };
        }
        self.ends[entity as usize] = Ends::default();
        self.sort_step();
        Ok(())
    }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.ends) + self.chunks.capacity() * size_of::<Chunk<K>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.ends, "ends")?;
        if self.scan == 0 {
            return Err("sort cursor at the nil chunk".into());
        }
        let mut on_list = vec![false; self.chunks.len()];
        let mut visit = |i: u32| -> Result<(), String> {
            match on_list.get_mut(i as usize) {
                Some(seen) if !*seen && i != NIL => {
                    *seen = true;
                    Ok(())
                }
                _ => Err(format!("chunk {i} is nil, out of range or on two lists")),
            }
        };
        let mut total = 0;
        for (e, ends) in self.ends.iter().enumerate() {
            let e = e as Entity;
            if ends.head == NIL || ends.tail == NIL {
                if ends.head != ends.tail {
                    return Err(format!("entity {e} has only one chain end"));
                }
                continue;
            }
            if !self.book.entities.is_live(e) {
                return Err(format!("released entity {e} has chunks"));
            }
            let mut expected_prev = OWNER | e;
            let mut cursor = ends.head;
            loop {
                visit(cursor)?;
                let chunk = &self.chunks[cursor as usize];
                let is_tail = chunk.next == OWNER | e;
                let n = chunk.n as usize;
                if chunk.prev != expected_prev
                    || !(if is_tail {
                        (1..=K).contains(&n)
                    } else {
                        n == K
                    })
                {
                    return Err(format!(
                        "entity {e}: chunk {cursor} has bad prev or n = {n}"
                    ));
                }
                total += n;
                if is_tail {
                    break;
                }
                expected_prev = cursor;
                cursor = chunk.next;
            }
            if cursor != ends.tail {
                return Err(format!("entity {e}: tail is {} not {cursor}", ends.tail));
            }
        }
        let mut expected_prev = NIL;
        let mut cursor = self.free_head;
        while cursor != NIL {
            visit(cursor)?;
            let chunk = &self.chunks[cursor as usize];
            if chunk.n != 0 || chunk.prev != expected_prev {
                return Err(format!("free chunk {cursor} is live or mislinked"));
            }
            expected_prev = cursor;
            cursor = chunk.next;
        }
        self.book.check_tag_count(total)?;
        linked::check_all_listed(&on_list, "chunk")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sweep_sorts_an_interleaved_buffer() {
        let mut store = SortedChunks::<8>::new();
        let a = store.create_entity().unwrap();
        let b = store.create_entity().unwrap();
        // Interleave the growth of two entities so their chains alternate in the buffer.
        // `add_tag` sorts as it goes; undo that by resetting the cursor each time.
        for t in 0..40 {
            store.add_tag(if t % 16 < 8 { a } else { b }, t).unwrap();
            store.scan = 1;
        }
        store.check_invariants().unwrap();
        assert!(store.out_of_place_links() > 0);
        let len = store.chunks.len();
        for _ in 0..len {
            store.sort_step();
            store.check_invariants().unwrap();
        }
        assert_eq!(store.out_of_place_links(), 0);
    }

    #[test]
    fn the_bubble_sort_sorts_an_interleaved_buffer_in_enough_passes() {
        let mut store = SortedChunks::<8, true>::new();
        let a = store.create_entity().unwrap();
        let b = store.create_entity().unwrap();
        for t in 0..40 {
            store.add_tag(if t % 16 < 8 { b } else { a }, t).unwrap();
            store.scan = 1;
            store.backward = false;
        }
        store.check_invariants().unwrap();
        assert!(store.out_of_place_links() > 0);
        let len = store.chunks.len();
        // A bubble sort needs up to one pass per slot; each pass is `len` steps.
        for _ in 0..2 * len * len {
            store.sort_step();
            store.check_invariants().unwrap();
        }
        assert_eq!(store.out_of_place_links(), 0);
        assert!((1..len - 1).all(|i| store.bubble_key(i as u32) <= store.bubble_key(i as u32 + 1)));
    }
}
