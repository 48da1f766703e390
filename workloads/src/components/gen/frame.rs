//! `comp-frame`: a game frame, repeated: simulate, a tenth of the entities looked up and their
//! velocity written, 1% killed and as many spawned with a point mass, one destruction step.

use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, populate};
use crate::generate::fraction_of;
use crate::generate::parts::{Recorder, TracksLive};
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with a point mass; 10 frames of Simulate, n/10 Write, n/100 Kill + Spawn +
    /// Attach, DestroyStep
    pub struct CompFrameParams for "comp-frame" {
        /// Frames in the body.
        pub frames: usize = 10, in 1..=10_000,
        /// Fraction of the live entities written per frame (at least 1).
        pub write_fraction: f64 = 0.1, in 0.0..=1.0,
        /// Fraction of the live entities killed (and replaced) per frame.
        pub churn_fraction: f64 = 0.01, in 0.0..=1.0,
    }
}

/// Setup: `populate(n, 1)`. Body per frame: `Simulate`; `fraction_of(n, write_fraction, 1)`
/// × `Write` of a random live entity (one `index` draw, then one `next_u64` for the
/// velocity seed); `fraction_of(n, churn_fraction, 0)` × (`Kill` random live, `Spawn`,
/// `Attach`); `DestroyStep`.
pub fn generate(n: usize, seed: u64, params: &CompFrameParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, 1.0, rng);
        b.start_body();
        frame_body(b, n, params, rng, |b, h, rng| b.attach(h, rng));
    })
}

/// The body above, with `give(b, h, rng)` giving each spawned entity its point mass(es) (shared
/// with `comp-multi`).
pub(crate) fn frame_body(
    b: &mut ComponentTraceBuilder,
    n: usize,
    params: &CompFrameParams,
    rng: &mut TraceRng,
    give: impl Fn(&mut ComponentTraceBuilder, u32, &mut TraceRng),
) {
    let writes = fraction_of(n, params.write_fraction, 1);
    let churn = fraction_of(n, params.churn_fraction, 0);
    for _ in 0..params.frames {
        b.push(ComponentOp::Simulate);
        for _ in 0..writes {
            let e = b.random_live(rng);
            b.push(ComponentOp::Write(e, rng.next_u64() as u32));
        }
        for _ in 0..churn {
            let e = b.random_live(rng);
            b.kill(e);
            let h = b.spawn();
            give(b, h, rng);
        }
        b.push(ComponentOp::DestroyStep);
    }
}
