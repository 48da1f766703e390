//! Buddy arrays: each entity's tags in one power-of-two block of a single byte buffer, carved by
//! our buddy allocator ([`Buddy`], "Allocation Adventures 3"). "Allocation Adventures 2: Arrays
//! of Arrays" (BitSquid, 2015) ends on this idea without building it: arrays that grow by
//! doubling ask for powers of two, and a buddy allocator is very good at those. The growth of
//! the arena below is ours (the article's buddy allocator has a fixed buffer).
//!
//! Layout: a `{ offset, len, cap }` record per entity (12 bytes) and one arena. The entity's
//! tags are the first `len` little-endian `u32`s of its block of `cap * 4` bytes. An entity with
//! no capacity holds no block (`cap == 0`): created entities cost 12 bytes until their first
//! tag, which allocates the smallest block ([`MIN_BLOCK`] bytes, 4 tags). A full block doubles
//! by `realloc`: in place when its buddy is free, else moved (and the old block freed).
//! `remove_tag` fills the hole with the last tag; `clear_entity` keeps the block (as
//! `Vec::clear` keeps capacity); `destroy_entity` frees it.
//!
//! Growing the arena: [`Buddy`] never grows its arena, so when it has no block for a request the
//! store builds a fresh [`Buddy`] twice the size and moves every live block into it, in entity
//! order (so right after a growth blocks lie roughly in entity order, which `visit_all` walks),
//! then retries. Copying every live tag on a doubling is amortised O(1) per tag, as for `Vec`.
//! The move cannot fail (the argument is at `BuddyArrays::grow_arena`). The arena starts at
//! [`INITIAL_ARENA`] bytes, created on the first `add_tag` (an empty store holds no heap
//! memory); it never shrinks, and is at most 4 GiB (offsets are `u32`), past which `add_tag`
//! returns [`TagError::IndexSpaceExhausted`].
//!
//! Cost: add amortised O(1) (plus O(levels) in the buddy when the block doubles), remove/has/visit
//! one entity O(its tags) over one contiguous block (no pointer chase beyond the record),
//! `visit_all` one block per entity in entity order. Trade-off against `vec_of_vecs`: no global
//! allocator call per entity (only one per arena doubling and per record-`Vec` growth), and
//! 12-byte records instead of 24-byte `Vec` headers; the price is up to 50% internal
//! fragmentation (powers of two, as `Vec` doubling), a 16-byte minimum per entity with tags,
//! the buddy's in-arena metadata (~2 bits per 16-byte leaf plus its first leaves), external
//! fragmentation that only a growth compacts, and a pause that copies every tag on a growth.
//!
//! Accounting: `memory_bytes` is the arena's bytes plus the records and the entity set.
//! `allocator_calls` counts every global allocator call: a [`Buddy`]'s
//! [`HEAP_ALLOCATIONS`](Buddy::HEAP_ALLOCATIONS) (its arena and the per-leaf requested-size table
//! it keeps for the benchmark) when an arena is built and again when a growth drops the old one,
//! plus the record `Vec`'s and the entity set's capacity changes (checked against a counting
//! allocator by `impls/tests/integration/allocator_accounting.rs`; it once counted one call per arena and
//! missed the table and the buddy's init scratch vectors, since removed). `memory_bytes` does
//! not count the table (8 bytes per 16-byte leaf) or the arena's 4 KiB alignment slack, as the
//! allocator family's own `metadata_bytes` excludes them.

use super::entities::Bookkeeping;
use super::{Entity, Tag, TagDesignInfo, TagDesignKind, TagError, TagStore};
use crate::DesignMeta;
use crate::alloc::buddy::Buddy;
use crate::alloc::{AllocError, BlockAllocator};

/// Bytes of one tag in the arena.
const TAG_BYTES: usize = size_of::<Tag>();

/// The buddy's leaf, and an entity's first block: 4 tags, so the article's typical 3-4 tags per
/// entity fit the first block. Measured against 8 and 32 (deterministic byte counts; times were
/// too noisy on a shared 2-core machine to decide): 8-byte leaves double the buddy's metadata
/// bits, need one more realloc per entity of 3-4 tags, and pushed 1 000 entities x 3 tags into
/// a 32 KiB arena instead of 16 KiB; 32-byte leaves cost 57% more memory at 100 000 entities x 3
/// tags (5.8 MB vs 3.7 MB) and 73% more after a churn of 10 000 entities.
pub const MIN_BLOCK: usize = 16;

/// The first arena, allocated on the first `add_tag`: one page. Measured against 64 KiB: that
/// saves 4 of ~36 allocator calls when building 100 000 entities (growing from 4 KiB to 64 KiB
/// copies less than 64 KiB in all), but a store with one tag then holds 64 KiB instead of 4 KiB.
pub const INITIAL_ARENA: usize = 4096;

/// The largest arena: every offset inside it fits the records' `u32`.
const MAX_ARENA: usize = 1 << 32;

/// Tags in an entity's first block.
const MIN_CAP: u32 = (MIN_BLOCK / TAG_BYTES) as u32;

/// One entity's block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    /// Arena offset of the block; meaningless while `cap == 0`.
    offset: u32,
    /// Tags in use: the first `len` `u32`s of the block. Invariant: `len <= cap`.
    len: u32,
    /// Tags the block holds. Invariant: 0 (no block), or a power of two `>= MIN_CAP` and the
    /// block at `offset` is live in the arena and exactly `cap * 4` bytes (requests are powers of
    /// two, so the buddy reserves what is asked).
    cap: u32,
}

// The 12-byte record the module doc counts.
const _: () = assert!(size_of::<Block>() == 12);

impl Block {
    const NONE: Self = Self {
        offset: 0,
        len: 0,
        cap: 0,
    };

    fn bytes(self) -> usize {
        self.cap as usize * TAG_BYTES
    }
}

/// Each entity's tags in one power-of-two block of a buddy-allocated arena that doubles when full.
#[derive(Debug, Clone)]
pub struct BuddyArrays {
    book: Bookkeeping,
    /// `blocks[e]`: entity `e`'s block. Invariant: one per entity handle; released
    /// entities have `Block::NONE`.
    blocks: Vec<Block>,
    /// `None` until the first tag is added, and then every block with `cap > 0` is live in it;
    /// its live blocks are exactly those (no leaks).
    arena: Option<Buddy>,
}

impl BuddyArrays {
    fn block(&self, entity: Entity) -> Result<Block, TagError> {
        self.book.record(&self.blocks, entity).copied()
    }

    /// The bytes of the `len` tags in use of `block`.
    fn tag_bytes(&self, block: Block) -> &[u8] {
        match &self.arena {
            Some(arena) if block.len > 0 => {
                arena.bytes(block.offset as usize, block.len as usize * TAG_BYTES)
            }
            _ => &[],
        }
    }

    fn tags(bytes: &[u8]) -> impl Iterator<Item = Tag> + '_ {
        bytes
            .chunks_exact(TAG_BYTES)
            .map(|b| Tag::from_le_bytes(b.try_into().expect("chunks of 4 bytes")))
    }

    /// Stores `tag` in slot `i` of `block` (`i < block.cap`).
    fn write_tag(arena: &mut Buddy, block: Block, i: u32, tag: Tag) {
        let at = block.offset as usize + i as usize * TAG_BYTES;
        arena
            .bytes_mut(at, TAG_BYTES)
            .copy_from_slice(&tag.to_le_bytes());
    }

    /// The tag in slot `i` of `block` (`i < block.len`).
    fn read_tag(arena: &Buddy, block: Block, i: u32) -> Tag {
        let at = block.offset as usize + i as usize * TAG_BYTES;
        Tag::from_le_bytes(arena.bytes(at, TAG_BYTES).try_into().expect("4 bytes"))
    }

    /// A fresh arena of `total` bytes, its global allocations counted.
    fn new_arena(&mut self, total: usize) -> Result<Buddy, TagError> {
        if total > MAX_ARENA {
            return Err(TagError::IndexSpaceExhausted {
                what: "arena bytes",
                limit: MAX_ARENA as u64,
            });
        }
        let arena = Buddy::with_arena(total, MIN_BLOCK)
            .expect("a power-of-two arena of at least 4 KiB holds the buddy's metadata");
        self.book.allocator_calls += Buddy::HEAP_ALLOCATIONS;
        Ok(arena)
    }

    /// Doubles entity `entity`'s capacity (0 to [`MIN_CAP`]), growing the arena as often as
    /// needed; returns the new block. On error nothing has changed.
    fn grow_block(&mut self, entity: Entity) -> Result<Block, TagError> {
        let e = entity as usize;
        // A block is at most half the largest arena (2^29 tags), so doubling cannot overflow.
        let new_cap = match self.blocks[e].cap {
            0 => MIN_CAP,
            cap => cap * 2,
        };
        let new_bytes = new_cap as usize * TAG_BYTES;
        if self.arena.is_none() {
            self.arena = Some(self.new_arena(INITIAL_ARENA)?);
        }
        loop {
            // Re-read the record: a growth of the arena moves the block.
            let old = self.blocks[e];
            let arena = self.arena.as_mut().expect("created above");
            let got = if old.cap == 0 {
                arena.allocate(new_bytes, TAG_BYTES)
            } else {
                arena.realloc(old.offset as usize, old.bytes(), TAG_BYTES, new_bytes)
            };
            match got {
                Ok(offset) => {
                    let block = Block {
                        offset: u32::try_from(offset).expect("arenas are at most 4 GiB"),
                        len: old.len,
                        cap: new_cap,
                    };
                    self.blocks[e] = block;
                    return Ok(block);
                }
                Err(AllocError::OutOfMemory { .. } | AllocError::TooLarge { .. }) => {
                    self.grow_arena()?;
                }
                Err(err) => unreachable!("4-byte aligned request on a live block: {err}"),
            }
        }
    }

    /// Replaces the arena by one twice its size holding every live block (in entity order). On
    /// error (the arena is at its limit) nothing has changed.
    ///
    /// The moves cannot fail. In a fresh buddy over a power-of-two arena (ours always are) that
    /// only allocates, the free blocks have pairwise distinct sizes (init leaves the maximal
    /// aligned blocks after the metadata, each larger than the last; an allocation either takes
    /// a block of exactly its size or splits the smallest larger one, `B`, leaving one free
    /// block of each size from the request up to `B / 2`, none of which existed). So a request
    /// of `s` bytes fails only when every free block is smaller than `s`, i.e. fewer than `s`
    /// bytes are free. The live blocks sum to at most the old arena's user area, which is less
    /// than the old arena, which is at most the new arena's user area (its metadata is ~2 bits
    /// per leaf); so before each move at least that block's size is free.
    fn grow_arena(&mut self) -> Result<(), TagError> {
        let total = self.arena.as_ref().map_or(0, Buddy::arena_bytes) * 2;
        let mut new = self.new_arena(total.max(INITIAL_ARENA))?;
        if let Some(old) = self.arena.take() {
            for block in self.blocks.iter_mut().filter(|b| b.cap > 0) {
                let to = new
                    .allocate(block.bytes(), TAG_BYTES)
                    .expect("a fresh arena twice the size holds every live block");
                let used = block.len as usize * TAG_BYTES;
                new.bytes_mut(to, used)
                    .copy_from_slice(old.bytes(block.offset as usize, used));
                block.offset = u32::try_from(to).expect("arenas are at most 4 GiB");
            }
            // Dropping the old buddy frees its arena and its table.
            self.book.allocator_calls += Buddy::HEAP_ALLOCATIONS;
        }
        self.arena = Some(new);
        Ok(())
    }

    /// Bytes of the arena, 0 before the first tag.
    pub fn arena_bytes(&self) -> usize {
        self.arena.as_ref().map_or(0, Buddy::arena_bytes)
    }
}

impl TagStore for BuddyArrays {
    const INFO: TagDesignInfo = TagDesignInfo {
        meta: DesignMeta {
            name: "buddy_arrays",
            description: "one power-of-two block per entity in a buddy-allocated arena (AA2's idea, not built there): blocks double by realloc, the arena doubles and compacts when full",
            kind: TagDesignKind::Tuned,
        },
        tags_per_entity_cap: None,
    };

    fn new() -> Self {
        Self {
            book: Bookkeeping::new(),
            blocks: Vec::new(),
            arena: None,
        }
    }

    answered_by_the_bookkeeping! { create: blocks = Block::NONE }

    fn add_tag(&mut self, entity: Entity, tag: Tag) -> Result<(), TagError> {
        let mut block = self.block(entity)?;
        if block.len == block.cap {
            block = self.grow_block(entity)?;
        }
        let arena = self
            .arena
            .as_mut()
            .expect("a block with room is in the arena");
        Self::write_tag(arena, block, block.len, tag);
        self.blocks[entity as usize].len += 1;
        self.book.tag_count += 1;
        Ok(())
    }

    fn remove_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let block = self.block(entity)?;
        let Some(i) = Self::tags(self.tag_bytes(block)).position(|t| t == tag) else {
            return Ok(false);
        };
        let arena = self.arena.as_mut().expect("a tag was found in the arena");
        let last = block.len - 1;
        if i as u32 != last {
            let moved = Self::read_tag(arena, block, last);
            Self::write_tag(arena, block, i as u32, moved);
        }
        self.blocks[entity as usize].len = last;
        self.book.tag_count -= 1;
        Ok(true)
    }

    #[inline(always)]
    fn has_tag(&mut self, entity: Entity, tag: Tag) -> Result<bool, TagError> {
        let block = self.block(entity)?;
        Ok(Self::tags(self.tag_bytes(block)).any(|t| t == tag))
    }

    #[inline(always)]
    fn visit_entity(&mut self, entity: Entity, mut f: impl FnMut(Tag)) -> Result<(), TagError> {
        let block = self.block(entity)?;
        Self::tags(self.tag_bytes(block)).for_each(&mut f);
        Ok(())
    }

    fn visit_all(&mut self, mut f: impl FnMut(Entity, Tag)) {
        // Released entities have no block, so no liveness check is needed.
        for (e, &block) in self.blocks.iter().enumerate() {
            Self::tags(self.tag_bytes(block)).for_each(|t| f(e as Entity, t));
        }
    }

    fn clear_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let block = self.block(entity)?;
        self.book.tag_count -= block.len as usize;
        self.blocks[entity as usize].len = 0;
        Ok(())
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), TagError> {
        let block = self.block(entity)?;
        if block.cap > 0 {
            let arena = self.arena.as_mut().expect("a block is in the arena");
            arena
                .free_sized(block.offset as usize, block.bytes(), TAG_BYTES)
                .expect("the entity's block is live");
        }
        self.book.tag_count -= block.len as usize;
        self.blocks[entity as usize] = Block::NONE;
        self.book.release(entity)
    }

    fn memory_bytes(&self) -> usize {
        self.book.memory_bytes(&self.blocks) + self.arena_bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.book.check_records(&self.blocks, "blocks")?;
        let (mut tags, mut block_bytes) = (0, 0);
        for (e, &block) in self.blocks.iter().enumerate() {
            if !self.book.entities.is_live(e as Entity) && block != Block::NONE {
                return Err(format!("released entity {e} holds {block:?}"));
            }
            if block.len > block.cap {
                return Err(format!("entity {e}: {block:?} holds more than its cap"));
            }
            tags += block.len as usize;
            if block.cap == 0 {
                continue;
            }
            if !block.cap.is_power_of_two() || block.cap < MIN_CAP {
                return Err(format!("entity {e}: cap of {block:?} is not a block size"));
            }
            let Some(arena) = &self.arena else {
                return Err(format!("entity {e} holds {block:?} but there is no arena"));
            };
            match arena.live_block_size(block.offset as usize) {
                Some(size) if size == block.bytes() => {}
                size => {
                    return Err(format!(
                        "entity {e}: {block:?} but the arena's live block there is {size:?}"
                    ));
                }
            }
            block_bytes += block.bytes();
        }
        self.book.check_tag_count(tags)?;
        if let Some(arena) = &self.arena {
            // Entity blocks are distinct live blocks (each starts one, and blocks never overlap);
            // equal totals mean no other block is live.
            if arena.bytes_reserved() != block_bytes {
                return Err(format!(
                    "the arena reserves {} bytes, the entities' blocks {block_bytes}",
                    arena.bytes_reserved()
                ));
            }
            arena.check_invariants()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tags::fixtures::{one_entity_with_tags, tags_of};

    #[test]
    fn empty_store_and_tagless_entities_hold_no_arena() {
        let mut store = BuddyArrays::new();
        assert_eq!(store.memory_bytes(), 0);
        let e = store.create_entity().unwrap();
        assert_eq!(store.arena_bytes(), 0);
        assert!(!store.has_tag(e, 1).unwrap());
        store.clear_entity(e).unwrap();
        store.visit_all(|_, _| panic!("no tags"));
        store.destroy_entity(e).unwrap();
        assert_eq!(store.arena_bytes(), 0);
        store.check_invariants().unwrap();
    }

    #[test]
    fn blocks_double_and_remove_fills_from_the_end() {
        let (mut store, e) = one_entity_with_tags::<BuddyArrays>(0..9);
        assert_eq!(store.blocks[e as usize].cap, 16, "4 -> 8 -> 16 tags");
        assert!(store.remove_tag(e, 3).unwrap());
        assert_eq!(tags_of(&mut store, e), [0, 1, 2, 8, 4, 5, 6, 7]);
        store.clear_entity(e).unwrap();
        assert_eq!(store.blocks[e as usize].cap, 16, "clear keeps the block");
        store.check_invariants().unwrap();
    }

    #[test]
    fn arena_grows_several_times_and_contents_survive() {
        let mut store = BuddyArrays::new();
        let calls_before = store.allocator_calls();
        // 300 entities with 0..40 tags (0 = no block), interleaved so that blocks both grow in
        // place and move, and the live blocks need well over the first arena.
        let entities: Vec<Entity> = (0..300).map(|_| store.create_entity().unwrap()).collect();
        let mut want: Vec<Vec<Tag>> = vec![Vec::new(); entities.len()];
        let mut sizes = Vec::new();
        for round in 0..40u32 {
            for (i, &e) in entities.iter().enumerate() {
                if (i as u32 * 7 + 3) % 41 > round {
                    let tag = (i as u32) << 8 | round;
                    store.add_tag(e, tag).unwrap();
                    want[i].push(tag);
                    if sizes.last() != Some(&store.arena_bytes()) {
                        sizes.push(store.arena_bytes());
                        store.check_invariants().unwrap();
                    }
                }
            }
        }
        assert!(
            sizes.len() >= 4,
            "the arena grew only through {sizes:?} bytes"
        );
        assert_eq!(sizes[0], INITIAL_ARENA);
        assert!(sizes.windows(2).all(|w| w[1] == 2 * w[0]), "{sizes:?}");
        // Entity set and record Vec growths, plus one call per arena.
        assert!(store.allocator_calls() - calls_before >= sizes.len() as u64);
        store.check_invariants().unwrap();
        for (&e, tags) in entities.iter().zip(&want) {
            assert_eq!(&tags_of(&mut store, e), tags, "entity {e}");
        }
        let mut all = Vec::new();
        store.visit_all(|e, t| all.push((e, t)));
        let expected: Vec<(Entity, Tag)> = entities
            .iter()
            .zip(&want)
            .flat_map(|(&e, tags)| tags.iter().map(move |&t| (e, t)))
            .collect();
        assert_eq!(all, expected, "visit_all walks entities in order");
        assert_eq!(store.tag_count(), expected.len());
    }

    #[test]
    fn one_entity_larger_than_the_arena_grows_it_repeatedly() {
        let mut store = BuddyArrays::new();
        let e = store.create_entity().unwrap();
        let n = 4 * INITIAL_ARENA as u32;
        for t in 0..n {
            store.add_tag(e, t).unwrap();
        }
        store.check_invariants().unwrap();
        assert!(store.arena_bytes() >= 2 * n as usize * TAG_BYTES);
        assert!(tags_of(&mut store, e).into_iter().eq(0..n));
    }
}
