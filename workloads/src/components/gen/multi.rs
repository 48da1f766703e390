//! `comp-multi`: several point masses per entity, the article's `next_instance` exercise
//! ("To support multiple component instance per entity ..."). `comp-frame`'s frames on entities
//! of which a fraction `multi_fraction` has `extra` further instances (`AttachAnother`), kept
//! so for the entities spawned by the churn. Designs with one instance per entity are
//! unsupported here.

use super::frame::{CompFrameParams, frame_body};
use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, populate};
use crate::generate::parts::Recorder;
use crate::rng::TraceRng;
use crate::trace::Trace;

crate::generate::workload! {
    /// comp-frame on entities of which a fraction multi_fraction (0.25) has `extra` (2) more point
    /// masses (AttachAnother): several instances per entity
    pub struct CompMultiParams for "comp-multi" {
        /// Fraction of the entities with further instances.
        pub multi_fraction: f64 = 0.25, in 0.0..=1.0,
        /// Further instances of such an entity.
        pub extra: usize = 2, in 1..=64,
        /// Frames in the body.
        pub frames: usize = 10, in 1..=10_000,
        /// Fraction of the live entities written per frame (at least 1).
        pub write_fraction: f64 = 0.1, in 0.0..=1.0,
        /// Fraction of the live entities killed (and replaced) per frame.
        pub churn_fraction: f64 = 0.01, in 0.0..=1.0,
    }
}

/// Gives `h` (which has one point mass) `extra` more with probability `multi_fraction` (one
/// `unit_f64` draw, then one `next_u64` per instance).
fn maybe_more(b: &mut ComponentTraceBuilder, h: u32, p: &CompMultiParams, rng: &mut TraceRng) {
    if rng.unit_f64() < p.multi_fraction {
        for _ in 0..p.extra {
            b.attach_another(h, rng);
        }
    }
}

/// Setup: `populate(n, 1)`, then per entity in handle order `maybe_more`. Body: `comp-frame`'s
/// frames (its `frames`, `write_fraction`, `churn_fraction`), each spawned entity given an
/// `Attach` then `maybe_more`.
pub fn generate(n: usize, seed: u64, params: &CompMultiParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, 1.0, rng);
        for h in 0..n as u32 {
            maybe_more(b, h, params, rng);
        }
        b.start_body();
        let frame = CompFrameParams {
            frames: params.frames,
            write_fraction: params.write_fraction,
            churn_fraction: params.churn_fraction,
        };
        frame_body(b, n, &frame, rng, |b, h, rng| {
            b.attach(h, rng);
            maybe_more(b, h, params, rng);
        });
    })
}
