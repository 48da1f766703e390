//! `kv-health-only`: the article's "1000 entities, each with a DataComponent that stores a
//! single health float": building them, the cost per entity in allocator calls and bytes.

use crate::data_component::builder::{KvTraceBuilder, random_f32};
use crate::data_component::{DataOp, path_key};
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// body spawns n entities and sets one float (stats.health) on each, then reads each once
    pub struct KvHealthOnlyParams for "kv-health-only" {
        /// Reads of each entity's health after the build.
        pub reads_per_entity: usize = 1, in 0..=64,
    }
}

/// Body: `n` × (Spawn, Set health), then `reads_per_entity` rounds of Get over all entities.
pub fn generate(n: usize, seed: u64, params: &KvHealthOnlyParams) -> Trace<DataOp> {
    let health = path_key(&["stats", "health"]);
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        b.start_body();
        for _ in 0..n {
            let e = b.spawn();
            b.push(DataOp::Set(e, health, random_f32(rng)));
        }
        for _ in 0..params.reads_per_entity {
            for e in 0..n as u32 {
                b.push(DataOp::Get(e, health));
            }
        }
    })
}
