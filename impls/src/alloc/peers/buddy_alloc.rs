//! Peer: `buddy_alloc::buddy_alloc::BuddyAlloc` (the `buddy-alloc` crate, an embedded/no-std
//! buddy allocator after xv6's `malloc.c`) behind [`BlockAllocator`].
//!
//! Design: one circular doubly linked free list per order, intrusive (16-byte `prev`/`next`
//! pointer nodes in the free blocks); an *alloc* bit per block at every order and a *split* bit
//! per block above the leaves. `free(ptr)` needs no size: it finds the order from the split bits
//! (lowest order whose parent is split), then merges while the buddy's alloc bit is clear. All
//! metadata sits at the start of the arena: one 24-byte entry (list head pointer, two bit-array
//! pointers) and one 16-byte list sentinel per order, then the bit arrays, rounded up to a leaf.
//! Blocks are indexed from the first leaf after the metadata; init then covers the rest greedily
//! with the largest blocks first (one block per order at most, the binary digits of the usable
//! size), and the tail past the last whole leaf is never used.
//!
//! Limits, and what the adapter does about them:
//! * Leaves must be a multiple of 16 bytes (a free block holds a 16-byte node): the leaf is
//!   `max(min_block, 16)`, so for `min_block = 8` blocks are not `max(size, 8)` rounded to a
//!   power of two, and [`AllocDesignInfo::power_of_two_blocks`] is `false`.
//! * Alignment: a block is aligned to its size only relative to the first leaf after the
//!   metadata, which is itself only leaf-aligned (jjyr/buddy-alloc issue #5). The guarantee is
//!   16 bytes for every leaf size, so `max_align` is 16 and larger alignments are refused with
//!   [`AllocError::BadAlignment`]. (The crate's `GlobalAlloc` front end ignores `Layout::align`;
//!   we use `BuddyAlloc` directly, not that front end or its small-block `FastAlloc`.)
//! * `BuddyAlloc::new` panics (or, with the crate's debug assertions off, writes past the
//!   buffer) when the arena cannot hold the metadata: the adapter computes the metadata size
//!   from the crate's layout first and returns [`AllocError::InvalidArena`] instead.
//! * `malloc` returns null both for "no free block now" and "larger than any block"; the adapter
//!   tells them apart with the largest block at init (every free merges back to init's blocks).
//!   It never calls `malloc` with a size larger than the arena (the crate's size-class search
//!   would loop forever once its shifted size overflows to 0).
//! * `free` is a safe function but corrupts the allocator on a pointer it did not hand out; the
//!   adapter's [`LiveBlocks`] table refuses those first.
//! * No realloc: the adapter allocates, copies and frees (what the crate's `GlobalAlloc` gets from
//!   the default `realloc`), so a realloc needs room for both blocks.
//! * No usage statistics (`available_bytes()` is the usable size at init, constant) and no
//!   largest-free figure: the adapter counts reserved bytes itself, and the largest free block
//!   is unknown.

use crate::DesignMeta;
use std::fmt;
use std::ptr::NonNull;

use ::buddy_alloc::BuddyAllocParam;
use ::buddy_alloc::buddy_alloc::{BuddyAlloc, MIN_LEAF_SIZE_ALIGN, block_size, first_up_k};

use super::{LiveBlocks, RawArena};
use crate::alloc::arena::BASE_ALIGN;
use crate::alloc::{AllocDesignInfo, AllocError, BadFreeDetection, BlockAllocator, DesignKind};

/// Bytes of the crate's per-order entry (`free`, `alloc`, `split` pointers).
const ENTRY_BYTES: usize = 3 * size_of::<usize>();

/// Bytes of the crate's per-order free-list sentinel (`next`, `prev` pointers).
const SENTINEL_BYTES: usize = 2 * size_of::<usize>();

/// The crate's metadata prefix for an arena of `total` bytes with `leaf`-byte leaves (a power
/// of two), rounded up to a leaf, as `BuddyAlloc::new` of 0.6.0 lays it out on a leaf-aligned
/// base: with `orders = log2(total / leaf) + 2`, per order an entry, a sentinel and an alloc
/// bit array of `2^(orders - k - 1)` bits, and per order but the first a split bit array.
fn metadata_bytes(total: usize, leaf: usize) -> usize {
    let orders = (total / leaf).max(1).ilog2() as usize + 2;
    let bit_array = |k: usize| (1usize << (orders - k - 1)).div_ceil(8);
    let alloc_bits: usize = (0..orders).map(bit_array).sum();
    let split_bits: usize = (1..orders).map(bit_array).sum();
    (orders * (ENTRY_BYTES + SENTINEL_BYTES) + alloc_bits + split_bits).next_multiple_of(leaf)
}

/// The crate's allocator as the adapter holds it (for `ref-direct-buddy_alloc`, which calls
/// `BuddyAlloc` directly without depending on the crate itself).
pub type CrateBuddy = BuddyAlloc;

/// `BuddyAlloc` over a [`RawArena`].
pub struct BuddyAllocPeer {
    buddy: BuddyAlloc,
    /// Declared after `buddy`: its metadata and lists point into it.
    arena: RawArena,
    live: LiveBlocks,
    /// The crate's leaf: `max(min_block, 16)`, a power of two.
    leaf: usize,
    /// `[0, meta_end)` holds the crate's metadata.
    meta_end: usize,
    /// The largest block at init, hence ever.
    largest: usize,
    /// Sum of the block sizes of live blocks.
    reserved: usize,
}

impl fmt::Debug for BuddyAllocPeer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuddyAllocPeer")
            .field("arena", &self.arena)
            .field("live", &self.live)
            .field("leaf", &self.leaf)
            .field("meta_end", &self.meta_end)
            .field("largest", &self.largest)
            .field("reserved", &self.reserved)
            .finish_non_exhaustive()
    }
}

impl BuddyAllocPeer {
    /// The block the crate hands out for `size` bytes.
    fn block(&self, size: usize) -> usize {
        block_size(first_up_k(size, self.leaf), self.leaf)
    }

    /// Checks a request; returns the size of the block that would serve it.
    fn check_request(&self, size: usize, align: usize) -> Result<usize, AllocError> {
        if !align.is_power_of_two() || align > Self::INFO.max_align {
            return Err(AllocError::BadAlignment { align });
        }
        // Checked before `block`, whose doubling search would not end for huge sizes.
        if size > self.largest {
            return Err(AllocError::TooLarge {
                requested: size,
                arena: self.arena.len(),
            });
        }
        Ok(self.block(size))
    }

    /// Bytes at the start of the arena holding the crate's metadata (whole leaves).
    pub fn metadata_end(&self) -> usize {
        self.meta_end
    }

    /// The address of arena offset 0 (what the crate's pointers are relative to).
    pub fn arena_base(&self) -> NonNull<u8> {
        self.arena.base()
    }

    /// The crate's allocator over the arena, for `ref-direct-buddy_alloc`, which calls
    /// `BuddyAlloc::malloc` / `free` on it directly (`free` is a safe function of the crate that
    /// corrupts it on a pointer it did not hand out, hence `unsafe` here).
    ///
    /// # Safety
    /// Blocks allocated, freed or moved through the returned object are not recorded in the
    /// adapter's live table, so the table no longer describes the crate's state: after the
    /// first such call the caller must call no [`BlockAllocator`] method of this adapter (only
    /// drop it, which frees the arena), and honours the crate's own contracts for its `unsafe`
    /// calls (free only live blocks it handed out, with their layout).
    pub unsafe fn crate_buddy(&mut self) -> &mut CrateBuddy {
        &mut self.buddy
    }
}

impl BlockAllocator for BuddyAllocPeer {
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "buddy_alloc",
            description: "buddy-alloc's BuddyAlloc (xv6-style): per-order circular intrusive lists, alloc + split bits per block, metadata in the arena, 16-byte alignment only",
            kind: DesignKind::Peer {
                crate_name: "buddy-alloc",
                version: "0.6.0",
                idiom: "BuddyAlloc::new over the arena (its metadata inside), malloc(size) / free(ptr) per block; a realloc is malloc + copy + free",
                docs: "https://docs.rs/buddy-alloc/0.6.0/buddy_alloc/buddy_alloc/struct.BuddyAlloc.html",
                adapter: "Checks align and size, keeps a `LiveBlocks` entry per block so `free(offset)` refuses an offset never handed out (the crate's `free` would corrupt it), and runs `first_up_k` on allocate and free for `bytes_reserved`. Our `slab_alloc` refuses bad frees in release too; our `buddy` only in debug.",
            },
        },
        max_align: MIN_LEAF_SIZE_ALIGN,
        power_of_two_blocks: false,
        bad_free: BadFreeDetection::Always,
        max_arena: usize::MAX,
    };

    fn with_arena(total: usize, min_block: usize) -> Result<Self, AllocError> {
        if !min_block.is_power_of_two() {
            return Err(AllocError::InvalidArena {
                reason: "min_block must be a power of two",
            });
        }
        let leaf = min_block.max(MIN_LEAF_SIZE_ALIGN);
        let meta_end = metadata_bytes(total, leaf);
        if meta_end.checked_add(leaf).is_none_or(|end| end > total) {
            return Err(AllocError::InvalidArena {
                reason: "buddy-alloc needs room for its metadata and one leaf",
            });
        }
        let arena = RawArena::new(total, BASE_ALIGN.max(leaf))?;
        let param = BuddyAllocParam::new_with_zero_filled(arena.base().as_ptr(), total, leaf);
        // SAFETY: the range is the arena's `total` zeroed bytes, leaf-aligned (so the crate does
        // not move its base), owned by this adapter alone and freed only after `buddy` is dropped
        // (field order); the check above guarantees the metadata and one leaf fit, so `new`
        // neither panics nor writes past the range. Reached by every `with_arena`.
        let buddy = unsafe { BuddyAlloc::new(param) };
        let usable = buddy.available_bytes();
        debug_assert_eq!(
            (total - usable) / leaf * leaf,
            meta_end,
            "metadata layout of buddy-alloc 0.6.0"
        );
        Ok(Self {
            buddy,
            arena,
            live: LiveBlocks::new(total)?,
            leaf,
            meta_end,
            // Init's blocks are the binary digits of the usable size, largest first.
            largest: 1 << usable.ilog2(),
            reserved: 0,
        })
    }

    #[inline]
    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError> {
        let block = self.check_request(size, align)?;
        let ptr = self.buddy.malloc(size);
        if ptr.is_null() {
            return Err(AllocError::OutOfMemory {
                requested: size,
                largest_free: 0,
            });
        }
        let offset = ptr as usize - self.arena.base().as_ptr() as usize;
        self.live.insert(offset, size, align);
        self.reserved += block;
        Ok(offset)
    }

    #[inline]
    fn free(&mut self, offset: usize) -> Result<(), AllocError> {
        let (size, _) = self.live.remove(offset)?;
        self.reserved -= self.block(size);
        // `offset` came out of `live`: the start of a block `malloc` handed out, still live.
        self.buddy.free(self.arena.ptr(offset).as_ptr());
        Ok(())
    }

    realloc_by_copy!();

    arena_accessors!(arena: arena, requested_live: live.requested());

    fn bytes_reserved(&self) -> usize {
        self.reserved
    }

    fn metadata_bytes(&self) -> usize {
        // Entries, sentinels and bit arrays, all in the arena; links live in free blocks.
        self.meta_end
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut blocks: Vec<(usize, usize)> = self
            .live
            .offsets()
            .map(|o| (o, self.block(self.live.get(o).expect("listed").0)))
            .collect();
        blocks.sort_unstable();
        let mut end = self.meta_end;
        for &(offset, size) in &blocks {
            if offset < end || offset % self.leaf != 0 || offset + size > self.arena.len() {
                return Err(format!(
                    "block {offset}+{size} overlaps, is not a leaf or leaves the user area"
                ));
            }
            if (offset - self.meta_end) % size != 0 {
                return Err(format!("block {offset}+{size} is not buddy-aligned"));
            }
            end = offset + size;
        }
        let reserved: usize = blocks.iter().map(|&(_, size)| size).sum();
        if reserved != self.reserved {
            return Err(format!(
                "live blocks hold {reserved} bytes, counter says {}",
                self.reserved
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The metadata size the adapter computes is where the crate's first block starts, and the
    /// largest block it derives is exactly the largest the crate hands out.
    #[test]
    fn metadata_and_largest_block_match_the_crate() {
        for (total, min_block) in [
            (600, 64),
            (4096, 16),
            (10_000, 8),
            (65_536, 32),
            (100_000, 16),
        ] {
            let mut a = BuddyAllocPeer::with_arena(total, min_block).unwrap();
            let leaf = a.leaf;
            let mut leaves = Vec::new();
            while let Ok(o) = a.allocate(leaf, 1) {
                leaves.push(o);
            }
            assert_eq!(
                leaves.iter().min(),
                Some(&a.metadata_end()),
                "{total}/{min_block}: the first leaf follows the metadata"
            );
            a.check_invariants().unwrap();
            for o in leaves {
                a.free(o).unwrap();
            }
            let largest = a.largest;
            assert!(largest.is_power_of_two() && a.metadata_end() + largest <= total);
            let o = a.allocate(largest, 16).unwrap();
            assert!(matches!(
                a.allocate(largest + 1, 1),
                Err(AllocError::TooLarge { .. })
            ));
            a.free(o).unwrap();
            assert_eq!(a.bytes_reserved(), 0);
        }
    }

    /// The metadata formula agrees with the crate's own layout over many arenas: the crate's
    /// usable bytes are the binary digits of what follows the metadata.
    #[test]
    fn metadata_formula_matches_the_crate_layout() {
        for min_block in [8, 16, 32, 64, 256] {
            for total in (256..70_000).step_by(173) {
                let Ok(a) = BuddyAllocPeer::with_arena(total, min_block) else {
                    assert!(metadata_bytes(total, min_block.max(16)) + min_block.max(16) > total);
                    continue;
                };
                let usable = a.buddy.available_bytes();
                assert_eq!(
                    (total - a.meta_end) / a.leaf * a.leaf,
                    usable,
                    "{total}/{min_block}"
                );
            }
        }
    }

    #[test]
    fn small_or_bad_arenas_are_refused_not_panicking() {
        assert!(BuddyAllocPeer::with_arena(100, 16).is_err());
        assert!(BuddyAllocPeer::with_arena(0, 16).is_err());
        assert!(BuddyAllocPeer::with_arena(4096, 24).is_err());
        assert!(BuddyAllocPeer::with_arena(300, 16).is_ok());
    }

    #[test]
    fn alignment_above_16_is_refused() {
        let mut a = BuddyAllocPeer::with_arena(1 << 14, 64).unwrap();
        assert_eq!(
            a.allocate(64, 32),
            Err(AllocError::BadAlignment { align: 32 })
        );
        let o = a.allocate(64, 16).unwrap();
        assert_eq!(o % 16, 0);
        assert_eq!(
            a.allocate(usize::MAX, 1),
            Err(AllocError::TooLarge {
                requested: usize::MAX,
                arena: 1 << 14
            })
        );
        a.free(o).unwrap();
    }
}
