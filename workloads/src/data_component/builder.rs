//! The trace builder of the DataComponent family (`kv-*` workloads) and what its generators
//! share: the article's character sheet, value drawing from the pools, key paths.

use crate::data_component::{
    DataOp, EntityHandle, FLOAT_POOL_LEN, STRING_POOL_BYTES, ValueSpec, path_key,
};
use crate::generate::parts::TraceParts;
use crate::rng::TraceRng;

/// The type of a sheet field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    F32,
    /// A string of 6 to 16 bytes.
    Str,
    /// An array of 3 floats.
    F32s,
}

/// The article's character sheet, flattened: `name`, `stats.health`, `stats.mana`,
/// `status_effects.drunk`, `status_effects.delirious`, plus a `position` array so every value
/// type appears: 6 keys of mixed types.
pub(crate) const SHEET: [(&[&str], Kind); 6] = [
    (&["name"], Kind::Str),
    (&["stats", "health"], Kind::F32),
    (&["stats", "mana"], Kind::F32),
    (&["status_effects", "drunk"], Kind::Bool),
    (&["status_effects", "delirious"], Kind::Bool),
    (&["position"], Kind::F32s),
];

/// The sheet's keys, in [`SHEET`] order.
pub(crate) fn sheet_keys() -> [u32; 6] {
    SHEET.map(|(path, _)| path_key(path))
}

/// A finite float in `[-1000, 1000)` with few significant bits.
pub(crate) fn random_f32(rng: &mut TraceRng) -> ValueSpec {
    ValueSpec::F32(((rng.below(2_000_000) as f32) / 1000.0 - 1000.0).to_bits())
}

/// A string of `len` pool bytes from a random start.
pub(crate) fn random_str(rng: &mut TraceRng, len: u32) -> ValueSpec {
    let start = rng.below((STRING_POOL_BYTES - len as usize) as u64) as u32;
    ValueSpec::Str { start, len }
}

/// An array of `len` pool floats from a random start.
pub(crate) fn random_f32s(rng: &mut TraceRng, len: u32) -> ValueSpec {
    let start = rng.below((FLOAT_POOL_LEN - len as usize) as u64) as u32;
    ValueSpec::F32s { start, len }
}

/// A random value of `kind`.
pub(crate) fn random_value(kind: Kind, rng: &mut TraceRng) -> ValueSpec {
    match kind {
        Kind::Bool => ValueSpec::Bool(rng.below(2) == 1),
        Kind::F32 => random_f32(rng),
        Kind::Str => {
            let len = 6 + rng.below(11) as u32;
            random_str(rng, len)
        }
        Kind::F32s => random_f32s(rng, 3),
    }
}

/// Appends ops and counts spawns.
#[derive(Debug, Default)]
pub(crate) struct KvTraceBuilder {
    parts: TraceParts<DataOp>,
    spawned: u32,
}

crate::generate::parts::recorder!(KvTraceBuilder: DataOp);

impl KvTraceBuilder {
    pub(crate) fn spawn(&mut self) -> EntityHandle {
        self.parts.push(DataOp::Spawn);
        self.spawned += 1;
        self.spawned - 1
    }

    pub(crate) fn push(&mut self, op: DataOp) {
        self.parts.push(op);
    }

    /// Spawns an entity with the whole [`SHEET`].
    pub(crate) fn spawn_sheet(&mut self, keys: &[u32; 6], rng: &mut TraceRng) -> EntityHandle {
        let e = self.spawn();
        for (&key, (_, kind)) in keys.iter().zip(SHEET) {
            self.push(DataOp::Set(e, key, random_value(kind, rng)));
        }
        e
    }
}
