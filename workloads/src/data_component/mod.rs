//! The op vocabulary of the DataComponent family (per-entity key-value data, "Allocation
//! Adventures 1: The DataComponent"), its validation and its bytes in trace files.
//!
//! Entity handle `k` names the entity made by the trace's `k`-th [`DataOp::Spawn`]. Keys are
//! 32-bit path hashes ([`path_key`], computed by the generator). Values are [`ValueSpec`]s:
//! scalars inline, strings and float arrays as a range of a fixed pool ([`string_pool`],
//! [`float_pool`]), so ops stay `Copy` and a replay hands a design its bytes without building
//! them in the timed loop. Growing a string by appending is a `Set` of a longer range with the
//! same start (the old value is its prefix).
//!
//! Work units: one per op.
//!
//! | tag | op         | fields                         |
//! |-----|------------|--------------------------------|
//! | 0   | `Spawn`    | -                              |
//! | 1   | `Despawn`  | entity                         |
//! | 2   | `Set` bool | entity, key, 0 or 1            |
//! | 3   | `Set` f32  | entity, key, bits              |
//! | 4   | `Set` str  | entity, key, start, len        |
//! | 5   | `Set` f32s | entity, key, start, len        |
//! | 6   | `Get`      | entity, key                    |
//! | 7   | `GetOr`    | entity, default entity, key    |
//! | 8   | `Remove`   | entity, key                    |
//! | 9   | `Snapshot` | entity                         |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::payload::splitmix64;
use crate::trace::{InvalidTrace, Part};

/// An entity handle: handle `k` is the `k`-th `Spawn` of the trace.
pub type EntityHandle = u32;

/// Bytes in [`string_pool`].
pub const STRING_POOL_BYTES: usize = 1 << 16;
/// Floats in [`float_pool`].
pub const FLOAT_POOL_LEN: usize = 1 << 14;

/// The bytes strings are taken from: lowercase ASCII letters, a fixed function of the index.
pub fn string_pool() -> &'static [u8] {
    static POOL: OnceLock<Vec<u8>> = OnceLock::new();
    POOL.get_or_init(|| {
        (0..STRING_POOL_BYTES)
            .map(|i| b'a' + (splitmix64(i as u64) % 26) as u8)
            .collect()
    })
}

/// The floats arrays are taken from, as native-endian bytes: finite values in `[-1024, 1024)`,
/// a fixed function of the index.
pub fn float_pool() -> &'static [u8] {
    static POOL: OnceLock<Vec<u8>> = OnceLock::new();
    POOL.get_or_init(|| {
        (0..FLOAT_POOL_LEN)
            .flat_map(|i| {
                let x = (splitmix64(i as u64 ^ 0xF10A7) % (1 << 21)) as f32 / 1024.0 - 1024.0;
                x.to_ne_bytes()
            })
            .collect()
    })
}

/// 32-bit FNV-1a of one sub-key.
pub const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h = 0x811C_9DC5u32;
    let mut i = 0;
    while i < bytes.len() {
        h = (h ^ bytes[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// The key of a flattened path such as `["stats", "health"]`: each sub-key hashed on its own,
/// then the hashes hashed together (the article: not `"stats.health"` as one string, so a
/// `.` inside a sub-key cannot collide).
pub fn path_key(path: &[&str]) -> u32 {
    let mut h = 0x811C_9DC5u32;
    for sub in path {
        for b in fnv1a(sub.as_bytes()).to_le_bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// A value in a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueSpec {
    /// A boolean.
    Bool(bool),
    /// A float, by its bits (finite).
    F32(u32),
    /// `len` bytes of [`string_pool`] from `start`.
    Str {
        /// First byte.
        start: u32,
        /// Bytes.
        len: u32,
    },
    /// `len` floats of [`float_pool`] from float `start`.
    F32s {
        /// First float.
        start: u32,
        /// Floats.
        len: u32,
    },
}

impl ValueSpec {
    /// The bytes of a string or array (`None` for scalars, or a range outside the pool).
    #[inline]
    pub fn bytes(self) -> Option<&'static [u8]> {
        match self {
            ValueSpec::Str { start, len } => {
                string_pool().get(start as usize..start as usize + len as usize)
            }
            ValueSpec::F32s { start, len } => {
                float_pool().get(4 * start as usize..4 * (start as usize + len as usize))
            }
            ValueSpec::Bool(_) | ValueSpec::F32(_) => None,
        }
    }

    /// Bytes of a string or array, 0 for scalars.
    pub const fn byte_len(self) -> u32 {
        match self {
            ValueSpec::Str { len, .. } => len,
            ValueSpec::F32s { len, .. } => 4 * len,
            ValueSpec::Bool(_) | ValueSpec::F32(_) => 0,
        }
    }
}

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = DataOp;

/// One operation on a DataComponent store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataOp {
    /// Create an entity with no data (the next handle).
    Spawn,
    /// Destroy a live entity and its data.
    Despawn(EntityHandle),
    /// Set a key of a live entity.
    Set(EntityHandle, u32, ValueSpec),
    /// Read a key of a live entity (it may have none).
    Get(EntityHandle, u32),
    /// Read a key of a live entity, falling back to a second (default) entity's value: the
    /// per-instance override store of the entity-resources article.
    GetOr(EntityHandle, EntityHandle, u32),
    /// Remove a key of a live entity (it may have none).
    Remove(EntityHandle, u32),
    /// Copy a live entity's data (and read the copy back).
    Snapshot(EntityHandle),
}

/// Counts of a trace's body (and a few of the whole trace), computed by validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataStats {
    /// `Spawn` ops.
    pub spawns: u64,
    /// `Despawn` ops.
    pub despawns: u64,
    /// `Set` ops.
    pub sets: u64,
    /// `Get` and `GetOr` ops.
    pub gets: u64,
    /// Of them, those that find a value.
    pub gets_found: u64,
    /// `Remove` ops.
    pub removes: u64,
    /// `Remove` ops that find their key.
    pub removes_found: u64,
    /// `Snapshot` ops.
    pub snapshots: u64,
    /// Keys copied by all `Snapshot` ops.
    pub snapshot_entries: u64,
    /// Live entities after the setup.
    pub live_at_start: u64,
    /// Keys of live entities after the setup.
    pub keys_at_start: u64,
    /// Most live entities at any point.
    pub peak_live: u64,
    /// Entities spawned over the whole trace.
    pub spawned_total: u64,
    /// Most keys one entity holds at any point.
    pub max_keys_per_entity: u64,
    /// Most string and array bytes one entity holds at any point.
    pub max_value_bytes_per_entity: u64,
}

trace_stats!(DataStats: spawns, despawns, sets, gets, removes, snapshots);

crate::codec::op_tags! {
    SPAWN, DESPAWN, SET_BOOL, SET_F32, SET_STR, SET_F32S, GET, GET_OR, REMOVE, SNAPSHOT
}

/// One live entity during validation: its keys and their string/array bytes.
type Keys = HashMap<u32, u32>;

impl TraceOp for DataOp {
    const FAMILY: &'static str = "data_component";
    type Stats = DataStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<DataStats, InvalidTrace> {
        let mut entities: Vec<Option<Keys>> = Vec::new();
        let (mut live, mut keys) = (0u64, 0u64);
        let mut stats = DataStats::default();
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            if part == Part::Body {
                stats.live_at_start = live;
                stats.keys_at_start = keys;
            }
            let in_body = u64::from(part == Part::Body);
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                let check =
                    |entities: &[Option<Keys>], e: EntityHandle| match entities.get(e as usize) {
                        Some(Some(_)) => Ok(()),
                        Some(None) => Err(bad(format!("uses entity {e}, which was despawned"))),
                        None => Err(bad(format!("uses entity {e}, not spawned yet"))),
                    };
                match op {
                    DataOp::Spawn => {
                        if entities.len() >= u32::MAX as usize {
                            return Err(bad("spawns 2^32 entities".into()));
                        }
                        entities.push(Some(Keys::new()));
                        live += 1;
                        stats.peak_live = stats.peak_live.max(live);
                        stats.spawned_total += 1;
                        stats.spawns += in_body;
                    }
                    DataOp::Despawn(e) => {
                        check(&entities, e)?;
                        let held = entities[e as usize].take().expect("checked live");
                        keys -= held.len() as u64;
                        live -= 1;
                        stats.despawns += in_body;
                    }
                    DataOp::Set(e, key, value) => {
                        check(&entities, e)?;
                        if matches!(value, ValueSpec::Str { .. } | ValueSpec::F32s { .. })
                            && value.bytes().is_none()
                        {
                            return Err(bad("the value's range is outside its pool".into()));
                        }
                        if let ValueSpec::F32(bits) = value
                            && !f32::from_bits(bits).is_finite()
                        {
                            return Err(bad("floats must be finite".into()));
                        }
                        let held = entities[e as usize].as_mut().expect("checked live");
                        if held.insert(key, value.byte_len()).is_none() {
                            keys += 1;
                        }
                        stats.max_keys_per_entity =
                            stats.max_keys_per_entity.max(held.len() as u64);
                        let bytes: u64 = held.values().map(|&b| u64::from(b)).sum();
                        stats.max_value_bytes_per_entity =
                            stats.max_value_bytes_per_entity.max(bytes);
                        stats.sets += in_body;
                    }
                    DataOp::Get(e, key) => {
                        check(&entities, e)?;
                        let found = entities[e as usize]
                            .as_ref()
                            .is_some_and(|k| k.contains_key(&key));
                        stats.gets += in_body;
                        stats.gets_found += in_body * u64::from(found);
                    }
                    DataOp::GetOr(e, base, key) => {
                        check(&entities, e)?;
                        check(&entities, base)?;
                        let has = |h: EntityHandle| {
                            entities[h as usize]
                                .as_ref()
                                .is_some_and(|k| k.contains_key(&key))
                        };
                        stats.gets += in_body;
                        stats.gets_found += in_body * u64::from(has(e) || has(base));
                    }
                    DataOp::Remove(e, key) => {
                        check(&entities, e)?;
                        let held = entities[e as usize].as_mut().expect("checked live");
                        let found = held.remove(&key).is_some();
                        keys -= u64::from(found);
                        stats.removes += in_body;
                        stats.removes_found += in_body * u64::from(found);
                    }
                    DataOp::Snapshot(e) => {
                        check(&entities, e)?;
                        let held = entities[e as usize].as_ref().expect("checked live");
                        stats.snapshots += in_body;
                        stats.snapshot_entries += in_body * held.len() as u64;
                    }
                }
            }
        }
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, DataOp::Spawn)
    }

    fn is_read_only(self) -> bool {
        matches!(
            self,
            DataOp::Get(..) | DataOp::GetOr(..) | DataOp::Snapshot(_)
        )
    }

    const RENAMES_HANDLES: bool = true;

    /// An op on an entity that no longer exists is dropped (a fallback read if either entity
    /// is gone).
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            DataOp::Despawn(h) => DataOp::Despawn(rename(h)?),
            DataOp::Set(h, k, v) => DataOp::Set(rename(h)?, k, v),
            DataOp::Get(h, k) => DataOp::Get(rename(h)?, k),
            DataOp::GetOr(h, d, k) => DataOp::GetOr(rename(h)?, rename(d)?, k),
            DataOp::Remove(h, k) => DataOp::Remove(rename(h)?, k),
            DataOp::Snapshot(h) => DataOp::Snapshot(rename(h)?),
            DataOp::Spawn => self,
        })
    }

    fn touches(self) -> Option<u32> {
        match self {
            DataOp::Despawn(h)
            | DataOp::Set(h, _, _)
            | DataOp::Get(h, _)
            | DataOp::GetOr(h, _, _)
            | DataOp::Remove(h, _)
            | DataOp::Snapshot(h) => Some(h),
            DataOp::Spawn => None,
        }
    }

    fn encode(self, out: &mut Vec<u8>) {
        let (tag, fields): (u8, [Option<u32>; 4]) = match self {
            DataOp::Spawn => (tag::SPAWN, [None; 4]),
            DataOp::Despawn(e) => (tag::DESPAWN, [Some(e), None, None, None]),
            DataOp::Set(e, k, ValueSpec::Bool(b)) => {
                (tag::SET_BOOL, [Some(e), Some(k), Some(u32::from(b)), None])
            }
            DataOp::Set(e, k, ValueSpec::F32(bits)) => {
                (tag::SET_F32, [Some(e), Some(k), Some(bits), None])
            }
            DataOp::Set(e, k, ValueSpec::Str { start, len }) => {
                (tag::SET_STR, [Some(e), Some(k), Some(start), Some(len)])
            }
            DataOp::Set(e, k, ValueSpec::F32s { start, len }) => {
                (tag::SET_F32S, [Some(e), Some(k), Some(start), Some(len)])
            }
            DataOp::Get(e, k) => (tag::GET, [Some(e), Some(k), None, None]),
            DataOp::GetOr(e, b, k) => (tag::GET_OR, [Some(e), Some(b), Some(k), None]),
            DataOp::Remove(e, k) => (tag::REMOVE, [Some(e), Some(k), None, None]),
            DataOp::Snapshot(e) => (tag::SNAPSHOT, [Some(e), None, None, None]),
        };
        OpFields::write_op(out, tag, fields.into_iter().flatten());
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        Ok(Some(match tag {
            tag::SPAWN => DataOp::Spawn,
            tag::DESPAWN => DataOp::Despawn(f.u32()?),
            tag::SET_BOOL => DataOp::Set(f.u32()?, f.u32()?, ValueSpec::Bool(f.u32()? != 0)),
            tag::SET_F32 => DataOp::Set(f.u32()?, f.u32()?, ValueSpec::F32(f.u32()?)),
            tag::SET_STR => {
                let (e, k) = (f.u32()?, f.u32()?);
                DataOp::Set(
                    e,
                    k,
                    ValueSpec::Str {
                        start: f.u32()?,
                        len: f.u32()?,
                    },
                )
            }
            tag::SET_F32S => {
                let (e, k) = (f.u32()?, f.u32()?);
                DataOp::Set(
                    e,
                    k,
                    ValueSpec::F32s {
                        start: f.u32()?,
                        len: f.u32()?,
                    },
                )
            }
            tag::GET => DataOp::Get(f.u32()?, f.u32()?),
            tag::GET_OR => DataOp::GetOr(f.u32()?, f.u32()?, f.u32()?),
            tag::REMOVE => DataOp::Remove(f.u32()?, f.u32()?),
            tag::SNAPSHOT => DataOp::Snapshot(f.u32()?),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    #[test]
    fn counts_and_round_trips() {
        use DataOp::*;
        let s = ValueSpec::Str { start: 3, len: 5 };
        let t = Trace::for_test(
            vec![
                Spawn,
                Spawn,
                Set(0, 7, s),
                Set(1, 7, ValueSpec::F32(1.5f32.to_bits())),
            ],
            vec![
                Get(0, 7),
                Get(0, 8),
                GetOr(0, 1, 9),
                GetOr(0, 1, 7),
                Set(0, 8, ValueSpec::F32s { start: 0, len: 3 }),
                Snapshot(0),
                Remove(0, 7),
                Remove(0, 7),
                Set(1, 1, ValueSpec::Bool(true)),
                Despawn(1),
            ],
        );
        let st = t.validate().unwrap();
        assert_eq!((st.live_at_start, st.keys_at_start), (2, 2));
        assert_eq!((st.gets, st.gets_found), (4, 2));
        assert_eq!((st.snapshots, st.snapshot_entries), (1, 2));
        assert_eq!((st.removes, st.removes_found), (2, 1));
        assert_eq!(st.max_value_bytes_per_entity, 17);
        assert_eq!(st.work_units(), 10);
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<DataOp>(&bytes).unwrap(), t);
        assert_eq!(s.bytes().unwrap(), &string_pool()[3..8]);
    }

    #[test]
    fn rejects_bad_ops() {
        use DataOp::*;
        Trace::assert_invalid(vec![Spawn, Despawn(0)], vec![Get(0, 1)], "despawned");
        let far = ValueSpec::Str {
            start: STRING_POOL_BYTES as u32,
            len: 1,
        };
        Trace::assert_invalid(vec![Spawn], vec![Set(0, 1, far)], "pool");
        let nan = ValueSpec::F32(f32::NAN.to_bits());
        Trace::assert_invalid(vec![Spawn], vec![Set(0, 1, nan)], "finite");
    }

    #[test]
    fn path_keys_hash_sub_keys_separately() {
        assert_ne!(path_key(&["stats", "health"]), path_key(&["stats.health"]));
        assert_ne!(path_key(&["a", "bc"]), path_key(&["ab", "c"]));
        assert_eq!(
            path_key(&["stats", "health"]),
            path_key(&["stats", "health"])
        );
    }
}
