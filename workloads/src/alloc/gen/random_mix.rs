//! `alloc-random-mix`: a general-purpose heap in steady state, the case a buddy allocator's
//! power-of-two rounding is judged on: blocks of scattered sizes are allocated, freed and
//! resized at random while about `n` stay live.
//!
//! * **Sizes** (every `Alloc`, every `Realloc`'s new size, drawn independently): log-uniform by
//!   octave in `[2^min_size_log2, 2^max_size_log2)`: an octave `e` uniform in
//!   `min_size_log2..max_size_log2`, then a size uniform in `[2^e, 2^(e+1))`. Default 16 B to
//!   1023 B, six octaves, mean about 380 B (kept below 4 KiB so the arena stays small at
//!   `n` = 100K; raise `max_size_log2` for larger blocks).
//! * **Alignment** (per `Alloc`; a `Realloc` keeps its block's): 64 with probability
//!   `align64_fraction` (0.02), else 16 with probability `align16_fraction` (0.08), else 8.
//!   Designs whose largest alignment is below 64 (the `buddy_alloc` peer: 16) report this
//!   workload as unsupported.
//! * **Setup** (untimed): `n` `Alloc`s.
//! * **Body** (timed): `ops` ops; each is a `Realloc` of a uniform live block with probability
//!   `realloc_fraction` (0.2), otherwise an `Alloc` or a `Free` of a uniform live block with
//!   equal probability (0.4 each). The live count is kept in `[n - slack, n]` with
//!   `slack = max(1, round(n * size_slack))`: an `Alloc` drawn at `n` live becomes a `Free`, a
//!   `Free` drawn at the lower bound becomes an `Alloc`, a `Realloc` with nothing live an
//!   `Alloc`.
//!
//! Peak live is `n`.

use crate::alloc::AllocOp;
use crate::alloc::builder::{AllocTraceBuilder, octave_log_uniform};
use crate::generate::parts::{Recorder, TracksLive};
use crate::generate::{MAX_OPS, MixOp, SteadyMix};
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live blocks; body of 40% Alloc, 40% Free, 20% Realloc, sizes log-uniform 16 B..1 KiB,
    /// align 8 (16: 8%, 64: 2%)
    pub struct RandomMixParams for "alloc-random-mix" {
        /// Number of ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Probability that a body op is a `Realloc`; the rest is split evenly between `Alloc`
        /// and `Free`.
        pub realloc_fraction: f64 = 0.2, in 0.0..=1.0,
        /// How far below `n` the live count may drift, as a fraction of `n` (at least one
        /// block).
        pub size_slack: f64 = 0.1, in 0.0..=1.0,
        /// Sizes are at least `2^min_size_log2` bytes.
        pub min_size_log2: u32 = 4, in 0..=30,
        /// Sizes are below `2^max_size_log2` bytes (must exceed `min_size_log2`).
        pub max_size_log2: u32 = 10, in 1..=31,
        /// Probability that an `Alloc` asks for 16-byte alignment.
        pub align16_fraction: f64 = 0.08, in 0.0..=1.0,
        /// Probability that an `Alloc` asks for 64-byte alignment (taken before the 16-byte
        /// draw).
        pub align64_fraction: f64 = 0.02, in 0.0..=1.0,
    }
}

/// Checks what the per-field ranges cannot: the size range is not empty.
///
/// # Errors
/// `min_size_log2 >= max_size_log2`.
pub fn check(_n: usize, params: &RandomMixParams) -> Result<(), String> {
    if params.min_size_log2 >= params.max_size_log2 {
        return Err(format!(
            "min_size_log2 = {} must be below max_size_log2 = {}",
            params.min_size_log2, params.max_size_log2
        ));
    }
    Ok(())
}

/// The alignment of one `Alloc` (one [`TraceRng::unit_f64`] draw).
fn draw_align(rng: &mut TraceRng, params: &RandomMixParams) -> u32 {
    let draw = rng.unit_f64();
    if draw < params.align64_fraction {
        64
    } else if draw < params.align64_fraction + params.align16_fraction {
        16
    } else {
        8
    }
}

/// See the module doc.
///
/// # Panics
/// If `min_size_log2 >= max_size_log2` (the registry's [`check`] refuses those).
pub fn generate(n: usize, seed: u64, params: &RandomMixParams) -> Trace<AllocOp> {
    AllocTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let (lo, hi) = (params.min_size_log2, params.max_size_log2);
        let alloc = |b: &mut AllocTraceBuilder, rng: &mut TraceRng| {
            let size = octave_log_uniform(rng, lo, hi);
            let align = draw_align(rng, params);
            b.alloc(size, align);
        };
        for _ in 0..n {
            alloc(b, rng);
        }
        b.start_body();
        let mix = SteadyMix::new(n, params.realloc_fraction, params.size_slack);
        if n > 0 {
            for _ in 0..params.ops {
                match mix.op(rng.unit_f64(), b.live_count()) {
                    MixOp::Other => {
                        let h = b.random_live(rng);
                        b.realloc(h, octave_log_uniform(rng, lo, hi));
                    }
                    MixOp::Remove => {
                        let h = b.random_live(rng);
                        b.free(h);
                    }
                    MixOp::Add => alloc(b, rng),
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_sizes_and_alignments_are_as_stated() {
        let params = RandomMixParams::default();
        let t = generate(1_000, 4, &params);
        let stats = t.validate().unwrap();
        assert_eq!(stats.peak_live, 1_000);
        assert!(stats.max_size < 1024);
        assert_eq!(stats.max_align, 64);
        let ops = params.ops as f64;
        let share = |count: u64| count as f64 / ops;
        assert!((share(stats.reallocs) - 0.2).abs() < 0.01, "{stats:?}");
        assert!((share(stats.allocs) - 0.4).abs() < 0.01, "{stats:?}");
        assert!((share(stats.frees) - 0.4).abs() < 0.01, "{stats:?}");
        let aligns: Vec<u32> = t
            .setup
            .iter()
            .chain(&t.body)
            .filter_map(|op| match *op {
                AllocOp::Alloc { align, .. } => Some(align),
                _ => None,
            })
            .collect();
        let at64 = aligns.iter().filter(|&&a| a == 64).count() as f64 / aligns.len() as f64;
        assert!((at64 - 0.02).abs() < 0.005, "{at64}");
    }

    #[test]
    fn empty_size_range_is_refused() {
        let params = RandomMixParams {
            min_size_log2: 8,
            max_size_log2: 8,
            ..RandomMixParams::default()
        };
        assert!(check(10, &params).unwrap_err().contains("min_size_log2"));
    }
}
