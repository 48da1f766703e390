//! Buddy allocator, the design of "Allocation Adventures 3: The Buddy Allocator" (BitSquid, 2015).
//!
//! Design: a binary tree of blocks over the arena. Level `n` holds `2^n` blocks of size
//! `tree_size >> n`; the leaves (the last level) are `min_block` bytes. A block of level `n` and
//! index `i` starts at offset `i * (tree_size >> n)`, so its buddy is index `i ^ 1` and its parent
//! `i >> 1`: found by arithmetic, never by search. Each level has one free list, doubly linked
//! and intrusive: the links (`prev`, `next` as little-endian `u32` leaf numbers, `u32::MAX` = nil)
//! are the first 8 bytes of the free blocks themselves.
//!
//! Metadata, stored in leaf blocks at the start of the arena and marked allocated at init:
//! the list heads (one `u32` per level), one *split* bit per non-leaf block (set while the block
//! is divided into its two children, so `free(offset)` finds a block's level by walking down
//! from the root without being told its size), and one *pair* bit per buddy pair holding
//! "A free XOR B free", flipped on every allocation or free of either buddy: when a block is
//! freed, it is allocated, so the pair bit alone says whether its buddy is free. Both bit arrays
//! are indexed by the pair's parent block, heap order (`2^n - 1 + i`). That is 2 bits per leaf
//! (`2 * (leaves - 1)` bits) plus 4 bytes per level, rounded up to whole leaves.
//!
//! Totals that are not a power of two: the tree is the next power of two of the leaf count; the
//! part past the arena's last whole leaf is an unbacked suffix, marked allocated at init (as
//! maximal aligned blocks, with split bits set on their ancestors) and never read or written.
//!
//! Alignment: a block of size `2^k` starts at an offset that is a multiple of `2^k` from the
//! arena start, and the arena start is [`BASE_ALIGN`](super::arena::BASE_ALIGN) (4096)-aligned
//! in memory, so a request is served from a block of at least `max(size, align)` bytes and is
//! `align`-aligned as an address for any `align <= 4096` (relative to the arena start for larger
//! powers of two, which [`AllocDesignInfo::max_align`] therefore excludes).
//!
//! Complexity, with `L` levels (`log2(arena / min_block)`): allocate O(L) (find the first
//! non-empty list at or above the wanted level, split down); free O(L) merges, each O(1);
//! `free(offset)` adds an O(L) descent through split bits that `free_sized` skips.
//! Trade-off: internal fragmentation up to 50% (blocks are powers of two) for O(1) buddy
//! lookup, no per-block headers and ~2 bits of metadata per leaf; ideal for arrays that grow by
//! doubling, which ask for powers of two anyway.
//!
//! Bad frees. In debug builds `free`, `free_sized` and `realloc` check the offset and return
//! [`AllocError::ForeignOffset`] (outside the user area, not a whole leaf, inside a live block,
//! or a size that disagrees with the split bits) or [`AllocError::DoubleFree`] (the start of a
//! block that is free). In release builds nothing is checked, and, all in safe Rust (no undefined
//! behaviour, at worst a panic): a double free flips the pair bit back and pushes the block onto
//! its free list a second time, overwriting its links, so the list is corrupted (a later
//! allocation can hand the block out twice and a merge can take a block that is live); an offset
//! inside a live block frees the whole block containing it; an offset in the metadata frees
//! metadata leaves, which later allocations hand out and callers overwrite; an offset past the
//! arena panics on a slice index.
//!
//! The ablations reuse this core through [`Flavor`]: `buddy_vec_lists` (free lists in `Vec`s on
//! the host heap) and `buddy_scan` (no pair bits: the buddy is looked for in its level's list).

use crate::DesignMeta;
use std::collections::HashSet;
use std::fmt::Debug;

use super::arena::{Arena, BASE_ALIGN, zeroed_vec};
use super::{AllocDesignInfo, AllocError, BadFreeDetection, BlockAllocator, DesignKind};

mod intrusive_lists;

pub use intrusive_lists::IntrusiveLists;

/// End of an intrusive list, and "no block" in a link.
const NIL: u32 = u32::MAX;

/// Smallest `min_block`: a free block must hold its two `u32` links.
pub const MIN_LEAF: usize = 8;

/// The largest arena every buddy design accepts whatever its leaf size: fewer than 2^32 - 1
/// leaves ([`NIL`] is the no-block sentinel) of at least [`MIN_LEAF`] bytes.
pub const MAX_ARENA: usize = (NIL as usize - 1) * MIN_LEAF;

/// Per-level free lists of blocks, named by leaf number (offset / `min_block`).
pub trait FreeLists: Sized + Debug {
    /// Bytes of arena metadata per level (the list heads, if they live in the arena).
    const ARENA_BYTES_PER_LEVEL: usize;

    /// Empty lists for `levels` levels over `leaves` leaves; `heads` is the arena offset of the
    /// `levels * ARENA_BYTES_PER_LEVEL` bytes reserved for them.
    ///
    /// # Errors
    /// [`AllocError::HostOutOfMemory`] if side arrays sized by `leaves` cannot be allocated.
    fn new(
        mem: &mut Arena,
        levels: usize,
        leaves: usize,
        heads: usize,
        leaf_shift: u32,
    ) -> Result<Self, AllocError>;

    /// Adds the free block starting at leaf `leaf` to `level`'s list.
    fn push(&mut self, mem: &mut Arena, level: usize, leaf: u32);

    /// Takes a block off `level`'s list.
    fn pop(&mut self, mem: &mut Arena, level: usize) -> Option<u32>;

    /// Takes the block starting at `leaf`, which is on `level`'s list, off it.
    fn remove(&mut self, mem: &mut Arena, level: usize, leaf: u32);

    /// Whether `level`'s list is empty.
    fn is_empty(&self, mem: &Arena, level: usize) -> bool;

    /// Whether `leaf` is on `level`'s list, by walking the list.
    fn contains(&self, mem: &Arena, level: usize, leaf: u32) -> bool;

    /// Every block on `level`'s list, checking the list's links on the way.
    ///
    /// # Errors
    /// A description of a broken link.
    fn collect(&self, mem: &Arena, level: usize) -> Result<Vec<u32>, String>;

    /// Bytes the lists hold on the host heap.
    fn heap_bytes(&self) -> usize;
}

/// What distinguishes the article design from its ablations.
pub trait Flavor: Sized {
    /// How the free lists are stored.
    type Lists: FreeLists;
    /// `false`: the pair bit says whether the buddy is free (article). `true`: no pair bits; the
    /// buddy's level list is searched (as `buddy_system_allocator` does).
    const SCAN_FOR_BUDDY: bool;
    /// The registry entry of the design.
    const INFO: AllocDesignInfo;
}

/// The article design: intrusive lists, pair bits.
#[derive(Debug, Clone, Copy)]
pub struct Article;

impl Flavor for Article {
    type Lists = IntrusiveLists;
    const SCAN_FOR_BUDDY: bool = false;
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "buddy",
            description: "AA3 buddy allocator: intrusive per-level free lists, buddy by index arithmetic, pair XOR bit + split bit per block, metadata in the arena",
            kind: DesignKind::Article,
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: true,
        bad_free: BadFreeDetection::DebugOnly,
        max_arena: MAX_ARENA,
    };
}

/// The article's buddy allocator.
pub type Buddy = BuddyCore<Article>;

/// The buddy allocator core shared by the article design and its ablations (see [`Flavor`]).
#[derive(Debug, Clone)]
pub struct BuddyCore<F: Flavor> {
    /// The backed bytes `[0, total)`: metadata leaves `[0, meta_end)`, user blocks
    /// `[meta_end, user_end)`, then less than one leaf that is never used.
    mem: Arena,
    lists: F::Lists,
    /// `min_block == 1 << leaf_shift`.
    leaf_shift: u32,
    /// Level of the leaves; the root (level 0) is `1 << (leaf_shift + leaf_level)` bytes, the
    /// virtual tree size (a power of two >= the arena).
    leaf_level: u32,
    /// Arena offset of the split bits (one per non-leaf block, heap order): set iff the block is
    /// divided, i.e. it is an ancestor of a live, free or reserved block. Zero below any block
    /// that is not split.
    split_bits: usize,
    /// Arena offset of the pair bits (one per non-leaf block, for the pair of its children):
    /// `free(left) XOR free(right)` while the parent is split, else 0. Unused when
    /// `F::SCAN_FOR_BUDDY`.
    pair_bits: usize,
    /// `[0, meta_end)` holds the metadata (whole leaves), marked allocated at init.
    meta_end: usize,
    /// `total` rounded down to a leaf; `[user_end, tree size)` is marked allocated at init.
    user_end: usize,
    /// The largest free block right after init (everything merges back to this).
    initial_largest: usize,
    requested_live: usize,
    /// Sum of the block sizes of live blocks.
    reserved: usize,
    /// Benchmark accounting, not design metadata (excluded from `metadata_bytes`): per leaf,
    /// `requested size + 1` of the live block starting there, 0 if none. Lets `free(offset)`
    /// keep `bytes_requested_live` exact; debug builds also use it to detect double frees.
    requested: Vec<usize>,
}

impl<F: Flavor> BuddyCore<F> {
    /// log2 of the block size at `level`.
    #[inline]
    fn shift(&self, level: usize) -> u32 {
        self.leaf_shift + self.leaf_level - level as u32
    }

    /// Heap-order number of the non-leaf block `(level, index)`: its bit in both bit arrays.
    #[inline]
    fn node(level: usize, index: usize) -> usize {
        (1 << level) - 1 + index
    }

    /// Leaf number of the first leaf of block `(level, index)`.
    #[inline]
    fn leaf_of(&self, level: usize, index: usize) -> u32 {
        (index << (self.leaf_level as usize - level)) as u32
    }

    #[inline]
    fn bit(&self, base: usize, node: usize) -> bool {
        self.mem.byte(base + node / 8) & (1 << (node % 8)) != 0
    }

    #[inline]
    fn set_bit(&mut self, base: usize, node: usize, on: bool) {
        let byte = self.mem.byte_mut(base + node / 8);
        if on {
            *byte |= 1 << (node % 8);
        } else {
            *byte &= !(1 << (node % 8));
        }
    }

    #[inline]
    fn flip_pair(&mut self, parent: usize) {
        if !F::SCAN_FOR_BUDDY {
            *self.mem.byte_mut(self.pair_bits + parent / 8) ^= 1 << (parent % 8);
        }
    }

    /// The level a request of `size` bytes aligned to `align` is served from, and its block size.
    fn level_for(&self, size: usize, align: usize) -> Result<(usize, usize), AllocError> {
        let need = size
            .max(align)
            .max(1 << self.leaf_shift)
            .checked_next_power_of_two()
            .filter(|&n| n <= self.initial_largest)
            .ok_or(AllocError::TooLarge {
                requested: size.max(align),
                arena: self.mem.len(),
            })?;
        let level = self.leaf_level as usize - (need.trailing_zeros() - self.leaf_shift) as usize;
        Ok((level, need))
    }

    /// The free block at `(level, index)` goes onto its list (merging with free buddies first).
    fn release(&mut self, mut level: usize, mut index: usize) {
        self.reserved -= 1 << self.shift(level);
        while level > 0 {
            let parent = Self::node(level - 1, index >> 1);
            let buddy = self.leaf_of(level, index ^ 1);
            let buddy_free = if F::SCAN_FOR_BUDDY {
                self.lists.contains(&self.mem, level, buddy)
            } else {
                // This block is allocated until now, so "A free XOR B free" is "B free".
                self.bit(self.pair_bits, parent)
            };
            if !buddy_free {
                break;
            }
            self.lists.remove(&mut self.mem, level, buddy);
            self.flip_pair(parent);
            self.set_bit(self.split_bits, parent, false);
            index >>= 1;
            level -= 1;
        }
        if level > 0 {
            self.flip_pair(Self::node(level - 1, index >> 1));
        }
        let leaf = self.leaf_of(level, index);
        self.lists.push(&mut self.mem, level, leaf);
    }

    /// Splits the allocated block `(level, index)` down to `to_level`, freeing the right halves;
    /// returns the index of the kept left part at `to_level`.
    fn split_down(&mut self, mut level: usize, mut index: usize, to_level: usize) -> usize {
        while level < to_level {
            let node = Self::node(level, index);
            self.set_bit(self.split_bits, node, true);
            index *= 2;
            level += 1;
            let right = self.leaf_of(level, index + 1);
            self.lists.push(&mut self.mem, level, right);
            // Left child allocated, right free: the pair bit goes from 0 to 1.
            self.flip_pair(node);
        }
        index
    }

    /// The level of the block starting at `offset`: the first level whose block there is not
    /// split (the leaf level at most).
    #[inline]
    fn level_of(&self, offset: usize) -> usize {
        let mut level = 0;
        while level < self.leaf_level as usize
            && self.bit(
                self.split_bits,
                Self::node(level, offset >> self.shift(level)),
            )
        {
            level += 1;
        }
        level
    }

    /// The live block starting at `offset`: its level and index. Checks the offset in debug
    /// builds only (see the module docs for release behaviour).
    fn live_block(&self, offset: usize) -> Result<(usize, usize), AllocError> {
        if cfg!(debug_assertions)
            && (offset < self.meta_end
                || offset >= self.user_end
                || offset & ((1 << self.leaf_shift) - 1) != 0)
        {
            return Err(AllocError::ForeignOffset { offset });
        }
        let level = self.level_of(offset);
        let index = offset >> self.shift(level);
        if cfg!(debug_assertions) {
            if index << self.shift(level) != offset {
                return Err(AllocError::ForeignOffset { offset });
            }
            if self.requested[offset >> self.leaf_shift] == 0 {
                return Err(AllocError::DoubleFree { offset });
            }
        }
        Ok((level, index))
    }

    /// Forgets the requested size of the live block at `offset`; returns it.
    fn forget_requested(&mut self, offset: usize) -> usize {
        let entry = &mut self.requested[offset >> self.leaf_shift];
        let size = entry.saturating_sub(1);
        *entry = 0;
        self.requested_live = self.requested_live.wrapping_sub(size);
        size
    }

    fn remember_requested(&mut self, offset: usize, size: usize) {
        self.requested[offset >> self.leaf_shift] = size + 1;
        self.requested_live += size;
    }

    /// Whether block `(level, index)` could grow in place to `to_level`: it is the left child
    /// at each step and its buddy is free.
    fn can_grow_in_place(&self, mut level: usize, mut index: usize, to_level: usize) -> bool {
        while level > to_level {
            if index & 1 == 1 {
                return false;
            }
            let buddy_free = if F::SCAN_FOR_BUDDY {
                self.lists
                    .contains(&self.mem, level, self.leaf_of(level, index ^ 1))
            } else {
                self.bit(self.pair_bits, Self::node(level - 1, index >> 1))
            };
            if !buddy_free {
                return false;
            }
            index >>= 1;
            level -= 1;
        }
        true
    }

    /// Calls `f(level, index)` for the maximal aligned blocks covering leaves `[start, end)`.
    /// An associated function (the leaf level passed in) so `f` may change the allocator.
    fn aligned_blocks(
        leaf_level: u32,
        mut start: usize,
        end: usize,
        mut f: impl FnMut(usize, usize),
    ) {
        while start < end {
            let mut leaves = if start == 0 {
                1usize << leaf_level
            } else {
                1 << start.trailing_zeros()
            };
            while start + leaves > end {
                leaves /= 2;
            }
            let level = leaf_level as usize - leaves.trailing_zeros() as usize;
            f(level, start / leaves);
            start += leaves;
        }
    }

    /// Marks every ancestor of `(level, index)` as split.
    fn mark_ancestors_split(&mut self, level: usize, index: usize) {
        for up in 0..level {
            let node = Self::node(up, index >> (level - up));
            self.set_bit(self.split_bits, node, true);
        }
    }
}

impl<F: Flavor> BlockAllocator for BuddyCore<F> {
    const INFO: AllocDesignInfo = F::INFO;

    fn with_arena(total: usize, min_block: usize) -> Result<Self, AllocError> {
        if !min_block.is_power_of_two() || min_block < MIN_LEAF {
            return Err(AllocError::InvalidArena {
                reason: "min_block must be a power of two of at least 8 bytes",
            });
        }
        if total > F::INFO.max_arena {
            return Err(AllocError::InvalidArena {
                reason: "leaf numbers are u32: the arena is at most (2^32 - 2) * 8 bytes",
            });
        }
        let leaf_shift = min_block.trailing_zeros();
        let backed_leaves = total >> leaf_shift;
        if backed_leaves == 0 || backed_leaves >= NIL as usize {
            return Err(AllocError::InvalidArena {
                reason: "the arena must hold between 1 and 2^32 - 2 leaves",
            });
        }
        let tree_leaves = backed_leaves.next_power_of_two();
        let leaf_level = tree_leaves.trailing_zeros();
        let levels = leaf_level as usize + 1;
        let bit_bytes = (tree_leaves - 1).div_ceil(8);
        let heads = 0;
        let split_bits = heads + levels * <F::Lists as FreeLists>::ARENA_BYTES_PER_LEVEL;
        let pair_bits = split_bits + bit_bytes;
        let meta_bytes = if F::SCAN_FOR_BUDDY {
            pair_bits
        } else {
            pair_bits + bit_bytes
        };
        let meta_leaves = meta_bytes.div_ceil(min_block);
        if meta_leaves >= backed_leaves {
            return Err(AllocError::InvalidArena {
                reason: "the arena cannot hold the metadata and one block",
            });
        }
        let mut mem = Arena::new(total)?;
        let lists = F::Lists::new(&mut mem, levels, backed_leaves, heads, leaf_shift)?;
        let mut this = Self {
            mem,
            lists,
            leaf_shift,
            leaf_level,
            split_bits,
            pair_bits,
            meta_end: meta_leaves << leaf_shift,
            user_end: backed_leaves << leaf_shift,
            initial_largest: 0,
            requested_live: 0,
            reserved: 0,
            requested: zeroed_vec(backed_leaves)?,
        };
        // Reserved blocks: the metadata prefix and the unbacked suffix. They are never freed;
        // only their ancestors' split bits record them. Marked as they are found, without
        // scratch lists, so the arena and the requested-size table are the only global
        // allocations a buddy makes ([`Buddy::HEAP_ALLOCATIONS`]).
        Self::aligned_blocks(leaf_level, 0, meta_leaves, |l, i| {
            this.mark_ancestors_split(l, i);
        });
        Self::aligned_blocks(leaf_level, backed_leaves, tree_leaves, |l, i| {
            this.mark_ancestors_split(l, i);
        });
        // Split bits, pair bits and list links are disjoint bytes, so each free block can be
        // marked, paired and listed in one step.
        Self::aligned_blocks(leaf_level, meta_leaves, backed_leaves, |level, index| {
            this.mark_ancestors_split(level, index);
            // Maximal aligned blocks are never buddies of each other, so each free block's
            // buddy is reserved (or split): the pair bit is 1.
            if level > 0 {
                this.flip_pair(Self::node(level - 1, index >> 1));
            }
            let leaf = this.leaf_of(level, index);
            this.lists.push(&mut this.mem, level, leaf);
        });
        this.initial_largest = this.largest_free_block().unwrap_or(0);
        Ok(this)
    }

    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError> {
        if !align.is_power_of_two() || align > F::INFO.max_align {
            return Err(AllocError::BadAlignment { align });
        }
        let (level, need) = self.level_for(size, align)?;
        let Some(from) = (0..=level)
            .rev()
            .find(|&l| !self.lists.is_empty(&self.mem, l))
        else {
            return Err(AllocError::OutOfMemory {
                requested: size,
                largest_free: self.largest_free_block().unwrap_or(0),
            });
        };
        let leaf = self
            .lists
            .pop(&mut self.mem, from)
            .expect("list is not empty") as usize;
        let index = leaf >> (self.leaf_level as usize - from);
        if from > 0 {
            self.flip_pair(Self::node(from - 1, index >> 1));
        }
        let index = self.split_down(from, index, level);
        let offset = index << self.shift(level);
        self.reserved += need;
        self.remember_requested(offset, size);
        Ok(offset)
    }

    fn free(&mut self, offset: usize) -> Result<(), AllocError> {
        let (level, index) = self.live_block(offset)?;
        self.forget_requested(offset);
        self.release(level, index);
        Ok(())
    }

    fn free_sized(&mut self, offset: usize, size: usize, align: usize) -> Result<(), AllocError> {
        let (level, _) = self.level_for(size, align)?;
        if cfg!(debug_assertions) && self.live_block(offset)?.0 != level {
            return Err(AllocError::ForeignOffset { offset });
        }
        self.requested[offset >> self.leaf_shift] = 0;
        self.requested_live = self.requested_live.wrapping_sub(size);
        self.release(level, offset >> self.shift(level));
        Ok(())
    }

    fn realloc(
        &mut self,
        offset: usize,
        old_size: usize,
        align: usize,
        new_size: usize,
    ) -> Result<usize, AllocError> {
        let (level, index) = self.live_block(offset)?;
        if !align.is_power_of_two() || align > F::INFO.max_align {
            return Err(AllocError::BadAlignment { align });
        }
        let (new_level, _) = self.level_for(new_size, align)?;
        if new_level >= level {
            // Same block, or a smaller one: keep the left part, free the right halves.
            self.split_down(level, index, new_level);
            self.reserved -= (1 << self.shift(level)) - (1 << self.shift(new_level));
        } else if self.can_grow_in_place(level, index, new_level) {
            let (mut l, mut i) = (level, index);
            while l > new_level {
                let parent = Self::node(l - 1, i >> 1);
                let buddy = self.leaf_of(l, i ^ 1);
                self.lists.remove(&mut self.mem, l, buddy);
                self.flip_pair(parent);
                self.set_bit(self.split_bits, parent, false);
                i >>= 1;
                l -= 1;
            }
            self.reserved += (1 << self.shift(new_level)) - (1 << self.shift(level));
        } else {
            let moved = self.allocate(new_size, align)?;
            self.mem.copy_within(offset, moved, old_size.min(new_size));
            self.forget_requested(offset);
            self.release(level, index);
            return Ok(moved);
        }
        self.forget_requested(offset);
        self.remember_requested(offset, new_size);
        Ok(offset)
    }

    arena_accessors!(arena: mem, requested_live: requested_live);

    fn bytes_reserved(&self) -> usize {
        self.reserved
    }

    fn largest_free_block(&self) -> Option<usize> {
        let level = (0..=self.leaf_level as usize).find(|&l| !self.lists.is_empty(&self.mem, l));
        Some(level.map_or(0, |l| 1 << self.shift(l)))
    }

    fn metadata_bytes(&self) -> usize {
        self.meta_end + self.lists.heap_bytes()
    }

    fn free_bytes(&self) -> Option<usize> {
        (0..=self.leaf_level as usize)
            .map(|level| {
                let blocks = self.lists.collect(&self.mem, level).ok()?.len();
                Some(blocks << self.shift(level))
            })
            .sum()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut free = HashSet::new();
        for level in 0..=self.leaf_level as usize {
            for leaf in self.lists.collect(&self.mem, level)? {
                let leaves = 1usize << (self.leaf_level as usize - level);
                if leaf as usize % leaves != 0 {
                    return Err(format!(
                        "level {level}: free leaf {leaf} is not block-aligned"
                    ));
                }
                if !free.insert((level, leaf as usize / leaves)) {
                    return Err(format!("level {level}: leaf {leaf} is on the list twice"));
                }
            }
        }
        // Walk the tree: split nodes down to blocks; classify each block.
        let (mut free_seen, mut reserved, mut live) = (0, 0, 0);
        let mut stack = vec![(0usize, 0usize, false)];
        while let Some((level, index, under_block)) = stack.pop() {
            let non_leaf = level < self.leaf_level as usize;
            let node = Self::node(level, index);
            let split = non_leaf && self.bit(self.split_bits, node);
            let pair = non_leaf && !F::SCAN_FOR_BUDDY && self.bit(self.pair_bits, node);
            if under_block {
                if split || pair {
                    return Err(format!("({level}, {index}): bits set inside a block"));
                }
                if non_leaf {
                    stack.push((level + 1, 2 * index, true));
                    stack.push((level + 1, 2 * index + 1, true));
                }
                continue;
            }
            if split {
                let (l, r) = (
                    free.contains(&(level + 1, 2 * index)),
                    free.contains(&(level + 1, 2 * index + 1)),
                );
                if l && r {
                    return Err(format!(
                        "({level}, {index}): both children free, not merged"
                    ));
                }
                if !F::SCAN_FOR_BUDDY && pair != (l ^ r) {
                    return Err(format!(
                        "({level}, {index}): pair bit {pair}, children free {l} {r}"
                    ));
                }
                stack.push((level + 1, 2 * index, false));
                stack.push((level + 1, 2 * index + 1, false));
                continue;
            }
            if pair {
                return Err(format!(
                    "({level}, {index}): pair bit set on an unsplit block"
                ));
            }
            let start = index << self.shift(level);
            let end = start + (1 << self.shift(level));
            if free.contains(&(level, index)) {
                if start < self.meta_end || end > self.user_end {
                    return Err(format!("free block {start}..{end} outside the user area"));
                }
                free_seen += 1;
            } else if end <= self.meta_end || start >= self.user_end {
                reserved += 1;
            } else if start < self.meta_end || end > self.user_end {
                return Err(format!("live block {start}..{end} outside the user area"));
            } else {
                if self.requested[start >> self.leaf_shift] == 0 {
                    return Err(format!("live block {start}..{end} has no requested size"));
                }
                live += end - start;
            }
            if non_leaf {
                stack.push((level + 1, 2 * index, true));
                stack.push((level + 1, 2 * index + 1, true));
            }
        }
        if free_seen != free.len() {
            return Err(format!(
                "{} free blocks listed, {free_seen} found in the tree",
                free.len()
            ));
        }
        if reserved == 0 {
            return Err("metadata is not marked allocated".into());
        }
        if live != self.reserved {
            return Err(format!(
                "live blocks hold {live} bytes, counter says {}",
                self.reserved
            ));
        }
        let requested: usize = self.requested.iter().map(|r| r.saturating_sub(1)).sum();
        if requested != self.requested_live {
            return Err(format!(
                "requested sizes sum to {requested}, counter says {}",
                self.requested_live
            ));
        }
        Ok(())
    }
}

impl Buddy {
    /// Global allocations a [`Buddy`] holds, each made once by `with_arena` and freed once when
    /// it is dropped: the arena and the requested-size table (its free lists live in the
    /// arena). Designs that build buddies count these in their `allocator_calls`.
    pub const HEAP_ALLOCATIONS: u64 = 2;
}

impl<F: Flavor> BuddyCore<F> {
    /// Bytes at the start of the arena holding the metadata (whole leaves, marked allocated).
    pub fn metadata_end(&self) -> usize {
        self.meta_end
    }

    /// Bytes of the arena's last whole leaf boundary: the user area is
    /// `[metadata_end(), user_end())`.
    pub fn user_end(&self) -> usize {
        self.user_end
    }

    /// Address in memory of offset 0 (for alignment tests).
    pub fn base_addr(&self) -> usize {
        self.mem.base_addr()
    }

    /// The size of the live block starting at `offset`, or `None` if no live block starts there.
    /// For the invariant checks of designs built on this allocator (`tags::buddy_arrays`); it
    /// reads the benchmark's requested-size table, so it is exact in every build. O(levels).
    pub fn live_block_size(&self, offset: usize) -> Option<usize> {
        let in_user_area = (self.meta_end..self.user_end).contains(&offset)
            && offset & ((1 << self.leaf_shift) - 1) == 0;
        if !in_user_area || self.requested[offset >> self.leaf_shift] == 0 {
            return None;
        }
        let level = self.level_of(offset);
        Some(1 << self.shift(level))
    }
}
