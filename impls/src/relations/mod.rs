//! The one-to-many index family: records `{a, b, payload}` in a bulk array with permanent
//! record IDs, and indices that find every record with a given `a` (or `b`).
//!
//! From "Data Structures Part 2: Indices" (Our Machinery, Niklas Gray): an observer system
//! keeps one big array of observations `{observed, observer}`; "entity A has changed" visits
//! every record with `a == A`, "entity B has been deleted" removes every record with `a == B`
//! or `b == B`. The article's design is a hash from key to the first record plus `prev`/`next`
//! `u32` links forming one cyclic list per key ([`intrusive`]); the others are the brute-force
//! scan, arrays of arrays, the `unordered_multimap` / `std::multimap` analogues, our map of
//! small inline sets and peers.
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/relations_model.rs`)
//! * [`add`](RelationIndex::add) stores a record and returns its [`RecordId`]. IDs are
//!   permanent while the record lives and are handed out by the family's rule (the shared
//!   [`arena::RecordArena`]): a freed ID is reused before a new one, most recently freed
//!   first; [`remove_entity`](RelationIndex::remove_entity) frees its records in ascending ID
//!   order. So every design hands out the same IDs for the same op sequence.
//! * Visits yield `(id, record)` for every live record with the key, in a design-defined order.
//! * [`first_by_a`](RelationIndex::first_by_a) returns some live record with that `a` (which
//!   one is design-defined), `None` when there is none.
//! * Designs with one index ([`RelationDesignInfo::indexes_b`] false) answer the `b` side by
//!   scanning every record; the harness marks traces that use it unsupported on them.
//! * Accessing a key may reorganise storage (the clustered designs), so visits take `&mut self`.
//!
//! # Which one to choose
//! * **Visits and adds by `a` only** (`idx-build`, `idx-churn` at 100,000 records): the
//!   article's single index with the tuned open-addressing first map ([`intrusive::IntrusiveOpen`]);
//!   at 1,000 records the brute-force [`scan::Scan`] needs no index at all.
//! * **Queries from both sides** ("entity B has been deleted", `idx-entity-delete`): two
//!   indices, [`intrusive_2idx::Intrusive2IdxOpen`]; the article's
//!   [`intrusive_2idx::Intrusive2Idx`] differs from it only in std's SipHash map, so the pair's
//!   ratio is what that map costs.
//! * **Many tiny sets** (`idx-tags`): arrays of arrays or a map of small vectors; the intrusive
//!   cycles read one record per link, the arrays one slice. The tuned answer is
//!   [`small_sets::OpenSmallSets`]: a set of up to four IDs sits in its key's bucket, so
//!   visiting it is one probe and a read of the IDs beside the key, no pointer followed.
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing
//! [`RelationIndex`], then add one line to [`registry::for_each_relation_design`].
//! [`model::ModelIndex`] is the reference every design is compared with (not registered).

pub mod arena;
pub mod btree_pairs;
pub mod clustered;
pub mod first_map;
pub mod intrusive;
pub mod intrusive_2idx;
pub mod keyed_sets;
pub mod model;
pub mod multimap_scan_remove;
pub mod peers;
pub mod registry;
pub mod scan;
pub mod small_sets;
pub mod vec_of_vecs;

pub use registry::{
    RelationDesignVisitor, find_relation_design, for_each_relation_design, relation_designs,
};

use crate::DesignMeta;
use thiserror::Error;

/// A record's permanent ID: its index in the bulk array.
pub type RecordId = u32;

/// A key: an entity (the article's `entity_t *`, here a `u32`).
pub type Key = u32;

/// One relation: `a` is observed by `b` (the article's `observed`, `observer`), plus a
/// payload carried along.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Record {
    /// The observed entity: the key of the first index.
    pub a: Key,
    /// The observer: the key of the second index.
    pub b: Key,
    /// Data carried with the relation.
    pub payload: u32,
}

/// A failure a user of an index can cause. The index is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RelationError {
    /// The ID names no live record.
    #[error("no live record {id}")]
    NoSuchRecord {
        /// The ID passed in.
        id: RecordId,
    },
    /// Every `u32` record ID is in use.
    #[error("record IDs exhausted: more than {limit} records")]
    IdSpaceExhausted {
        /// The most records the design can address.
        limit: u64,
    },
}

/// Where a design comes from (the kind every family shares).
pub use crate::kind::DesignKind as RelationDesignKind;

/// What the registry and the reports know of a relation-index design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelationDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// Whether the design keeps an index on `b`; without it `visit_by_b` and the `b` side of
    /// `remove_entity` scan every record, and traces using them are unsupported.
    pub indexes_b: bool,
    /// For designs whose every query scans all records: the most live records a benchmark
    /// replays on them (above it the trace is unsupported, never a multi-minute replay).
    pub max_live_records: Option<usize>,
    /// For designs whose removal searches the key's whole set (quadratic when one key holds
    /// everything): the largest set a benchmark replays them on when the trace removes.
    pub max_set_size: Option<usize>,
}

/// A one-to-many index over a bulk array of records. See the [module docs](self).
///
/// # Contract (checked for every design by `impls/tests/integration/relations_model.rs`)
/// * The live records are those added and not removed (by `remove` or `remove_entity`).
/// * Every method naming a record ID that is not live returns
///   [`RelationError::NoSuchRecord`] and changes nothing.
pub trait RelationIndex: Sized {
    /// Name, kind and capabilities of this design.
    const INFO: RelationDesignInfo;

    /// An empty index.
    fn new() -> Self;

    /// Stores `record` and returns its ID (a freed ID if any, most recently freed first).
    ///
    /// # Errors
    /// [`RelationError::IdSpaceExhausted`].
    fn add(&mut self, record: Record) -> Result<RecordId, RelationError>;

    /// Removes the record and returns it.
    ///
    /// # Errors
    /// [`RelationError::NoSuchRecord`].
    fn remove(&mut self, id: RecordId) -> Result<Record, RelationError>;

    /// Calls `f(id, record)` for every live record with `record.a == a`.
    fn visit_by_a(&mut self, a: Key, f: impl FnMut(RecordId, Record));

    /// Calls `f(id, record)` for every live record with `record.b == b`.
    fn visit_by_b(&mut self, b: Key, f: impl FnMut(RecordId, Record));

    /// Some live record with `record.a == a`, `None` if there is none.
    fn first_by_a(&mut self, a: Key) -> Option<(RecordId, Record)>;

    /// Number of live records with `record.a == a`.
    fn count_by_a(&mut self, a: Key) -> usize;

    /// Removes every live record with `a == entity` or `b == entity` ("entity B has been
    /// deleted"), calling `f(id, record)` on each, and frees their IDs in ascending order.
    ///
    /// The default collects the IDs through [`visit_by_a`](Self::visit_by_a) and
    /// [`visit_by_b`](Self::visit_by_b) (a record with `a == b == entity` once), then
    /// [`remove`](Self::remove)s them in ascending order: two index walks on designs with both
    /// indices, a walk plus a scan on the others. A design that does better overrides it.
    fn remove_entity(&mut self, entity: Key, mut f: impl FnMut(RecordId, Record)) {
        let mut ids = Vec::new();
        self.visit_by_a(entity, |id, _| ids.push(id));
        self.visit_by_b(entity, |id, r| {
            if r.a != entity {
                ids.push(id);
            }
        });
        ids.sort_unstable();
        for id in ids {
            let record = self.remove(id).expect("remove_entity removes live records");
            f(id, record);
        }
    }

    /// Number of live records.
    fn len(&self) -> usize;

    /// Whether no record is live.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes the index holds now, by its own accounting (capacity times element size of
    /// every buffer, hash tables by their buckets). Excludes `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// Checks the design's internal invariants (every live record in its key's list once,
    /// lists consistent, `first` a member, free list threading). Called by the property test
    /// after every operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}
