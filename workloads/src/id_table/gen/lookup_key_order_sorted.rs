//! `lookup-key-order-sorted`: `lookup-key-order` after the table sorted its objects by the same
//! key (`IdTableOp::Sort` at the end of the setup, untimed): the consumer's walk after a packed
//! design's reordering. Designs that cannot reorder run it as `lookup-key-order`.

use super::lookup_key_order::key_order_passes;
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// lookup-key-order after the table sorted its objects by that key (untimed Sort in the setup)
    pub struct LookupKeyOrderSortedParams for "lookup-key-order-sorted" {
        /// Fewest `Get` ops in the body: whole passes over the `n` objects in key order.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &LookupKeyOrderSortedParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        key_order_passes(b, n, params.ops, true);
    })
}
