//! `remove-random`: removal in random order, so each removal touches a cold slot (and, for
//! packed designs, moves a cold last element into the hole).

use crate::generate::fraction_of;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body removes half of them in random order
    pub struct RemoveRandomParams for "remove-random" {
        /// Fraction of the `n` objects the body removes (at least one).
        pub remove_fraction: f64 = 0.5, in 0.0..=1.0,
    }
}

/// Setup: `n` `Add`s. Body: `Remove` of `round(n * remove_fraction)` (at least 1) distinct
/// live handles in uniformly random order.
pub fn generate(n: usize, seed: u64, params: &RemoveRandomParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.add();
        }
        b.start_body();
        for _ in 0..fraction_of(n, params.remove_fraction, 1) {
            b.remove_random(rng);
        }
    })
}
