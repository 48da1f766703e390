//! `alloc-fixed-size`: one block size only, the case a fixed-block (slab) allocator is for
//! (the article's "when we know the allocations are fixed size we can make a very fast and
//! simple allocator"). Its default size, 24 bytes, is the dominant size of the longest
//! recording (`alloc-wee-dogfood`: 11,226 of its 32,472 allocations; `size` = 16 is
//! `alloc-wee-ffmpeg`'s, 280 `alloc-wee-find`'s).
//!
//! * **Setup** (untimed): `n` × `Alloc { size, 8 }`.
//! * **Body** (timed): `ops` ops, each a `Free` of a uniform live block or an `Alloc { size, 8 }`
//!   with equal probability; the live count stays in `[n - slack, n]` with
//!   `slack = max(1, n / 10)` (an `Alloc` drawn at `n` live becomes a `Free`, a `Free` drawn at
//!   the lower bound an `Alloc`).
//!
//! Peak live is `n`.

use crate::alloc::AllocOp;
use crate::alloc::builder::AllocTraceBuilder;
use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::trace::Trace;

/// Alignment of every block.
const ALIGN: u32 = 8;

crate::generate::workload! {
    /// n live blocks of one size (24 B: the dominant size of the dogfood recording); body of random
    /// Free / Alloc of that size
    pub struct FixedSizeParams for "alloc-fixed-size" {
        /// Number of ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// The one block size, in bytes.
        pub size: u32 = 24, in 1..=65_536,
    }
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &FixedSizeParams) -> Trace<AllocOp> {
    AllocTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.alloc(params.size, ALIGN);
        }
        b.start_body();
        let min_live = n.saturating_sub((n / 10).max(1));
        if n > 0 {
            for _ in 0..params.ops {
                let live = b.live_count();
                if (rng.unit_f64() < 0.5 && live > min_live) || live >= n {
                    let h = b.random_live(rng);
                    b.free(h);
                } else {
                    b.alloc(params.size, ALIGN);
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn every_block_has_the_one_size() {
        let stats = default_stats(generate, 1_000, 3);
        assert_eq!(stats.peak_live, 1_000);
        assert_eq!(stats.max_size, 24);
        assert!(stats.frees > 40_000 && stats.allocs > 40_000, "{stats:?}");
    }
}
