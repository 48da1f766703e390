//! `lookup-uniform`: the article's "most common operation", ID to object, with every live
//! object equally likely. At large `n` almost every lookup misses the cache, so this shows the
//! cost of each design's indirections.

use super::{MAX_OPS, TraceBuilder};
use crate::op::Op;
use crate::rng::TraceRng;
use crate::trace::Trace;

/// Registry name.
pub const NAME: &str = "lookup-uniform";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str = "n live objects; body of uniform random Gets";

crate::workload_params! {
    /// Parameters of `lookup-uniform`.
    pub struct LookupUniformParams {
        /// Number of `Get` ops in the body (fixed, not scaled with `n`, so per-op times at
        /// different `n` are averaged over the same number of lookups).
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `n` `Add`s. Body: `ops` `Get`s of uniformly random live handles (read-only).
pub fn generate(n: usize, seed: u64, params: &LookupUniformParams) -> Trace<Op> {
    let mut rng = TraceRng::new(seed);
    let mut b = TraceBuilder::new();
    for _ in 0..n {
        b.add();
    }
    b.start_body();
    if n > 0 {
        for _ in 0..params.ops {
            b.get_random(&mut rng);
        }
    }
    b.finish(NAME, n, seed, params)
}
