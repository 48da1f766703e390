//! `comp-lookup`: random lookups plus a field read (the article's `lookup(e)` then
//! `position(i)`), on entities of which a fraction `density` has a point mass: the cost of the
//! entity → instance map.

use crate::components::ComponentOp;
use crate::components::builder::{ComponentTraceBuilder, DENSITY, populate};
use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities, a fraction `density` (default 1) with a point mass; body of 100K Lookup
    /// (position read) of random live entities
    pub struct CompLookupParams for "comp-lookup" {
        /// Fraction of the entities with a point mass.
        pub density: f64 = 1.0, in DENSITY,
        /// Number of `Lookup` ops.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `populate(n, density)`. Body: `ops` × `Lookup` of a uniformly random live entity
/// (with or without a point mass; read-only).
pub fn generate(n: usize, seed: u64, params: &CompLookupParams) -> Trace<ComponentOp> {
    ComponentTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        populate(b, n, params.density, rng);
        b.start_body();
        for _ in 0..params.ops {
            let e = b.random_live(rng);
            b.push(ComponentOp::Lookup(e));
        }
    })
}
