//! `comp-simulate`: every entity has a point mass; the body is `simulate` passes, the
//! article's in-order update loop ("traverses memory in-order which gives us good cache
//! performance").

use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, populate};
use crate::generate::iteration_passes;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities, each with a point mass; body of Simulate passes (about 2M instance updates)
    pub struct CompSimulateParams for "comp-simulate" {
        /// Instance updates the passes add up to: `clamp(ceil(updates / n), 1, max_passes)`
        /// passes.
        pub updates: u64 = 2_000_000, in 1..=1u64 << 32,
        /// Most passes.
        pub max_passes: usize = 64, in 1..=4096,
    }
}

/// Setup: `populate(n, 1)`. Body: the passes.
pub fn generate(n: usize, seed: u64, params: &CompSimulateParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, 1.0, rng);
        b.start_body();
        for _ in 0..iteration_passes(n, params.updates, params.max_passes) {
            b.push(ComponentOp::Simulate);
        }
    })
}
