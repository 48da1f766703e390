//! The ID-table family's replay driver: applies trace ops to any [`IdTable`] and digests what
//! it observed.
//!
//! Generic and monomorphised per design: no dynamic dispatch and no allocation per op in the
//! timed loop. Untimed replays map logical handles to the table's IDs through a flat `Vec`
//! (handle `k` is the `k`-th add), reserved so `Add` never reallocates it; timed replays read
//! the IDs a dry run resolved, in op order ([`super::resolved`]).

mod claims;
pub mod crate_loops;
pub mod direct_peer;
pub mod recording;
pub mod reference;

use impls::id_table::registry::ctors;
use impls::id_table::{Design, DesignCtorVisitor, DesignInfo, IdTable, for_each_design_ctor};
use serde::{Deserialize, Serialize};
use workloads::IdTableStats;
use workloads::{IdTableOp, Object, Payload, Payload8, Payload128, PayloadSize, Trace};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes, Scale, records_of,
};
use super::glue::{family_marker, forward_design, forward_replay, hosts_design, visit_registry};
use super::resolved::{HandleIds, HandleMap};
use results::DesignRecord;

family_marker! {
    /// The ID lookup tables: [`IdTableOp`] traces replayed on [`IdTable`]s, checked against
    /// [`ModelTable`].
    IdTableFamily
}

/// The workloads a default run also times at 1M objects: the lookups whose cost is a cache
/// miss there (`lookup-uniform`, and the stale lookups, where detecting a dead ID is the point
/// of the design: `lookup-stale` draws from the removed IDs, `lookup-stale-pass` reads every
/// reused slot once per pass and `lookup-stale-vacant` every free one), the article's own mix
/// (its "40 times faster than the STL" claim), the holes' cost on iteration (A9), and the
/// removals and churn where free-list order meets the cache.
pub const LARGE_N_WORKLOADS: &[&str] = &[
    "lookup-uniform",
    "lookup-stale",
    "lookup-stale-pass",
    "lookup-stale-vacant",
    "article-mix",
    "iterate-holes",
    "remove-random",
    "churn",
];

impl Family for IdTableFamily {
    type Op = IdTableOp;
    type Digest = IdTableDigest;
    type Model = IdTableReplay<ctors::Model>;
    type Metrics = super::NoMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const UNTESTED: &'static [results::UntestedSpec] = claims::UNTESTED;
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

    const SIZES: RunSizes = RunSizes {
        quick: &[1_000, 65_536],
        default: &[1_000, 65_536, 1_000_000],
        full: &[1_000, 65_536, 1_000_000],
        passes_quick: &[1_000, 65_536],
        passes: &[1_000, 65_536, 1_000_000],
    };

    /// The payload-size variants (`iterate-full-p8`, `lookup-uniform-p128`, ...) run at the
    /// 65,536-object size only in quick and default runs (above L2 at every object size, so
    /// the object size shows), at every size in full runs. In default runs 1M objects (a
    /// working set beyond the last-level cache) is kept for the workloads whose question is
    /// about that size ([`LARGE_N_WORKLOADS`]); a 1M cell costs about a minute of the run on
    /// a 2-core machine, most of it building 1M-object tables for the ~30 designs.
    fn workload_bench_sizes(workload: &str, scale: Scale) -> Vec<usize> {
        let variant = workload.ends_with("-p8") || workload.ends_with("-p128");
        match scale {
            Scale::Quick | Scale::Default if variant => vec![65_536],
            Scale::Default if !LARGE_N_WORKLOADS.contains(&workload) => vec![1_000, 65_536],
            _ => Self::bench_sizes(scale),
        }
    }

    /// The `iterate-full` workloads and `iterate-holes` stream the live objects (each visit
    /// reads one object's bytes); the `lookup-uniform` workloads are independent gets of
    /// shuffled IDs, each one object's load.
    fn memory_bound(trace: &Trace<IdTableOp>) -> Option<results::MemoryBound> {
        let object = PayloadSize::of_params(&trace.header.params).ok()?.bytes() as u64;
        match trace.header.generator.as_str() {
            "iterate-full" | "iterate-full-p8" | "iterate-full-p128" | "iterate-holes" => {
                Some(results::MemoryBound::Stream {
                    bytes_per_unit: object,
                })
            }
            "lookup-uniform" | "lookup-uniform-p8" | "lookup-uniform-p128" => {
                Some(results::MemoryBound::IndependentLoads)
            }
            _ => None,
        }
    }

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::id_table::designs(), design_record)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, IdTableFamily, for_each_design_ctor, DesignCtorVisitor,
            [D: Design] => IdTableReplay<D>
        );
        visitor.visit_loop::<reference::VecIterate>();
        // One direct loop per design it mirrors: the article's two arrays through the family
        // trait on lookup bodies, every peer through its own crate on every body its replay runs.
        visitor.visit_loop::<reference::DirectLookup<ctors::Holey>>();
        visitor.visit_loop::<reference::DirectLookup<ctors::Packed>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::SlotMap>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::DenseSlotMap>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::HopSlotMap>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::Thunderdome>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::GenerationalArena>>();
        visitor.visit_loop::<direct_peer::DirectPeer<ctors::Slab>>();
    }
}

hosts_design!(
    /// A user's ID table from another crate runs as [`IdTableState`] of it.
    IdTableFamily,
    [D: IdTable<Payload>] => IdTableState<D>,
    design_record(&D::INFO)
);

/// How the verdict on a design whose stale horizon a trace passed begins (the reason of its
/// `unsupported` status), e.g. `churn-hot-stale` on the LIFO 16-bit design.
pub const STALE_WRAP: &str = "stale ID resolved after generation wrap";

/// The results record of an ID-table design.
pub fn design_record(info: &DesignInfo) -> DesignRecord {
    DesignRecord {
        id_bytes: info.id_bytes,
        detects_stale: info.detects_stale(),
        capacity: info.capacity,
        limits: Some(limits(info)),
        contract_gaps: (!info.detects_stale())
            .then(|| crate::replay::GAP_NO_STALE_DETECTION.to_string())
            .into_iter()
            .collect(),
        ..crate::replay::design_record_of(IdTableFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// An ID-table design's limits in one line, as `dodbench list`, the table of
/// `docs/families.md` and the report show them: ID size, stale-ID detection with its bound,
/// capacity.
fn limits(info: &DesignInfo) -> String {
    let cap = info
        .remove_shift_cap
        .map(|c| {
            let c = if c.is_power_of_two() {
                format!("2^{}", c.trailing_zeros())
            } else {
                c.to_string()
            };
            format!(
                "; unsupported above {c} free-index shifts per trace (free slots at each remove)"
            )
        })
        .unwrap_or_default();
    format!(
        "{} B ID; detects stale IDs: {}; capacity {}{cap}",
        info.id_bytes,
        info.stale.label(),
        info.capacity
            .map_or("growable".to_string(), |c| c.to_string())
    )
}

/// Why a design whose remove is O(free slots) ([`DesignInfo::remove_shift_cap`]) does not run
/// `trace`: its removes, setup's and body's, would shift more free indices than the stated cap.
/// Each remove counts the free slots there are when it runs (the slots ever used less the live
/// objects: an add reuses a free slot before it takes a new one), the most a sorted free-index
/// vector shifts to insert the freed one. The setup counts because every verified design
/// builds its state more than once, untimed (verification, the dry run, a writing body's
/// rebuilds): `iterate-holes` at 1M objects removes 10^6 objects in its setup, 5·10^11 shifts,
/// which would make `pool_sorted_vec`'s untimed builds most of the cell's time.
fn over_remove_shift_cap(info: &DesignInfo, trace: &Trace<IdTableOp>) -> Option<String> {
    let cap = info.remove_shift_cap?;
    let (mut free, mut removes, mut shifts) = (0u64, 0u64, 0u64);
    for op in trace.setup.iter().chain(&trace.body) {
        match op {
            IdTableOp::Add => free = free.saturating_sub(1),
            IdTableOp::Remove(_) => {
                shifts = shifts.saturating_add(free);
                free += 1;
                removes += 1;
            }
            _ => {}
        }
    }
    (shifts > cap).then(|| {
        format!(
            "remove is O(free slots) by design: the trace's {removes} removes (setup and body) \
             bound {shifts} free-index shifts, above the stated cap of {cap}"
        )
    })
}

/// Everything a replay observed, reduced to counts and wrapping sums. Two replays of one trace
/// agree on the digest exactly when they saw the same hits, misses and field values (up to
/// sum collisions), whatever order each design iterates in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IdTableDigest {
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
    /// [`IdTableDigest::first_stale_hit`] in the whole.
    pub ops: u64,
    /// Index, among the replayed ops, of the first `GetStale` that resolved its stale ID (the
    /// op a stale-detection failure is reported at); `None` on a correct replay.
    pub first_stale_hit: Option<u64>,
}

impl ReplayDigest<IdTableOp> for IdTableDigest {
    /// Adds the counts and sums of a replay of the following ops, so replaying a body in
    /// pieces digests to the same value as replaying it whole.
    fn merge(&mut self, later: &IdTableDigest) {
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
    /// per iterated object (as [`workloads::IdTableStats::work_units`]).
    fn work_units(&self, ops: &[IdTableOp]) -> u64 {
        let single = ops
            .iter()
            .filter(|op| !matches!(op, IdTableOp::Iterate | IdTableOp::IterateMut))
            .count() as u64;
        single + self.iterated
    }
}

/// Mixes a looked-up object into [`IdTableDigest::lookup_sum`].
#[inline(always)]
pub fn mix_object<P: Object>(p: &P) -> u64 {
    p.value() ^ p.handle().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A table of `P`s plus the handle → ID map: the state a trace is replayed on, for traces
/// whose object size ([`PayloadSize::of_params`]) is `P`'s. [`IdTableReplay`] picks `P` from
/// the trace; this type used alone (tests, a design that exists for one object type) replays
/// traces of its own size and reports any other as an error.
pub struct IdTableState<D: IdTable<P>, P: Object = Payload> {
    /// The design under test.
    pub table: D,
    /// `ids[k]` is the ID the table gave handle `k`; kept after removal for `GetStale`.
    pub ids: HandleMap<D::Id>,
    /// Handles created so far: the next `Add` is handle `created` (its payload's handle).
    created: u32,
    /// Why this state cannot replay the trace it was made for (its object size is not `P`'s);
    /// `run` reports it as an error.
    wrong_size: Option<String>,
}

impl<D: IdTable<P>, P: Object> IdTableState<D, P> {
    /// An empty table with room in the handle map for `trace`'s handles.
    pub fn for_trace(trace: &Trace<IdTableOp>) -> Self {
        let wrong_size = Self::wrong_size(trace);
        Self {
            table: D::new(),
            ids: HandleMap::with_capacity(trace.handle_count()),
            created: 0,
            wrong_size,
        }
    }

    /// Why this replay cannot run `trace`: the trace's objects are not `P`'s size (or its
    /// `payload_bytes` is not a size at all).
    fn wrong_size(trace: &Trace<IdTableOp>) -> Option<String> {
        match PayloadSize::of_params(&trace.header.params) {
            Ok(size) if size == P::SIZE => None,
            Ok(size) => Some(format!(
                "this replay stores {} B objects but the trace asks for {} B",
                P::SIZE.bytes(),
                size.bytes()
            )),
            Err(reason) => Some(reason),
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
    #[expect(
        clippy::too_many_lines,
        reason = "the timed replay body: one function, so its few accumulators stay locals the loop keeps in registers"
    )]
    pub fn run<H: HandleIds<D::Id>>(
        &mut self,
        ops: &[IdTableOp],
        ids: &mut H,
    ) -> Result<IdTableDigest, ReplayError> {
        if let Some(reason) = &self.wrong_size {
            return Err(ReplayError {
                index: 0,
                op: ops.first().map_or_else(String::new, |op| format!("{op:?}")),
                error: reason.clone(),
            });
        }
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
            Some(
                IdTableOp::Get(_)
                    | IdTableOp::GetStale(_)
                    | IdTableOp::Remove(_)
                    | IdTableOp::Mutate(_)
            )
        );
        // `uniform_ids` consumes the segment's IDs: ask only when there is a fast path.
        if let Some(run) = has_fast_path.then(|| ids.uniform_ids(ops.len())).flatten() {
            match first.expect("a fast path has a first op") {
                IdTableOp::Get(_) => (hits, lookup_sum) = lookup_all(table, run),
                IdTableOp::GetStale(_) => {
                    for &id in run {
                        stale_hits += u64::from(table.get(id).is_some());
                    }
                    if stale_hits > 0 {
                        first_stale_hit = first_resolved(table, run);
                    }
                }
                IdTableOp::Remove(_) => {
                    for &id in run {
                        if let Some(p) = table.remove(id) {
                            hits += 1;
                            lookup_sum = lookup_sum.wrapping_add(mix_object(&p));
                        }
                    }
                }
                IdTableOp::Mutate(_) => {
                    for &id in run {
                        if let Some(p) = table.get_mut(id) {
                            p.mutate();
                            hits += 1;
                            lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                        }
                    }
                }
                IdTableOp::Add | IdTableOp::Iterate | IdTableOp::IterateMut | IdTableOp::Sort => {
                    unreachable!("no fast path, checked above")
                }
            }
            return Ok(IdTableDigest {
                hits,
                stale_hits,
                lookup_sum,
                ops: ops.len() as u64,
                first_stale_hit,
                ..IdTableDigest::default()
            });
        }
        for (index, &op) in ops.iter().enumerate() {
            match op {
                IdTableOp::Add => {
                    let id = table
                        .insert(P::for_handle(self.created))
                        .map_err(|error| ReplayError::at(index, op, error))?;
                    self.created += 1;
                    ids.created(id)
                        .map_err(|error| ReplayError::at(index, op, error))?;
                }
                IdTableOp::Get(h) => {
                    if let Some(p) = table.get(ids.id(h)) {
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                    }
                }
                IdTableOp::GetStale(h) => {
                    if table.get(ids.id(h)).is_some() {
                        stale_hits += 1;
                        first_stale_hit.get_or_insert(index as u64);
                    }
                }
                IdTableOp::Mutate(h) => {
                    if let Some(p) = table.get_mut(ids.id(h)) {
                        p.mutate();
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix_object(p));
                    }
                }
                IdTableOp::Remove(h) => {
                    if let Some(p) = table.remove(ids.id(h)) {
                        hits += 1;
                        lookup_sum = lookup_sum.wrapping_add(mix_object(&p));
                    }
                }
                IdTableOp::Iterate => {
                    let (sum, count) = iterate(table);
                    iterate_sum = iterate_sum.wrapping_add(sum);
                    iterated += count;
                }
                IdTableOp::Sort => sort(table),
                IdTableOp::IterateMut => iterated += iterate_mut(table),
            }
        }
        Ok(IdTableDigest {
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

/// Looks up every ID of `ids`: how many resolved, and the wrapping sum of [`mix_object`] over the
/// objects found.
///
/// The suite's one lookup loop: the timed replay runs a uniform run of `Get`s through it and
/// the `ref-direct-<design>` reference loop ([`reference::DirectLookup`]) calls it over a plain
/// `Vec` of the design's IDs. Out of line, so both run the same machine code per design and
/// their ratio (the results' `overhead`) is the replay driver's own cost alone: two inlined
/// copies of this loop, from the same source, differed by up to 25% in time at 1K (holey: 19
/// against 21 instructions per lookup, a constant not hoisted in one copy), which is
/// codegen, not the driver, and reordered close designs at 1M.
#[inline(never)]
pub fn lookup_all<D: IdTable<P>, P: Object>(table: &D, ids: &[D::Id]) -> (u64, u64) {
    let (mut hits, mut sum) = (0u64, 0u64);
    for &id in ids {
        if let Some(p) = table.get(id) {
            hits += 1;
            sum = sum.wrapping_add(mix_object(p));
        }
    }
    (hits, sum)
}

/// `IdTableOp::Iterate`: the sum of every live object's value, and how many there are.
///
/// The whole-table ops ([`iterate`], [`iterate_mut`], [`sort`]) are out of line: each visits
/// the whole table, so a call costs nothing next to it, and inlined into
/// [`IdTableState::run`] their loops would take registers from the single-object ops of mixed
/// bodies (callgrind on `churn`: accumulators and the table pointer spilled to the stack, 5
/// more instructions per op with `IdTableOp::Sort` in the loop).
#[inline(never)]
fn iterate<D: IdTable<P>, P: Object>(table: &D) -> (u64, u64) {
    table
        .iter()
        .fold((0u64, 0u64), |(s, c), p| (s.wrapping_add(p.value()), c + 1))
}

/// `IdTableOp::IterateMut`: bumps every live object; returns how many there are.
#[inline(never)]
fn iterate_mut<D: IdTable<P>, P: Object>(table: &mut D) -> u64 {
    table.iter_mut().fold(0u64, |c, p| {
        p.bump();
        c + 1
    })
}

/// `IdTableOp::Sort`: the design reorders its objects by value where it can.
#[inline(never)]
fn sort<D: IdTable<P>, P: Object>(table: &mut D) {
    table.sort_by_key(Object::value);
}

/// Index in `ids` of the first ID `table` resolves (out of line: only a failing replay of a
/// run of `GetStale`s asks).
#[cold]
#[inline(never)]
fn first_resolved<D: IdTable<P>, P: Object>(table: &D, ids: &[D::Id]) -> Option<u64> {
    ids.iter()
        .position(|&id| table.get(id).is_some())
        .map(|at| at as u64)
}

impl<D: IdTable<P> + 'static, P: Object> Replayer for IdTableState<D, P> {
    type Family = IdTableFamily;
    type Id = D::Id;

    fn design_name() -> &'static str {
        D::INFO.meta.name
    }

    /// A design given for one object size (an external design, say, implemented for
    /// [`Payload`] only) cannot run a trace of another size: `unsupported`, not `failed`; a
    /// trace whose removes cost more free-index shifts than the design's stated cap
    /// ([`over_remove_shift_cap`]).
    fn unsupported_trace(trace: &Trace<IdTableOp>) -> Option<String> {
        Self::wrong_size(trace).or_else(|| over_remove_shift_cap(&D::INFO, trace))
    }

    /// A fixed capacity below the trace's peak.
    fn unsupported_before(stats: &IdTableStats) -> Option<String> {
        if let Some(capacity) = D::INFO.capacity
            && (stats.peak_live as usize) > capacity
        {
            return Some(format!(
                "fixed capacity {capacity} is below the trace's peak of {} live objects",
                stats.peak_live
            ));
        }
        None
    }

    /// A design without stale detection on a trace with stale lookups; a design with a stale
    /// horizon ([`impls::id_table::StaleDetection`] bound) that resolved a stale ID on a trace long enough to
    /// pass it (at least as many body removals as the bound: a slot cannot be reused more
    /// often than objects are removed). The reason names the op of the first stale hit. A
    /// stale hit on a trace shorter than the bound is no documented limit: it stays a failure
    /// (the digest differs from the model's).
    fn unsupported_after(stats: &IdTableStats, body: &IdTableDigest) -> Option<String> {
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

    forward_replay!(IdTableState { for_trace, run }, handles: ids);

    forward_design!(table, live: len);
}

/// Design `C` replaying a trace with objects of the size the trace names
/// ([`PayloadSize::of_params`]): one [`IdTableState`] of `C`'s table of [`Payload8`],
/// [`Payload`] or [`Payload128`], chosen once per trace, so each op loop stays monomorphic.
pub enum IdTableReplay<C: Design> {
    /// 8-byte objects.
    B8(IdTableState<C::Table<Payload8>, Payload8>),
    /// 32-byte objects (every trace without a `payload_bytes` parameter).
    B32(IdTableState<C::Table<Payload>, Payload>),
    /// 128-byte objects.
    B128(IdTableState<C::Table<Payload128>, Payload128>),
}

/// Applies `$body` to the [`IdTableState`] inside a [`IdTableReplay`], whatever its size.
macro_rules! each_size {
    ($replay:expr, $state:ident => $body:expr) => {
        match $replay {
            IdTableReplay::B8($state) => $body,
            IdTableReplay::B32($state) => $body,
            IdTableReplay::B128($state) => $body,
        }
    };
}

impl<C: Design> IdTableReplay<C> {
    /// The object size of this replay.
    pub fn size(&self) -> PayloadSize {
        match self {
            IdTableReplay::B8(_) => PayloadSize::B8,
            IdTableReplay::B32(_) => PayloadSize::B32,
            IdTableReplay::B128(_) => PayloadSize::B128,
        }
    }
}

/// The 32-byte replay of design `C`, whose static answers (name, limits) are every size's.
type Replay32<C> = IdTableState<<C as Design>::Table<Payload>, Payload>;

impl<C: Design> Replayer for IdTableReplay<C> {
    type Family = IdTableFamily;
    type Id = C::Id;

    fn design_name() -> &'static str {
        Replay32::<C>::design_name()
    }

    fn unsupported_before(stats: &IdTableStats) -> Option<String> {
        Replay32::<C>::unsupported_before(stats)
    }

    /// The cap on free-index shifts, of every size (the size is this replay's to pick).
    fn unsupported_trace(trace: &Trace<IdTableOp>) -> Option<String> {
        over_remove_shift_cap(&<C::Table<Payload> as IdTable<Payload>>::INFO, trace)
    }

    fn unsupported_after(stats: &IdTableStats, body: &IdTableDigest) -> Option<String> {
        Replay32::<C>::unsupported_after(stats, body)
    }

    /// The state of the trace's object size (32 B, which then reports the error, if the trace
    /// names a size that is not one of the three).
    fn for_trace(trace: &Trace<IdTableOp>) -> Self {
        match PayloadSize::of_params(&trace.header.params) {
            Ok(PayloadSize::B8) => IdTableReplay::B8(IdTableState::for_trace(trace)),
            Ok(PayloadSize::B128) => IdTableReplay::B128(IdTableState::for_trace(trace)),
            Ok(PayloadSize::B32) | Err(_) => IdTableReplay::B32(IdTableState::for_trace(trace)),
        }
    }

    fn handles(&mut self) -> &mut HandleMap<C::Id> {
        each_size!(self, s => &mut s.ids)
    }

    fn run<H: HandleIds<C::Id>>(
        &mut self,
        ops: &[IdTableOp],
        ids: &mut H,
    ) -> Result<IdTableDigest, ReplayError> {
        each_size!(self, s => s.run(ops, ids))
    }

    fn memory_bytes(&self) -> u64 {
        each_size!(self, s => s.table.memory_bytes() as u64)
    }

    fn live_count(&self) -> usize {
        each_size!(self, s => s.table.len())
    }

    fn check_invariants(&self) -> Result<(), String> {
        each_size!(self, s => s.table.check_invariants())
    }
}
