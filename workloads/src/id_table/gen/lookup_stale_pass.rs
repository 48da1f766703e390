//! `lookup-stale-pass`: the stale lookups of `lookup-stale` with every stale ID looked up once
//! per pass, each pass in a fresh random order: the shape an outside check uses (a shuffled list
//! of every dead ID), and the worst case for the cache, since the working set is every reused
//! slot of the table at every `n`.
//!
//! `lookup-stale` draws its 100K stale IDs with replacement from the `n/2` removed ones; at
//! 1M objects that touches about 95K of the 500K reused slots, a few MB that a large
//! last-level cache partly holds. Here every one of the 500K is read per pass.
//!
//! Setup: as `lookup-stale` (`n` adds, `removed` = `round(n * stale_fraction)` (at least 1)
//! random removes, `removed` new adds into the freed slots). Body: whole passes over the
//! removed handles, each a fresh permutation, as many as reach `ops` `GetStale` (at least one),
//! each expecting a miss. `n` objects are live at the start of the body; the peak is `n`.

use super::lookup_stale::{Slots, stale_passes};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects, half in reused slots of removed ones; body: whole passes of GetStale over
    /// every removed handle, each in a fresh random order
    pub struct LookupStalePassParams for "lookup-stale-pass" {
        /// Fewest `GetStale` ops in the body: as many whole passes over the removed handles as
        /// reach it (at least one).
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Fraction of the `n` first objects removed (and replaced) in the setup; at least one
        /// object is always removed.
        pub stale_fraction: f64 = 0.5, in 0.0..=1.0,
    }
}

/// See the module doc.
pub fn generate(
    n: usize,
    seed: u64,
    params: &LookupStalePassParams,
) -> Trace<crate::id_table::IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        stale_passes(b, rng, n, params.stale_fraction, Slots::Reused, params.ops);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::generators::lookup_stale::check_stale_passes;

    #[test]
    fn every_removed_handle_is_looked_up_once_per_pass_and_n_objects_stay_live() {
        for n in [2, 1_000, 65_536] {
            let t = generate(n, 5, &LookupStalePassParams::default());
            check_stale_passes(&t, n, n);
        }
    }
}
