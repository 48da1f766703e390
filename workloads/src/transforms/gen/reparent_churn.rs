//! `xf-reparent-churn`: structure changes (the swaps' correctness under links). Setup: a forest
//! of `n` nodes, depth ≤ 5, `EndFrame`. Body: `frames` × (`churn_percent` % of `n` ops: half
//! `SetParent` of a random node under a random node outside its subtree (a root one time in
//! ten), a quarter `Destroy` of a random node (its children become roots) then `Create` under a
//! random node (so `n` stays), a quarter `SetLocal`; `EndFrame`; `GetWorld` of 1 % random
//! nodes).

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{DEFAULT_FRAMES, XfTraceBuilder, percent_of};

crate::generate::workload! {
    /// forest of depth <= 5; each frame 1% of n reparent / destroy+create / set_local ops
    pub struct XfReparentChurnParams for "xf-reparent-churn" {
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
        /// Structural ops per frame, in percent of `n` (at least one).
        pub churn_percent: f64 = 1.0, in 0.0..=100.0,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfReparentChurnParams) -> Trace<TransformOp> {
    XfTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.forest_frame(n, rng);
        b.start_body();
        for _ in 0..params.frames {
            for _ in 0..percent_of(n, params.churn_percent) {
                let node = b.random_live(rng);
                match rng.below(4) {
                    0 | 1 => {
                        let parent = if rng.below(10) == 0 {
                            None
                        } else {
                            Some(b.random_live(rng)).filter(|&p| !b.would_cycle(node, p))
                        };
                        b.set_parent(node, parent);
                    }
                    2 if b.live_count() > 1 => {
                        b.destroy(node);
                        let parent = b.random_live(rng);
                        b.create(Some(parent), rng);
                    }
                    _ => b.set_local(node, rng),
                }
            }
            b.end_frame();
            for node in b.distinct_live(percent_of(n, 1.0), rng) {
                b.get_world(node);
            }
        }
    })
}
