//! Peer: `buddy_system_allocator::Heap` (rCore's buddy allocator) behind
//! [`BlockAllocator`](crate::alloc::BlockAllocator).
//!
//! Design: one intrusive singly linked free list per order (a `usize` link in each free block),
//! no bitmaps. A block's buddy is its address XOR its size; `dealloc` walks the order's free list
//! looking for it (what our `buddy_scan` ablation isolates), so free cost grows with the list.
//! It needs the size to free (`dealloc(ptr, layout)`); the adapter's live table supplies it for
//! `free(offset)`. Blocks are `max(size.next_power_of_two(), align, 8)` bytes: `min_block` is
//! ignored. Alignment is by address, so the arena base is aligned to the arena's size rounded up
//! to a power of two (else `init` cuts the arena into blocks no larger than the base's
//! alignment). No realloc: the adapter allocates, copies and frees. The crate keeps no
//! largest-free-block figure, so that is unknown.

use crate::DesignMeta;
use std::alloc::Layout;
use std::ptr::NonNull;

use ::buddy_system_allocator::Heap;

use super::{LiveBlocks, RawArena};
use crate::alloc::arena::BASE_ALIGN;
use crate::alloc::{AllocDesignInfo, AllocError, BadFreeDetection, BlockAllocator, DesignKind};

/// Orders 0..32: blocks up to 2^32 bytes.
const ORDER: usize = 33;

/// The crate's heap as the adapter holds it (for `ref-direct-buddy_system_allocator`, which
/// calls `Heap` directly without depending on the crate itself).
pub type CrateHeap = Heap<ORDER>;

/// `buddy_system_allocator::Heap` over a [`RawArena`].
#[derive(Debug)]
pub struct BuddySystemAllocatorPeer {
    heap: Heap<ORDER>,
    /// Declared after `heap`: the heap's free lists point into it.
    arena: RawArena,
    live: LiveBlocks,
}

impl BuddySystemAllocatorPeer {
    /// The address of arena offset 0 (what the crate's pointers are relative to).
    pub fn arena_base(&self) -> NonNull<u8> {
        self.arena.base()
    }

    /// The crate's heap over the arena, for `ref-direct-buddy_system_allocator`, which calls
    /// `Heap::alloc` / `Heap::dealloc` on it directly.
    ///
    /// # Safety
    /// Blocks allocated, freed or moved through the returned object are not recorded in the
    /// adapter's live table, so the table no longer describes the crate's state: after the
    /// first such call the caller must call no [`BlockAllocator`] method of this adapter (only
    /// drop it, which frees the arena), and honours the crate's own contracts for its `unsafe`
    /// calls (free only live blocks it handed out, with their layout).
    pub unsafe fn crate_heap(&mut self) -> &mut CrateHeap {
        &mut self.heap
    }

    /// Hands the block at `offset` back to the heap.
    fn dealloc(&mut self, offset: usize, size: usize, align: usize) {
        let layout = Layout::from_size_align(size, align).expect("recorded at allocation");
        // SAFETY: `offset` came out of `live`, so it is a block this heap allocated with exactly
        // this layout and that is still live (reached by every free in the model test).
        unsafe { self.heap.dealloc(self.arena.ptr(offset), layout) };
    }
}

impl BlockAllocator for BuddySystemAllocatorPeer {
    const INFO: AllocDesignInfo = AllocDesignInfo {
        meta: DesignMeta {
            name: "buddy_system_allocator",
            description: "buddy_system_allocator::Heap: per-order intrusive singly linked lists, free scans the list for the buddy, no bitmaps",
            kind: DesignKind::Peer {
                crate_name: "buddy_system_allocator",
                version: "0.13.0",
                idiom: "Heap::init over the arena, alloc(Layout) / dealloc(ptr, Layout) per block; a realloc is alloc + copy + dealloc",
                docs: "https://docs.rs/buddy_system_allocator/0.13.0/buddy_system_allocator/struct.Heap.html",
                adapter: "Checks each layout, converts offsets to pointers and keeps a `LiveBlocks` entry (offset -> size, align) per block, so `free(offset)` refuses an offset never handed out and gives `dealloc` its `Layout`. Our `slab_alloc` refuses bad frees in release builds too; our `buddy` only in debug builds.",
            },
        },
        max_align: BASE_ALIGN,
        power_of_two_blocks: false,
        bad_free: BadFreeDetection::Always,
        max_arena: 1 << (ORDER - 1),
    };

    fn with_arena(total: usize, _min_block: usize) -> Result<Self, AllocError> {
        if !(16..=1 << (ORDER - 1)).contains(&total) {
            return Err(AllocError::InvalidArena {
                reason: "buddy_system_allocator needs 16 bytes to 4 GiB",
            });
        }
        let arena = RawArena::new(total, total.next_power_of_two().max(BASE_ALIGN))?;
        let mut heap = Heap::<ORDER>::new();
        // SAFETY: the range is the arena's `total` bytes, valid and writable, owned by this
        // adapter alone and freed only after `heap` is dropped (field order); added once.
        unsafe { heap.init(arena.base().as_ptr() as usize, total) };
        Ok(Self {
            heap,
            arena,
            live: LiveBlocks::new(total)?,
        })
    }

    #[inline]
    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError> {
        let layout = self.arena.layout(size, align, Self::INFO.max_align)?;
        let ptr = self
            .heap
            .alloc(layout)
            .map_err(|()| AllocError::OutOfMemory {
                requested: size,
                largest_free: 0,
            })?;
        let offset = self.arena.offset(ptr);
        self.live.insert(offset, size, align);
        Ok(offset)
    }

    #[inline]
    fn free(&mut self, offset: usize) -> Result<(), AllocError> {
        let (size, align) = self.live.remove(offset)?;
        self.dealloc(offset, size, align);
        Ok(())
    }

    realloc_by_copy!();

    arena_accessors!(arena: arena, requested_live: live.requested());

    fn bytes_reserved(&self) -> usize {
        self.heap.stats_alloc_actual()
    }

    fn metadata_bytes(&self) -> usize {
        // The list heads and counters; links live in free blocks.
        size_of::<Heap<ORDER>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.heap.stats_alloc_user() != self.live.requested() {
            return Err(format!(
                "heap counts {} user bytes, live table {}",
                self.heap.stats_alloc_user(),
                self.live.requested()
            ));
        }
        Ok(())
    }
}
