//! `frame`: a game frame as the article's systems see it: the system updates all its objects
//! (mutable iteration), other systems look objects up by ID, and a few objects despawn and as
//! many spawn. The mix weighs iteration against lookups the way a real frame does, which is
//! where the article's packed array ("more items are touched internally than are referenced
//! externally") should win or lose.

use crate::generate::parts::Recorder;
use crate::generate::{MAX_OPS, fraction_of};
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of frames: IterateMut, uniform Gets, a few despawns and spawns
    pub struct FrameParams for "frame" {
        /// Number of frames in the body.
        pub frames: usize = 10, in 1..=100_000,
        /// `Get`s per frame as a fraction of `n` (at least 1, at most `max_lookups`).
        pub lookup_fraction: f64 = 0.1, in 0.0..=100.0,
        /// Upper bound on `Get`s per frame.
        pub max_lookups: usize = 10_000, in 1..=MAX_OPS,
        /// Despawns (and as many spawns) per frame as a fraction of `n` (at least 1, at most
        /// `n`).
        pub despawn_fraction: f64 = 0.01, in 0.0..=1.0,
    }
}

/// Per-frame `(lookups, despawns)` for live size `n` (see [`generate`]).
pub fn per_frame(n: usize, params: &FrameParams) -> (usize, usize) {
    let lookups =
        ((n as f64 * params.lookup_fraction).round() as usize).clamp(1, params.max_lookups.max(1));
    (lookups, fraction_of(n, params.despawn_fraction, 1))
}

/// Checks that the whole body stays within [`MAX_OPS`] (each field is bounded on its own, but
/// their product is not).
///
/// # Errors
/// A one-line message giving the body size.
pub fn check(n: usize, params: &FrameParams) -> Result<(), String> {
    let (lookups, despawns) = per_frame(n, params);
    let per = 1 + lookups + 2 * despawns;
    match per.checked_mul(params.frames) {
        Some(total) if total <= MAX_OPS => Ok(()),
        _ => Err(format!(
            "{} frames of {per} ops exceed the {MAX_OPS}-op body limit",
            params.frames
        )),
    }
}

/// Setup: `n` `Add`s. Body: `frames` × (`IterateMut`; `lookups` `Get`s of uniform live
/// handles; `despawns` `Remove`s of uniform live handles; `despawns` `Add`s), with
/// `lookups = clamp(round(n * lookup_fraction), 1, max_lookups)` and
/// `despawns = clamp(round(n * despawn_fraction), 1, n)`. Live count is `n` at frame starts.
///
/// # Panics
/// If the trace would need more than 2^32 adds; [`check`] (which the registry applies)
/// rejects such parameters first.
pub fn generate(n: usize, seed: u64, params: &FrameParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.add();
        }
        b.start_body();
        let lookups = ((n as f64 * params.lookup_fraction).round() as usize)
            .clamp(1, params.max_lookups.max(1));
        let despawns = fraction_of(n, params.despawn_fraction, 1);
        if n > 0 {
            for _ in 0..params.frames {
                b.push(IdTableOp::IterateMut);
                for _ in 0..lookups {
                    b.get_random(rng);
                }
                for _ in 0..despawns {
                    b.remove_random(rng);
                }
                for _ in 0..despawns {
                    b.add();
                }
            }
        }
    })
}
