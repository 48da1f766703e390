//! `comp-simulate-sparse`: only a fraction `density` of the entities has a point mass (1, 0.5,
//! 0.1, 0.01): when does the direct index, whose arrays are as long as the entity count, stop
//! paying? Passes are counted per entity, so every density does the same number of passes.

use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, DENSITY, populate};
use crate::generate::iteration_passes;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities, a fraction `density` (default 0.1) with a point mass; body of Simulate passes
    pub struct CompSimulateSparseParams for "comp-simulate-sparse" {
        /// Fraction of the entities with a point mass.
        pub density: f64 = 0.1, in DENSITY,
        /// Entity visits the passes add up to: `clamp(ceil(visits / n), 1, max_passes)` passes.
        pub visits: u64 = 2_000_000, in 1..=1u64 << 32,
        /// Most passes.
        pub max_passes: usize = 64, in 1..=4096,
    }
}

/// Setup: `populate(n, density)`. Body: the passes.
pub fn generate(n: usize, seed: u64, params: &CompSimulateSparseParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, params.density, rng);
        b.start_body();
        for _ in 0..iteration_passes(n, params.visits, params.max_passes) {
            b.push(ComponentOp::Simulate);
        }
    })
}
