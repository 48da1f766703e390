//! `idx-build`: adding relations, the article's "small constant O(1) cost" of keeping an
//! index up to date: the body adds the `idx-notify` relations to an empty index.

use crate::generate::parts::Recorder;
use crate::relations::RelationOp;
use crate::relations::builder::{Layout, RelationTraceBuilder, SetSizes, build_sets};
use crate::trace::Trace;

crate::generate::workload! {
    /// body adds n relations over n/4 keys (sets of 1-7) in shuffled order to an empty index
    pub struct IdxBuildParams for "idx-build" {
        /// Set sizes: `"uniform-1-7"` or `"heavy-tail"` (see `SetSizes`).
        pub set_sizes: SetSizes = SetSizes::Uniform1To7, in SetSizes::ALL,
    }
}

/// No setup. Body: `build_sets(n, set_sizes, scattered)` (`n` `Add`s).
pub fn generate(n: usize, seed: u64, params: &IdxBuildParams) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.start_body();
        build_sets(b, n, params.set_sizes, Layout::Scattered, rng);
    })
}
