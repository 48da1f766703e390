//! `lock-hot`: the post's player example, every job also adjusts one unit (unit 0, "the
//! player"): the worst contention a lock can see.

use crate::generate::parts::{Recorder, TraceParts};
use crate::locking::LockingOp;
use crate::locking::builder::{frames, world};
use crate::trace::Trace;

/// Registry name.
pub const NAME: &str = "lock-hot";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str = "as lock-none, and every job also pushes unit 0 (the player)";

/// Parameters of `lock-hot`: those of `lock-none` (the player is always unit 0).
pub type LockHotParams = super::none::LockNoneParams;

/// Setup: the world. Body: `frames` frames; every job pushes unit 0 too.
pub fn generate(n: usize, seed: u64, params: &LockHotParams) -> Trace<LockingOp> {
    TraceParts::default().record(NAME, n, seed, params, |parts, rng| {
        let shape = params.shape();
        world(rng, n, &shape, parts);
        frames(rng, n, &shape, parts, |_, _| 0);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::default_stats;

    #[test]
    fn every_job_pushes_the_player() {
        let s = default_stats(generate, 1000, 3);
        assert_eq!(
            (s.jobs, s.foreign_jobs, s.hottest_other),
            (4000, 4000, 4000)
        );
    }
}
