//! `kv-sheet`: the article's character sheet (6 keys of mixed types) on `n` entities; the body
//! reads and occasionally rewrites random fields of random entities.

use crate::data_component::DataOp;
use crate::data_component::builder::{KvTraceBuilder, SHEET, random_value, sheet_keys};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with the article's 6-key character sheet; body of 90% Get / 10% Set of random
    /// fields
    pub struct KvSheetParams for "kv-sheet" {
        /// Ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
        /// Percent of the body's ops that are `Set` (the rest are `Get`).
        pub set_percent: u64 = 10, in 0..=100,
    }
}

/// Setup: `n` × (Spawn, the 6 sheet fields). Body: `ops` ops on uniformly random entities and
/// fields: `Set` of a new value of the field's type with probability `set_percent`, else `Get`.
pub fn generate(n: usize, seed: u64, params: &KvSheetParams) -> Trace<DataOp> {
    let keys = sheet_keys();
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.spawn_sheet(&keys, rng);
        }
        b.start_body();
        for _ in 0..params.ops {
            let e = rng.index(n) as u32;
            let field = rng.index(SHEET.len());
            if rng.below(100) < params.set_percent {
                b.push(DataOp::Set(
                    e,
                    keys[field],
                    random_value(SHEET[field].1, rng),
                ));
            } else {
                b.push(DataOp::Get(e, keys[field]));
            }
        }
    })
}
