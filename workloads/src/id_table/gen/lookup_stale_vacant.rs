//! `lookup-stale-vacant`: stale lookups whose slots are free, not reused: the other half of
//! the article's "detect that the object is no longer alive". A design that checks a version
//! (or a free marker) reads the vacant slot and misses; one that keeps a separate index reads
//! that instead. Every stale ID is looked up once per pass, each pass in a fresh random order,
//! so the working set is every vacant slot at every `n`.
//!
//! Setup: `n` adds, then `removed` = `round(n * stale_fraction)` (at least 1) random removes
//! and nothing added back. Body: whole passes over the removed handles, each a fresh
//! permutation, as many as reach `ops` `GetStale` (at least one), each expecting a miss.
//! `n - removed` objects are live at the start of the body; the peak is `n`.

use super::lookup_stale::{Slots, stale_passes};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n objects added, half removed and their slots left free; body: whole passes of GetStale over
    /// every removed handle, each in a fresh random order
    pub struct LookupStaleVacantParams for "lookup-stale-vacant" {
        /// Fewest `GetStale` ops in the body: as many whole passes over the removed handles as
        /// reach it (at least one).
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Fraction of the `n` objects removed in the setup (their slots stay vacant); at least
        /// one object is always removed.
        pub stale_fraction: f64 = 0.5, in 0.0..=1.0,
    }
}

/// See the module doc.
pub fn generate(
    n: usize,
    seed: u64,
    params: &LookupStaleVacantParams,
) -> Trace<crate::id_table::IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        stale_passes(b, rng, n, params.stale_fraction, Slots::Vacant, params.ops);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::fraction_of;
    use crate::id_table::generators::lookup_stale::check_stale_passes;

    #[test]
    fn every_removed_handle_is_looked_up_once_per_pass_and_its_slot_stays_vacant() {
        for n in [2, 1_000, 65_536] {
            let t = generate(n, 5, &LookupStaleVacantParams::default());
            check_stale_passes(&t, n, n - fraction_of(n, 0.5, 1));
        }
    }
}
