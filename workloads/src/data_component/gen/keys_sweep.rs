//! `kv-keys-sweep`: `keys` float keys per entity, gets only: where linear search over the keys
//! stops beating a map and a binary search (run it at `keys` = 1, 2, 4, ..., 64).

use crate::data_component::builder::{KvTraceBuilder, random_f32};
use crate::data_component::{DataOp, path_key};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with `keys` float keys each (default 8); body of Gets of random present keys
    pub struct KvKeysSweepParams for "kv-keys-sweep" {
        /// Keys per entity (the sweep's k: 1, 2, 4, 8, 16, 32, 64).
        pub keys: usize = 8, in 1..=64,
        /// Gets in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: `n` × (Spawn, `keys` × Set of key `slot.<i>` in shuffled order). Body: `ops` Gets of
/// a uniformly random entity's uniformly random key (read-only).
pub fn generate(n: usize, seed: u64, params: &KvKeysSweepParams) -> Trace<DataOp> {
    let keys: Vec<u32> = (0..params.keys)
        .map(|i| path_key(&["slot", &i.to_string()]))
        .collect();
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let mut order = keys.clone();
        for _ in 0..n {
            let e = b.spawn();
            rng.shuffle(&mut order);
            for &k in &order {
                b.push(DataOp::Set(e, k, random_f32(rng)));
            }
        }
        b.start_body();
        for _ in 0..params.ops {
            let e = rng.index(n) as u32;
            b.push(DataOp::Get(e, keys[rng.index(keys.len())]));
        }
    })
}
