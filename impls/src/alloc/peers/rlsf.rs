//! Peer: `rlsf::Tlsf`, a two-level segregated fit (TLSF) general-purpose allocator, behind
//! [`BlockAllocator`](crate::alloc::BlockAllocator): the baseline a buddy allocator is judged
//! against.
//!
//! Design: free blocks in segregated lists by size class (first level: power of two, second
//! level: 32 subdivisions), found by two bitmap scans; O(1) allocate and free; blocks carry a
//! header (16 bytes on 64-bit targets for a live block) and merge with their physical neighbours
//! on free. Sizes are rounded to a 32-byte granularity, not to powers of two, so internal
//! fragmentation is small; `min_block` is ignored. Real `reallocate` (in place when the next
//! block is free). `allocation_usable_size` needs rlsf's `unstable` feature (API stability, not a
//! nightly compiler). Needs the alignment to free; the adapter's live table supplies it. The
//! largest free block is only exposed behind rlsf's `unstable` feature, so it is unknown here.

use crate::DesignMeta;
use std::ptr::NonNull;

use ::rlsf::Tlsf;

use super::{LiveBlocks, RawArena};
use crate::alloc::arena::BASE_ALIGN;
use crate::alloc::{AllocDesignInfo, AllocError, BadFreeDetection, BlockAllocator, DesignKind};

/// 28 first-level classes of 32-byte granules: blocks up to 8 GiB; 32 second-level classes.
/// Public for `ref-direct-rlsf`, which calls `Tlsf` directly without depending on the crate
/// itself.
pub type Pool = Tlsf<'static, u32, u32, 28, 32>;

/// Bytes of the header before every live block (rlsf's `UsedBlockHdr`: half a granule).
const USED_HEADER: usize = ::rlsf::GRANULARITY / 2;

/// `rlsf::Tlsf` over a [`RawArena`].
#[derive(Debug)]
pub struct RlsfPeer {
    tlsf: Pool,
    /// Declared after `tlsf`: its lists point into it.
    arena: RawArena,
    live: LiveBlocks,
    /// Sum of `allocation_usable_size` of live blocks.
    reserved: usize,
}

impl RlsfPeer {
    /// The address of arena offset 0 (what the crate's pointers are relative to).
    pub fn arena_base(&self) -> NonNull<u8> {
        self.arena.base()
    }

    /// The crate's pool over the arena, for `ref-direct-rlsf`, which calls
    /// `Tlsf::allocate` / `deallocate` / `reallocate` on it directly.
    ///
    /// # Safety
    /// Blocks allocated, freed or moved through the returned object are not recorded in the
    /// adapter's live table, so the table no longer describes the crate's state: after the
    /// first such call the caller must call no [`BlockAllocator`] method of this adapter (only
    /// drop it, which frees the arena), and honours the crate's own contracts for its `unsafe`
    /// calls (free only live blocks it handed out, with their layout).
    pub unsafe fn crate_pool(&mut self) -> &mut Pool {
        &mut self.tlsf
    }

    fn usable(ptr: NonNull<u8>) -> usize {
        // SAFETY: only called on pointers just returned by `allocate`/`reallocate` of this pool
        // (live blocks).
        unsafe { Pool::allocation_usable_size(ptr) }
    }
}

impl BlockAllocator for RlsfPeer {
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "rlsf",
            description: "rlsf::Tlsf: general-purpose TLSF baseline, O(1) segregated fit, 16-byte headers, 32-byte granularity",
            kind: DesignKind::Peer {
                crate_name: "rlsf",
                version: "0.2.3",
                idiom: "Tlsf::insert_free_block over the arena, allocate(Layout) / deallocate(ptr, align) / reallocate per block",
                docs: "https://docs.rs/rlsf/0.2.3/rlsf/struct.Tlsf.html",
                adapter: "Checks each layout, keeps a `LiveBlocks` entry per block so `free(offset)` refuses an offset never handed out and gives `deallocate` its align, and reads `allocation_usable_size` on allocate, free and realloc for `bytes_reserved`. Our `slab_alloc` refuses bad frees in release too; our `buddy` only in debug.",
            },
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: false,
        bad_free: BadFreeDetection::Always,
        max_arena: usize::MAX,
    };

    fn with_arena(total: usize, _min_block: usize) -> Result<Self, AllocError> {
        let arena = RawArena::new(total, BASE_ALIGN)?;
        let mut tlsf = Pool::new();
        let block = NonNull::slice_from_raw_parts(arena.base(), total);
        // SAFETY: the block is the arena's `total` bytes, owned by this adapter alone and freed
        // only after `tlsf` is dropped (field order), so it outlives the pool.
        let added = unsafe { tlsf.insert_free_block_ptr(block) };
        if added.is_none() {
            return Err(AllocError::InvalidArena {
                reason: "rlsf cannot use an arena this small",
            });
        }
        Ok(Self {
            tlsf,
            arena,
            live: LiveBlocks::new(total)?,
            reserved: 0,
        })
    }

    #[inline]
    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError> {
        let layout = self.arena.layout(size, align, Self::INFO.max_align)?;
        let ptr = self.tlsf.allocate(layout).ok_or(AllocError::OutOfMemory {
            requested: size,
            largest_free: 0,
        })?;
        self.reserved += Self::usable(ptr);
        let offset = self.arena.offset(ptr);
        self.live.insert(offset, size, align);
        Ok(offset)
    }

    #[inline]
    fn free(&mut self, offset: usize) -> Result<(), AllocError> {
        let (_, align) = self.live.remove(offset)?;
        let ptr = self.arena.ptr(offset);
        self.reserved -= Self::usable(ptr);
        // SAFETY: `offset` came out of `live`: a live block of this pool allocated with `align`.
        unsafe { self.tlsf.deallocate(ptr, align) };
        Ok(())
    }

    #[inline]
    fn realloc(
        &mut self,
        offset: usize,
        _old_size: usize,
        _align: usize,
        new_size: usize,
    ) -> Result<usize, AllocError> {
        let (_, align) = self.live.get(offset)?;
        let layout = self.arena.layout(new_size, align, Self::INFO.max_align)?;
        let ptr = self.arena.ptr(offset);
        let old_usable = Self::usable(ptr);
        // SAFETY: `ptr` is a live block of this pool (it is in `live`), allocated with `align`,
        // which `layout` keeps.
        let moved =
            unsafe { self.tlsf.reallocate(ptr, layout) }.ok_or(AllocError::OutOfMemory {
                requested: new_size,
                largest_free: 0,
            })?;
        self.reserved = self.reserved - old_usable + Self::usable(moved);
        self.live.remove(offset)?;
        let new_offset = self.arena.offset(moved);
        self.live.insert(new_offset, new_size, align);
        Ok(new_offset)
    }

    arena_accessors!(arena: arena, requested_live: live.requested());

    fn bytes_reserved(&self) -> usize {
        self.reserved
    }

    fn metadata_bytes(&self) -> usize {
        // The bitmaps and list heads, plus a header per live block inside the arena.
        size_of::<Pool>() + self.live.len() * USED_HEADER
    }
}
