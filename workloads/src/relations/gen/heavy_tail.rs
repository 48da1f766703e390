//! `idx-heavy-tail`: `idx-notify` over heavy-tailed sets: 1% of the observed keys hold 100 to
//! 1000 records (about 58% of all records), so visits are dominated by long lists scattered
//! over the array, and removals in those sets are where search-based removal hurts.

use super::notify::notify_body;
use crate::generate::MAX_OPS;
use crate::relations::RelationOp;
use crate::relations::builder::{Layout, SetSizes};
use crate::trace::Trace;

crate::generate::workload! {
    /// as idx-notify with heavy-tailed sets (1% of keys hold 100-1000 records)
    pub struct IdxHeavyTailParams for "idx-heavy-tail" {
        /// Body ops.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// As [`idx_notify`](super::notify) with `SetSizes::HeavyTail`.
pub fn generate(n: usize, seed: u64, params: &IdxHeavyTailParams) -> Trace<RelationOp> {
    notify_body(
        NAME,
        n,
        seed,
        params,
        params.ops,
        SetSizes::HeavyTail,
        Layout::Scattered,
    )
}
