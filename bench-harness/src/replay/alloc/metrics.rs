//! A block allocator's space metrics ([`AllocMetrics`]): utilisation and fragmentation sampled
//! after every op of an untimed replay, and the first-failure fill.

use super::*;

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
