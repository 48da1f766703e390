//! `idx-notify`: the article's observer system at work. `n` relations over about `n/4`
//! observed entities (sets of 1 to 7); the body is mostly "entity A has changed, notify its
//! observers" (`VisitByA`), with relations coming and going.

use crate::generate::MAX_OPS;
use crate::generate::parts::{Recorder, TracksLive};
use crate::relations::RelationOp;
use crate::relations::builder::{Layout, RelationTraceBuilder, SetSizes, build_sets};
use crate::trace::Trace;

crate::generate::workload! {
    /// n relations over n/4 observed keys (sets of 1-7, scattered); body 80% VisitByA, 10% Add, 10%
    /// Remove
    pub struct IdxNotifyParams for "idx-notify" {
        /// Body ops.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Set sizes: `"uniform-1-7"` or `"heavy-tail"` (see `SetSizes`).
        pub set_sizes: SetSizes = SetSizes::Uniform1To7, in SetSizes::ALL,
        /// Where a set's records sit: `"scattered"` (added in shuffled order) or `"clustered"`
        /// (added key by key: the ideal layout of a clustered index, for "does clustering pay").
        pub layout: Layout = Layout::Scattered, in Layout::ALL,
    }
}

/// Setup: `build_sets` (see `builder.rs`). Body: see [`notify_body`].
pub fn generate(n: usize, seed: u64, params: &IdxNotifyParams) -> Trace<RelationOp> {
    notify_body(
        NAME,
        n,
        seed,
        params,
        params.ops,
        params.set_sizes,
        params.layout,
    )
}

/// `build_sets(n, sizes, layout)` over keys `0..k`, then `ops` body ops, each one `below(10)` draw:
/// 0..=7 a `VisitByA` of a uniform key in `0..k` (one `below(k)` draw); 8 an `Add` with `a`
/// and `b` uniform in `0..k` (two draws); 9 a `Remove` of a uniformly random live record (an
/// `Add` instead when none is live). Live count stays about `n`.
pub(crate) fn notify_body(
    name: &str,
    n: usize,
    seed: u64,
    params: &impl serde::Serialize,
    ops: usize,
    sizes: SetSizes,
    layout: Layout,
) -> Trace<RelationOp> {
    RelationTraceBuilder::default().record(name, n, seed, params, |b, rng| {
        let k = u64::from(build_sets(b, n, sizes, layout, rng));
        b.start_body();
        for _ in 0..ops {
            match rng.below(10) {
                0..=7 => b.query(RelationOp::VisitByA(rng.below(k) as u32)),
                8 => {
                    let (a, o) = (rng.below(k) as u32, rng.below(k) as u32);
                    b.add(a, o);
                }
                _ if b.live_count() > 0 => b.remove_random(rng),
                _ => {
                    b.add(0, 0);
                }
            }
        }
    })
}
