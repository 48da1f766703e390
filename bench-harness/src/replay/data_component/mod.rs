//! The DataComponent family's replay driver: applies [`DataOp`] traces to any [`DataStore`]
//! and digests what it observed.
//!
//! Generic and monomorphised per design. Logical handles map to the store's entities through a
//! flat `Vec` reserved before timing; string and array values are slices of the trace pools
//! ([`ValueSpec::bytes`]), so setting one copies no more than the design does. Every answer is
//! digested by its content ([`ValueRef::content_hash`], exact bytes), so a design that loses a
//! byte of a string or an array fails verification. A `Snapshot` copies the entity's data and
//! walks the copy with the design's own decoder ([`DataStore::visit_snapshot`]): the digest
//! holds the copy's decoded content, not its bytes (which differ by design), and the timed cost
//! is the copy plus one read of it.

mod claims;
mod direct_maps;
mod metrics;
mod reference;

use impls::data_component::model::ModelStore;
use impls::data_component::{
    DataStore, Entity, KvDesignInfo, KvDesignVisitor, KvError, ValueRef, for_each_kv_design,
};
use serde::{Deserialize, Serialize};
use workloads::data_component::{DataStats, EntityHandle, ValueSpec};
use workloads::{DataOp, Trace, TraceStats};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes, records_of,
};
use super::glue::{
    family_marker, forward_design, forward_replay, hosts_design, merge_fields, visit_registry,
};
use super::metric_fields::ratio;
use super::resolved::{HandleIds, HandleMap};
pub use metrics::DataComponentMetrics;
use results::DesignRecord;

family_marker! {
    /// The DataComponent stores: [`DataOp`] traces replayed on [`DataStore`]s, checked against
    /// [`ModelStore`].
    DataComponentFamily
}

impl Family for DataComponentFamily {
    type Op = DataOp;
    type Digest = DataComponentDigest;
    type Model = DataComponentReplay<ModelStore>;
    type Metrics = DataComponentMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "DataComponent stores";
    /// The article's starting point, the naive tree of string maps.
    const REFERENCE_DESIGN: &'static str = "tree_strings";
    /// Lookups: the article's SoA argument is about what a search loads into the cache. One
    /// workload keeps the quick cache pass (valgrind) within its share; `--workload
    /// kv-keys-sweep` runs the other lookup body.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["kv-sheet"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["kv-health-only", "kv-grow-strings"];
    const LATENCY_WORKLOADS: &'static [&'static str] =
        &["kv-sheet", "kv-grow-strings", "kv-snapshot"];
    /// 64K entities with the 6-key sheet: tens of MB for the boxed designs, past the
    /// last-level cache, with a setup well under a second per design.
    const SWEEP_MAX_N: usize = 1 << 16;

    /// At 1K and 100K the default matrix would take well over the family's 2-minute share
    /// (setups of 100K entities rebuilt per timed batch for the write bodies): the default
    /// stops at 10K and 100K is in the full matrix. Quick is 1K alone: with both sizes the
    /// family's quick benchmarks would run over its 30-second share.
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 10_000],
        full: &[1_000, 100_000, 1_000_000],
        passes_quick: &[1_000],
        passes: &[1_000, 100_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::data_component::kv_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, DataComponentFamily, for_each_kv_design, KvDesignVisitor,
            [S: DataStore + 'static] => DataComponentReplay<S>
        );
        visitor.visit_loop::<reference::DirectSerdeJson>();
        visitor.visit_loop::<reference::DirectLiteMap>();
        visitor.visit_loop::<reference::DirectStdHashMap>();
        visitor.visit_loop::<reference::DirectMapHashed>();
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`DataComponentReplay`] of it.
    DataComponentFamily,
    [D: DataStore] => DataComponentReplay<D>,
    design_record(&D::INFO)
);

/// The results record of a DataComponent design (its "ID" is the `u32` entity handle).
pub fn design_record(info: &KvDesignInfo) -> DesignRecord {
    DesignRecord {
        id_bytes: size_of::<Entity>(),
        limits: Some(match info.bytes_per_entity_cap {
            Some(cap) => format!("at most {cap} bytes of data per entity"),
            None => "no cap on data per entity".to_string(),
        }),
        ..crate::replay::design_record_of(DataComponentFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// Everything a replay observed, as counts and wrapping sums of content hashes: independent of
/// how a design lays its data out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataComponentDigest {
    /// `Get`/`GetOr` ops that found a value.
    pub gets_found: u64,
    /// Sum over found values of [`mix_entry`] of (handle, key, content).
    pub get_sum: u64,
    /// `Remove` ops that found their key.
    pub removes_found: u64,
    /// Entries decoded from all snapshots.
    pub snapshot_entries: u64,
    /// Sum over decoded snapshot entries of [`mix_entry`].
    pub snapshot_sum: u64,
    /// Keys the store holds after the replayed ops (read once after the loop): write-only
    /// bodies observe nothing else.
    pub keys_held: u64,
}

impl ReplayDigest<DataOp> for DataComponentDigest {
    fn merge(&mut self, later: &DataComponentDigest) {
        merge_fields!(
            self,
            later,
            add: [gets_found, removes_found, snapshot_entries],
            wrapping: [get_sum, snapshot_sum],
            later: [keys_held],
        );
    }

    /// One per op, as `DataStats::work_units` counts them.
    fn work_units(&self, ops: &[DataOp]) -> u64 {
        ops.len() as u64
    }
}

/// Mixes an answer into a digest sum: the value's content hash, the key and the logical
/// handle, so the same value under another key or entity gives another term.
#[inline(always)]
pub fn mix_entry(handle: EntityHandle, key: u32, value: &ValueRef<'_>) -> u64 {
    value.content_hash()
        ^ u64::from(key).wrapping_mul(0xD6E8_FEB8_6659_FD93)
        ^ u64::from(handle).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The value a trace's [`ValueSpec`] names.
#[inline(always)]
fn value_of(spec: ValueSpec) -> ValueRef<'static> {
    match spec {
        ValueSpec::Bool(b) => ValueRef::Bool(b),
        ValueSpec::F32(bits) => ValueRef::F32(f32::from_bits(bits)),
        ValueSpec::Str { .. } => ValueRef::Str(spec.bytes().unwrap_or(&[])),
        ValueSpec::F32s { .. } => ValueRef::F32s(spec.bytes().unwrap_or(&[])),
    }
}

/// A store plus the handle map and the snapshot buffer: the state a trace is replayed on.
pub struct DataComponentReplay<S: DataStore> {
    /// The design under test.
    pub store: S,
    /// `entities[k]` is the store's entity for handle `k`.
    entities: HandleMap<Entity>,
    /// Reused by every `Snapshot` (reserved before timing).
    snapshot: Vec<u8>,
}

impl<S: DataStore> DataComponentReplay<S> {
    /// An empty store with room for `trace`'s handles.
    pub fn for_trace(trace: &Trace<DataOp>) -> Self {
        Self {
            store: S::new(),
            entities: HandleMap::with_capacity(trace.handle_count()),
            snapshot: Vec::with_capacity(1 << 16),
        }
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// A uniform run of `Get`s of a timed run ([`HandleIds::uniform_ids`]: `kv-keys-sweep`) is
    /// one small loop ([`get_all`]); everything else goes op by op
    /// ([`run_mixed`](Self::run_mixed)).
    ///
    /// # Errors
    /// The store refused an op; the ops before it were applied.
    pub fn run<H: HandleIds<Entity>>(
        &mut self,
        ops: &[DataOp],
        entities: &mut H,
    ) -> Result<DataComponentDigest, ReplayError> {
        let has_fast_path = matches!(ops.first(), Some(DataOp::Get(..)));
        // `uniform_ids` consumes the segment's IDs: ask only when there is a fast path.
        let Some(run) = has_fast_path
            .then(|| entities.uniform_ids(ops.len()))
            .flatten()
        else {
            return self.run_mixed(ops, entities);
        };
        let store = &mut self.store;
        let (gets_found, get_sum) = get_all(store, ops, run)
            .map_err(|(index, error)| ReplayError::at(index, ops[index], error))?;
        Ok(DataComponentDigest {
            gets_found,
            get_sum,
            keys_held: store.key_count() as u64,
            ..DataComponentDigest::default()
        })
    }

    /// [`run`](Self::run) op by op: its own function, so the fast path's dispatch takes none of
    /// this loop's registers.
    #[inline(never)]
    fn run_mixed<H: HandleIds<Entity>>(
        &mut self,
        ops: &[DataOp],
        entities: &mut H,
    ) -> Result<DataComponentDigest, ReplayError> {
        let (mut gets_found, mut get_sum, mut removes_found) = (0u64, 0u64, 0u64);
        let (mut snapshot_entries, mut snapshot_sum) = (0u64, 0u64);
        let store = &mut self.store;
        for (index, &op) in ops.iter().enumerate() {
            let refused = |error| ReplayError::at(index, op, error);
            match op {
                DataOp::Spawn => entities
                    .created(store.create_entity().map_err(refused)?)
                    .map_err(|e| ReplayError::at(index, op, e))?,
                DataOp::Despawn(h) => store.destroy_entity(entities.id(h)).map_err(refused)?,
                DataOp::Set(h, key, spec) => store
                    .set(entities.id(h), key, value_of(spec))
                    .map_err(refused)?,
                DataOp::Get(h, key) => {
                    if let Some(term) = store
                        .get(entities.id(h), key, |v| v.map(|v| mix_entry(h, key, &v)))
                        .map_err(refused)?
                    {
                        gets_found += 1;
                        get_sum = get_sum.wrapping_add(term);
                    }
                }
                DataOp::GetOr(h, base, key) => {
                    // Both IDs up front, so the calls on `entities` do not depend on the
                    // answer (the resolved body's contract).
                    let (id, base_id) = (entities.id(h), entities.id(base));
                    let own = store
                        .get(id, key, |v| v.map(|v| mix_entry(h, key, &v)))
                        .map_err(refused)?;
                    let term = match own {
                        Some(term) => Some(term),
                        None => store
                            .get(base_id, key, |v| v.map(|v| mix_entry(h, key, &v)))
                            .map_err(refused)?,
                    };
                    if let Some(term) = term {
                        gets_found += 1;
                        get_sum = get_sum.wrapping_add(term);
                    }
                }
                DataOp::Remove(h, key) => {
                    if store.remove(entities.id(h), key).map_err(refused)? {
                        removes_found += 1;
                    }
                }
                DataOp::Snapshot(h) => {
                    store
                        .snapshot(entities.id(h), &mut self.snapshot)
                        .map_err(refused)?;
                    S::visit_snapshot(&self.snapshot, |key, v| {
                        snapshot_entries += 1;
                        snapshot_sum = snapshot_sum.wrapping_add(mix_entry(h, key, &v));
                    })
                    .map_err(|e| ReplayError::at(index, op, e))?;
                }
            }
        }
        Ok(DataComponentDigest {
            gets_found,
            get_sum,
            removes_found,
            snapshot_entries,
            snapshot_sum,
            keys_held: store.key_count() as u64,
        })
    }
}

/// A uniform run of `Get`s ([`HandleIds::uniform_ids`]) as one tight loop, `entities[i]` the
/// store's entity of `ops[i]`: (found, wrapping sum of [`mix_entry`] over the found), or the index of
/// the first refused op and the store's error. Out of line and small, so the store's `get`
/// can be inlined into it, as into an application's loop over its entities; `ops` holds only
/// `Get`s (the segment is uniform).
#[inline(never)]
fn get_all<S: DataStore>(
    store: &mut S,
    ops: &[DataOp],
    entities: &[Entity],
) -> Result<(u64, u64), (usize, KvError)> {
    super::resolved::fold_uniform(ops, entities, |op, entity| match op {
        DataOp::Get(h, key) => store.get(entity, key, |v| v.map(|v| mix_entry(h, key, &v))),
        _ => Ok(None),
    })
}

impl<S: DataStore + 'static> Replayer for DataComponentReplay<S> {
    type Family = DataComponentFamily;
    type Id = Entity;

    fn design_name() -> &'static str {
        S::INFO.meta.name
    }

    /// A capped design runs a trace only if, with every string and array of an entity live
    /// twice over (a growing value and its old copy before a compaction) and a header of
    /// twice its most keys (36 bytes per entry with the prefix), it stays within the cap.
    fn unsupported_before(stats: &DataStats) -> Option<String> {
        let cap = S::INFO.bytes_per_entity_cap? as u64;
        let need =
            2 * stats.max_value_bytes_per_entity + 16 + 2 * 9 * stats.max_keys_per_entity + 4;
        (need > cap).then(|| {
            format!(
                "holds at most {cap} bytes per entity; the trace gives one entity {} value bytes and {} keys",
                stats.max_value_bytes_per_entity, stats.max_keys_per_entity
            )
        })
    }

    forward_replay!(DataComponentReplay { for_trace, run }, handles: entities);

    forward_design!(store, live: entity_count);

    fn measure(
        trace: &Trace<DataOp>,
        stats: &DataStats,
    ) -> Result<Option<DataComponentMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let calls_after_setup = state.store.allocator_calls();
        state.replay(&trace.body)?;
        let calls = state.store.allocator_calls();
        let keys = state.store.key_count() as u64;
        let entities = state.store.entity_count() as u64;
        let memory = state.store.memory_bytes() as u64;
        Ok(Some(DataComponentMetrics {
            entities_after_body: entities,
            keys_after_body: keys,
            bytes_per_key: ratio(memory, keys),
            bytes_per_entity: ratio(memory, entities),
            alloc_calls_per_entity: ratio(calls, stats.spawned_total),
            body_alloc_calls_per_op: ratio(calls - calls_after_setup, stats.work_units())
                .unwrap_or(0.0),
        }))
    }
}
