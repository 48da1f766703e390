//! `sp-uniform`: the article's sizing: `n` uniform 2D points at about 16 per group of 4 cells
//! (cell = 2r), queries at the design radius r: each should walk 4 cells and test ~16 points.

use crate::generate::MAX_OPS;
use crate::spatial::SpatialOp;
use crate::spatial::builder::Uniform;
use crate::trace::Trace;

crate::generate::workload! {
    /// n uniform 2D points, ~16 per 2x2 cells of 2r; body: 1K radius-r queries at uniform points
    pub struct SpUniformParams for "sp-uniform" {
        /// Body queries.
        pub queries: usize = 1_000, in 1..=MAX_OPS,
        /// Expected points per group of 4 cells (sets the box size).
        pub per_group: u32 = 16, in 1..=4096,
    }
}

/// Setup: `Space`, `n` uniform inserts (two draws each). Body: `queries` queries at uniform
/// points, radius r.
pub fn generate(n: usize, seed: u64, params: &SpUniformParams) -> Trace<SpatialOp> {
    Uniform {
        name: NAME,
        dims: 2,
        per_group: params.per_group,
        queries: params.queries,
        scale: 1.0,
    }
    .record(n, seed, params)
}
