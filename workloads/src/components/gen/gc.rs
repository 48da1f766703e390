//! `comp-gc`: the article's garbage-collection claim. Per frame a fraction `kill_fraction` of
//! the entities is killed (and as many spawned with a point mass, so the population is steady),
//! then one destruction step; 100 frames. With `kill_fraction = 0` the body is only the GC
//! steps ("just four passes of the loop"); the family metrics record the garbage left (dead
//! instances not yet collected) after every frame.

use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, populate};
use crate::generate::fraction_of;
use crate::generate::parts::{Recorder, TracksLive};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with a point mass; 100 frames of (kill f·n and respawn, one DestroyStep), f =
    /// kill_fraction (default 0.01)
    pub struct CompGcParams for "comp-gc" {
        /// Fraction of the entities killed (and replaced) per frame (`comp-gc-kill*` sweeps
        /// it).
        pub kill_fraction: f64 = 0.01, in 0.0..=0.5,
        /// Frames in the body.
        pub frames: usize = 100, in 1..=10_000,
    }
}

/// Setup: `populate(n, 1)`. Body per frame: `fraction_of(n, kill_fraction, 0)` × `Kill` of a
/// random live entity, then as many (`Spawn`, `Attach`), then `DestroyStep`.
pub fn generate(n: usize, seed: u64, params: &CompGcParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, 1.0, rng);
        b.start_body();
        let kills = fraction_of(n, params.kill_fraction, 0);
        for _ in 0..params.frames {
            for _ in 0..kills {
                let e = b.random_live(rng);
                b.kill(e);
            }
            for _ in 0..kills {
                let h = b.spawn();
                b.attach(h, rng);
            }
            b.push(ComponentOp::DestroyStep);
        }
    })
}
