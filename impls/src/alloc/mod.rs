//! The block-allocator family: hand out blocks of one fixed arena as byte offsets.
//!
//! From "Allocation Adventures 2" (BitSquid, 2015; `shared/seeds/002_*`: arrays that grow by
//! doubling ask for power-of-two blocks, "and there is an allocator that is very good at
//! allocating blocks at sizes that are powers of two") and its follow-up "Allocation Adventures
//! 3: The Buddy Allocator", whose design [`buddy`] ports. The contract [`BlockAllocator`] encodes:
//!
//! * an allocator is built over one arena of `total` bytes and never grows it;
//! * a block is named by its offset from the arena start; blocks never overlap, stay inside the
//!   arena, and are aligned as asked (relative to the arena start, which itself is
//!   [`arena::BASE_ALIGN`]-aligned in memory for our designs);
//! * `free(offset)` needs no size; `free_sized` may be faster; `realloc` keeps the contents.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing [`BlockAllocator`],
//! then add one line to [`registry::for_each_alloc_design`].

use crate::DesignMeta;

/// The [`BlockAllocator`] methods every design answers from its arena alike: the bytes of a
/// block and the arena's size from the arena field `$arena` (an [`arena::Arena`], or a peer's
/// [`peers::RawArena`]), and the requested bytes of the live blocks, `self.$requested`.
/// Expands inside the design's `impl BlockAllocator`.
macro_rules! arena_accessors {
    (arena: $arena:ident, requested_live: $($requested:tt)+) => {
        fn bytes(&self, offset: usize, len: usize) -> &[u8] {
            self.$arena.bytes(offset, len)
        }

        fn bytes_mut(&mut self, offset: usize, len: usize) -> &mut [u8] {
            self.$arena.bytes_mut(offset, len)
        }

        fn arena_bytes(&self) -> usize {
            self.$arena.len()
        }

        fn bytes_requested_live(&self) -> usize {
            self.$($requested)+
        }
    };
}

pub mod arena;
pub mod buddy;
pub mod buddy_scan;
pub mod buddy_vec_lists;
pub mod error;
pub mod peers;
pub mod registry;
pub mod slab;

pub use error::AllocError;
pub use registry::{AllocDesignVisitor, alloc_designs, for_each_alloc_design};

pub use crate::kind::DesignKind;

/// Whether a design reports a bad `free` (double free, foreign offset) as an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadFreeDetection {
    /// Only in builds with `debug_assertions`; release builds corrupt the allocator's state
    /// instead (the design's module docs say exactly how).
    DebugOnly,
    /// Always: the adapter keeps a table of live blocks (peers must, because the crates' own
    /// `free` is `unsafe` on a bad pointer).
    Always,
}

/// What the registry and the reports know of an allocator design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// The largest alignment `allocate` accepts.
    pub max_align: usize,
    /// Whether every block reserves `max(size, align, min_block)` rounded up to a power of two
    /// (the buddy designs), so `bytes_reserved` is predictable from the requests.
    pub power_of_two_blocks: bool,
    /// How bad frees are reported.
    pub bad_free: BadFreeDetection,
    /// The largest arena (bytes) [`with_arena`](BlockAllocator::with_arena) accepts by the
    /// design's documented limits; a trace needing more is `unsupported`, not `failed`.
    pub max_arena: usize,
}

/// An allocator of blocks inside one arena it owns, named by offsets.
///
/// # Contract (checked for every design by `impls/tests/integration/alloc_model.rs`)
/// * [`allocate`](BlockAllocator::allocate) returns an offset `o` with `o % align == 0` and
///   `o + size <= arena_bytes()`, disjoint from every live block; its bytes are readable and
///   writable through [`bytes_mut`](BlockAllocator::bytes_mut) until freed.
/// * [`free`](BlockAllocator::free), [`free_sized`](BlockAllocator::free_sized) and
///   [`realloc`](BlockAllocator::realloc) take offsets of live blocks only; see
///   [`AllocDesignInfo::bad_free`] for what a design does with any other offset.
/// * After every block is freed, all free space merges back:
///   [`largest_free_block`](BlockAllocator::largest_free_block) is what it was right after
///   construction.
pub trait BlockAllocator: Sized {
    /// Name, kind and capabilities of this design.
    const INFO: AllocDesignInfo;

    /// An allocator over a fresh arena of `total` bytes whose smallest block is `min_block`
    /// bytes (a power of two; designs without a block granularity may round it or ignore it).
    ///
    /// The caller's `total` sizes the host memory the design takes (the arena and its side
    /// arrays), so it is checked twice: against [`AllocDesignInfo::max_arena`], and by the
    /// allocation itself, which is fallible ([`arena::zeroed_vec`]): an arena the host cannot
    /// back is an error, never an abort.
    ///
    /// # Errors
    /// [`AllocError::InvalidArena`] if `min_block` is unusable, `total` exceeds
    /// [`AllocDesignInfo::max_arena`] or the arena cannot even hold the design's metadata and
    /// one block; [`AllocError::HostOutOfMemory`] if the host cannot allocate the arena.
    fn with_arena(total: usize, min_block: usize) -> Result<Self, AllocError>;

    /// A block of at least `size` bytes at an offset that is a multiple of `align`.
    ///
    /// # Errors
    /// [`AllocError::BadAlignment`] for an alignment that is not a power of two or exceeds
    /// [`AllocDesignInfo::max_align`]; [`AllocError::TooLarge`] if no block of the arena could
    /// ever hold the request; [`AllocError::OutOfMemory`] if none is free now.
    fn allocate(&mut self, size: usize, align: usize) -> Result<usize, AllocError>;

    /// Frees the live block at `offset`, without being told its size.
    ///
    /// # Errors
    /// [`AllocError::DoubleFree`] / [`AllocError::ForeignOffset`] as
    /// [`AllocDesignInfo::bad_free`] states.
    fn free(&mut self, offset: usize) -> Result<(), AllocError>;

    /// Frees the live block at `offset` that was allocated (or last reallocated) with `size`
    /// and `align`; designs may use them to skip a lookup.
    ///
    /// # Errors
    /// As [`free`](BlockAllocator::free).
    fn free_sized(&mut self, offset: usize, size: usize, align: usize) -> Result<(), AllocError> {
        let _ = (size, align);
        self.free(offset)
    }

    /// Resizes the live block at `offset` (allocated with `old_size` and `align`) to
    /// `new_size`, in place when the design can, else by moving it; the first
    /// `min(old_size, new_size)` bytes are kept. Returns the block's (possibly new) offset.
    ///
    /// # Errors
    /// As [`allocate`](BlockAllocator::allocate) when the block must move and no room is left;
    /// the old block is then still live and unchanged. As [`free`](BlockAllocator::free) for a
    /// bad offset.
    fn realloc(
        &mut self,
        offset: usize,
        old_size: usize,
        align: usize,
        new_size: usize,
    ) -> Result<usize, AllocError>;

    /// The `len` bytes at `offset` (inside a live block): an accessor like slice indexing,
    /// on the replay's hot path, so it checks the range against the arena only.
    ///
    /// # Panics
    /// If `offset + len` overflows or leaves the arena ([`arena_bytes`](Self::arena_bytes)),
    /// as indexing a slice out of range does; never undefined behaviour.
    fn bytes(&self, offset: usize, len: usize) -> &[u8];

    /// The `len` bytes at `offset` (inside a live block), mutably.
    ///
    /// # Panics
    /// As [`bytes`](Self::bytes).
    fn bytes_mut(&mut self, offset: usize, len: usize) -> &mut [u8];

    /// [`bytes`](Self::bytes) for a range the caller has not checked: `None` where `offset +
    /// len` overflows or leaves the arena, never a panic.
    fn checked_bytes(&self, offset: usize, len: usize) -> Option<&[u8]> {
        let end = offset.checked_add(len)?;
        (end <= self.arena_bytes()).then(|| self.bytes(offset, len))
    }

    /// [`bytes_mut`](Self::bytes_mut) for a range the caller has not checked, as
    /// [`checked_bytes`](Self::checked_bytes).
    fn checked_bytes_mut(&mut self, offset: usize, len: usize) -> Option<&mut [u8]> {
        let end = offset.checked_add(len)?;
        (end <= self.arena_bytes()).then(|| self.bytes_mut(offset, len))
    }

    /// Total bytes of the arena, as passed to [`with_arena`](BlockAllocator::with_arena).
    fn arena_bytes(&self) -> usize;

    /// Sum of the sizes asked for by the live blocks (the `size` of their last
    /// `allocate`/`realloc`).
    fn bytes_requested_live(&self) -> usize;

    /// Sum of the sizes the design reserved for the live blocks (what they keep from others:
    /// the power-of-two block for a buddy allocator, the usable size for a general allocator).
    fn bytes_reserved(&self) -> usize;

    /// The largest block [`allocate`](BlockAllocator::allocate) could hand out now, if the
    /// design can tell without trying (the default: it cannot, `None`).
    fn largest_free_block(&self) -> Option<usize> {
        None
    }

    /// Bytes the design holds free now (on its free lists, in pieces of any size), if it can
    /// tell. With [`largest_free_block`](BlockAllocator::largest_free_block) it gives external
    /// fragmentation. May walk every free list: for measurement, not for hot paths.
    fn free_bytes(&self) -> Option<usize> {
        None
    }

    /// Bytes of allocator metadata: inside the arena (bit arrays, list heads, headers of live
    /// blocks where the design can count them) plus on the host heap (side lists). Excludes
    /// accounting kept only for the benchmark.
    fn metadata_bytes(&self) -> usize;

    /// Checks the design's internal invariants. Called by the property tests after every
    /// operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
