//! The ID-table family's replay driver: applies trace ops to any [`IdTable`] and digests what
//! it observed.
//!
//! Generic and monomorphised per design: no dynamic dispatch and no allocation per op in the
//! timed loop. Untimed replays map logical handles to the table's IDs through a flat `Vec`
//! (handle `k` is the `k`-th add), reserved so `Add` never reallocates it; timed replays read
//! the IDs a dry run resolved, in op order ([`super::resolved`]).

pub mod recording;
pub mod reference;

use impls::id_table::model::ModelTable;
use impls::id_table::{DesignInfo, DesignVisitor, IdTable, for_each_design};
use serde::{Deserialize, Serialize};
use workloads::BodyStats;
use workloads::{Op, Payload, Trace};

use super::{
    Family, HandleIds, HandleMap, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, Role, Scale,
};
use results::DesignRecord;

/// The ID lookup tables: [`Op`] traces replayed on [`IdTable`]s, checked against
/// [`ModelTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdTableFamily;

impl Family for IdTableFamily {
    type Op = Op;
    type Digest = Digest;
    type Model = ReplayState<ModelTable<Payload>>;

    const RESULTS_FAMILY: results::Family = results::Family::IdTable;
    const TITLE: &'static str = "ID lookup tables";
    const REFERENCE_DESIGN: &'static str = "holey";
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] =
        &["lookup-uniform", "iterate-full", "iterate-holes", "churn"];
    const MEMORY_WORKLOADS: &'static [&'static str] =
        &["fill", "churn", "lookup-uniform", "iterate-holes"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &[
        "lookup-uniform",
        "iterate-full",
        "iterate-holes",
        "churn",
        "fill",
    ];
    /// 16M objects (512 MiB of payload) keeps a full sweep in minutes.
    const SWEEP_MAX_N: usize = 1 << 24;

    fn bench_sizes(scale: Scale) -> Vec<usize> {
        match scale {
            Scale::Quick => vec![1_000, 65_536],
            Scale::Default | Scale::Full => vec![1_000, 65_536, 1_000_000],
        }
    }

    fn pass_sizes(quick: bool) -> Vec<usize> {
        if quick {
            vec![1_000, 65_536]
        } else {
            vec![1_000, 65_536, 1_000_000]
        }
    }

    fn design_records() -> Vec<DesignRecord> {
        impls::id_table::designs()
            .iter()
            .map(design_record)
            .collect()
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        struct Designs<'a, V>(&'a mut V);
        impl<V: ReplayerVisitor<IdTableFamily>> DesignVisitor<Payload> for Designs<'_, V> {
            fn visit<D: IdTable<Payload> + 'static>(&mut self) {
                self.0.visit::<ReplayState<D>>(Role::Design);
            }
        }
        for_each_design(&mut Designs(visitor));
        visitor.visit_loop::<reference::VecIterate>();
        // One direct loop per design the lookup ranking is checked on: the article's two
        // arrays and the three generational peers.
        visitor.visit_loop::<reference::DirectLookup<impls::id_table::holey::Holey<Payload>>>();
        visitor.visit_loop::<reference::DirectLookup<impls::id_table::packed::Packed<Payload>>>();
        visitor.visit_loop::<reference::DirectLookup<impls::id_table::peers::slotmap::SlotMapPeer<Payload>>>();
        visitor.visit_loop::<reference::DirectLookup<
            impls::id_table::peers::slotmap_dense::DenseSlotMapPeer<Payload>,
        >>();
        visitor.visit_loop::<reference::DirectLookup<impls::id_table::peers::thunderdome::ThunderdomePeer<Payload>>>();
    }
}

/// A user's ID table from another crate runs as [`ReplayState`] of it.
impl<D: IdTable<Payload> + 'static> super::HostsDesign<D> for IdTableFamily {
    type Replayer = ReplayState<D>;

    fn design_record() -> DesignRecord {
        design_record(&D::INFO)
    }
}

/// How the verdict on a design whose stale horizon a trace passed begins (the reason of its
/// `unsupported` status), e.g. `churn-hot-stale` on the LIFO 16-bit design.
pub const STALE_WRAP: &str = "stale ID resolved after generation wrap";

/// The results record of an ID-table design.
pub fn design_record(info: &DesignInfo) -> DesignRecord {
    DesignRecord {
        family: IdTableFamily::RESULTS_FAMILY,
        name: info.name.to_string(),
        description: info.description.to_string(),
        kind: info.kind.label().to_string(),
        crate_version: info.kind.crate_version(),
        id_bytes: info.id_bytes,
        detects_stale: info.detects_stale(),
        capacity: info.capacity,
        limits: Some(limits(info)),
    }
}

/// An ID-table design's limits in one line, as `dodbench list`, the README table and the
/// report show them: ID size, stale-ID detection with its bound, capacity.
fn limits(info: &DesignInfo) -> String {
    format!(
        "{} B ID; detects stale IDs: {}; capacity {}",
        info.id_bytes,
        info.stale.label(),
        info.capacity
            .map_or("growable".to_string(), |c| c.to_string())
    )
}

/// Everything a replay observed, reduced to counts and wrapping sums. Two replays of one trace
/// agree on the digest exactly when they saw the same hits, misses and field values (up to
/// sum collisions), whatever order each design iterates in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// `Get`/`Mutate`/`Remove` that found their object (on a valid trace a correct design
    /// finds every one, so a miss shows as fewer hits than the model's).
    pub hits: u64,
    /// `GetStale` that resolved a stale ID to some object (a stale-detection failure; the
    /// model has none).
    pub stale_hits: u64,
    /// Wrapping sum over every object returned by a lookup or remove of `value ^ handle·K`,
    /// so the wrong object (another handle's) changes the sum.
    pub lookup_sum: u64,
    /// Wrapping sum of `value` over every object visited by `Iterate`.
    pub iterate_sum: u64,
    /// Objects visited by `Iterate` and `IterateMut`.
    pub iterated: u64,
    /// Ops replayed, so that merging the digests of consecutive pieces places
    /// [`Digest::first_stale_hit`] in the whole.
    pub ops: u64,
    /// Index, among the replayed ops, of the first `GetStale` that resolved its stale ID (the
    /// op a stale-detection failure is reported at); `None` on a correct replay.
    pub first_stale_hit: Option<u64>,
}

impl ReplayDigest<Op> for Digest {
    /// Adds the counts and sums of a replay of the following ops, so replaying a body in
    /// pieces digests to the same value as replaying it whole.
    fn merge(&mut self, later: &Digest) {
        self.hits += later.hits;
        self.stale_hits += later.stale_hits;
        self.lookup_sum = self.lookup_sum.wrapping_add(later.lookup_sum);
        self.iterate_sum = self.iterate_sum.wrapping_add(later.iterate_sum);
        self.iterated += later.iterated;
        if self.first_stale_hit.is_none() {
            self.first_stale_hit = later.first_stale_hit.map(|at| self.ops + at);
        }
        self.ops += later.ops;
    }

    /// Work units of the replayed `ops` that gave this digest: one per single-object op, one
    /// per iterated object (as [`workloads::BodyStats::work_units`]).
    fn work_units(&self, ops: &[Op]) -> u64 {
        let single = ops
            .iter()
            .filter(|op| !matches!(op, Op::Iterate | Op::IterateMut))
            .count() as u64;
        single + self.iterated
    }
}

/// Mixes a looked-up object into [`Digest::lookup_sum`].
#[inline(always)]
pub fn mix(p: &Payload) -> u64 {
    p.value ^ p.handle.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A table plus the handle → ID map: the state a trace is replayed on.
pub struct ReplayState<D: IdTable<Payload>> {
    /// The design under test.
    pub table: D,
    /// `ids[k]` is the ID the table gave handle `k`; kept after removal for `GetStale`.
    pub ids: HandleMap<D::Id>,
    /// Handles created so far: the next `Add` is handle `created` (its payload's handle).
    created: u32,
}

impl<D: IdTable<Payload>> ReplayState<D> {
    /// An empty table with room in the handle map for `trace`'s handles.
    pub fn for_trace(trace: &Trace<Op>) -> Self {
        Self {
            table: D::new(),
            ids: HandleMap::with_capacity(trace.handle_count()),
            created: 0,
        }
    }

    /// Applies `ops` in order, finding IDs through `ids`, and returns what was observed.
    ///
    /// A uniform segment of a timed run ([`HandleIds::uniform_ids`]) of `Get`s, `GetStale`s
    /// or `Remove`s is one tight loop over its IDs, as an application's loop over its own
    /// list of IDs; everything else goes op by op.
    ///
    /// # Errors
    /// The table refused an insert, or `ids` rejected the ID it returned; ops before it were
    /// applied.
    #[inline(never)]
    pub fn run<H: HandleIds<D::Id>>(
        &mut self,
        ops: &[Op],
        ids: &mut H,
    ) -> Result<Digest, ReplayError> {
        // Few accumulators, as plain locals, so the loop keeps them all in registers: counting
        // misses and adds as well spilled accumulators to the stack on every lookup. Misses
        // need no counter of their own: a correct replay hits on every lookup, so a miss
        // shows as fewer `hits` than the model's.
        let (mut hits, mut stale_hits) = (0u64, 0u64);
        let (mut lookup_sum, mut iterate_sum, mut iterated) = (0u64, 0u64, 0u64);
        // Written only on a stale hit (a failure), so it costs the loop nothing.
        let mut first_stale_hit = None;
        let table = &mut self.table;
        let first = ops.first().copied();
        let has_fast_path = matches!(
            first,
            Some(Op::Get(_) | Op::GetStale(_) | Op::Remove(_) | Op::Mutate(_))
        );
        // `uniform_ids` consumes the segment's IDs: ask only when there is a fast path.
        if let Some(run) = has_fast_path.then(|| ids.uniform_ids(ops.len())).flatten() {
            match first.expect("a fast path has a first op") {
                Op::Get(_) => {
                    for &id in run {
                        if let Some(p) = table.get(id) {
                            hits += 1;
                            lookup_sum = lookup_sum.wrapping_add(mix(p));
                        }
                    }
                }
                Op::GetStale(_) => {
                    for &id in run {
                        stale_hits += u64::from(table.get(id).is_some());
                    }
                    if stale_hits > 0 {
                        first_stale_hit = first_resolved(table, run);
                    }
                }
                Op::Remove(_) => {
                    for &id in run {
                        if let Some(p) = table.remove(id) {
                            hits += 1;
                            lookup_sum = lookup_sum.wrapping_add(mix(&p));
                        }
                    }
                }
                Op::Mutate(_) => {
                    for &id in run {
                        if let Some(p) = table.get_mut(id) {
                            p.mutate();
                            hits += 1;
                            lookup_sum = lookup_sum.wrapping_add(mix(p));
                        }
                    }
                }
                Op::Add | Op::Iterate | Op::IterateMut => {
                    unreachable!("no fast path, checked above")
                }
            }
            return Ok(Digest {
                hits,
                stale_hits,
                lookup_sum,
                ops: ops.len() as u64,
                first_stale_hit,
                ..Digest::default()
            });
        }
        for (index, &op) in ops.iter().enumerate() {
            match op {
                Op::Add => {
                    let id = table
                        .insert(Payload::for_handle(self.created))
                        .map_err(|error| ReplayError::at(index, op, error))?;
                    self.created += 1;
                    ids.created(id)
                        .map_err(|error| ReplayError::at(index, op, error))?;
                }
                Op::Get(h) => {
                    if let Some(p) = table.get(ids.id(h)) {
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix(p));
                    }
                }
                Op::GetStale(h) => {
                    if table.get(ids.id(h)).is_some() {
                        stale_hits += 1;
                        first_stale_hit.get_or_insert(index as u64);
                    }
                }
                Op::Mutate(h) => {
                    if let Some(p) = table.get_mut(ids.id(h)) {
                        p.mutate();
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix(p));
                    }
                }
                Op::Remove(h) => {
                    if let Some(p) = table.remove(ids.id(h)) {
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix(&p));
                    }
                }
                Op::Iterate => {
                    let (sum, count) = table
                        .iter()
                        .fold((0u64, 0u64), |(s, c), p| (s.wrapping_add(p.value), c + 1));
                    iterate_sum = iterate_sum.wrapping_add(sum);
                    iterated += count;
                }
                Op::IterateMut => {
                    let count = table.iter_mut().fold(0u64, |c, p| {
                        p.value = p.value.wrapping_add(1);
                        c + 1
                    });
                    iterated += count;
                }
            }
        }
        Ok(Digest {
            hits,
            stale_hits,
            lookup_sum,
            iterate_sum,
            iterated,
            ops: ops.len() as u64,
            first_stale_hit,
        })
    }
}

/// Index in `ids` of the first ID `table` resolves (out of line: only a failing replay of a
/// run of `GetStale`s asks).
#[cold]
#[inline(never)]
fn first_resolved<D: IdTable<Payload>>(table: &D, ids: &[D::Id]) -> Option<u64> {
    ids.iter()
        .position(|&id| table.get(id).is_some())
        .map(|at| at as u64)
}

impl<D: IdTable<Payload>> Replayer for ReplayState<D> {
    type Family = IdTableFamily;
    type Id = D::Id;

    fn design_name() -> &'static str {
        D::INFO.name
    }

    fn unsupported_before(stats: &BodyStats) -> Option<String> {
        let capacity = D::INFO.capacity?;
        ((stats.peak_live as usize) > capacity).then(|| {
            format!(
                "fixed capacity {capacity} is below the trace's peak of {} live objects",
                stats.peak_live
            )
        })
    }

    /// A design without stale detection on a trace with stale lookups; a design with a stale
    /// horizon ([`impls::id_table::StaleDetection`] bound) that resolved a stale ID on a trace long enough to
    /// pass it (at least as many body removals as the bound: a slot cannot be reused more
    /// often than objects are removed). The reason names the op of the first stale hit. A
    /// stale hit on a trace shorter than the bound is no documented limit: it stays a failure
    /// (the digest differs from the model's).
    fn unsupported_after(stats: &BodyStats, body: &Digest) -> Option<String> {
        let info = D::INFO;
        if !info.detects_stale() && stats.stale_gets > 0 {
            return Some(format!(
                "does not detect stale IDs (its keys carry no generation): {} of {} stale \
                 lookups returned an object",
                body.stale_hits, stats.stale_gets
            ));
        }
        let at = body.first_stale_hit?;
        let bound = info.stale.bound()?;
        (stats.removes >= bound).then(|| {
            let demonstrates = info
                .demonstrates
                .map(|hazard| format!("; the hazard this design demonstrates: {hazard}"))
                .unwrap_or_default();
            format!(
                "{STALE_WRAP} at op {at} of the body ({} of {} stale lookups resolved; \
                 documented stale detection: {}, and the body removes {} objects){demonstrates}",
                body.stale_hits,
                stats.stale_gets,
                info.stale.label(),
                stats.removes
            )
        })
    }

    fn for_trace(trace: &Trace<Op>) -> Self {
        ReplayState::for_trace(trace)
    }

    fn handles(&mut self) -> &mut HandleMap<D::Id> {
        &mut self.ids
    }

    fn run<H: HandleIds<D::Id>>(&mut self, ops: &[Op], ids: &mut H) -> Result<Digest, ReplayError> {
        ReplayState::run(self, ops, ids)
    }

    fn memory_bytes(&self) -> u64 {
        self.table.memory_bytes() as u64
    }

    fn live_count(&self) -> usize {
        self.table.len()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.table.check_invariants()
    }
}
