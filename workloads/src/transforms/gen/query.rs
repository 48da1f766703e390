//! `xf-query`: random world reads on a settled hierarchy. Setup: a forest of `n` nodes, depth
//! ≤ 5, `EndFrame`. Body: `reads` × `GetWorld` of a uniformly random node (read-only, so the
//! body is timed repeatedly on one state).

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::XfTraceBuilder;

crate::generate::workload! {
    /// forest of depth <= 5 after EndFrame; body of random GetWorld
    pub struct XfQueryParams for "xf-query" {
        /// `GetWorld` ops in the body.
        pub reads: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfQueryParams) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.forest_frame(n, rng);
        b.start_body();
        for _ in 0..params.reads {
            let node = b.random_live(rng);
            b.get_world(node);
        }
    })
}
