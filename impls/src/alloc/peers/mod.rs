//! Thin adapters putting published allocator crates behind
//! [`BlockAllocator`](super::BlockAllocator), one file each, over the same kind of arena.
//!
//! The crates work on raw pointers and their `free` is `unsafe` for a pointer they did not hand
//! out, so every adapter keeps a [`LiveBlocks`] table (offset -> size, align) and refuses bad
//! offsets in all builds: that lookup is part of every peer's measured `free`, which the
//! article design does not pay (it is also why peers report `BadFreeDetection::Always`). The
//! table is dense, a word per 8 bytes of arena indexed by offset, so the record costs a store
//! and the check a load.
//!
//! Each adapter's `allocate`, `free` and `realloc` are `#[inline]`, so the replay's loop calls
//! the crate one call deep, as the crate's own callers do; out of line they would be a second
//! call level, which shows in each peer's `overhead` over the crate called directly
//! (`ref-direct-buddy_alloc`, `-buddy_system_allocator`, `-rlsf` on the alloc workloads); our
//! designs' methods stay out of line in both loops.

/// `realloc` for a crate without one: allocate the new block (at the old block's alignment or
/// more), copy the kept bytes, free the old block, what the crate's `GlobalAlloc` gets from the
/// default `realloc`; so a realloc needs room for both blocks. The old block's size and
/// alignment come from the live table. Expands inside the adapter's `impl BlockAllocator`.
macro_rules! realloc_by_copy {
    () => {
        #[inline]
        fn realloc(
            &mut self,
            offset: usize,
            _old_size: usize,
            align: usize,
            new_size: usize,
        ) -> Result<usize, AllocError> {
            let (old_size, old_align) = self.live.get(offset)?;
            let moved = self.allocate(new_size, align.max(old_align))?;
            self.arena
                .copy_within(offset, moved, old_size.min(new_size));
            self.free(offset)?;
            Ok(moved)
        }
    };
}

pub mod buddy_alloc;
pub mod buddy_system_allocator;
pub mod rlsf;

use std::alloc::Layout;
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

    /// The `Layout` of a request the crates take as one (`size` bytes at `align`), after the
    /// checks the trait's contract asks for: `align` a power of two no larger than
    /// `max_align`, and the block no larger than the arena.
    ///
    /// # Errors
    /// [`AllocError::BadAlignment`], [`AllocError::TooLarge`].
    #[inline]
    pub fn layout(
        &self,
        size: usize,
        align: usize,
        max_align: usize,
    ) -> Result<Layout, AllocError> {
        if !align.is_power_of_two() || align > max_align {
            return Err(AllocError::BadAlignment { align });
        }
        if size.max(align) > self.len {
            return Err(AllocError::TooLarge {
                requested: size.max(align),
                arena: self.len,
            });
        }
        Layout::from_size_align(size, align).map_err(|_| AllocError::BadAlignment { align })
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
///
/// A dense table with one word per [`GRANULE`] bytes of the arena, indexed by offset: a block's
/// record is one store on allocate and one load and store on free, where a hash map (the
/// earlier table, hashbrown) hashed and probed on both; it costs the host a word per granule
/// (the arena's size again), allocated fallibly with the arena, untimed. Offsets that are not a
/// multiple of the granule (no crate here hands one out) go to a side map, so the table stays
/// exact for any crate.
#[derive(Debug, Clone)]
pub struct LiveBlocks {
    /// Per granule: 0, or the live block starting there as `size << 7 | log2(align) << 1 | 1`.
    dense: Vec<usize>,
    /// Live blocks at offsets off the granule: offset -> (size, align).
    odd: HashMap<usize, (usize, usize)>,
    live: usize,
    requested: usize,
}

/// Bytes per entry of [`LiveBlocks`]' dense table: the alignment every crate here gives its
/// blocks at least.
pub const GRANULE: usize = 8;

impl LiveBlocks {
    /// An empty table for an arena of `arena_len` bytes.
    ///
    /// # Errors
    /// [`AllocError::HostOutOfMemory`] if the host cannot allocate the table.
    pub fn new(arena_len: usize) -> Result<Self, AllocError> {
        Ok(Self {
            dense: super::arena::zeroed_vec(arena_len / GRANULE + 1)?,
            odd: HashMap::new(),
            live: 0,
            requested: 0,
        })
    }

    /// The dense entry of `offset`, if it has one.
    #[inline(always)]
    fn entry(&self, offset: usize) -> Option<&usize> {
        if offset % GRANULE != 0 {
            return None;
        }
        self.dense.get(offset / GRANULE)
    }

    /// The dense entry of `offset`, mutably, if it has one.
    #[inline(always)]
    fn entry_mut(&mut self, offset: usize) -> Option<&mut usize> {
        if offset % GRANULE != 0 {
            return None;
        }
        self.dense.get_mut(offset / GRANULE)
    }

    /// Records a new live block. The dense path is inlined into the adapter's `allocate` (a
    /// call, its odd-offset branch and a hash map's register saves cost 47 instructions per
    /// allocate, callgrind on `alloc-random-mix`); the side map stays out of line.
    #[inline(always)]
    pub fn insert(&mut self, offset: usize, size: usize, align: usize) {
        match self.entry_mut(offset) {
            Some(entry) if size < 1 << (usize::BITS - 7) => {
                *entry = size << 7 | (align.trailing_zeros() as usize) << 1 | 1;
            }
            _ => self.insert_odd(offset, size, align),
        }
        self.live += 1;
        self.requested += size;
    }

    #[cold]
    #[inline(never)]
    fn insert_odd(&mut self, offset: usize, size: usize, align: usize) {
        self.odd.insert(offset, (size, align));
    }

    /// Forgets the live block at `offset`; returns its (size, align).
    ///
    /// # Errors
    /// [`AllocError::ForeignOffset`] if no live block starts there.
    #[inline(always)]
    pub fn remove(&mut self, offset: usize) -> Result<(usize, usize), AllocError> {
        let found = match self.entry_mut(offset) {
            Some(entry) if *entry != 0 => unpack(std::mem::take(entry)),
            _ => self.remove_odd(offset)?,
        };
        self.live -= 1;
        self.requested -= found.0;
        Ok(found)
    }

    #[cold]
    #[inline(never)]
    fn remove_odd(&mut self, offset: usize) -> Result<(usize, usize), AllocError> {
        self.odd
            .remove(&offset)
            .ok_or(AllocError::ForeignOffset { offset })
    }

    /// The (size, align) of the live block at `offset`.
    ///
    /// # Errors
    /// [`AllocError::ForeignOffset`] if no live block starts there.
    #[inline(always)]
    pub fn get(&self, offset: usize) -> Result<(usize, usize), AllocError> {
        match self.entry(offset) {
            Some(&entry) if entry != 0 => Ok(unpack(entry)),
            _ => self.get_odd(offset),
        }
    }

    #[cold]
    #[inline(never)]
    fn get_odd(&self, offset: usize) -> Result<(usize, usize), AllocError> {
        self.odd
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
        self.live
    }

    /// Whether no block is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Offsets of the live blocks (a scan of the table: verification and invariants only).
    pub fn offsets(&self) -> impl Iterator<Item = usize> + '_ {
        let dense = self.dense.iter().enumerate();
        dense
            .filter(|&(_, &e)| e != 0)
            .map(|(i, _)| i * GRANULE)
            .chain(self.odd.keys().copied())
    }
}

/// (size, align) of a dense entry.
#[inline(always)]
fn unpack(entry: usize) -> (usize, usize) {
    (entry >> 7, 1 << ((entry >> 1) & 0x3f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table answers as a map would, on and off the granule, and refuses what is not live.
    #[test]
    fn live_blocks_record_forget_and_refuse() {
        let mut live = LiveBlocks::new(1 << 12).unwrap();
        live.insert(0, 0, 1);
        live.insert(64, 24, 8);
        live.insert(4096, 1, 4096); // the table's last slot
        live.insert(13, 5, 1); // off the granule: the side map
        assert_eq!(live.len(), 4);
        assert_eq!(live.requested(), 30);
        assert_eq!(live.get(0), Ok((0, 1)));
        assert_eq!(live.get(64), Ok((24, 8)));
        assert_eq!(live.get(4096), Ok((1, 4096)));
        assert_eq!(live.get(13), Ok((5, 1)));
        let mut offsets: Vec<_> = live.offsets().collect();
        offsets.sort_unstable();
        assert_eq!(offsets, [0, 13, 64, 4096]);
        for bad in [8, 12, 65, 1 << 20] {
            assert_eq!(
                live.get(bad),
                Err(AllocError::ForeignOffset { offset: bad })
            );
            assert_eq!(
                live.remove(bad),
                Err(AllocError::ForeignOffset { offset: bad })
            );
        }
        assert_eq!(live.remove(64), Ok((24, 8)));
        assert_eq!(
            live.remove(64),
            Err(AllocError::ForeignOffset { offset: 64 })
        );
        assert_eq!(live.remove(13), Ok((5, 1)));
        assert_eq!(live.remove(0), Ok((0, 1)));
        assert_eq!(live.remove(4096), Ok((1, 4096)));
        assert!(live.is_empty());
        assert_eq!(live.requested(), 0);
    }
}
