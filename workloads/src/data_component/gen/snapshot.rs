//! `kv-snapshot`: copy every entity's data (the article's single-buffer benefit: "copies of it
//! with a simple memcpy()"), each copy read back once so the replay can check it.

use crate::data_component::DataOp;
use crate::data_component::builder::KvTraceBuilder;
use crate::data_component::builder::sheet_keys;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with the 6-key character sheet; body snapshots every entity `passes` times
    pub struct KvSnapshotParams for "kv-snapshot" {
        /// Passes over all entities.
        pub passes: usize = 1, in 1..=64,
    }
}

/// Setup: as `kv-sheet`. Body: `passes` × `Snapshot` of every entity in handle order
/// (read-only).
pub fn generate(n: usize, seed: u64, params: &KvSnapshotParams) -> Trace<DataOp> {
    let keys = sheet_keys();
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        for _ in 0..n {
            b.spawn_sheet(&keys, rng);
        }
        b.start_body();
        for _ in 0..params.passes {
            for e in 0..n as u32 {
                b.push(DataOp::Snapshot(e));
            }
        }
    })
}
