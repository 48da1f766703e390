//! `sp-large-radius`: `sp-uniform`'s points, queries at 10× the design radius: the article's
//! "you will have to examine 10² = 100 cells … ~1600 objects … regardless of the cell size".

use crate::generate::MAX_OPS;
use crate::spatial::SpatialOp;
use crate::spatial::builder::Uniform;
use crate::trace::Trace;

crate::generate::workload! {
    /// sp-uniform's points; body: 1K queries at 10x the design radius (the article's ~100 cells)
    pub struct SpLargeRadiusParams for "sp-large-radius" {
        /// Body queries.
        pub queries: usize = 1_000, in 1..=MAX_OPS,
        /// Expected points per group of 4 cells (sets the box size).
        pub per_group: u32 = 16, in 1..=4096,
        /// Query radius over the design radius.
        pub radius_scale: u32 = 10, in 1..=100,
    }
}

/// As `sp-uniform`, queries at `radius_scale × r`.
pub fn generate(n: usize, seed: u64, params: &SpLargeRadiusParams) -> Trace<SpatialOp> {
    Uniform {
        name: NAME,
        dims: 2,
        per_group: params.per_group,
        queries: params.queries,
        scale: params.radius_scale as f32,
    }
    .record(n, seed, params)
}
