//! `lock-mixed`: gameplay as the post describes it, "moving a unit a little bit, casting a
//! physics ray, adjusting the position of another unit": every job reads, raycasts and pushes
//! itself, and 5 % also push a random other unit.

use crate::generate::parts::{Recorder, TraceParts};
use crate::locking::builder::{Shape, frames, world};
use crate::locking::{LockingOp, NO_OTHER};
use crate::trace::Trace;

crate::generate::workload! {
    /// as lock-none, and 5% of jobs also push a random other unit
    pub struct LockMixedParams for "lock-mixed" {
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
        /// Fraction of jobs that push another unit.
        pub foreign: f64 = 0.05, in 0.0..=1.0,
    }
}

impl LockMixedParams {
    fn shape(&self) -> Shape {
        Shape {
            frames: self.frames,
            compute: self.compute,
            radius: self.radius,
            batch: self.batch,
            hits: self.hits,
        }
    }
}

/// Setup: the world. Body: `frames` frames; a job pushes a random other unit with
/// probability `foreign`.
pub fn generate(n: usize, seed: u64, params: &LockMixedParams) -> Trace<LockingOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = params.shape();
        world(rng, n, &shape, parts);
        let foreign = params.foreign;
        frames(rng, n, &shape, parts, |rng, unit| {
            if n > 1 && rng.unit_f64() < foreign {
                // Any unit but the job's own.
                let pick = rng.below(n as u64 - 1) as u32;
                if pick >= unit { pick + 1 } else { pick }
            } else {
                NO_OTHER
            }
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn one_job_in_twenty_pushes_another_unit() {
        let s = default_stats(generate, 10_000, 3);
        assert_eq!((s.units, s.jobs, s.frames), (10_000, 40_000, 4));
        let share = s.foreign_jobs as f64 / s.jobs as f64;
        assert!((0.04..0.06).contains(&share), "{share}");
        assert!(s.hottest_other < 10, "{}", s.hottest_other);
    }
}
