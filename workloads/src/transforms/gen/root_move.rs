//! `xf-root-move`: only roots move. Setup: a forest of `n` nodes, depth ≤ 5 (about one node in
//! eight a root), `EndFrame`. Body: `frames` × (`SetLocal` on every root, `EndFrame`,
//! `GetWorld` of `read_percent` % random nodes). The article: "if it is just the root entity
//! that is moving ... both the immediate and the deferred update will be O(n)".

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{DEFAULT_FRAMES, XfTraceBuilder, move_frame, percent_of};

crate::generate::workload! {
    /// forest of depth <= 5; every root moves each frame (both strategies O(n))
    pub struct XfRootMoveParams for "xf-root-move" {
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
        /// Random nodes read per frame, in percent of `n` (at least one).
        pub read_percent: f64 = 1.0, in 0.0..=100.0,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfRootMoveParams) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let roots = b.forest_frame(n, rng);
        b.start_body();
        for _ in 0..params.frames {
            let reads = b.distinct_live(percent_of(n, params.read_percent), rng);
            move_frame(b, &roots, &reads, rng);
        }
    })
}
