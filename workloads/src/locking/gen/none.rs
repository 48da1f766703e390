//! `lock-none`: no job pushes another unit: what synchronisation costs when nothing is shared
//! but the API itself (the lock-free ceiling's workload).

use crate::generate::parts::{Recorder, TraceParts};
use crate::locking::builder::{Shape, frames, world};
use crate::locking::{LockingOp, NO_OTHER};
use crate::trace::Trace;

crate::generate::workload! {
    /// n units; body: 4 frames of every unit's script (read, raycast ~8 hits, push itself; 64 work
    /// iterations between calls), no job writes another unit
    pub struct LockNoneParams for "lock-none" {
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

impl LockNoneParams {
    pub(crate) fn shape(&self) -> Shape {
        Shape {
            frames: self.frames,
            compute: self.compute,
            radius: self.radius,
            batch: self.batch,
            hits: self.hits,
        }
    }
}

/// Setup: the world. Body: `frames` frames of jobs that push only themselves.
pub fn generate(n: usize, seed: u64, params: &LockNoneParams) -> Trace<LockingOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = params.shape();
        world(rng, n, &shape, parts);
        frames(rng, n, &shape, parts, |_, _| NO_OTHER);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn every_unit_runs_once_per_frame_alone() {
        let s = default_stats(generate, 1000, 3);
        assert_eq!(
            (s.units, s.jobs, s.frames, s.foreign_jobs),
            (1000, 4000, 4, 0)
        );
    }
}
