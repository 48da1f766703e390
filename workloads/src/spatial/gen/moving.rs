//! `sp-moving`: a simulation's frame loop. `sp-uniform`'s points; each frame moves 1% of them
//! (a random step of up to r per axis) and then runs a batch of queries at the design radius:
//! the per-frame neighbour search of games and physics, with index updates between batches.

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::spatial::SpatialOp;
use crate::spatial::builder::{DESIGN_RADIUS, SpatialTraceBuilder, box_side};
use crate::trace::Trace;

crate::generate::workload! {
    /// sp-uniform's points; body: 10 frames of (move 1% by up to r per axis, 100 radius-r queries)
    pub struct SpMovingParams for "sp-moving" {
        /// Frames.
        pub frames: usize = 10, in 1..=10_000,
        /// Queries per frame.
        pub queries_per_frame: usize = 100, in 0..=MAX_OPS,
        /// Points moved per frame, in percent of `n` (at least one).
        pub move_percent: u32 = 1, in 0..=100,
    }
}

/// Setup: as `sp-uniform`. Body per frame: `max(1, n · move_percent / 100)` moves of uniformly
/// drawn points (one `index` draw, then per axis one `unit_f64` draw: a step uniform in
/// `[-r, r)`, clamped into the box), then `queries_per_frame` queries at uniform points.
pub fn generate(n: usize, seed: u64, params: &SpMovingParams) -> Trace<SpatialOp> {
    let space = SpatialTraceBuilder::new(2, box_side(n, 2, 16));
    space.record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            let p = b.uniform(rng);
            b.insert(p);
        }
        b.start_body();
        let moves = if params.move_percent == 0 {
            0
        } else {
            (n * params.move_percent as usize / 100).max(1)
        };
        let r = f64::from(DESIGN_RADIUS);
        for _ in 0..params.frames {
            for _ in 0..moves {
                let h = rng.index(n) as u32;
                let mut p = b.position(h);
                for v in p.iter_mut().take(2) {
                    *v += ((rng.unit_f64() * 2.0 - 1.0) * r) as f32;
                }
                b.move_to(h, p);
            }
            for _ in 0..params.queries_per_frame {
                let c = b.uniform(rng);
                b.query(c, DESIGN_RADIUS);
            }
        }
    })
}
