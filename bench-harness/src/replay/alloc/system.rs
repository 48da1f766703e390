//! [`SystemAlloc`], the global allocator as a time-only reference (not a block allocator on an
//! arena: it has no space metrics).

use super::*;

/// One block from the global allocator, with the layout it was allocated with; freed on drop.
#[derive(Debug)]
pub struct SystemBlock {
    ptr: NonNull<u8>,
    layout: Layout,
}

impl HeldBlock for SystemBlock {
    const NAME: &'static str = "system";

    fn new(size: usize, align: usize) -> Self {
        let layout = Layout::from_size_align(size, align).expect("a valid trace's layout");
        // SAFETY: `layout` has a non-zero size (a valid trace asks for at least 1 byte).
        let ptr = unsafe { std::alloc::alloc(layout) };
        let ptr = NonNull::new(ptr).unwrap_or_else(|| handle_alloc_error(layout));
        Self { ptr, layout }
    }

    /// With the global allocator's `realloc`.
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
