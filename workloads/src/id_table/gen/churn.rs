//! `churn`: steady state of a game world, where objects die and are born all the time and the
//! population stays put. Each step removes a random live object and adds a new one, so the
//! free list is exercised with scattered slots and `n` objects stay live.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of steps removing a random object and adding one
    pub struct ChurnParams for "churn" {
        /// Number of steps; each is one `Remove` of a uniformly random live object then one
        /// `Add`, so the body has `2 * steps` ops.
        pub steps: usize = 100_000, in 1..=(MAX_OPS / 2),
    }
}

/// Setup: `n` `Add`s. Body: `steps` × (`Remove` random live, `Add`). Live count stays `n`.
pub fn generate(n: usize, seed: u64, params: &ChurnParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.add();
        }
        b.start_body();
        if n > 0 {
            for _ in 0..params.steps {
                b.remove_random(rng);
                b.add();
            }
        }
    })
}
