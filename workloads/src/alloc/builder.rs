//! What the block-allocator generators (`alloc_*`) share: a trace builder that tracks live
//! blocks and their sizes, and the size distribution they state in their docs.

use crate::alloc::{AllocOp, BlockHandle};
use crate::rng::TraceRng;

use crate::generate::parts::{LiveHandles, TraceParts};

/// Builds an [`AllocOp`] trace op by op while tracking which blocks are live and their current
/// sizes, so generators say "free a random live block" without their own bookkeeping.
///
/// Invariant: `live` holds exactly the blocks allocated and not freed by the ops in `parts`,
/// and `sizes[h]` is the size of `h`'s last `Alloc`/`Realloc`.
#[derive(Debug, Default)]
pub(crate) struct AllocTraceBuilder {
    parts: TraceParts<AllocOp>,
    live: LiveHandles,
    sizes: Vec<u32>,
}

crate::generate::parts::recorder!(AllocTraceBuilder: AllocOp, live: live);

impl AllocTraceBuilder {
    /// The current size of block `handle`.
    pub(crate) fn size(&self, handle: BlockHandle) -> u32 {
        self.sizes[handle as usize]
    }

    /// Appends an `Alloc` and returns the handle it creates.
    pub(crate) fn alloc(&mut self, size: u32, align: u32) -> BlockHandle {
        let handle = self.live.insert_next();
        self.sizes.push(size);
        self.parts.push(AllocOp::Alloc { size, align });
        handle
    }

    /// Appends a `Free` of `handle`.
    ///
    /// # Panics
    /// If `handle` is not live.
    pub(crate) fn free(&mut self, handle: BlockHandle) {
        self.live.remove(handle);
        self.parts.push(AllocOp::Free(handle));
    }

    /// Appends a `Realloc` of `handle` to `size`.
    ///
    /// # Panics
    /// If `handle` is not live.
    pub(crate) fn realloc(&mut self, handle: BlockHandle, size: u32) {
        assert!(
            self.live.contains(handle),
            "resizing block {handle}, which is not live"
        );
        self.sizes[handle as usize] = size;
        self.parts.push(AllocOp::Realloc {
            block: handle,
            size,
        });
    }
}

/// A size "log-uniform by octave" in `[2^min_log2, 2^max_log2)`: an octave `e` uniform in
/// `min_log2..max_log2` (one [`TraceRng::below`] draw), then a size uniform in
/// `[2^e, 2^(e+1))` (a second draw). Each octave gets the same share of requests; integer-only,
/// so identical on every platform.
///
/// # Panics
/// If `min_log2 >= max_log2` or `max_log2 > 31`.
pub(crate) fn octave_log_uniform(rng: &mut TraceRng, min_log2: u32, max_log2: u32) -> u32 {
    assert!(min_log2 < max_log2 && max_log2 <= 31, "bad octave range");
    let e = min_log2 + rng.below(u64::from(max_log2 - min_log2)) as u32;
    (1u32 << e) + rng.below(1u64 << e) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::parts::{Recorder, TracksLive};

    #[test]
    fn builder_tracks_live_blocks_and_sizes() {
        let t = AllocTraceBuilder::default().record("test", 4, 0, &(), |b, _| {
            let h: Vec<_> = (0..4).map(|i| b.alloc(16 << i, 8)).collect();
            b.start_body();
            b.free(h[1]);
            b.realloc(h[3], 7);
            assert_eq!(b.size(h[3]), 7);
            assert_eq!(b.live_count(), 3);
        });
        assert_eq!(t.setup.len(), 4);
        assert_eq!(t.body.len(), 2);
        let stats = t.validate().unwrap();
        assert_eq!((stats.frees, stats.reallocs, stats.peak_live), (1, 1, 4));
    }

    #[test]
    fn octaves_are_equally_likely_and_sizes_stay_in_range() {
        let mut rng = TraceRng::new(5);
        let mut per_octave = [0u32; 6];
        for _ in 0..60_000 {
            let s = octave_log_uniform(&mut rng, 4, 10);
            assert!((16..1024).contains(&s));
            per_octave[(s.ilog2() - 4) as usize] += 1;
        }
        for count in per_octave {
            assert!((9_000..11_000).contains(&count), "{per_octave:?}");
        }
    }
}
