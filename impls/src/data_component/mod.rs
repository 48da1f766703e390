//! The DataComponent family: small per-entity key-value data ("Allocation Adventures 1: The
//! DataComponent", BitSquid, 2015).
//!
//! Every entity holds a few values of the article's restricted JSON (booleans, `f32`s, strings
//! and arrays of `f32`) under 32-bit keys, the hashes of flattened paths such as
//! `stats.health` (each sub-key hashed, then combined, in the trace generator). The article
//! walks from a tree of string maps to one buffer per entity whose header grows up and whose
//! values grow down; each step is a design here, and they trade allocator calls, bytes per key
//! and the cache lines a lookup touches against each other.
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/data_component_model.rs`)
//! * An entity's data is a map from [`Key`] to value: [`set`](DataStore::set) inserts or
//!   replaces (the type may change), [`get`](DataStore::get) returns the value as it was set,
//!   byte for byte (strings and arrays round-trip exactly), [`remove`](DataStore::remove)
//!   deletes.
//! * Floats are finite and strings are UTF-8 in every trace (JSON can hold nothing else: the
//!   `serde_json` peer refuses other values with [`KvError::Unrepresentable`]); designs store
//!   the bytes they are given.
//! * Entity handles are `u32` indices; [`destroy_entity`](DataStore::destroy_entity) releases
//!   one and [`create_entity`](DataStore::create_entity) hands released handles out again, most
//!   recent first.
//! * [`snapshot`](DataStore::snapshot) writes a relocatable copy of one entity's data (a
//!   `memcpy` of its buffer for the single-buffer designs, a serialisation for the others) that
//!   [`visit_snapshot`](DataStore::visit_snapshot) decodes without the store.
//! * User errors are [`KvError`]s and change nothing; no operation panics on user input.
//!
//! Most designs are one [`Component`] per entity inside the shared [`Entities`] wrapper (the
//! article's DataComponent is per entity); adding one is a file implementing [`Component`] (or
//! [`LocalComponent`], for data that needs no store-wide state and no entity in its errors) and
//! one line in [`registry::for_each_kv_design`].

pub mod buddy_arena;
pub mod co_allocated;
pub mod co_header;
pub mod entities;
pub mod flat_aos;
pub mod flat_soa;
pub mod heap_value;
pub mod keyed_map;
pub mod map_hashed;
pub mod meet_in_middle;
pub mod model;
pub mod peers;
pub mod registry;
pub mod serial;
pub mod single_buffer;
pub mod slim_values;
pub mod tree_strings;
pub mod two_buffers;
pub mod two_regions;
pub mod value_buffer;

pub use entities::{Component, Entities, LocalComponent};
pub use registry::{KvDesignVisitor, find_kv_design, for_each_kv_design, kv_designs};

use crate::DesignMeta;
use thiserror::Error;

/// An entity handle: an index, reused after [`DataStore::destroy_entity`].
pub type Entity = u32;

/// A key: the 32-bit hash of a flattened path (sub-keys hashed separately, then combined).
pub type Key = u32;

/// The type of a value, as stored in the designs' type columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ValueType {
    /// `true` or `false`.
    Bool = 0,
    /// A finite `f32`.
    F32 = 1,
    /// A UTF-8 string.
    Str = 2,
    /// An array of `f32`.
    F32s = 3,
}

impl ValueType {
    /// The type stored as byte `b`, if any.
    pub const fn from_u8(b: u8) -> Option<Self> {
        match b {
            0 => Some(ValueType::Bool),
            1 => Some(ValueType::F32),
            2 => Some(ValueType::Str),
            3 => Some(ValueType::F32s),
            _ => None,
        }
    }
}

/// A value as the store is given it and hands it back: scalars by value, strings and arrays
/// borrowed. Arrays are their `f32`s' native-endian bytes (a length that is a multiple of 4),
/// so designs that keep values in byte buffers hand out a view without copying.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    /// A boolean.
    Bool(bool),
    /// A float.
    F32(f32),
    /// A string's UTF-8 bytes.
    Str(&'a [u8]),
    /// An array of floats, as native-endian bytes.
    F32s(&'a [u8]),
}

impl<'a> ValueRef<'a> {
    /// The value's type.
    pub const fn value_type(&self) -> ValueType {
        match self {
            ValueRef::Bool(_) => ValueType::Bool,
            ValueRef::F32(_) => ValueType::F32,
            ValueRef::Str(_) => ValueType::Str,
            ValueRef::F32s(_) => ValueType::F32s,
        }
    }

    /// The bytes of a string or array value, `None` for scalars.
    pub const fn bytes(&self) -> Option<&'a [u8]> {
        match *self {
            ValueRef::Str(b) | ValueRef::F32s(b) => Some(b),
            ValueRef::Bool(_) | ValueRef::F32(_) => None,
        }
    }

    /// The 32 bits a scalar is stored as (`0`/`1`, or the float's bits); `0` otherwise.
    pub const fn scalar_bits(&self) -> u32 {
        match *self {
            ValueRef::Bool(b) => b as u32,
            ValueRef::F32(f) => f.to_bits(),
            ValueRef::Str(_) | ValueRef::F32s(_) => 0,
        }
    }

    /// The value of type `ty` rebuilt from its stored scalar bits or bytes.
    pub fn from_parts(ty: ValueType, bits: u32, bytes: &'a [u8]) -> Self {
        match ty {
            ValueType::Bool => ValueRef::Bool(bits != 0),
            ValueType::F32 => ValueRef::F32(f32::from_bits(bits)),
            ValueType::Str => ValueRef::Str(bytes),
            ValueType::F32s => ValueRef::F32s(bytes),
        }
    }

    /// An order-independent digest of the value: its type and exact bits or bytes (FNV-1a
    /// over 8-byte words). Replays sum it over every answer.
    pub fn content_hash(&self) -> u64 {
        const PRIME: u64 = 0x0000_0100_0000_01B3;
        let mut h = 0xCBF2_9CE4_8422_2325u64 ^ (self.value_type() as u64);
        match self.bytes() {
            None => h = (h ^ u64::from(self.scalar_bits())).wrapping_mul(PRIME),
            Some(bytes) => {
                let mut words = bytes.chunks_exact(8);
                for w in &mut words {
                    let word = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                    h = (h ^ word).wrapping_mul(PRIME);
                }
                for &b in words.remainder() {
                    h = (h ^ u64::from(b)).wrapping_mul(PRIME);
                }
                h = (h ^ bytes.len() as u64).wrapping_mul(PRIME);
            }
        }
        h ^ (h >> 29)
    }
}

/// A failure a user of a store can cause. The store is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KvError {
    /// The handle names no live entity.
    #[error("no live entity {entity}")]
    NoSuchEntity {
        /// The handle passed in.
        entity: Entity,
    },
    /// No further entity handle fits.
    #[error("index space exhausted: {what} would exceed {limit}")]
    IndexSpaceExhausted {
        /// What ran out.
        what: &'static str,
        /// The largest count the design can address.
        limit: u64,
    },
    /// The entity's data would outgrow the design's addressable buffer (16-bit offsets: 64 KiB).
    #[error("entity {entity}'s data would need {bytes} bytes; the design addresses {limit}")]
    TooLarge {
        /// The entity.
        entity: Entity,
        /// Bytes its buffer would need.
        bytes: u64,
        /// The most the design can address.
        limit: u64,
    },
    /// A peer cannot represent the value (JSON has no NaN or infinity and only UTF-8 strings).
    #[error("the design cannot represent this value: {reason}")]
    Unrepresentable {
        /// Why.
        reason: &'static str,
    },
}

/// A snapshot that does not decode: a bug in the design that wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("malformed snapshot: {0}")]
pub struct SnapshotError(pub String);

/// Where a design comes from (the kind every family shares).
pub use crate::kind::DesignKind as KvDesignKind;

/// What the registry and the reports know of a design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KvDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// The most bytes one entity's data may take, for designs with narrow offsets.
    pub bytes_per_entity_cap: Option<usize>,
}

/// Per-entity key-value data. See the [module docs](self) for the shared semantics.
///
/// # Contract (checked for every design by `impls/tests/integration/data_component_model.rs`)
/// * `get(e, k)` returns the value of the last successful `set(e, k, _)` since the entity's
///   creation, unless a `remove(e, k)` came after it.
/// * Every method taking an entity returns [`KvError::NoSuchEntity`] for a handle that is not
///   live, and then changes nothing.
/// * `visit_snapshot` of a snapshot yields exactly the entity's `(key, value)` pairs at the
///   time of the snapshot, once each, in a design-defined order.
pub trait DataStore: Sized {
    /// Name, kind and limits of this design.
    const INFO: KvDesignInfo;

    /// An empty store: no entities, no heap memory.
    fn new() -> Self;

    /// Creates an entity with no data and returns its handle (a released handle if any).
    ///
    /// # Errors
    /// [`KvError::IndexSpaceExhausted`].
    fn create_entity(&mut self) -> Result<Entity, KvError>;

    /// Removes the entity and its data, releasing its handle.
    ///
    /// # Errors
    /// [`KvError::NoSuchEntity`].
    fn destroy_entity(&mut self, entity: Entity) -> Result<(), KvError>;

    /// Sets `key` of the entity to `value` (inserting or replacing).
    ///
    /// # Errors
    /// [`KvError::NoSuchEntity`]; [`KvError::TooLarge`] past the design's per-entity cap;
    /// [`KvError::Unrepresentable`] for a peer that cannot hold the value.
    fn set(&mut self, entity: Entity, key: Key, value: ValueRef<'_>) -> Result<(), KvError>;

    /// Calls `f` with the value of `key` (`None` if the entity has none) and returns its
    /// result. A closure rather than a returned reference so a design that does not keep the
    /// value's bytes (the `serde_json` peer's `f64` arrays) can hand out a converted copy.
    ///
    /// # Errors
    /// [`KvError::NoSuchEntity`] (then `f` is not called).
    fn get<R>(
        &self,
        entity: Entity,
        key: Key,
        f: impl FnOnce(Option<ValueRef<'_>>) -> R,
    ) -> Result<R, KvError>;

    /// Removes `key`; `Ok(false)` if the entity had none.
    ///
    /// # Errors
    /// [`KvError::NoSuchEntity`].
    fn remove(&mut self, entity: Entity, key: Key) -> Result<bool, KvError>;

    /// Replaces `out`'s contents with a relocatable copy of the entity's data.
    ///
    /// # Errors
    /// [`KvError::NoSuchEntity`].
    fn snapshot(&self, entity: Entity, out: &mut Vec<u8>) -> Result<(), KvError>;

    /// Calls `f` once per `(key, value)` of a snapshot this design wrote.
    ///
    /// # Errors
    /// The bytes are not a snapshot of this design.
    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError>;

    /// Live entities.
    fn entity_count(&self) -> usize;

    /// Keys over all live entities.
    fn key_count(&self) -> usize;

    /// Heap bytes the store holds now, by its own accounting (reserved capacity of every
    /// buffer, including entity bookkeeping). Excludes `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// Calls to the global allocator since [`new`](DataStore::new), by the store's own
    /// accounting: every allocation, reallocation and free of a heap buffer counts one
    /// (B-tree nodes are estimated; see [`heap_value::btree_nodes`]).
    fn allocator_calls(&self) -> u64;

    /// Checks the design's invariants (regions never overlap, every value inside its buffer).
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// The handle of a new entity when `count` handles have been handed out: `count` itself, the
/// family's rule (handles are `u32` indices, `u32::MAX` never one).
///
/// # Errors
/// [`KvError::IndexSpaceExhausted`] once every handle is used.
pub(crate) fn fresh_entity(count: usize) -> Result<Entity, KvError> {
    Entity::try_from(count)
        .ok()
        .filter(|&e| e < u32::MAX)
        .ok_or(KvError::IndexSpaceExhausted {
            what: "entities",
            limit: u64::from(u32::MAX),
        })
}

/// The 8 lowercase hex digits naming `key`, on the stack: how the designs keyed by strings
/// (`tree_strings`, the `serde_json` peer) spell a key, with no allocation for a lookup.
#[inline]
pub(crate) fn key_digits(key: Key) -> [u8; 8] {
    let mut name = [0u8; 8];
    for (i, b) in name.iter_mut().enumerate() {
        *b = b"0123456789abcdef"[((key >> (28 - 4 * i)) & 0xF) as usize];
    }
    name
}

/// The name of `key` as a `&str` over [`key_digits`].
#[inline]
pub(crate) fn key_str(digits: &[u8; 8]) -> &str {
    std::str::from_utf8(digits).expect("hex digits")
}

/// The key `name` spells (the inverse of [`key_digits`]).
pub(crate) fn key_of(name: &str) -> Option<Key> {
    Key::from_str_radix(name, 16).ok()
}

/// Counts one allocator call if a buffer's capacity changed from `before` to `after`.
#[inline]
pub(crate) fn count_capacity_change(before: usize, after: usize, calls: &mut u64) {
    if before != after {
        *calls += 1;
    }
}

/// Counts the calls of moving a buffer of `old_capacity` into a new allocation (growth by
/// copying, not `realloc`): the new buffer's allocation, and the old one's free if it had one.
#[inline]
pub(crate) fn count_moved_buffer(old_capacity: usize, calls: &mut u64) {
    *calls += 1 + u64::from(old_capacity > 0);
}

/// Pushes onto `vec`, counting a growth of its buffer as one allocator call.
#[inline]
pub(crate) fn push_counted<T>(vec: &mut Vec<T>, value: T, calls: &mut u64) {
    let before = vec.capacity();
    vec.push(value);
    count_capacity_change(before, vec.capacity(), calls);
}
