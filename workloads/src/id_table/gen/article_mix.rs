//! `article-mix`: stands for the article's quick test in which the array with holes "was 40
//! times faster than the STL solution". The article does not give its op mix; this one is
//! lookup-heavy ("lookup ... is the most common operation") with steady adds and removes:
//!
//! * each body op is a `Get` of a uniform live handle with probability `get_fraction` (0.8),
//!   otherwise a `Remove` of a uniform live handle or an `Add`, with equal probability (0.1
//!   each by default);
//! * the live count is kept in `[n - slack, n]` with `slack = max(1, round(n *
//!   size_slack))`: an `Add` drawn at `n` live becomes a `Remove`, a `Remove` drawn at the
//!   lower bound becomes an `Add`, and a `Get` drawn with nothing live becomes an `Add`.
//!
//! Setup: `n` `Add`s. Body: `ops` ops as above; peak live is `n`.

use crate::generate::parts::{Recorder, TracksLive};
use crate::generate::{MAX_OPS, MixOp, SteadyMix};
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n live objects; body of 80% Get, 10% Remove, 10% Add, live count kept near n
    pub struct ArticleMixParams for "article-mix" {
        /// Number of ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Probability that an op is a `Get`; the rest is split evenly between `Remove` and
        /// `Add`.
        pub get_fraction: f64 = 0.8, in 0.0..=1.0,
        /// How far below `n` the live count may drift, as a fraction of `n` (at least one
        /// object).
        pub size_slack: f64 = 0.1, in 0.0..=1.0,
    }
}

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &ArticleMixParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.add();
        }
        b.start_body();
        let mix = SteadyMix::new(n, params.get_fraction, params.size_slack);
        if n > 0 {
            for _ in 0..params.ops {
                match mix.op(rng.unit_f64(), b.live_count()) {
                    MixOp::Other => b.get_random(rng),
                    MixOp::Remove => {
                        b.remove_random(rng);
                    }
                    MixOp::Add => {
                        b.add();
                    }
                }
            }
        }
    })
}
