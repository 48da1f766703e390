//! [`SystemAlloc`], the global allocator as a time-only reference (not a block allocator on an
//! arena: it has no space metrics).

use super::*;

/// One block from the global allocator, with the layout it was allocated with; freed on drop.
#[derive(Debug)]
pub struct SystemBlock {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl SystemBlock {
    /// A block of `size >= 1` bytes aligned to `align` (a power of two).
    fn new(size: usize, align: usize) -> Self {
        let layout = Layout::from_size_align(size, align).expect("a valid trace's layout");
        // SAFETY: `layout` has a non-zero size (a valid trace asks for at least 1 byte).
        let ptr = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(ptr).unwrap_or_else(|| handle_alloc_error(layout));
        Self { ptr, layout }
    }

    /// Resizes to `size >= 1` bytes with the global allocator's `realloc`, keeping the first
    /// `min(old, size)` bytes.
    fn resize(&mut self, size: usize) {
        let layout =
            Layout::from_size_align(size, self.layout.align()).expect("a valid trace's layout");
        // SAFETY: `ptr` was allocated by the global allocator with `self.layout` (in `new` or a
        // previous `resize`), and `size` is non-zero and, rounded up to the alignment, fits
        // `isize` (checked by `from_size_align` above).
        let ptr = unsafe { std::alloc::realloc(self.ptr.as_ptr(), self.layout, size) };
        self.ptr = NonNull::new(ptr).unwrap_or_else(|| handle_alloc_error(layout));
        self.layout = layout;
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr` points to `layout.size()` bytes owned by this block. They may be
        // uninitialised except where `write_stamps` wrote: `u8` has no invalid values, and the
        // replay reads only bytes it wrote (or that `realloc` kept), the module doc's rule.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.layout.size()) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as `bytes`; `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.layout.size()) }
    }
}

impl Drop for SystemBlock {
    fn drop(&mut self) {
        // SAFETY: `ptr` was allocated by the global allocator with `layout` and is freed once.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

/// The time reference `system`: every block from the global allocator (`std::alloc::alloc`,
/// `realloc`, `dealloc` with the trace's size and alignment: malloc/realloc/free, or their
/// aligned forms, of the platform's allocator). No arena and no space metrics; verified like a
/// design so its times count.
///
/// Its timed replays still find a handle's block through its own `Vec` indexed by handle (its
/// [`Replayer::Id`] is `()`): the global allocator's addresses are not reproducible from one
/// fresh state to the next, so they cannot be resolved by a dry run. Its times include that
/// random read per `Free` and `Realloc`, which the designs' resolved replays do not pay.
pub type SystemAlloc = ByHandle<SystemBlock>;

impl Replayer for SystemAlloc {
    type Family = AllocFamily;
    /// None: the replay keeps each handle's block itself (see [`ByHandle`]).
    type Id = ();

    fn design_name() -> &'static str {
        "system"
    }

    fn for_trace(trace: &Trace<AllocOp>) -> Self {
        Self::sized_for(trace)
    }

    fn handles(&mut self) -> &mut HandleMap<()> {
        self.no_ids()
    }

    #[inline(never)]
    fn run<H: HandleIds<()>>(
        &mut self,
        ops: &[AllocOp],
        _ids: &mut H,
    ) -> Result<AllocDigest, ReplayError> {
        let (mut allocs, mut frees, mut reallocs) = (0u64, 0u64, 0u64);
        let (mut stamp_sum, mut kept_sum) = (0u64, 0u64);
        let blocks = &mut self.blocks;
        for &op in ops {
            match op {
                AllocOp::Alloc { size, align } => {
                    let mut block = SystemBlock::new(size as usize, align as usize);
                    write_stamps(block.bytes_mut(), blocks.len() as BlockHandle);
                    blocks.push(Some(block));
                    allocs += 1;
                }
                AllocOp::Free(h) => {
                    let block = blocks[h as usize].take().expect("a live block");
                    stamp_sum = stamp_sum.wrapping_add(read_stamps(block.bytes()));
                    drop(block);
                    frees += 1;
                }
                AllocOp::Realloc { block: h, size } => {
                    let block = blocks[h as usize].as_mut().expect("a live block");
                    stamp_sum = stamp_sum.wrapping_add(read_stamps(block.bytes()));
                    let kept = block.layout.size().min(size as usize).min(8);
                    block.resize(size as usize);
                    kept_sum = kept_sum.wrapping_add(read_head(block.bytes(), kept));
                    write_stamps(block.bytes_mut(), h);
                    reallocs += 1;
                }
            }
        }
        self.live = self.live + allocs as usize - frees as usize;
        Ok(AllocDigest {
            allocs,
            frees,
            reallocs,
            stamp_sum,
            kept_sum,
        })
    }

    fn memory_bytes(&self) -> u64 {
        self.blocks
            .iter()
            .flatten()
            .map(|b| b.layout.size() as u64)
            .sum()
    }

    fn live_count(&self) -> usize {
        self.live
    }

    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
}
