//! `xf-persistent-movers`: the same nodes move every frame, where the dirty list's eviction
//! delay matters. Setup: a forest of `n` nodes, depth ≤ 5, `EndFrame`; `move_percent` % of the
//! nodes drawn once as the movers; 6 warm-up frames of the body's pattern. Body: `frames` ×
//! (`SetLocal` on every mover, `EndFrame`, `GetWorld` of a tenth of the movers, drawn per
//! frame). The article: evicting "if an item hasn't moved in five frames or so ... avoids
//! swapping those items which are always moving".

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{
    DEFAULT_FRAMES, WARMUP_FRAMES, XfTraceBuilder, move_frame, percent_of,
};

crate::generate::workload! {
    /// forest of depth <= 5; the same 10% of the nodes move every frame (dirty-list eviction)
    pub struct XfPersistentMoversParams for "xf-persistent-movers" {
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
        /// The movers, in percent of `n` (at least one).
        pub move_percent: f64 = 10.0, in 0.0..=100.0,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfPersistentMoversParams) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.forest_frame(n, rng);
        let movers = b.distinct_live(percent_of(n, params.move_percent), rng);
        let reads = movers.len().div_ceil(10);
        for frame in 0..WARMUP_FRAMES + params.frames {
            if frame == WARMUP_FRAMES {
                b.start_body();
            }
            let read: Vec<u32> = (0..reads)
                .map(|_| movers[rng.index(movers.len())])
                .collect();
            move_frame(b, &movers, &read, rng);
        }
    })
}
