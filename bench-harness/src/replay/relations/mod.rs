//! The one-to-many index family's replay driver: applies [`RelationOp`] traces to any
//! [`RelationIndex`] and digests what it observed.
//!
//! Generic and monomorphised per design. Logical record handles map to the design's record
//! IDs through a flat `Vec` (handle `k` is the `k`-th `Add`), reserved before timing. Visits
//! digest each record by the design's own ID: every design hands out the same IDs as the model
//! (the family's ID rule, checked by `impls/tests/integration/relations_model.rs`), so no map back to
//! handles is read in the timed loop.
//!
//! Capability limits are decided before replaying ([`Replayer::unsupported_before`]): one-index
//! designs on traces that need the `b` side, the scan above its live-record cap, and designs
//! whose removal searches a set above their set-size cap (the quadratic star).

mod claims;
mod metrics;
mod reference;

use impls::relations::model::ModelIndex;
use impls::relations::{
    Record, RecordId, RelationDesignInfo, RelationDesignVisitor, RelationIndex,
    for_each_relation_design,
};
use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::relations::{RelationOp, RelationStats};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes, records_of,
};
use super::glue::{
    family_marker, forward_design, forward_replay, hosts_design, merge_fields, visit_registry,
};
use super::metric_fields::ratio;
use super::resolved::{HandleIds, HandleMap};
pub use metrics::RelationMetrics;
use results::DesignRecord;

family_marker! {
    /// The one-to-many indices: [`RelationOp`] traces replayed on [`RelationIndex`]es, checked
    /// against [`ModelIndex`].
    RelationFamily
}

impl Family for RelationFamily {
    type Op = RelationOp;
    type Digest = RelationDigest;
    type Model = RelationReplay<ModelIndex>;
    type Metrics = RelationMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
    const TITLE: &'static str = "One-to-many indices";
    /// The article's two-index design: it runs every workload (the one-index `intrusive` is
    /// unsupported where the `b` side is needed).
    const REFERENCE_DESIGN: &'static str = "intrusive_2idx";
    /// Visits of scattered sets: the article's "jump erratically through memory".
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["idx-notify", "idx-tags"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["idx-churn", "idx-star"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &["idx-notify", "idx-star", "idx-churn"];
    /// 256K relations: past the last-level cache, and the sweep's powers of 4 (1K, 4K, 16K,
    /// 64K, 256K) show where the quadratic star designs leave (their cap is 16K per set).
    /// `idx-star`: the article's O(n²) removal ("n enemies observing the player"); the
    /// searching designs are capped at 16,384 records, so a sweep shows their slope up to there.
    const SCALING_WORKLOADS: &'static [&'static str] = &["idx-star"];
    const SWEEP_MAX_N: usize = 1 << 18;

    /// Quick: 1K only (CI's share). Default: 1K and 100K, within two minutes (a body that
    /// writes rebuilds its 1M-record setup for every timed iteration, so 1M is `Full` only;
    /// `dodbench replay` on a 1M trace gives the 1M figures). The passes' quick size is 1K
    /// only, so the cache pass (valgrind) stays near a minute for the family.
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 100_000],
        full: &[1_000, 100_000, 1_000_000],
        passes_quick: &[1_000],
        passes: &[1_000, 100_000, 1_000_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::relations::relation_designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, RelationFamily, for_each_relation_design, RelationDesignVisitor,
            [D: RelationIndex + 'static] => RelationReplay<D>
        );
        visitor.visit_loop::<reference::DirectMultimap>();
        visitor.visit_loop::<reference::DirectHashbrownSmallVec>();
    }
}

/// The number of indices a design keeps, for the results and the metrics.
fn indices(info: &RelationDesignInfo) -> u8 {
    match (info.max_live_records, info.indexes_b) {
        (Some(_), _) => 0,
        (None, false) => 1,
        (None, true) => 2,
    }
}

hosts_design!(
    /// A user's design from another crate runs as [`RelationReplay`] of it.
    RelationFamily,
    [D: RelationIndex] => RelationReplay<D>,
    design_record(&D::INFO)
);

/// The results record of a relation-index design: its ID is the `u32` record ID.
pub fn design_record(info: &RelationDesignInfo) -> DesignRecord {
    let mut limits = vec![match indices(info) {
        0 => "no index: every query scans".to_string(),
        1 => "one index (on a): b-side traces unsupported".to_string(),
        _ => "indices on a and b".to_string(),
    }];
    if let Some(cap) = info.max_live_records {
        limits.push(format!("at most {cap} live records"));
    }
    if let Some(cap) = info.max_set_size {
        limits.push(format!(
            "at most {cap} records per key in traces that remove"
        ));
    }
    DesignRecord {
        id_bytes: std::mem::size_of::<RecordId>(),
        // A removed record's ID is refused until reused, then names the new record.
        limits: Some(limits.join("; ")),
        ..crate::replay::design_record_of(RelationFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// Everything a relation replay observed, reduced to counts and wrapping sums: independent of
/// the order in which a design keeps (and visits) a key's records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelationDigest {
    /// Records visited by `VisitByA` and `VisitByB`.
    pub visited: u64,
    /// Wrapping sum of [`mix_record`] over every visited record.
    pub visit_sum: u64,
    /// `FirstByA` ops that found a record.
    pub firsts_found: u64,
    /// Wrapping sum of the found records' `a` (a design returning another key's record, which
    /// one is design-defined, changes it).
    pub first_key_sum: u64,
    /// Sum of the `CountByA` answers.
    pub count_sum: u64,
    /// Records removed by `Remove` and `RemoveEntity`.
    pub removed: u64,
    /// Wrapping sum of [`mix_record`] over every removed record.
    pub removed_sum: u64,
    /// Records the design holds after the replayed ops (read once after the loop).
    pub records_held: u64,
}

impl ReplayDigest<RelationOp> for RelationDigest {
    /// Adds the counts and sums; `records_held` is the later replay's.
    fn merge(&mut self, later: &RelationDigest) {
        merge_fields!(
            self,
            later,
            add: [visited, firsts_found, count_sum, removed],
            wrapping: [visit_sum, first_key_sum, removed_sum],
            later: [records_held],
        );
    }

    /// One per op but the visits, which count the records they visited, as
    /// `RelationStats::work_units` counts them.
    fn work_units(&self, ops: &[RelationOp]) -> u64 {
        let single = ops
            .iter()
            .filter(|op| !matches!(op, RelationOp::VisitByA(_) | RelationOp::VisitByB(_)))
            .count() as u64;
        single + self.visited
    }
}

/// Mixes a record and its ID into a digest sum: each field times its own odd 64-bit constant,
/// so the same record under another ID, or fields swapped, give other values.
#[inline(always)]
pub fn mix_record(id: RecordId, r: Record) -> u64 {
    u64::from(id).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ u64::from(r.a).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ u64::from(r.b).wrapping_mul(0x1656_67B1_9E37_79F9)
        ^ u64::from(r.payload).wrapping_mul(0x85EB_CA77_C2B2_AE63)
}

/// A relation index plus the handle map: the state a trace is replayed on.
pub struct RelationReplay<D: RelationIndex> {
    /// The design under test.
    pub index: D,
    /// `ids[k]` is the design's ID for handle `k` (kept after removal, unused then).
    ids: HandleMap<RecordId>,
}

impl<D: RelationIndex> RelationReplay<D> {
    /// An empty index with room in the handle map for `trace`'s handles.
    pub fn for_trace(trace: &Trace<RelationOp>) -> Self {
        Self {
            index: D::new(),
            ids: HandleMap::with_capacity(trace.handle_count()),
        }
    }

    /// Applies `ops` in order and returns what was observed.
    ///
    /// Expects a validated trace; an op naming a handle never added is a bug in the caller and
    /// panics on the handle map's bounds check.
    ///
    /// A uniform run of `FirstByA`s or `VisitByA`s of a timed run
    /// ([`HandleIds::uniform_without_ids`]: `idx-first`, `idx-tags`) is one small loop
    /// ([`firsts_by_a`], [`visits_by_a`]); everything else goes op by op
    /// ([`run_mixed`](Self::run_mixed)).
    ///
    /// # Errors
    /// The design refused an op (ID space); the ops before it were applied.
    pub fn run<H: HandleIds<RecordId>>(
        &mut self,
        ops: &[RelationOp],
        ids: &mut H,
    ) -> Result<RelationDigest, ReplayError> {
        let first = ops.first().copied();
        let has_fast_path = matches!(
            first,
            Some(RelationOp::FirstByA(_) | RelationOp::VisitByA(_))
        );
        if !(has_fast_path && ids.uniform_without_ids()) {
            return self.run_mixed(ops, ids);
        }
        let index = &mut self.index;
        let mut d = RelationDigest::default();
        if let Some(RelationOp::FirstByA(_)) = first {
            (d.firsts_found, d.first_key_sum) = firsts_by_a(index, ops);
        } else {
            (d.visited, d.visit_sum) = visits_by_a(index, ops);
        }
        d.records_held = index.len() as u64;
        Ok(d)
    }

    /// [`run`](Self::run) op by op: its own function, so the fast path's dispatch takes none of
    /// this loop's registers (as in the tag replay, where sharing one function cost
    /// `tags-mutate` 5% more instructions per op; here `idx-notify` moved by at most 2% either
    /// way).
    #[inline(never)]
    fn run_mixed<H: HandleIds<RecordId>>(
        &mut self,
        ops: &[RelationOp],
        ids: &mut H,
    ) -> Result<RelationDigest, ReplayError> {
        let mut d = RelationDigest::default();
        let (mut visited, mut visit_sum) = (0u64, 0u64);
        let (mut removed, mut removed_sum) = (0u64, 0u64);
        let index = &mut self.index;
        for (at, &op) in ops.iter().enumerate() {
            let refused = |error| ReplayError::at(at, op, error);
            match op {
                RelationOp::Add { a, b, payload } => {
                    ids.created(index.add(Record { a, b, payload }).map_err(refused)?)
                        .map_err(|e| ReplayError::at(at, op, e))?;
                }
                RelationOp::Remove(h) => {
                    let id = ids.id(h);
                    let r = index.remove(id).map_err(refused)?;
                    removed += 1;
                    removed_sum = removed_sum.wrapping_add(mix_record(id, r));
                }
                RelationOp::VisitByA(key) => index.visit_by_a(key, |id, r| {
                    visited += 1;
                    visit_sum = visit_sum.wrapping_add(mix_record(id, r));
                }),
                RelationOp::VisitByB(key) => index.visit_by_b(key, |id, r| {
                    visited += 1;
                    visit_sum = visit_sum.wrapping_add(mix_record(id, r));
                }),
                RelationOp::FirstByA(key) => {
                    if let Some((_, r)) = index.first_by_a(key) {
                        d.firsts_found += 1;
                        d.first_key_sum = d.first_key_sum.wrapping_add(u64::from(r.a));
                    }
                }
                RelationOp::CountByA(key) => d.count_sum += index.count_by_a(key) as u64,
                RelationOp::RemoveEntity(e) => index.remove_entity(e, |id, r| {
                    removed += 1;
                    removed_sum = removed_sum.wrapping_add(mix_record(id, r));
                }),
            }
        }
        d.visited = visited;
        d.visit_sum = visit_sum;
        d.removed = removed;
        d.removed_sum = removed_sum;
        d.records_held = index.len() as u64;
        Ok(d)
    }
}

/// A uniform run of `FirstByA`s ([`HandleIds::uniform_without_ids`]) as one tight loop:
/// (found, wrapping sum of the found records' `a`). Out of line and small, so the index's
/// `first_by_a` is inlined into it, as into an application's loop over its keys; `ops`
/// holds only `FirstByA`s (the segment is uniform).
#[inline(never)]
fn firsts_by_a<D: RelationIndex>(index: &mut D, ops: &[RelationOp]) -> (u64, u64) {
    let (mut found, mut sum) = (0u64, 0u64);
    for &op in ops {
        if let RelationOp::FirstByA(key) = op
            && let Some((_, r)) = index.first_by_a(key)
        {
            found += 1;
            sum = sum.wrapping_add(u64::from(r.a));
        }
    }
    (found, sum)
}

/// A uniform run of `VisitByA`s as one tight loop, as [`firsts_by_a`]: (visited, wrapping sum
/// of [`mix_record`] over the visited).
#[inline(never)]
fn visits_by_a<D: RelationIndex>(index: &mut D, ops: &[RelationOp]) -> (u64, u64) {
    let (mut visited, mut sum) = (0u64, 0u64);
    for &op in ops {
        if let RelationOp::VisitByA(key) = op {
            index.visit_by_a(key, |id, r| {
                visited += 1;
                sum = sum.wrapping_add(mix_record(id, r));
            });
        }
    }
    (visited, sum)
}

impl<D: RelationIndex + 'static> Replayer for RelationReplay<D> {
    type Family = RelationFamily;
    type Id = RecordId;

    fn design_name() -> &'static str {
        D::INFO.meta.name
    }

    fn unsupported_before(stats: &RelationStats) -> Option<String> {
        let info = D::INFO;
        if !info.indexes_b && stats.b_side_ops > 0 {
            return Some(format!(
                "one index (on a): the trace has {} ops needing the b side",
                stats.b_side_ops
            ));
        }
        if let Some(cap) = info.max_live_records
            && stats.peak_live > cap as u64
        {
            return Some(format!(
                "every query scans all records: capped at {cap} live, the trace has {}",
                stats.peak_live
            ));
        }
        // Only removals search a set: a read-only body over big sets (`idx-tags`) runs.
        if let Some(cap) = info.max_set_size
            && stats.max_set_size > cap as u64
            && stats.removes + stats.entity_removals > 0
        {
            return Some(format!(
                "removal searches the key's set (quadratic): capped at {cap} per key, the trace has {}",
                stats.max_set_size
            ));
        }
        None
    }

    forward_replay!(RelationReplay { for_trace, run }, handles: ids);

    forward_design!(index, live: len);

    fn measure(
        trace: &Trace<RelationOp>,
        _stats: &RelationStats,
    ) -> Result<Option<RelationMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let records = state.index.len() as u64;
        let memory = state.index.memory_bytes() as u64;
        state.replay(&trace.body)?;
        Ok(Some(RelationMetrics {
            records_after_setup: records,
            bytes_per_record: ratio(memory, records),
            memory_bytes_after_body: state.index.memory_bytes() as u64,
            indices: indices(&D::INFO),
        }))
    }
}
