//! `kv-overrides`: the entity-resources article's per-instance override store: one entity holds
//! a resource's defaults (the 6-key sheet), `n` instances hold only the fields they override
//! (each field with probability `override_percent`), and every read asks the instance first,
//! then the defaults ("we always need to perform an extra query").

use crate::data_component::DataOp;
use crate::data_component::builder::{KvTraceBuilder, SHEET, random_value, sheet_keys};
use crate::generate::MAX_OPS;
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// a defaults entity plus n instances overriding each field with probability p (default 10%);
    /// body of GetOr
    pub struct KvOverridesParams for "kv-overrides" {
        /// Percent chance that an instance overrides a field (`kv-overrides-o*` sweeps it).
        pub override_percent: u64 = 10, in 0..=100,
        /// `GetOr` ops in the body.
        pub ops: usize = 100_000, in 1..=MAX_OPS,
    }
}

/// Setup: Spawn the defaults entity (handle 0) with the whole sheet, then `n` instances, each
/// field set with probability `override_percent`. Body: `ops` × `GetOr(instance, defaults,
/// field)` of uniformly random instances and fields (read-only).
pub fn generate(n: usize, seed: u64, params: &KvOverridesParams) -> Trace<DataOp> {
    let keys = sheet_keys();
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let defaults = b.spawn_sheet(&keys, rng);
        for _ in 0..n {
            let e = b.spawn();
            for (&key, (_, kind)) in keys.iter().zip(SHEET) {
                if rng.below(100) < params.override_percent {
                    b.push(DataOp::Set(e, key, random_value(kind, rng)));
                }
            }
        }
        b.start_body();
        for _ in 0..params.ops {
            let e = 1 + rng.index(n) as u32;
            b.push(DataOp::GetOr(e, defaults, keys[rng.index(keys.len())]));
        }
    })
}
