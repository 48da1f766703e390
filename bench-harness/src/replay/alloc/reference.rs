//! The family's reference loops, verified like a replay:
//!
//! * [`DirectAlloc`] (`ref-direct-<peer>`, for `buddy_system_allocator`, `buddy_alloc` and
//!   `rlsf`): a whole body of `Alloc`, `Free` and `Realloc` ops written against the allocator
//!   crate itself, no [`BlockAllocator`] in between, over the arena the peer's replay uses
//!   ([`super::arena_bytes_for`] of the trace, built by the peer's own `with_arena`: the crate's
//!   object initialised over it as its docs show). The application holds what a program holds
//!   for its blocks: a plain `Vec`, indexed by the trace's block handle, of each block's
//!   pointer, size and alignment (what the crates need to free it, 16 bytes a block as the
//!   replay's own handle map); no offsets, no table of live blocks. Per op it calls the crate
//!   directly:
//!   * `buddy_system_allocator`: `Heap::alloc(layout)`, `Heap::dealloc(ptr, layout)`, and a
//!     realloc as `alloc` + copy + `dealloc` (the crate has none; the `GlobalAlloc` default);
//!   * `buddy_alloc`: `BuddyAlloc::malloc(size)`, `BuddyAlloc::free(ptr)`, and a realloc as
//!     `malloc` + copy + `free`;
//!   * `rlsf`: `Tlsf::allocate(layout)`, `Tlsf::deallocate(ptr, align)` and
//!     `Tlsf::reallocate(ptr, layout)`.
//!
//!   Around the calls it touches the blocks exactly as the replay does, through the family's
//!   own helpers on the block's bytes ([`write_stamps`] after `Alloc` and `Realloc`,
//!   [`read_stamps`] before `Free` and `Realloc`, [`read_head`] of the kept bytes after
//!   `Realloc`), so it computes the whole [`AllocDigest`] (counts, stamp sum, kept sum) from
//!   the crate's answers: the digest holds no offsets, only what the blocks held.
//!
//!   Every body is such a loop (an application's own sequence of allocations and frees), so it
//!   covers every workload the peer runs: `alloc-vector-doubling`, `alloc-random-mix`,
//!   `alloc-every-other-leaf`, `alloc-fixed-size` and the recorded `alloc-wee-*` traces;
//!   `None` for an empty body and for traces the peer does not run (an alignment or arena
//!   beyond its limits, e.g. `buddy_alloc` on `alloc-random-mix`'s 64-byte alignments, or an
//!   op it refuses). The body mutates the allocator, so each timed pass gets a fresh allocator
//!   over a fresh arena with the trace's setup replayed through the same crate calls, both
//!   outside the timed region; only the body is timed. [`ReferenceLoop::mirrors`] names the
//!   peer, so the results' `overhead` (replay ÷ this loop) is what the replay driver and the
//!   adapter add to the crate.
//!
//!   Verified after each pass: the body's digest must equal the model's, and every block live
//!   after the body must sit at the offset (pointer minus arena base, computed outside the
//!   timed region) where the peer's own replay put it: the direct calls made the same requests
//!   in the same order as the adapter and got the same blocks.
//!
//! * The same loop for our designs `buddy` (the article's, `ref-direct-buddy`), its two
//!   ablations `buddy_vec_lists` and `buddy_scan`, and `slab_alloc` (`ref-direct-slab_alloc`),
//!   so every design of the family has a loop and a cell can also be ranked by its designs
//!   called directly (`results::rank_called_directly`): no crate here, the loop calls the design's own
//!   [`BlockAllocator`] methods directly, the very calls the replay makes (`allocate`, `free`
//!   by offset, `realloc`, and `bytes` / `bytes_mut` for the stamps), on a design built
//!   untimed by `with_arena` over the same arena. The application holds a plain `Vec` of each
//!   block's offset, size and alignment ([`OwnBlock`]). What the replay does beyond it is the
//!   replay driver alone (its handle cursor and ID checks, its error mapping, its own count of
//!   requested bytes), so this `overhead` is the driver's share, the one every design pays;
//!   a peer's overhead beyond it is its adapter's.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::time::Duration;

use impls::alloc::BlockAllocator;
use impls::alloc::buddy::Buddy;
use impls::alloc::buddy_scan::BuddyScan;
use impls::alloc::buddy_vec_lists::BuddyVecLists;
use impls::alloc::peers::buddy_alloc::{BuddyAllocPeer, CrateBuddy};
use impls::alloc::peers::buddy_system_allocator::{BuddySystemAllocatorPeer, CrateHeap};
use impls::alloc::peers::rlsf::{Pool, RlsfPeer};
use impls::alloc::slab::{Slab, SlabClassLists};
use workloads::Trace;
use workloads::alloc::{AllocOp, BlockHandle};

use super::{AllocDigest, AllocFamily, AllocReplay, MIN_BLOCK, write_stamps};
use crate::host::Stopwatch;
use crate::replay::contract::{ReferenceLoop, Replayer, sum_passes};

/// An op of a body as the application holds it.
#[derive(Debug, Clone, Copy)]
pub enum DirectOp {
    /// Allocates block `handle` with `layout` (the application's constant for it).
    Alloc {
        /// The block's handle (its slot in the application's `Vec`, and its stamp).
        handle: BlockHandle,
        /// Its size and alignment.
        layout: Layout,
    },
    /// Frees block `handle`.
    Free(BlockHandle),
    /// Resizes block `handle` to `size` bytes, keeping its alignment and contents.
    Realloc {
        /// The block's handle.
        handle: BlockHandle,
        /// Its new size.
        size: usize,
    },
}

/// What the application holds for one block: the crate's pointer and the size and alignment
/// it asked for, 16 bytes as the replay's own [`Block`](super::Block) (see [`OwnBlock`]).
#[derive(Debug, Clone, Copy)]
pub struct Held {
    /// The block's first byte, as the crate returned it.
    pub ptr: NonNull<u8>,
    /// The requested size (a trace's, so it fits).
    size: u32,
    /// The requested alignment.
    align: u32,
}

impl Held {
    /// A handle whose block does not exist yet.
    const NONE: Held = Held {
        ptr: NonNull::dangling(),
        size: 1,
        align: 1,
    };

    /// The block at `ptr`, allocated with `layout` (whose size is a trace's `u32`).
    #[inline(always)]
    fn new(ptr: NonNull<u8>, layout: Layout) -> Self {
        Held {
            ptr,
            size: layout.size() as u32,
            align: layout.align() as u32,
        }
    }

    /// The layout the block was allocated (or last reallocated) with.
    #[inline(always)]
    fn layout(&self) -> Layout {
        // SAFETY: `align` is a valid `Layout`'s (from `new`, or kept by a realloc), and `size`
        // is a trace's `u32`, which rounded up to `align` (at most a `u32` too) stays far below
        // `isize::MAX`.
        unsafe { Layout::from_size_align_unchecked(self.size as usize, self.align as usize) }
    }
}

/// The few crate calls a body makes, as the crate spells them (see the [module docs](self)).
trait CrateCalls {
    /// A new block of `layout`, or `None` if the crate refuses.
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>>;

    /// Frees the block at `ptr` allocated with `layout`.
    ///
    /// # Safety
    /// `ptr` is a live block of this allocator, allocated (or last reallocated) with `layout`.
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout);

    /// Resizes the block at `ptr` (allocated with `layout`) to `new_size` bytes with the same
    /// alignment, keeping its first `min(old, new)` bytes; `None` (the old block still live and
    /// unchanged) if the crate refuses.
    ///
    /// By default, for crates without a realloc, as `GlobalAlloc::realloc`'s default does it:
    /// a new block, a copy of the kept bytes, the old block freed.
    ///
    /// # Safety
    /// As [`free`](Self::free).
    #[inline(always)]
    unsafe fn realloc(
        &mut self,
        ptr: NonNull<u8>,
        layout: Layout,
        new_size: usize,
    ) -> Option<NonNull<u8>> {
        // SAFETY: the alignment is a valid `Layout`'s, and the size is a trace's (at least 1
        // byte, at most the arena, well below `isize::MAX`).
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let moved = self.alloc(new_layout)?;
        // SAFETY: the old block (live, `layout.size()` bytes) and the new one (just allocated,
        // `new_size` bytes) are disjoint blocks of the arena.
        unsafe {
            std::ptr::copy_nonoverlapping(
                ptr.as_ptr(),
                moved.as_ptr(),
                layout.size().min(new_size),
            );
        }
        // SAFETY: the caller's contract.
        unsafe { self.free(ptr, layout) };
        Some(moved)
    }
}

impl CrateCalls for CrateHeap {
    #[inline(always)]
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        CrateHeap::alloc(self, layout).ok()
    }

    #[inline(always)]
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract is `Heap::dealloc`'s.
        unsafe { self.dealloc(ptr, layout) }
    }
}

impl CrateCalls for CrateBuddy {
    /// `malloc(size)`: the crate takes no alignment (16 bytes always; the peer does not run
    /// traces asking for more).
    #[inline(always)]
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        NonNull::new(self.malloc(layout.size()))
    }

    #[inline(always)]
    unsafe fn free(&mut self, ptr: NonNull<u8>, _layout: Layout) {
        CrateBuddy::free(self, ptr.as_ptr());
    }
}

impl CrateCalls for Pool {
    #[inline(always)]
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        self.allocate(layout)
    }

    #[inline(always)]
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract is `Tlsf::deallocate`'s.
        unsafe { self.deallocate(ptr, layout.align()) }
    }

    #[inline(always)]
    unsafe fn realloc(
        &mut self,
        ptr: NonNull<u8>,
        layout: Layout,
        new_size: usize,
    ) -> Option<NonNull<u8>> {
        // SAFETY: as in the default `CrateCalls::realloc`.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: the caller's contract is `Tlsf::reallocate`'s (same alignment).
        unsafe { self.reallocate(ptr, new_layout) }
    }
}

/// The bytes of the live block at `ptr`, `len` of them.
///
/// # Safety
/// `ptr .. ptr + len` lies in a live block no other reference reaches.
#[inline(always)]
unsafe fn block<'a>(ptr: NonNull<u8>, len: usize) -> &'a mut [u8] {
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), len) }
}

/// Runs `ops` on `crate_`, touching the blocks as the replay does, and returns the digest, or
/// the index of the op the crate refused (the ops before it applied).
///
/// # Safety
/// `ops` come from a validated trace (each `Free` and `Realloc` names a live block), and
/// `held` holds, for every live handle they name, the block `crate_` handed out for it.
#[inline(always)]
unsafe fn replay_ops<C: CrateCalls>(
    crate_: &mut C,
    ops: &[DirectOp],
    held: &mut [Held],
) -> Result<AllocDigest, usize> {
    let mut d = AllocDigest::default();
    for (index, &op) in ops.iter().enumerate() {
        match op {
            DirectOp::Alloc { handle, layout } => {
                let Some(ptr) = crate_.alloc(layout) else {
                    return Err(index);
                };
                // SAFETY: the block just allocated, `layout.size()` bytes.
                write_stamps(unsafe { block(ptr, layout.size()) }, handle);
                held[handle as usize] = Held::new(ptr, layout);
                d.allocs += 1;
            }
            DirectOp::Free(handle) => {
                let b = held[handle as usize];
                // SAFETY: a live block (the caller's contract), `b.size` bytes.
                d.read(unsafe { block(b.ptr, b.size as usize) });
                // SAFETY: a live block of `crate_`, allocated with `b.layout()`.
                unsafe { crate_.free(b.ptr, b.layout()) };
                d.frees += 1;
            }
            DirectOp::Realloc { handle, size } => {
                let b = held[handle as usize];
                // SAFETY: as for `Free`.
                d.read(unsafe { block(b.ptr, b.size as usize) });
                // SAFETY: as for `Free`.
                let Some(ptr) = (unsafe { crate_.realloc(b.ptr, b.layout(), size) }) else {
                    return Err(index);
                };
                let kept = (b.size as usize).min(size).min(8);
                // SAFETY: the block the crate returned, `size >= kept` bytes.
                d.resized(unsafe { block(ptr, kept) }, kept);
                // SAFETY: as above, `size` bytes.
                write_stamps(unsafe { block(ptr, size) }, handle);
                held[handle as usize] = Held {
                    ptr,
                    size: size as u32,
                    align: b.align,
                };
            }
        }
    }
    Ok(d)
}

/// A design whose own API the `ref-direct-<design>` loop calls directly: a peer's crate (its
/// adapter builds the crate's object over the arena, untimed, then the loop calls only the
/// crate), or one of our designs (its own [`BlockAllocator`] methods, see [`OwnBlock`]).
pub trait DirectAllocator: BlockAllocator + 'static {
    /// What the application holds for one block: [`Held`] for a crate, [`OwnBlock`] for ours.
    type Held: Copy;

    /// A handle whose block does not exist yet.
    const NONE: Self::Held;

    /// The arena offset of `held`'s block (checked after the timed region).
    fn offset_of(&self, held: &Self::Held) -> usize;

    /// Runs `ops` calling the design's API directly (see the [module docs](self)): the digest,
    /// or the index of the op it refused. Out of line, so every call runs the same machine
    /// code whatever the caller.
    ///
    /// # Safety
    /// As `replay_ops`: `ops` from a validated trace, `held` holding this allocator's block
    /// for every live handle they name. For a peer, the adapter's own bookkeeping no longer
    /// matches the crate afterwards: call none of its [`BlockAllocator`] methods, only drop it.
    unsafe fn replay_direct(
        &mut self,
        ops: &[DirectOp],
        held: &mut [Self::Held],
    ) -> Result<AllocDigest, usize>;
}

/// The offset of `held`'s block in an arena starting at `base`.
fn crate_offset(base: NonNull<u8>, held: &Held) -> usize {
    held.ptr.as_ptr() as usize - base.as_ptr() as usize
}

/// The crate peers' direct loops, one `impl` each: the loop runs `replay_ops` on the crate's
/// own object over the arena (`$object`), the calls named in `$calls`.
macro_rules! direct_crate_allocator {
    ($($peer:ty => $object:ident, $calls:literal;)*) => {$(
        impl DirectAllocator for $peer {
            type Held = Held;
            const NONE: Held = Held::NONE;

            fn offset_of(&self, held: &Held) -> usize {
                crate_offset(self.arena_base(), held)
            }

            #[doc = $calls]
            #[inline(never)]
            unsafe fn replay_direct(
                &mut self,
                ops: &[DirectOp],
                held: &mut [Held],
            ) -> Result<AllocDigest, usize> {
                // SAFETY: the caller uses no adapter method afterwards, and `replay_ops` frees
                // only live blocks with their layouts (the caller's contract).
                unsafe { replay_ops(self.$object(), ops, held) }
            }
        }
    )*};
}

direct_crate_allocator! {
    BuddySystemAllocatorPeer => crate_heap,
        "`Heap::alloc`, `Heap::dealloc`, a realloc as `alloc` + copy + `dealloc`.";
    BuddyAllocPeer => crate_buddy,
        "`BuddyAlloc::malloc`, `BuddyAlloc::free`, a realloc as `malloc` + copy + `free`.";
    RlsfPeer => crate_pool, "`Tlsf::allocate`, `Tlsf::deallocate`, `Tlsf::reallocate`.";
}

/// What the application holds for one block of one of our designs: the offset the design
/// returned and the size and alignment it asked for (the size its stamps span, the size and
/// alignment `realloc` takes), 16 bytes as the replay's own [`Block`](super::Block): the
/// per-handle array both walk is the same size, so the loop's time differs from the replay's
/// by the driver's code alone (with a 24-byte `Layout` here, the array outgrew the second-level
/// cache at 10,000 blocks and the loop read 0.69-0.81 of the replay's speed).
#[derive(Debug, Clone, Copy)]
pub struct OwnBlock {
    /// The block's offset in the design's arena.
    pub offset: usize,
    /// The block's requested size in bytes (a trace's, so it fits).
    pub size: u32,
    /// The block's requested alignment.
    pub align: u32,
}

/// Runs `ops` on our design `a` through its own [`BlockAllocator`] methods (`allocate`,
/// `free`, `realloc`, `bytes`, `bytes_mut`: the calls the replay makes, in the same order),
/// touching the blocks as the replay does; the digest, or the index of the op `a` refused.
///
/// Safe: the design's methods are safe (a `bytes` out of the arena panics), so a wrong `held`
/// is a wrong digest, a refused op or a panic, never undefined behaviour.
#[inline(always)]
fn replay_own<A: BlockAllocator>(
    a: &mut A,
    ops: &[DirectOp],
    held: &mut [OwnBlock],
) -> Result<AllocDigest, usize> {
    let mut d = AllocDigest::default();
    for (index, &op) in ops.iter().enumerate() {
        match op {
            DirectOp::Alloc { handle, layout } => {
                let Ok(offset) = a.allocate(layout.size(), layout.align()) else {
                    return Err(index);
                };
                write_stamps(a.bytes_mut(offset, layout.size()), handle);
                held[handle as usize] = OwnBlock {
                    offset,
                    size: layout.size() as u32,
                    align: layout.align() as u32,
                };
                d.allocs += 1;
            }
            DirectOp::Free(handle) => {
                let b = held[handle as usize];
                d.read(a.bytes(b.offset, b.size as usize));
                if a.free(b.offset).is_err() {
                    return Err(index);
                }
                d.frees += 1;
            }
            DirectOp::Realloc { handle, size } => {
                let b = held[handle as usize];
                d.read(a.bytes(b.offset, b.size as usize));
                let Ok(offset) = a.realloc(b.offset, b.size as usize, b.align as usize, size)
                else {
                    return Err(index);
                };
                let kept = (b.size as usize).min(size).min(8);
                d.resized(a.bytes(offset, kept), kept);
                write_stamps(a.bytes_mut(offset, size), handle);
                held[handle as usize] = OwnBlock {
                    offset,
                    size: size as u32,
                    align: b.align,
                };
            }
        }
    }
    Ok(d)
}

/// Our design of the given type, called through its own [`BlockAllocator`] methods.
macro_rules! own_direct {
    ($design:ty) => {
        impl DirectAllocator for $design {
            type Held = OwnBlock;
            const NONE: OwnBlock = OwnBlock {
                offset: 0,
                size: 1,
                align: 1,
            };

            fn offset_of(&self, held: &OwnBlock) -> usize {
                held.offset
            }

            /// `allocate`, `free`, `realloc`, `bytes`, `bytes_mut` of the design itself.
            #[inline(never)]
            unsafe fn replay_direct(
                &mut self,
                ops: &[DirectOp],
                held: &mut [OwnBlock],
            ) -> Result<AllocDigest, usize> {
                replay_own(self, ops, held)
            }
        }
    };
}
own_direct!(Buddy);
own_direct!(BuddyVecLists);
own_direct!(BuddyScan);
own_direct!(Slab);
own_direct!(SlabClassLists);

/// `ops` as the application holds them; `created` is the number of blocks allocated before
/// them (the next `Alloc`'s handle), advanced past theirs.
fn decode(ops: &[AllocOp], created: &mut BlockHandle) -> Option<Vec<DirectOp>> {
    ops.iter()
        .map(|&op| {
            Some(match op {
                AllocOp::Alloc { size, align } => {
                    let handle = *created;
                    *created += 1;
                    DirectOp::Alloc {
                        handle,
                        layout: Layout::from_size_align(size as usize, align as usize).ok()?,
                    }
                }
                AllocOp::Free(h) => DirectOp::Free(h),
                AllocOp::Realloc { block, size } => DirectOp::Realloc {
                    handle: block,
                    size: size as usize,
                },
            })
        })
        .collect()
}

/// A trace's body run by the allocator crate of peer `A` directly (`ref-direct-<peer>`, see
/// the [module docs](self)).
pub struct DirectAlloc<A: DirectAllocator> {
    /// The arena size of the peer's replay.
    arena: usize,
    /// Blocks the trace allocates (the application's `Vec` of blocks has one slot each).
    handles: usize,
    /// The setup, replayed untimed before each pass.
    setup: Vec<DirectOp>,
    /// The body, timed.
    body: Vec<DirectOp>,
    /// The model's body digest.
    expected: AllocDigest,
    /// Each block live after the body and its offset after the peer's own replay.
    expected_offsets: Vec<(BlockHandle, usize)>,
    _peer: std::marker::PhantomData<A>,
}

impl<A: DirectAllocator> DirectAlloc<A> {
    /// One pass: a fresh allocator, the setup (untimed), the body (timed), then the checks.
    fn pass(&self) -> Result<Duration, String> {
        let name = A::INFO.meta.name;
        let mut allocator = A::with_arena(self.arena, MIN_BLOCK)
            .map_err(|e| format!("{name}: no allocator over {} bytes: {e}", self.arena))?;
        let mut held = vec![A::NONE; self.handles];
        // SAFETY: `for_trace` decoded the ops from a validated trace; `held` starts empty and
        // is filled by these calls alone; the adapter is only dropped afterwards.
        unsafe { allocator.replay_direct(&self.setup, &mut held) }
            .map_err(|i| format!("{name} called directly refused setup op {i}"))?;
        let body = std::hint::black_box(&self.body[..]);
        let start = Stopwatch::start();
        // SAFETY: as above; `held` holds the setup's blocks.
        let digest = unsafe { allocator.replay_direct(body, &mut held) };
        let elapsed = start.elapsed();
        let digest = digest.map_err(|i| format!("{name} called directly refused body op {i}"))?;
        if std::hint::black_box(digest) != self.expected {
            return Err(format!(
                "{name} called directly digested {digest:?}, the model {:?}",
                self.expected
            ));
        }
        for &(h, offset) in &self.expected_offsets {
            let at = allocator.offset_of(&held[h as usize]);
            if at != offset {
                return Err(format!(
                    "{name} called directly put block {h} at offset {at}, its replay at {offset}"
                ));
            }
        }
        Ok(elapsed)
    }
}

impl<A: DirectAllocator> ReferenceLoop for DirectAlloc<A> {
    type Family = AllocFamily;
    const MIRRORS: Option<&'static str> = Some(A::INFO.meta.name);

    /// For a valid trace with a body that the peer runs (replayed once untimed through its
    /// replay, for the block offsets); `None` otherwise.
    fn for_trace(trace: &Trace<AllocOp>, expected: &AllocDigest) -> Option<Self> {
        let stats = trace.validate().ok()?;
        if trace.body.is_empty() || AllocReplay::<A>::unsupported_before(&stats).is_some() {
            return None;
        }
        let mut created = 0;
        let setup = decode(&trace.setup, &mut created)?;
        let body = decode(&trace.body, &mut created)?;
        let mut live = vec![false; created as usize];
        for op in setup.iter().chain(&body) {
            match *op {
                DirectOp::Alloc { handle, .. } => live[handle as usize] = true,
                DirectOp::Free(handle) => live[handle as usize] = false,
                DirectOp::Realloc { .. } => {}
            }
        }
        let mut replay = AllocReplay::<A>::after_setup(trace).ok()?;
        replay.replay(&trace.body).ok()?;
        let blocks = replay.handles().ids();
        let expected_offsets = (0..created)
            .filter(|&h| live[h as usize])
            .map(|h| Some((h, blocks.get(h as usize)?.offset)))
            .collect::<Option<Vec<_>>>()?;
        Some(Self {
            arena: replay.arena_bytes(),
            handles: created as usize,
            setup,
            body,
            expected: *expected,
            expected_offsets,
            _peer: std::marker::PhantomData,
        })
    }

    /// Times `iters` passes, each on a fresh allocator with the setup replayed (untimed).
    ///
    /// # Errors
    /// The crate refused an op, or the digest or a live block's offset differs from the
    /// model's or the peer replay's.
    fn run(&self, iters: u64) -> Result<Duration, String> {
        sum_passes(iters, || self.pass())
    }
}

/// `ref-direct-buddy_system_allocator`.
pub type DirectBuddySystemAllocator = DirectAlloc<BuddySystemAllocatorPeer>;
/// `ref-direct-buddy_alloc`.
pub type DirectBuddyAlloc = DirectAlloc<BuddyAllocPeer>;
/// `ref-direct-rlsf`.
pub type DirectRlsf = DirectAlloc<RlsfPeer>;
/// `ref-direct-buddy`: our article design called through its own methods.
pub type DirectBuddy = DirectAlloc<Buddy>;
/// `ref-direct-buddy_vec_lists`: the article's ablation with its free lists in `Vec`s.
pub type DirectBuddyVecLists = DirectAlloc<BuddyVecLists>;
/// `ref-direct-buddy_scan`: the article's ablation that scans for a free buddy.
pub type DirectBuddyScan = DirectAlloc<BuddyScan>;
/// `ref-direct-slab_alloc`: our slab design called through its own methods.
pub type DirectSlab = DirectAlloc<Slab>;
/// `ref-direct-slab_class_lists`: the slab with a free list per size class, called through
/// its own methods.
pub type DirectSlabClassLists = DirectAlloc<SlabClassLists>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::testing::trace;
    use crate::verify::Expected;

    /// The workloads every peer's direct loop is checked on (`alloc-random-mix` also, where
    /// the peer supports its alignments).
    const WORKLOADS: &[&str] = &[
        "alloc-vector-doubling",
        "alloc-random-mix",
        "alloc-every-other-leaf",
        "alloc-fixed-size",
        "alloc-wee-cpp-demangle",
    ];

    /// Every `ref-direct-<peer>` loop digests what the model digests on every workload the
    /// peer runs, puts every block where the peer's replay puts it, fails on a corrupted
    /// expectation, and has no loop for traces the peer does not run or an empty body.
    #[test]
    fn direct_alloc_loops_digest_like_the_model() {
        /// Returns how many workloads had a loop.
        fn check<A: DirectAllocator>() -> usize {
            let name = A::INFO.meta.name;
            let mut looped_on = 0;
            assert_eq!(DirectAlloc::<A>::MIRRORS, Some(name));
            assert_eq!(DirectAlloc::<A>::name(), format!("ref-direct-{name}"));
            for workload in WORKLOADS {
                let trace = trace(workload);
                let expected = Expected::<AllocFamily>::of(&trace).unwrap();
                let stats = trace.validate().unwrap();
                let Some(looped) = DirectAlloc::<A>::for_trace(&trace, &expected.body) else {
                    assert!(
                        AllocReplay::<A>::unsupported_before(&stats).is_some(),
                        "{name} on {workload}: no loop for a trace it runs"
                    );
                    continue;
                };
                looped_on += 1;
                assert!(!looped.expected_offsets.is_empty(), "{name} on {workload}");
                looped
                    .run(2)
                    .unwrap_or_else(|e| panic!("{name} on {workload}: {e}"));
                let mut wrong = DirectAlloc::<A>::for_trace(&trace, &expected.body).unwrap();
                wrong.expected.stamp_sum ^= 1;
                let error = wrong.run(1).unwrap_err();
                assert!(error.contains("digested"), "{name} on {workload}: {error}");
                let mut moved = DirectAlloc::<A>::for_trace(&trace, &expected.body).unwrap();
                moved.expected_offsets[0].1 += 16;
                let error = moved.run(1).unwrap_err();
                assert!(
                    error.contains("its replay at"),
                    "{name} on {workload}: {error}"
                );
            }
            let mut empty = trace("alloc-fixed-size");
            empty.body.clear();
            let expected = Expected::<AllocFamily>::of(&empty).unwrap();
            assert!(DirectAlloc::<A>::for_trace(&empty, &expected.body).is_none());
            looped_on
        }
        check::<BuddySystemAllocatorPeer>();
        check::<BuddyAllocPeer>();
        check::<RlsfPeer>();
        // Our designs run every workload (64-byte alignments included): a loop on each.
        assert_eq!(check::<Buddy>(), WORKLOADS.len());
        assert_eq!(check::<BuddyVecLists>(), WORKLOADS.len());
        assert_eq!(check::<BuddyScan>(), WORKLOADS.len());
        assert_eq!(check::<Slab>(), WORKLOADS.len());
        assert_eq!(check::<SlabClassLists>(), WORKLOADS.len());
    }

    /// `buddy_alloc` guarantees 16-byte alignment only: no loop for `alloc-random-mix` (2% of
    /// its blocks ask for 64 bytes), as its replay is unsupported there.
    #[test]
    fn no_loop_where_the_peer_is_unsupported() {
        let trace = trace("alloc-random-mix");
        let expected = Expected::<AllocFamily>::of(&trace).unwrap();
        assert!(DirectBuddyAlloc::for_trace(&trace, &expected.body).is_none());
        assert!(DirectRlsf::for_trace(&trace, &expected.body).is_some());
    }

    /// Every design of the family has exactly one loop, so a cell can be ranked by its
    /// designs called directly (`results::rank_called_directly`).
    #[test]
    fn every_design_has_one_direct_loop() {
        let names = crate::replay::reference_loop_names::<AllocFamily>();
        for design in impls::alloc::alloc_designs() {
            let name = format!("ref-direct-{}", design.meta.name);
            assert_eq!(
                names.iter().filter(|n| **n == name).count(),
                1,
                "{name} in {names:?}"
            );
        }
    }
}
