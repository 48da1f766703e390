//! Thin adapters putting published allocator crates behind
//! [`BlockAllocator`](super::BlockAllocator), one file each, over the same kind of arena.
//!
//! The crates work on raw pointers and their `free` is `unsafe` for a pointer they did not hand
//! out, so every adapter keeps a [`LiveBlocks`] table (offset -> size, align) and refuses bad
//! offsets in all builds: that lookup is part of every peer's measured `free`, which the
//! article design does not pay (it is also why peers report `BadFreeDetection::Always`). The
//! table is a hashbrown map with its default hasher (foldhash): the keys are our own offsets,
//! so std's SipHash (resistance to chosen keys) would only add to every measured op.

pub mod buddy_alloc;
pub mod buddy_system_allocator;
pub mod rlsf;

use std::ptr::NonNull;

use hashbrown::HashMap;

use super::AllocError;

/// A zeroed heap allocation of `len` bytes whose first byte is `base_align`-aligned, reached
/// only through raw pointers (the crates keep raw pointers into it, so the adapter never creates
/// a reference to the whole buffer that would invalidate them).
#[derive(Debug)]
pub struct RawArena {
    /// The whole allocation, from `Box::into_raw`; freed in `Drop`.
    buf: *mut [u8],
    /// `buf`'s first `base_align`-aligned byte; `base .. base + len` lies inside `buf`.
    base: NonNull<u8>,
    len: usize,
}

impl RawArena {
    /// `len` zeroed bytes aligned to `base_align` (a power of two).
    ///
    /// # Errors
    /// [`AllocError::HostOutOfMemory`] if the host cannot allocate them (see
    /// [`zeroed_vec`](super::arena::zeroed_vec)).
    pub fn new(len: usize, base_align: usize) -> Result<Self, AllocError> {
        let with_slack = len
            .checked_add(base_align)
            .ok_or(AllocError::HostOutOfMemory { bytes: len })?;
        let boxed = super::arena::zeroed_vec::<u8>(with_slack)?.into_boxed_slice();
        let buf = Box::into_raw(boxed);
        let start = buf as *mut u8;
        let skip = start.align_offset(base_align);
        assert!(skip < base_align);
        // SAFETY: `skip < base_align`, so `start + skip .. + len` is inside the `len + base_align`
        // bytes of `buf`; the pointer is non-null because it comes from a live allocation.
        let base = unsafe { NonNull::new_unchecked(start.add(skip)) };
        Ok(Self { buf, base, len })
    }

    /// Address of offset 0.
    pub fn base(&self) -> NonNull<u8> {
        self.base
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the arena has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pointer at `offset`.
    pub fn ptr(&self, offset: usize) -> NonNull<u8> {
        assert!(offset <= self.len);
        // SAFETY: `offset <= len`, so the result is inside (or one past) the arena.
        unsafe { self.base.add(offset) }
    }

    /// The offset of `ptr`, which points into the arena.
    pub fn offset(&self, ptr: NonNull<u8>) -> usize {
        ptr.as_ptr() as usize - self.base.as_ptr() as usize
    }

    /// `len` bytes at `offset`.
    ///
    /// # Panics
    /// If the range leaves the arena.
    pub fn bytes(&self, offset: usize, len: usize) -> &[u8] {
        assert!(offset.checked_add(len).is_some_and(|end| end <= self.len));
        // SAFETY: the range is inside the live allocation. The returned borrow of `self` (held by
        // the adapter, which owns the crate's allocator too) stops any allocator call, the only
        // other writer, until it ends.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(offset), len) }
    }

    /// `len` bytes at `offset`, mutably.
    ///
    /// # Panics
    /// If the range leaves the arena.
    pub fn bytes_mut(&mut self, offset: usize, len: usize) -> &mut [u8] {
        assert!(offset.checked_add(len).is_some_and(|end| end <= self.len));
        // SAFETY: as `bytes`; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr().add(offset), len) }
    }

    /// Copies `len` bytes from offset `from` to offset `to` (the ranges may overlap): the data
    /// move of a realloc that had to move its block, for crates without a realloc.
    ///
    /// # Panics
    /// If either range leaves the arena.
    pub fn copy_within(&mut self, from: usize, to: usize, len: usize) {
        let inside = |at: usize| at.checked_add(len).is_some_and(|end| end <= self.len);
        assert!(inside(from) && inside(to));
        // SAFETY: both ranges are inside the live allocation (checked above), `&mut self` keeps
        // every other writer out, and `ptr::copy` allows overlapping ranges. Reached by every
        // moving realloc of the buddy_alloc and buddy_system_allocator peers in the model test.
        unsafe { std::ptr::copy(self.ptr(from).as_ptr(), self.ptr(to).as_ptr(), len) }
    }
}

impl Drop for RawArena {
    fn drop(&mut self) {
        // SAFETY: `buf` came from `Box::into_raw` in `new` and is freed only here.
        drop(unsafe { Box::from_raw(self.buf) });
    }
}

/// The adapter's record of live blocks: what makes the crates' `unsafe` frees safe to call.
#[derive(Debug, Default, Clone)]
pub struct LiveBlocks {
    /// Offset -> (requested size, align) of every live block.
    blocks: HashMap<usize, (usize, usize)>,
    requested: usize,
}

impl LiveBlocks {
    /// Records a new live block.
    pub fn insert(&mut self, offset: usize, size: usize, align: usize) {
        self.blocks.insert(offset, (size, align));
        self.requested += size;
    }

    /// Forgets the live block at `offset`; returns its (size, align).
    ///
    /// # Errors
    /// [`AllocError::ForeignOffset`] if no live block starts there.
    pub fn remove(&mut self, offset: usize) -> Result<(usize, usize), AllocError> {
        let (size, align) = self
            .blocks
            .remove(&offset)
            .ok_or(AllocError::ForeignOffset { offset })?;
        self.requested -= size;
        Ok((size, align))
    }

    /// The (size, align) of the live block at `offset`.
    ///
    /// # Errors
    /// [`AllocError::ForeignOffset`] if no live block starts there.
    pub fn get(&self, offset: usize) -> Result<(usize, usize), AllocError> {
        self.blocks
            .get(&offset)
            .copied()
            .ok_or(AllocError::ForeignOffset { offset })
    }

    /// Sum of the requested sizes of live blocks.
    pub fn requested(&self) -> usize {
        self.requested
    }

    /// Number of live blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether no block is live.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Offsets of the live blocks.
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        self.blocks.keys().copied()
    }
}
