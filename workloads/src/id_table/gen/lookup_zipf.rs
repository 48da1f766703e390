//! `lookup-zipf`: lookups with a hot set, as in a game where a few objects (the player, the
//! camera target) are referenced far more often than the rest. The hot objects are chosen by
//! a seeded permutation, so they are scattered through the table rather than the first created.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::builder::TraceBuilder;
use crate::id_table::{Handle, IdTableOp};
use crate::rng::Zipf;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of Zipf-distributed Gets (a scattered hot set)
    pub struct LookupZipfParams for "lookup-zipf" {
        /// Number of `Get` ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Zipf exponent `s`: the object of popularity rank `k` is looked up with weight
        /// `1 / (k + 1)^s`. 0 is uniform; 1.0 (the default) sends about 7% of lookups to the
        /// hottest object at n = 1M.
        pub skew: f64 = 1.0, in 0.0..=8.0,
    }
}

/// Setup: `n` `Add`s. Body: `ops` `Get`s whose handles are Zipf ranks mapped through a random
/// permutation of the live handles (read-only).
pub fn generate(n: usize, seed: u64, params: &LookupZipfParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let mut by_rank: Vec<Handle> = (0..n).map(|_| b.add()).collect();
        b.start_body();
        if n > 0 {
            rng.shuffle(&mut by_rank);
            let zipf = Zipf::new(n, params.skew);
            for _ in 0..params.ops {
                let handle = by_rank[zipf.sample(rng)];
                b.push(IdTableOp::Get(handle));
            }
        }
    })
}
