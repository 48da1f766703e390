//! The spatial-index family's replay driver: applies [`SpatialOp`] traces to any design's 2D or
//! 3D [`SpatialIndex`] and digests what the queries found.
//!
//! A trace's first op, `Space`, fixes the dimension: the replayer builds the design's 2D or 3D
//! type then and runs the rest of the ops through one loop monomorphised for that type, so the
//! timed loop never branches on the dimension. Point handles are the design's IDs (the caller
//! chooses IDs in this family): handle `k` is inserted as ID `k`, and the handle map is the
//! identity, kept only so the shared resolve/timing path works unchanged.
//!
//! The run of inserts right after `Space` (every `sp-*` setup: `Space` then n inserts) goes
//! to the design as one batch, [`SpatialIndex::build`], so a crate's bulk load (`rstar`,
//! `kiddo`) builds the index as its users would; designs without one loop over `insert` (the
//! trait's default), the same calls as before. It stays in the untimed setup, with the same
//! handles, digest and errors (a refused point is reported at its insert op).
//!
//! Capability limits are decided before replaying ([`Replayer::unsupported_before`],
//! [`Replayer::unsupported_trace`]): 2D-only designs on 3D traces, the scan above its
//! live-point cap, and static designs on traces that change the points after that first run
//! of inserts.

mod claims;
mod metrics;
mod reference;
mod repro;

use impls::spatial::model::ModelIndex;
use impls::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignVisitor, SpatialIndex, for_each_spatial_design,
};
use serde::{Deserialize, Serialize};
use workloads::Trace;
use workloads::spatial::{SpatialOp, SpatialStats};

use super::contract::{
    Family, ReplayDigest, ReplayError, Replayer, ReplayerVisitor, RunSizes, StandaloneRepro,
    records_of,
};
use super::glue::{family_marker, forward_replay, merge_fields, visit_registry};
use super::resolved::{HandleIds, HandleMap};
pub use metrics::SpatialMetrics;
use results::DesignRecord;

family_marker! {
    /// The spatial indices: [`SpatialOp`] traces replayed on [`SpatialIndex`]es, checked against
    /// [`ModelIndex`].
    SpatialFamily
}

impl Family for SpatialFamily {
    type Op = SpatialOp;
    type Digest = SpatialDigest;
    type Model = SpatialReplay<ModelIndex<2>, ModelIndex<3>>;
    type Metrics = SpatialMetrics;

    const CLAIMS: &'static [&'static [results::ClaimSpec]] = &[claims::CLAIMS];
    const TITLE: &'static str = "Spatial indices";
    /// The article's fuzzy hash grid: it runs every workload.
    const REFERENCE_DESIGN: &'static str = "fuzzy_hash";
    /// Large-radius queries walk ~120 cells' lists: the memory-bound case.
    const MEMORY_BOUND_WORKLOADS: &'static [&'static str] = &["sp-large-radius"];
    const MEMORY_WORKLOADS: &'static [&'static str] = &["sp-uniform"];
    const LATENCY_WORKLOADS: &'static [&'static str] = &["sp-uniform", "sp-moving"];
    /// 256K points: past the last-level cache for every design's per-point arrays.
    const SWEEP_MAX_N: usize = 1 << 18;

    /// Quick: 1K only (CI's share: at 10K the family's quick run would take minutes on a
    /// loaded machine). Default: 1K and 100K; 1M is in the full matrix (`sp-moving` rebuilds 1M
    /// points per timed batch and the brute-force model takes about a second per workload
    /// there, over the family's 2-minute default share). The passes' quick size is 1K only,
    /// so the cache pass (valgrind) stays small for the family.
    const SIZES: RunSizes = RunSizes {
        quick: &[1_000],
        default: &[1_000, 100_000],
        full: &[1_000, 100_000, 1_000_000],
        passes_quick: &[1_000],
        passes: &[1_000, 100_000],
    };

    fn design_records() -> Vec<DesignRecord> {
        records_of(impls::spatial::spatial_designs(), design_record)
    }

    fn standalone_repro(design: &str, trace: &Trace<SpatialOp>) -> Option<StandaloneRepro> {
        repro::standalone_repro(design, trace)
    }

    fn for_each_replayer<V: ReplayerVisitor<Self>>(visitor: &mut V) {
        visit_registry!(
            visitor, SpatialFamily, for_each_spatial_design, SpatialDesignVisitor,
            [I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static]
                => SpatialReplay<I2, I3>
        );
        visitor.visit_loop::<reference::DirectRStar>();
        visitor.visit_loop::<reference::DirectKiddo>();
        visitor.visit_loop::<reference::DirectKiddoStatic>();
        visitor.visit_loop::<reference::DirectFlatSpatial>();
    }
}

/// The limit of a design with [`SpatialDesignInfo::static_only`].
const STATIC_LIMIT: &str = "static: built once from the setup's inserts; traces that insert, remove or move after them are unsupported";

/// The results record of a spatial design: its ID is the caller's `u32` point ID.
pub fn design_record(info: &SpatialDesignInfo) -> DesignRecord {
    let mut limits = Vec::new();
    if !info.supports_3d {
        limits.push("2D only: 3D traces unsupported".to_string());
    }
    if let Some(cap) = info.max_live {
        limits.push(format!("every query scans: at most {cap} live points"));
    }
    if info.static_only {
        limits.push(STATIC_LIMIT.to_string());
    }
    DesignRecord {
        id_bytes: std::mem::size_of::<PointId>(),
        limits: (!limits.is_empty()).then(|| limits.join("; ")),
        // Built once, a static tree packs its nodes for queries alone.
        contract_gaps: info
            .static_only
            .then(|| "no updates after the build".to_string())
            .into_iter()
            .collect(),
        ..crate::replay::design_record_of(SpatialFamily::RESULTS_FAMILY, &info.meta)
    }
}

/// What the queries of a replay found, as counts and order-independent sums: per query its
/// result count and the wrapping sum of its IDs, folded into one mixed value and summed over
/// queries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpatialDigest {
    /// `Query` ops.
    pub queries: u64,
    /// Points found by all queries.
    pub found: u64,
    /// Wrapping sum over queries of [`mix_query`]`(count, id sum)`.
    pub query_sum: u64,
    /// `Insert`, `Remove` and `Move` ops applied.
    pub updates: u64,
    /// Points the design holds after the replayed ops (read once after the loop).
    pub points_held: u64,
}

impl ReplayDigest<SpatialOp> for SpatialDigest {
    /// Adds the counts and sums; `points_held` is the later replay's.
    fn merge(&mut self, later: &SpatialDigest) {
        merge_fields!(
            self,
            later,
            add: [queries, found, updates],
            wrapping: [query_sum],
            later: [points_held],
        );
    }

    /// One per op but `Space` (as `SpatialStats::work_units` counts them).
    fn work_units(&self, ops: &[SpatialOp]) -> u64 {
        ops.iter()
            .filter(|op| !matches!(op, SpatialOp::Space { .. }))
            .count() as u64
    }
}

/// One query's answer as a digest term: its count and its ID sum, each times its own odd
/// constant, so a design that finds other points, or one point twice, changes the sum.
#[inline(always)]
pub fn mix_query(count: u64, id_sum: u64) -> u64 {
    let h = count.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ id_sum.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^ (h >> 29)
}

/// The design once the trace's `Space` op has fixed the dimension.
#[derive(Debug)]
enum Built<I2, I3> {
    /// No `Space` op replayed yet.
    Empty,
    Two(I2),
    Three(I3),
}

/// A spatial design (its 2D and 3D types) plus the handle map: the state a trace is replayed
/// on.
pub struct SpatialReplay<I2, I3> {
    index: Built<I2, I3>,
    /// `ids[k] == k`: the identity map of the shared replay path.
    ids: HandleMap<PointId>,
    /// The next handle an `Insert` creates.
    next: PointId,
}

/// The number of inserts at the start of `ops`: the batch a trace's `Space` builds from.
fn leading_inserts(ops: &[SpatialOp]) -> usize {
    ops.iter()
        .take_while(|op| matches!(op, SpatialOp::Insert(_)))
        .count()
}

/// Builds design `I` for `space` from `inserts` (all `Insert` ops, the trace's op `offset`
/// on) in one [`SpatialIndex::build`] call: handle `k` of the batch is ID `k`, handed to `ids`
/// in order as the op-by-op loop would.
fn build_on<const D: usize, I: SpatialIndex<D>, H: HandleIds<PointId>>(
    space: &Space<D>,
    inserts: &[SpatialOp],
    offset: usize,
    ids: &mut H,
) -> Result<I, ReplayError> {
    let points: Vec<(PointId, [f32; D])> = inserts
        .iter()
        .enumerate()
        .map(|(k, op)| match op {
            SpatialOp::Insert(c) => (k as PointId, c.first::<D>()),
            _ => unreachable!("leading_inserts counts inserts only"),
        })
        .collect();
    // Point `k` of the batch has ID `k`, so the refused ID names its op (a design naming
    // another is reported at the batch's start).
    let index = I::build(space, &points).map_err(|e| {
        let k = e.id() as usize;
        match inserts.get(k) {
            Some(&op) => ReplayError::at(offset + k, op, e),
            None => ReplayError::at(offset, "the setup's inserts, as one build", e),
        }
    })?;
    for (k, &(id, _)) in points.iter().enumerate() {
        ids.created(id)
            .map_err(|e| ReplayError::at(offset + k, inserts[k], e))?;
    }
    Ok(index)
}

/// Applies `ops` (no `Space` among them) to `index`, creating handles from `*next` on.
#[inline(never)]
fn run_on<const D: usize, I: SpatialIndex<D>, H: HandleIds<PointId>>(
    index: &mut I,
    ops: &[SpatialOp],
    offset: usize,
    next: &mut PointId,
    ids: &mut H,
) -> Result<SpatialDigest, ReplayError> {
    let mut d = SpatialDigest::default();
    let (mut found, mut query_sum, mut updates) = (0u64, 0u64, 0u64);
    for (k, &op) in ops.iter().enumerate() {
        let at = k + offset;
        let refused = |error| ReplayError::at(at, op, error);
        match op {
            SpatialOp::Insert(c) => {
                let id = *next;
                index.insert(id, c.first::<D>()).map_err(refused)?;
                *next += 1;
                ids.created(id).map_err(|e| ReplayError::at(at, op, e))?;
                updates += 1;
            }
            SpatialOp::Remove(h) => {
                index.remove(ids.id(h)).map_err(refused)?;
                updates += 1;
            }
            SpatialOp::Move(h, c) => {
                index.move_to(ids.id(h), c.first::<D>()).map_err(refused)?;
                updates += 1;
            }
            SpatialOp::Query(c, r) => {
                let (mut count, mut sum) = (0u64, 0u64);
                index.query(c.first::<D>(), r.get(), |id| {
                    count += 1;
                    sum = sum.wrapping_add(u64::from(id));
                });
                found += count;
                query_sum = query_sum.wrapping_add(mix_query(count, sum));
                d.queries += 1;
            }
            SpatialOp::Space { .. } => {
                return Err(ReplayError::at(at, op, "Space is only the first op"));
            }
        }
    }
    d.found = found;
    d.query_sum = query_sum;
    d.updates = updates;
    d.points_held = index.len() as u64;
    Ok(d)
}

impl<I2: SpatialIndex<2>, I3: SpatialIndex<3>> SpatialReplay<I2, I3> {
    /// An empty replay state with room in the handle map for `trace`'s handles.
    pub fn for_trace(trace: &Trace<SpatialOp>) -> Self {
        Self {
            index: Built::Empty,
            ids: HandleMap::with_capacity(trace.handle_count()),
            next: 0,
        }
    }

    /// Applies `ops` in order and returns what the queries found.
    ///
    /// # Errors
    /// The design refused an op, or an op came before the trace's `Space`.
    pub fn run<H: HandleIds<PointId>>(
        &mut self,
        ops: &[SpatialOp],
        ids: &mut H,
    ) -> Result<SpatialDigest, ReplayError> {
        let mut rest = ops;
        let mut offset = 0;
        let mut built = 0;
        if let Some(&SpatialOp::Space {
            dims,
            radius,
            lo,
            hi,
        }) = ops.first()
        {
            let r = radius.get();
            built = leading_inserts(&ops[1..]);
            let inserts = &ops[1..1 + built];
            self.index = if dims == 3 {
                let space = Space {
                    radius: r,
                    lo: lo.first(),
                    hi: hi.first(),
                };
                Built::Three(build_on::<3, I3, H>(&space, inserts, 1, ids)?)
            } else {
                let space = Space {
                    radius: r,
                    lo: lo.first(),
                    hi: hi.first(),
                };
                Built::Two(build_on::<2, I2, H>(&space, inserts, 1, ids)?)
            };
            self.next = built as PointId;
            rest = &ops[1 + built..];
            offset = 1 + built;
        }
        let digest = match &mut self.index {
            Built::Two(i) => run_on::<2, _, _>(i, rest, offset, &mut self.next, ids),
            Built::Three(i) => run_on::<3, _, _>(i, rest, offset, &mut self.next, ids),
            Built::Empty if rest.is_empty() => Ok(SpatialDigest::default()),
            Built::Empty => Err(ReplayError::at(
                0,
                rest[0],
                "a spatial trace starts with Space",
            )),
        };
        // The batch's inserts count as the op-by-op loop counts them.
        digest.map(|d| SpatialDigest {
            updates: d.updates + built as u64,
            ..d
        })
    }

    fn len(&self) -> usize {
        match &self.index {
            Built::Empty => 0,
            Built::Two(i) => i.len(),
            Built::Three(i) => i.len(),
        }
    }

    fn memory(&self) -> usize {
        match &self.index {
            Built::Empty => 0,
            Built::Two(i) => i.memory_bytes(),
            Built::Three(i) => i.memory_bytes(),
        }
    }

    fn longest_chain(&self) -> Option<u64> {
        match &self.index {
            Built::Empty => None,
            Built::Two(i) => i.longest_chain(),
            Built::Three(i) => i.longest_chain(),
        }
    }
}

/// Replays `ops` (untimed, op by op), summing the design's [`SpatialIndex::query_cost`] over
/// the queries (`None` when the design cannot tell) and the points the queries found.
fn cost_on<const D: usize, I: SpatialIndex<D>>(
    index: &mut I,
    ops: &[SpatialOp],
    next: &mut PointId,
    ids: &mut HandleMap<PointId>,
) -> Result<(Option<(u64, u64)>, u64), ReplayError> {
    let (mut cells, mut tested, mut known, mut found) = (0u64, 0u64, true, 0u64);
    for (at, &op) in ops.iter().enumerate() {
        if let SpatialOp::Query(c, r) = op {
            match index.query_cost(c.first::<D>(), r.get()) {
                Some(cost) => {
                    cells += cost.cells;
                    tested += cost.tested;
                }
                None => known = false,
            }
        }
        found += run_on::<D, I, _>(index, std::slice::from_ref(&op), at, next, ids)?.found;
    }
    Ok((known.then_some((cells, tested)), found))
}

impl<I2: SpatialIndex<2> + 'static, I3: SpatialIndex<3> + 'static> Replayer
    for SpatialReplay<I2, I3>
{
    type Family = SpatialFamily;
    type Id = PointId;

    fn design_name() -> &'static str {
        I2::INFO.meta.name
    }

    fn unsupported_before(stats: &SpatialStats) -> Option<String> {
        let info = I2::INFO;
        if stats.dims == 3 && !info.supports_3d {
            return Some("2D only: the trace is 3D".to_string());
        }
        if let Some(cap) = info.max_live
            && stats.peak_live > cap as u64
        {
            return Some(format!(
                "every query scans all points: capped at {cap} live, the trace has {}",
                stats.peak_live
            ));
        }
        let changes = stats.inserts + stats.removes + stats.moves;
        if info.static_only && changes > 0 {
            return Some(format!(
                "{STATIC_LIMIT}: the body has {} inserts, {} removes, {} moves",
                stats.inserts, stats.removes, stats.moves
            ));
        }
        None
    }

    fn unsupported_trace(trace: &Trace<SpatialOp>) -> Option<String> {
        let after_space = trace.setup.get(1..).unwrap_or_default();
        let later = &after_space[leading_inserts(after_space)..];
        (I2::INFO.static_only && !later.is_empty()).then(|| {
            format!(
                "{STATIC_LIMIT}: the setup has {} more ops after its first {} inserts",
                later.len(),
                after_space.len() - later.len()
            )
        })
    }

    forward_replay!(SpatialReplay { for_trace, run }, handles: ids);

    fn memory_bytes(&self) -> u64 {
        self.memory() as u64
    }

    fn live_count(&self) -> usize {
        self.len()
    }

    fn measure(
        trace: &Trace<SpatialOp>,
        stats: &SpatialStats,
    ) -> Result<Option<SpatialMetrics>, ReplayError> {
        let mut state = Self::after_setup(trace)?;
        let points = state.len() as u64;
        let memory = state.memory() as u64;
        let longest_chain = state.longest_chain();
        let (mut next, mut ids) = (state.next, std::mem::take(&mut state.ids));
        let (cost, found) = match &mut state.index {
            Built::Empty => (None, 0),
            Built::Two(i) => cost_on::<2, _>(i, &trace.body, &mut next, &mut ids)?,
            Built::Three(i) => cost_on::<3, _>(i, &trace.body, &mut next, &mut ids)?,
        };
        let per_query = |v: u64| (stats.queries > 0).then(|| v as f64 / stats.queries as f64);
        Ok(Some(SpatialMetrics {
            points_after_setup: points,
            bytes_per_point: (points > 0).then(|| memory as f64 / points as f64),
            found_per_query: per_query(found),
            cells_per_query: cost
                .filter(|&(cells, _)| cells > 0)
                .and_then(|(cells, _)| per_query(cells)),
            tested_per_query: cost.and_then(|(_, tested)| per_query(tested)),
            longest_chain,
        }))
    }

    fn check_invariants(&self) -> Result<(), String> {
        match &self.index {
            Built::Empty => Ok(()),
            Built::Two(i) => i.check_invariants(),
            Built::Three(i) => i.check_invariants(),
        }
    }
}
