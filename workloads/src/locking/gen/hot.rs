//! `lock-hot`: the post's player example, every job also adjusts one unit (unit 0, "the
//! player"): the worst contention a lock can see.

use crate::generate::parts::TraceParts;
use crate::locking::LockingOp;
use crate::locking::builder::{Shape, frames, world};
use crate::rng::TraceRng;
use crate::trace::Trace;

/// Registry name.
pub const NAME: &str = "lock-hot";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str = "as lock-none, and every job also pushes unit 0 (the player)";

crate::workload_params! {
    /// Parameters of `lock-hot`.
    pub struct LockHotParams {
        /// Frames of the body.
        pub frames: u32 = 4, in 1..=64,
        /// Script work between calls (iterations of its loop).
        pub compute: u32 = 64, in 0..=100_000,
        /// Raycast radius.
        pub radius: u32 = 8, in 1..=1024,
        /// Jobs per batch of the API-level lock designs.
        pub batch: u32 = 16, in 1..=1024,
        /// Mean units a raycast finds.
        pub hits: f64 = 8.0, in 1.0..=1000.0,
    }
}

/// Setup: the world. Body: `frames` frames; every job pushes unit 0 too.
pub fn generate(n: usize, seed: u64, params: &LockHotParams) -> Trace<LockingOp> {
    let mut rng = TraceRng::new(seed);
    let mut parts = TraceParts::default();
    let shape = Shape {
        frames: params.frames,
        compute: params.compute,
        radius: params.radius,
        batch: params.batch,
        hits: params.hits,
    };
    world(&mut rng, n, &shape, &mut parts);
    frames(&mut rng, n, &shape, &mut parts, |_, _| 0);
    parts.finish(NAME, n, seed, params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_pushes_the_player() {
        let t = generate(1000, 3, &LockHotParams::default());
        let s = t.validate().unwrap();
        assert_eq!(
            (s.jobs, s.foreign_jobs, s.hottest_other),
            (4000, 4000, 4000)
        );
    }
}
