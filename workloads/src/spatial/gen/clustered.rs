//! `sp-clustered`: density skew. `n` 2D points in Gaussian clusters (centres uniform in the
//! `sp-uniform` box, σ = `spread` × 2r), queries at the design radius centred on random points
//! (so they land where the points are: dense cells, long lists).

use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::spatial::SpatialOp;
use crate::spatial::builder::{DESIGN_RADIUS, SpatialTraceBuilder, box_side, normal};
use crate::trace::Trace;

crate::generate::workload! {
    /// n 2D points in Gaussian clusters of 256 (sigma = 2 cells); body: 1K radius-r queries at
    /// random points
    pub struct SpClusteredParams for "sp-clustered" {
        /// Body queries.
        pub queries: usize = 1_000, in 1..=MAX_OPS,
        /// Points per cluster.
        pub cluster_size: usize = 256, in 1..=1_000_000,
        /// Standard deviation of a cluster, in cells of 2r.
        pub spread: u32 = 2, in 1..=1000,
    }
}

/// Setup: `Space` (the `sp-uniform` box at 16 per group), `ceil(n / cluster_size)` centres
/// (two draws each), each followed by its points (two normal draws each, clamped into the
/// box). Body: `queries` queries at radius r, each at the position of a uniformly drawn point.
pub fn generate(n: usize, seed: u64, params: &SpClusteredParams) -> Trace<SpatialOp> {
    let space = SpatialTraceBuilder::new(2, box_side(n, 2, 16));
    space.record(NAME, n, seed, params, |b, rng| {
        let sigma = f64::from(params.spread) * 2.0 * f64::from(DESIGN_RADIUS);
        while b.len() < n {
            let c = b.uniform(rng);
            for _ in 0..params.cluster_size.min(n - b.len()) {
                let dx = (normal(rng) * sigma) as f32;
                let dy = (normal(rng) * sigma) as f32;
                b.insert([c[0] + dx, c[1] + dy, 0.0]);
            }
        }
        b.start_body();
        for _ in 0..params.queries {
            let at = b.position(rng.index(b.len()) as u32);
            b.query(at, DESIGN_RADIUS);
        }
    })
}
