//! `sp-3d`: the 3D case: `n` uniform points at about 16 per group of 8 cells, queries at the
//! design radius (the article's 2^n = 8 cells).

use crate::generate::MAX_OPS;
use crate::spatial::SpatialOp;
use crate::spatial::builder::Uniform;
use crate::trace::Trace;

crate::generate::workload! {
    /// n uniform 3D points, ~16 per 2x2x2 cells of 2r; body: 1K radius-r queries at uniform points
    pub struct Sp3dParams for "sp-3d" {
        /// Body queries.
        pub queries: usize = 1_000, in 1..=MAX_OPS,
        /// Expected points per group of 8 cells (sets the box size).
        pub per_group: u32 = 16, in 1..=4096,
    }
}

/// Setup: `Space`, `n` uniform inserts (three draws each). Body: `queries` queries at uniform
/// points, radius r.
pub fn generate(n: usize, seed: u64, params: &Sp3dParams) -> Trace<SpatialOp> {
    Uniform {
        name: NAME,
        dims: 3,
        per_group: params.per_group,
        queries: params.queries,
        scale: 1.0,
    }
    .record(n, seed, params)
}
