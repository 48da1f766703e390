//! `fill`: insertion from empty. The body adds `n` objects to an empty table, so it times
//! `add` including the table's growth (and, for fixed-capacity designs, shows whether `n` fits).

use crate::generate::parts::Recorder;
use crate::id_table::IdTableOp;
use crate::id_table::builder::TraceBuilder;
use crate::trace::Trace;

crate::generate::workload! {
    /// body adds n objects to an empty table
    pub struct FillParams for "fill" {
        // None: the body is exactly `n` adds.
    }
}

/// Setup: nothing. Body: `n` `Add`s. The seed is unused (the trace has no choices).
pub fn generate(n: usize, seed: u64, params: &FillParams) -> Trace<IdTableOp> {
    TraceBuilder::default().record(NAME, n, seed, params, |b, _| {
        b.start_body();
        for _ in 0..n {
            b.add();
        }
    })
}
