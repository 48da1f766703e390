//! Errors of the block-allocator family: the failures that are part of an allocator's contract.

use thiserror::Error;

/// A failure of a [`BlockAllocator`](super::BlockAllocator) operation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AllocError {
    /// No free block large enough: the arena is too full or too fragmented.
    #[error(
        "out of memory: {requested} bytes requested, largest free block is {largest_free} bytes"
    )]
    OutOfMemory {
        /// The size asked for (before rounding to a block size).
        requested: usize,
        /// The largest block the allocator could hand out now (0 if none or unknown).
        largest_free: usize,
    },
    /// The request can never succeed: it is larger than the whole arena.
    #[error("{requested} bytes can never fit: the arena holds {arena} bytes")]
    TooLarge {
        /// The size asked for (raised to the alignment).
        requested: usize,
        /// Total bytes of the arena.
        arena: usize,
    },
    /// The alignment is not a power of two, or larger than the design supports
    /// ([`AllocDesignInfo::max_align`](super::AllocDesignInfo::max_align)).
    #[error("alignment {align} is not a supported power of two")]
    BadAlignment {
        /// The alignment asked for.
        align: usize,
    },
    /// The arena cannot host the allocator (smaller than its metadata, or a bad `min_block`).
    #[error("invalid arena: {reason}")]
    InvalidArena {
        /// What is wrong.
        reason: &'static str,
    },
    /// The host could not allocate the arena (or the metadata sized by it): the size is
    /// beyond the address space or the memory of the machine. Nothing was allocated.
    #[error("the host cannot allocate {bytes} bytes for the arena and its metadata")]
    HostOutOfMemory {
        /// Bytes of the allocation that failed.
        bytes: usize,
    },
    /// `free` of a block that is already free. Only reported in debug builds (see the design's
    /// module docs for what happens in release builds).
    #[error("double free of offset {offset}")]
    DoubleFree {
        /// The offset passed to `free`.
        offset: usize,
    },
    /// An offset that no allocation returned: outside the arena, inside the allocator's metadata,
    /// or not the start of a live block. Only reported in debug builds by the article design.
    #[error("offset {offset} was not returned by this allocator")]
    ForeignOffset {
        /// The offset passed to `free` or `realloc`.
        offset: usize,
    },
}
