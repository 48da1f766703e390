//! A block allocator's space metrics ([`AllocMetrics`]): utilisation and fragmentation sampled
//! after every op of an untimed replay, and the first-failure fill; and how the report shows
//! them ([`MetricFields::section`]).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

use super::*;

metric_fields! {
    /// Space metrics of a block allocator on one trace, sampled after every op of an untimed
    /// replay on the arena the timed replays use.
    pub struct AllocMetrics;
    /// The arena-use section: fractions from 0 to 1, ranked by use at peak (highest first), with
    /// the three use figures drawn together per design.
    section("Allocator space use", ranked by utilization_at_peak);

    /// Arena size of the replay (from the trace's peak; the same for every design).
    arena_bytes: u64 => trace("arena", Bytes)
        .describe(
            "arena size of the replay, from the trace's peak; the same for every design.",
        );

    /// Requested live bytes over reserved bytes at the moment of peak requested bytes.
    utilization_at_peak: f64 => per_design("use at peak", Number)
        .higher()
        .describe(
            "requested live bytes over reserved bytes at the moment of peak requested \
             bytes.",
        )
        .chart(arena_use());

    /// Mean over ops of requested live bytes over reserved bytes (ops with nothing live are
    /// skipped).
    utilization_mean: f64 => per_design("mean use", Number)
        .higher()
        .describe(
            "requested live bytes over reserved bytes, averaged over the ops (ops with \
             nothing live skipped).",
        )
        .chart(arena_use());

    /// Internal fragmentation at peak: `(reserved - requested) / reserved`.
    internal_fragmentation_at_peak: f64 => per_design("internal frag.", Number)
        .describe("at peak, (reserved − requested) ÷ reserved: space lost inside blocks.");

    /// External fragmentation at peak: `1 - largest free block / free bytes` (the bytes on the
    /// design's free lists); `None` where the design cannot tell both.
    external_fragmentation_at_peak: Option<f64> => per_design("external frag.", Number)
        .describe(
            "at peak, 1 − largest free block ÷ free bytes: free space split into pieces; \
             empty where the design cannot tell its largest free block.",
        );

    /// Largest free block over the arena size at peak; `None` where unknown.
    largest_free_over_arena_at_peak: Option<f64> => per_design("largest free ÷ arena", Number)
        .higher()
        .describe(
            "the largest free block over the arena size, at peak; empty where the design \
             cannot tell it.",
        );

    /// Allocator metadata (in the arena and on the host heap) in bits per live block, at peak.
    metadata_bits_per_block: f64 => per_design("metadata bits / block", Number)
        .describe(
            "allocator metadata (in the arena and on the host heap) in bits per live \
             block, at peak.",
        );

    /// Separately, on an arena of `arena_bytes`: a seeded stream of allocations from the
    /// trace's size mix until the first failure; requested live bytes then over the arena.
    live_fraction_at_first_failure: Option<f64> => per_design("live at first failure", Number)
        .higher()
        .describe(
            "separately, on an arena of the same size: a seeded stream of allocations from the \
             trace's size mix until one fails; requested live bytes then over the arena.",
        )
        .chart(arena_use());
}

/// The chart that draws the three use figures together per design.
fn arena_use() -> MetricChart {
    MetricChart::Grouped {
        title: "arena use".into(),
    }
}

/// The design's space figures after one op, as [`measure`] samples them.
#[derive(Debug, Clone, Copy, Default)]
struct Sample {
    requested: usize,
    reserved: usize,
    largest_free: Option<usize>,
    free: Option<usize>,
    metadata: usize,
    live: usize,
}

/// The [`AllocMetrics`] of design `A` on `trace`: an untimed replay of setup and body on the
/// arena the timed replays use, sampling after every op; then, on a fresh arena of the same
/// size, the first-failure fill (see [`AllocMetrics::live_fraction_at_first_failure`] and
/// [`first_failure_fill`]).
///
/// "At peak" is the first moment the requested live bytes reach their maximum. External
/// fragmentation there is `1 - largest free block / free bytes`, both as the design reports
/// them ([`BlockAllocator::largest_free_block`], [`BlockAllocator::free_bytes`]).
///
/// # Errors
/// The design refused an op of the trace (its index is within its part).
pub fn measure<A: BlockAllocator + 'static>(
    trace: &Trace<AllocOp>,
) -> Result<AllocMetrics, ReplayError> {
    let mut state = AllocReplay::<A>::for_trace(trace);
    let arena = state.arena_bytes;
    let mut peak = Sample::default();
    let (mut utilization_sum, mut utilization_ops) = (0.0f64, 0u64);
    for part in [&trace.setup, &trace.body] {
        for (index, op) in part.iter().enumerate() {
            state
                .replay(std::slice::from_ref(op))
                .map_err(|e| ReplayError { index, ..e })?;
            let a = state.allocator().expect("the replay built it");
            let sample = Sample {
                requested: a.bytes_requested_live(),
                reserved: a.bytes_reserved(),
                largest_free: None,
                free: None,
                metadata: 0,
                live: state.live,
            };
            if sample.live > 0 && sample.reserved > 0 {
                utilization_sum += sample.requested as f64 / sample.reserved as f64;
                utilization_ops += 1;
            }
            if sample.requested > peak.requested {
                peak = Sample {
                    largest_free: a.largest_free_block(),
                    free: a.free_bytes(),
                    metadata: a.metadata_bytes(),
                    ..sample
                };
            }
        }
    }
    let ratio = |num: usize, den: usize| {
        if den == 0 {
            0.0
        } else {
            num as f64 / den as f64
        }
    };

    Ok(AllocMetrics {
        arena_bytes: arena as u64,
        utilization_at_peak: ratio(peak.requested, peak.reserved),
        utilization_mean: if utilization_ops == 0 {
            0.0
        } else {
            utilization_sum / utilization_ops as f64
        },
        internal_fragmentation_at_peak: ratio(
            peak.reserved.saturating_sub(peak.requested),
            peak.reserved,
        ),
        external_fragmentation_at_peak: peak
            .largest_free
            .zip(peak.free)
            .map(|(largest, free)| 1.0 - ratio(largest, free)),
        largest_free_over_arena_at_peak: peak.largest_free.map(|l| ratio(l, arena)),
        metadata_bits_per_block: ratio(8 * peak.metadata, peak.live),
        live_fraction_at_first_failure: first_failure_fill::<A>(trace, arena),
    })
}

/// Requested live bytes over the arena when a fresh `A` over `arena` bytes first refuses an
/// allocation, the allocations drawn uniformly (with replacement) from the `(size, align)` of
/// every `Alloc` of `trace`, with no frees, from a [`TraceRng`] seeded with the trace's seed.
/// `None` if the trace has no `Alloc`, `A` refuses the arena, or the arena never fills within
/// `arena / 16 + 1` allocations (impossible for a design that reserves at least 16 bytes).
pub fn first_failure_fill<A: BlockAllocator>(trace: &Trace<AllocOp>, arena: usize) -> Option<f64> {
    let mix: Vec<(usize, usize)> = trace
        .setup
        .iter()
        .chain(&trace.body)
        .filter_map(|op| match *op {
            AllocOp::Alloc { size, align } => Some((size as usize, align as usize)),
            _ => None,
        })
        .collect();
    if mix.is_empty() {
        return None;
    }
    let mut a = A::with_arena(arena, MIN_BLOCK).ok()?;
    let mut rng = TraceRng::new(trace.header.seed);
    let mut requested = 0usize;
    for _ in 0..=arena / MIN_BLOCK {
        let (size, align) = mix[rng.index(mix.len())];
        match a.allocate(size, align) {
            Ok(_) => requested += size,
            Err(_) => return Some(requested as f64 / arena as f64),
        }
    }
    None
}
