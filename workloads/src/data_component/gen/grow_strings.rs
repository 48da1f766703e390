//! `kv-grow-strings`: strings and float arrays growing by appends (each `Set` extends the
//! previous value, the same pool start with a longer length): the holes, compactions and
//! reallocations of the value buffer.

use crate::data_component::builder::{KvTraceBuilder, random_f32, random_f32s, random_str};
use crate::data_component::{DataOp, ValueSpec, path_key};
use crate::generate::parts::Recorder;
use crate::trace::Trace;

crate::generate::workload! {
    /// n entities with a string, an array and a float; body of `rounds` appends to every string and
    /// array
    pub struct KvGrowStringsParams for "kv-grow-strings" {
        /// Rounds over all entities (shuffled each round); each appends to both values.
        pub rounds: usize = 4, in 1..=64,
        /// Bytes appended to a string per round (arrays get a quarter as many floats, at least 1).
        pub grow_bytes: u32 = 8, in 1..=256,
    }
}

/// Setup: `n` × (Spawn, Set `log` to 4 bytes, `trail` to 1 float, `speed` to a float).
/// Body: `rounds` × every entity in shuffled order × (Set `log` `grow_bytes` longer, Set `trail`
/// `max(grow_bytes / 4, 1)` floats longer), each the old value plus an appended tail.
pub fn generate(n: usize, seed: u64, params: &KvGrowStringsParams) -> Trace<DataOp> {
    let (log, trail, speed) = (
        path_key(&["log"]),
        path_key(&["trail"]),
        path_key(&["speed"]),
    );
    let max_str = 4 + params.rounds as u32 * params.grow_bytes;
    let grow_floats = (params.grow_bytes / 4).max(1);
    let max_floats = 1 + params.rounds as u32 * grow_floats;
    KvTraceBuilder::default().record(NAME, n, seed, params, |b, rng| {
        let mut values = Vec::with_capacity(n);
        for _ in 0..n {
            let e = b.spawn();
            // Drawn with room for every append.
            let (ValueSpec::Str { start: s, .. }, ValueSpec::F32s { start: f, .. }) =
                (random_str(rng, max_str), random_f32s(rng, max_floats))
            else {
                unreachable!("random_str and random_f32s draw strings and arrays")
            };
            b.push(DataOp::Set(e, log, ValueSpec::Str { start: s, len: 4 }));
            b.push(DataOp::Set(e, trail, ValueSpec::F32s { start: f, len: 1 }));
            b.push(DataOp::Set(e, speed, random_f32(rng)));
            values.push((e, s, f));
        }
        b.start_body();
        for round in 1..=params.rounds as u32 {
            rng.shuffle(&mut values);
            for &(e, s, f) in &values {
                let len = 4 + round * params.grow_bytes;
                b.push(DataOp::Set(e, log, ValueSpec::Str { start: s, len }));
                let len = 1 + round * grow_floats;
                b.push(DataOp::Set(e, trail, ValueSpec::F32s { start: f, len }));
            }
        }
    })
}
