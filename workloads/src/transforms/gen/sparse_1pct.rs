//! `xf-sparse-1pct`: few nodes move, different ones each frame. Setup: a forest of `n` nodes,
//! depth ≤ 5, `EndFrame`, then 6 warm-up frames of the body's pattern (so a dirty list starts
//! in its steady state). Body: `frames` × (`SetLocal` on `move_percent` % distinct random
//! nodes, `EndFrame`, `GetWorld` of each moved node). The article: "only a small percentage of
//! the objects are moving at any one time (maybe as little as 1 %). So looping over all objects,
//! even just to check a flag, can waste a lot of time."

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{
    DEFAULT_FRAMES, WARMUP_FRAMES, XfTraceBuilder, move_frame, percent_of,
};

crate::generate::workload! {
    /// forest of depth <= 5; 1% of the nodes move each frame, different ones every frame
    pub struct XfSparse1pctParams for "xf-sparse-1pct" {
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
        /// Nodes moved per frame, in percent of `n` (at least one).
        pub move_percent: f64 = 1.0, in 0.0..=100.0,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfSparse1pctParams) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.forest_frame(n, rng);
        let movers = percent_of(n, params.move_percent);
        for frame in 0..WARMUP_FRAMES + params.frames {
            if frame == WARMUP_FRAMES {
                b.start_body();
            }
            let moved = b.distinct_live(movers, rng);
            move_frame(b, &moved, &moved, rng);
        }
    })
}
