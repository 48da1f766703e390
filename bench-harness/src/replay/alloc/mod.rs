//! The block-allocator family's replay driver: applies [`AllocOp`] traces to any
//! [`BlockAllocator`], to the global allocator ([`SystemAlloc`], a time reference) and to the
//! reference model ([`AllocModel`]), and digests what the blocks held.
//!
//! # What is verified
//! Offsets differ between designs, so the digest is built from block *contents*: every block
//! carries a stamp derived from its handle and size in its first and last `min(size, 8)` bytes
//! ([`write_stamps`]), written on `Alloc` and after every `Realloc`. On `Free` and before a
//! `Realloc` the replayer reads both back and adds them to [`AllocDigest::stamp_sum`]; after a
//! `Realloc` it reads the first `min(old, new, 8)` bytes (contents the design must have kept)
//! into [`AllocDigest::kept_sum`]. A design that hands out overlapping live blocks (one block's
//! stamps overwrite another's) or loses contents on `Realloc` changes a sum; one that refuses
//! an op fails the replay. Only bytes the replayer wrote and the contract keeps are read, so
//! whatever else the arena holds (zeroes, old stamps) never reaches the digest.
//!
//! The timed replay includes these few 8-byte stores and loads per op, the same for every
//! design (a program touches what it allocates; with them, a `Free` also touches the block
//! right before the allocator does, as real programs often do).
//!
//! # The arena
//! Every design gets the same arena, fixed by one rule from the trace's statistics
//! ([`arena_bytes_for`]): `max(64 KiB, 2 * (peak_pow2_bytes + 16 * peak_live), 4 *
//! largest_block)` rounded up to a power of two, with 16-byte minimum blocks ([`MIN_BLOCK`]).
//!
//! * `peak_pow2_bytes` is what a buddy allocator with 16-byte leaves reserves at the trace's
//!   peak; `16 * peak_live` adds a 16-byte header per live block, what a general allocator
//!   with block headers spends (`rlsf`: a 16-byte header and 32-byte granules, so a 16-byte
//!   request costs 32 bytes). Twice their sum leaves room for fragmentation and for metadata
//!   at the arena start (which costs a buddy its largest block: at most half the arena is one
//!   block).
//! * `largest_block` is the power-of-two block of the largest request (`pow2_block(max_size,
//!   max_align)`); four times it leaves room for a `Realloc` of it that moves (old and new
//!   blocks live at once, in a half the metadata does not touch), which a single growing array
//!   needs in designs that cannot grow in place (the `buddy_alloc` peer copies on every
//!   realloc).
//!
//! Building the allocator and its arena is untimed (in `for_trace`, before the setup replay).
//!
//! # Frees
//! Frees call [`BlockAllocator::free`] (offset only), the trait's primary operation and what a
//! `free(ptr)` caller has; `free_sized` would let some designs skip a lookup, but not every
//! caller knows the size.

mod claims;

use std::alloc::{Layout, handle_alloc_error};
use std::ptr::NonNull;

use impls::alloc::{
    AllocDesignInfo, AllocDesignVisitor, AllocError, BadFreeDetection, BlockAllocator,
    for_each_alloc_design,
};
use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::alloc::{AllocOp, AllocStats, BlockHandle, pow2_block};
use workloads::rng::TraceRng;

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, Role, RunSizes, records_of,
};
use super::glue::{family_marker, forward_replay, hosts_design, merge_fields, visit_registry};
use super::resolved::{HandleIds, HandleMap};
pub use metrics::AllocMetrics;
use results::DesignRecord;

mod metrics;
mod model;
mod reference;
mod system;

pub use metrics::{first_failure_fill, measure};
pub use model::{AllocModel, ByHandle, HeldBlock};
pub use system::{SystemAlloc, SystemBlock};

family_marker! {
    /// The block allocators: [`AllocOp`] traces replayed on [`BlockAllocator`]s, checked against
    /// [`AllocModel`].
    AllocFamily
}

impl Family for AllocFamily {
    type Op = AllocOp;
    type Digest = AllocDigest;
    type Model = AllocModel;
    type Metrics = AllocMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const TITLE: &'static str = "Block allocators";
    /// The article's buddy allocator.
    const REFERENCE_DESIGN: &'static str = "buddy";
    /// Free-list walks and block headers over a fragmented arena.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] =
        &["alloc-random-mix", "alloc-every-other-leaf"];
    const MEMORY_WORKLOADS: &'static [&'static str] =
        &["alloc-vector-doubling", "alloc-random-mix"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &[
        "alloc-vector-doubling",
        "alloc-random-mix",
        "alloc-every-other-leaf",
    ];
    /// 16K blocks: the designs that scan a free list per free (`buddy_scan`,
    /// `buddy_system_allocator`) take seconds per replay from 100K.
    const SWEEP_MAX_N: usize = 1 << 14;

    /// 1K and 10K blocks at every scale; not 100K (see [`Self::SWEEP_MAX_N`]: every timed replay
    /// of a mutating body needs a fresh setup, so one such benchmark alone would take minutes).
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000, 10_000],
        default: &[1_000, 10_000],
        full: &[1_000, 10_000],
        passes_quick: &[1_000, 10_000],
        passes: &[1_000, 10_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::alloc::alloc_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, AllocFamily, for_each_alloc_design, AllocDesignVisitor,
            [A: BlockAllocator + 'static] => AllocReplay<A>
        );
        visitor.visit::<SystemAlloc>(Role::Reference);
        visitor.visit_loop::<reference::DirectBuddySystemAllocator>();
        visitor.visit_loop::<reference::DirectBuddyAlloc>();
        visitor.visit_loop::<reference::DirectRlsf>();
        visitor.visit_loop::<reference::DirectBuddy>();
        visitor.visit_loop::<reference::DirectBuddyVecLists>();
        visitor.visit_loop::<reference::DirectBuddyScan>();
        visitor.visit_loop::<reference::DirectSlab>();
        visitor.visit_loop::<reference::DirectSlabClassLists>();
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`AllocReplay`] of it.
    AllocFamily,
    [D: BlockAllocator] => AllocReplay<D>,
    design_record(&D::INFO)
);

/// The results record of a block-allocator design. Its "ID" is a `usize` offset.
pub fn design_record(info: &AllocDesignInfo) -> DesignRecord {
    DesignRecord {
        id_bytes: std::mem::size_of::<usize>(),
        limits: Some(format!(
            "alignment up to {}; {}{}; bad frees {}",
            info.max_align,
            if info.power_of_two_blocks {
                "power-of-two blocks"
            } else {
                "blocks of any size class"
            },
            if info.max_arena == usize::MAX {
                String::new()
            } else {
                format!("; arenas up to {} GiB", info.max_arena >> 30)
            },
            match info.bad_free {
                BadFreeDetection::DebugOnly => "detected in debug builds only",
                BadFreeDetection::Always => "always detected",
            }
        )),
        ..crate::replay::design_record_of(AllocFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// What a replay observed: op counts and wrapping sums of the stamps read back from blocks (see
/// the module doc). Equal for two replays of one trace exactly when every block held what it
/// should when it was read (up to sum collisions), wherever each design put it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocDigest {
    /// `Alloc` ops replayed.
    pub allocs: u64,
    /// `Free` ops replayed.
    pub frees: u64,
    /// `Realloc` ops replayed.
    pub reallocs: u64,
    /// Wrapping sum of [`read_stamps`] over every block read on `Free` and before `Realloc`.
    pub stamp_sum: u64,
    /// Wrapping sum of [`read_head`] of the first `min(old, new, 8)` bytes after every
    /// `Realloc`.
    pub kept_sum: u64,
}

impl AllocDigest {
    /// A block about to be freed or resized: its stamps read into
    /// [`stamp_sum`](Self::stamp_sum).
    #[inline(always)]
    pub fn read(&mut self, block: &[u8]) {
        self.stamp_sum = self.stamp_sum.wrapping_add(read_stamps(block));
    }

    /// A `Realloc` done: the first `kept` bytes of the block at its new place read into
    /// [`kept_sum`](Self::kept_sum), and the op counted.
    #[inline(always)]
    pub fn resized(&mut self, block: &[u8], kept: usize) {
        self.kept_sum = self.kept_sum.wrapping_add(read_head(block, kept));
        self.reallocs += 1;
    }
}

impl ReplayDigest<AllocOp> for AllocDigest {
    /// Adds the counts and sums.
    fn merge(&mut self, later: &AllocDigest) {
        merge_fields!(self, later, add: [allocs, frees, reallocs], wrapping: [stamp_sum, kept_sum]);
    }

    /// One per op.
    fn work_units(&self, ops: &[AllocOp]) -> u64 {
        ops.len() as u64
    }
}

/// Smallest block every design is built with (`min_block` of
/// [`BlockAllocator::with_arena`]): the 16-byte leaves [`AllocStats::peak_pow2_bytes`] assumes.
pub const MIN_BLOCK: usize = 16;

/// Bytes per live block the arena rule allows for a block header ([`arena_bytes_for`]).
pub const HEADER_ALLOWANCE: u64 = 16;

/// Smallest arena: below it, fixed metadata would dominate small traces.
pub const MIN_ARENA: u64 = 64 << 10;

/// The arena of every replay of a trace with these statistics: `max(64 KiB, 2 *
/// (peak_pow2_bytes + 16 * peak_live), 4 * pow2_block(max_size, max_align))` rounded up to a
/// power of two (see the module doc).
///
/// ```
/// use bench_harness::replay::alloc::arena_bytes_for;
/// use workloads::alloc::AllocStats;
/// let many_small = AllocStats {
///     peak_pow2_bytes: 32 << 10,
///     peak_live: 1024,
///     max_size: 100,
///     ..AllocStats::default()
/// };
/// assert_eq!(arena_bytes_for(&many_small), 128 << 10);
/// let one_large = AllocStats {
///     peak_pow2_bytes: 64 << 10,
///     peak_live: 1,
///     max_size: 40_000,
///     ..AllocStats::default()
/// };
/// assert_eq!(arena_bytes_for(&one_large), 256 << 10);
/// assert_eq!(arena_bytes_for(&AllocStats::default()), 64 << 10);
/// ```
pub fn arena_bytes_for(stats: &AllocStats) -> usize {
    let size = u32::try_from(stats.max_size).unwrap_or(u32::MAX);
    let align = u32::try_from(stats.max_align).unwrap_or(u32::MAX);
    let largest_block = if stats.max_size == 0 {
        0
    } else {
        pow2_block(size, align)
    };
    // Saturating: an absurd trace gets an absurd arena, which `unsupported_before` refuses,
    // never an overflow.
    let headers = HEADER_ALLOWANCE.saturating_mul(stats.peak_live);
    let bytes = stats
        .peak_pow2_bytes
        .saturating_add(headers)
        .saturating_mul(2)
        .max(largest_block.saturating_mul(4))
        .max(MIN_ARENA)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX);
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// Why an arena of `arena` bytes cannot be built with `available` bytes of memory free (`None`
/// when it fits or the available memory is unknown).
fn arena_exceeds_memory(arena: usize, available: Option<u64>) -> Option<String> {
    let available = available?;
    (arena as u64 > available).then(|| {
        format!(
            "the trace needs an arena of {arena} bytes, more than the {available} bytes of memory \
             available on this machine"
        )
    })
}

/// The stamp of the first `min(size, 8)` bytes of block `handle` at `size` bytes.
#[inline(always)]
fn head_stamp(handle: BlockHandle, size: usize) -> u64 {
    ((u64::from(handle) << 32) ^ size as u64 ^ 0x5EED).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The stamp of the last `min(size, 8)` bytes of block `handle` at `size` bytes.
#[inline(always)]
fn tail_stamp(handle: BlockHandle, size: usize) -> u64 {
    head_stamp(handle, size).rotate_left(29) ^ 0xA076_1D64_78BD_642F
}

/// Writes block `handle`'s stamps into its bytes `block` (the whole block, at least 1 byte):
/// the head stamp's first `k = min(len, 8)` little-endian bytes at the start, then the tail
/// stamp's at the end (overwriting part of the head when the block is shorter than 16 bytes).
#[inline(always)]
pub fn write_stamps(block: &mut [u8], handle: BlockHandle) {
    let size = block.len();
    let k = size.min(8);
    block[..k].copy_from_slice(&head_stamp(handle, size).to_le_bytes()[..k]);
    block[size - k..].copy_from_slice(&tail_stamp(handle, size).to_le_bytes()[..k]);
}

/// The first `len <= 8` bytes of `block` as a little-endian `u64` (zero-padded).
#[inline(always)]
pub fn read_head(block: &[u8], len: usize) -> u64 {
    let mut word = [0u8; 8];
    word[..len].copy_from_slice(&block[..len]);
    u64::from_le_bytes(word)
}

/// What [`write_stamps`] left in `block`, folded into one word: the first and last
/// `min(len, 8)` bytes, the tail rotated so a swap of the two does not cancel.
#[inline(always)]
pub fn read_stamps(block: &[u8]) -> u64 {
    let size = block.len();
    let k = size.min(8);
    let mut tail = [0u8; 8];
    tail[..k].copy_from_slice(&block[size - k..]);
    read_head(block, k) ^ u64::from_le_bytes(tail).rotate_left(32)
}

/// One handle's block in a design: where it is and what it was asked for (what an application
/// holds for a block it allocated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Start of the block in the design's arena.
    pub offset: usize,
    /// Requested size in bytes (at least 1).
    pub size: u32,
    /// Requested alignment.
    pub align: u32,
}

/// A block allocator plus the handle → block map: the state a trace is replayed on.
pub struct AllocReplay<A: BlockAllocator> {
    /// The design under test over an arena of `arena_bytes`, or why it could not be built.
    allocator: Result<A, AllocError>,
    arena_bytes: usize,
    /// `blocks[k]` is handle `k`'s block; reserved for every handle of the trace.
    blocks: HandleMap<Block>,
    live: usize,
    /// Requested bytes of the live blocks, by the replay's own count.
    requested: usize,
    /// Handles created so far (the next `Alloc`'s handle, written into its stamps).
    created: BlockHandle,
}

impl<A: BlockAllocator> AllocReplay<A> {
    /// The design, if [`BlockAllocator::with_arena`] accepted the arena.
    pub fn allocator(&self) -> Option<&A> {
        self.allocator.as_ref().ok()
    }

    /// The arena size of this replay ([`arena_bytes_for`] of the trace).
    pub fn arena_bytes(&self) -> usize {
        self.arena_bytes
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// # Errors
    /// The design refused an op (arena exhausted or too fragmented, an alignment it does not
    /// support, a bad free it detects) or could not be built over the arena; ops before it were
    /// applied.
    #[inline(never)]
    pub fn run<H: HandleIds<Block>>(
        &mut self,
        ops: &[AllocOp],
        blocks: &mut H,
    ) -> Result<AllocDigest, ReplayError> {
        let a = match &mut self.allocator {
            Ok(a) => a,
            Err(e) => {
                return match ops.first() {
                    Some(op) => Err(ReplayError::at(0, op, format!("no allocator: {e}"))),
                    None => Ok(AllocDigest::default()),
                };
            }
        };
        let mut d = AllocDigest::default();
        let mut requested = self.requested;
        for (index, &op) in ops.iter().enumerate() {
            match op {
                AllocOp::Alloc { size, align } => {
                    let offset = a
                        .allocate(size as usize, align as usize)
                        .map_err(|e| ReplayError::at(index, op, e))?;
                    let handle = self.created;
                    self.created += 1;
                    write_stamps(a.bytes_mut(offset, size as usize), handle);
                    blocks
                        .created(Block {
                            offset,
                            size,
                            align,
                        })
                        .map_err(|e| ReplayError::at(index, op, e))?;
                    requested += size as usize;
                    d.allocs += 1;
                }
                AllocOp::Free(h) => {
                    let b = blocks.id(h);
                    d.read(a.bytes(b.offset, b.size as usize));
                    a.free(b.offset)
                        .map_err(|e| ReplayError::at(index, op, e))?;
                    requested -= b.size as usize;
                    d.frees += 1;
                }
                AllocOp::Realloc { block: h, size } => {
                    let b = blocks.id(h);
                    d.read(a.bytes(b.offset, b.size as usize));
                    let offset = a
                        .realloc(b.offset, b.size as usize, b.align as usize, size as usize)
                        .map_err(|e| ReplayError::at(index, op, e))?;
                    let kept = b.size.min(size).min(8) as usize;
                    d.resized(a.bytes(offset, kept), kept);
                    write_stamps(a.bytes_mut(offset, size as usize), h);
                    blocks
                        .reassigned(
                            h,
                            Block {
                                offset,
                                size,
                                align: b.align,
                            },
                        )
                        .map_err(|e| ReplayError::at(index, op, e))?;
                    requested = requested - b.size as usize + size as usize;
                }
            }
        }
        self.live = self.live + d.allocs as usize - d.frees as usize;
        self.requested = requested;
        Ok(d)
    }

    /// Requested bytes of the live blocks by the replayer's own count.
    fn requested_live(&self) -> usize {
        self.requested
    }
}

impl<A: BlockAllocator + 'static> Replayer for AllocReplay<A> {
    type Family = AllocFamily;
    type Id = Block;

    fn design_name() -> &'static str {
        A::INFO.meta.name
    }

    /// Alignment beyond the design's, an arena beyond its documented maximum, or an arena
    /// larger than the memory this machine has available (building it would abort the
    /// process): each is a stated limit, checked before the arena is built.
    fn unsupported_before(stats: &AllocStats) -> Option<String> {
        if stats.max_align > A::INFO.max_align as u64 {
            return Some(format!(
                "the trace asks for {}-byte alignment; the design supports at most {} bytes",
                stats.max_align,
                A::INFO.max_align
            ));
        }
        let arena = arena_bytes_for(stats);
        if arena > A::INFO.max_arena {
            return Some(format!(
                "the trace needs an arena of {arena} bytes; the design supports at most {} bytes",
                A::INFO.max_arena
            ));
        }
        arena_exceeds_memory(arena, crate::host::available_memory())
    }

    fn for_trace(trace: &Trace<AllocOp>) -> Self {
        // A trace that does not validate gets the smallest arena; its replay is a caller bug.
        let stats = trace.validate().unwrap_or_default();
        let arena_bytes = arena_bytes_for(&stats);
        Self {
            allocator: A::with_arena(arena_bytes, MIN_BLOCK),
            arena_bytes,
            blocks: HandleMap::with_capacity(trace.handle_count()),
            live: 0,
            requested: 0,
            created: 0,
        }
    }

    forward_replay!(AllocReplay { run }, handles: blocks);

    fn memory_bytes(&self) -> u64 {
        self.arena_bytes as u64
    }

    fn live_count(&self) -> usize {
        self.live
    }

    fn measure(
        trace: &Trace<AllocOp>,
        _stats: &AllocStats,
    ) -> Result<Option<AllocMetrics>, ReplayError> {
        measure::<A>(trace).map(Some)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let a = self.allocator.as_ref().map_err(|e| e.to_string())?;
        a.check_invariants()?;
        let (design, replayer) = (a.bytes_requested_live(), self.requested_live());
        if design != replayer {
            return Err(format!(
                "the design counts {design} requested live bytes, the trace {replayer}"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn arenas_beyond_a_design_or_the_machine_are_unsupported_before_building() {
        use impls::alloc::peers::buddy_system_allocator::BuddySystemAllocatorPeer;
        // Four 4 GiB blocks live at once (building such a trace's arena would abort the
        // process).
        let huge = AllocStats {
            max_size: u64::from(u32::MAX),
            max_align: 1,
            peak_live: 4,
            peak_pow2_bytes: 4 << 32,
            ..AllocStats::default()
        };
        let reason = AllocReplay::<BuddySystemAllocatorPeer>::unsupported_before(&huge).unwrap();
        assert!(
            reason.contains("supports at most 4294967296 bytes"),
            "{reason}"
        );
        let arena = arena_bytes_for(&huge);
        assert!(arena >= 32 << 30);
        let reason = arena_exceeds_memory(arena, Some(24 << 30)).unwrap();
        assert!(
            reason.contains("more than the 25769803776 bytes of memory"),
            "{reason}"
        );
        assert_eq!(arena_exceeds_memory(arena, None), None);
        assert_eq!(arena_exceeds_memory(1 << 20, Some(24 << 30)), None);
        // Absurd counts saturate instead of overflowing.
        let absurd = AllocStats {
            peak_pow2_bytes: u64::MAX,
            peak_live: u64::MAX,
            ..huge
        };
        assert_eq!(arena_bytes_for(&absurd), usize::MAX);
    }

    use super::*;

    #[test]
    fn stamps_read_back_and_short_blocks_overlap_consistently() {
        for size in [1usize, 3, 8, 9, 15, 16, 17, 100] {
            let mut a = vec![0u8; size];
            let mut b = vec![0xFFu8; size];
            write_stamps(&mut a, 7);
            write_stamps(&mut b, 7);
            if size <= 16 {
                assert_eq!(a, b, "short blocks: the stamps cover every byte");
            }
            assert_eq!(read_stamps(&a), read_stamps(&b), "reads only stamped bytes");
            let mut other = vec![0u8; size];
            write_stamps(&mut other, 8);
            assert_ne!(read_stamps(&a), read_stamps(&other), "size {size}");
        }
    }

    #[test]
    fn arena_rule_covers_pow2_blocks_headers_and_a_moving_largest_block() {
        let stats = |peak, live, max_size| AllocStats {
            peak_pow2_bytes: peak,
            peak_live: live,
            max_size,
            max_align: 8,
            ..AllocStats::default()
        };
        assert_eq!(arena_bytes_for(&stats(0, 0, 0)), 64 << 10);
        assert_eq!(arena_bytes_for(&stats(16 << 10, 1024, 16)), 64 << 10);
        assert_eq!(arena_bytes_for(&stats(16 << 10, 1025, 16)), 128 << 10);
        assert_eq!(arena_bytes_for(&stats(3 << 20, 1000, 4096)), 8 << 20);
        // One 32 KiB array: room for its 16 KiB old and 32 KiB new block beside the metadata.
        assert_eq!(arena_bytes_for(&stats(32 << 10, 1, 32 << 10)), 128 << 10);
    }
}
