//! The spatial-index family: points with caller-chosen `u32` IDs in 2D or 3D, and "visit every
//! point within radius r of here" ([`SpatialIndex::query`]).
//!
//! From the "Fuzzy hashing" section of "Data Structures Part 2: Indices" (Our Machinery, Niklas
//! Gray): quantise positions to a grid whose cell is twice the search radius, hash the integer
//! cell coordinates (`mix(ix, iy)`), keep each cell's points as a set of the index article
//! (a hash to the first element plus intrusive cyclic lists), and answer a query from the 2^n
//! cells nearest the point ([`fuzzy_hash`]). Against it: the XOR key the article warns about,
//! a cell-size sweep, a brute-force scan, the article's sorted-by-x counterexample, a tuned
//! dense grid over known bounds, and published crates used as their docs show
//! (`flat_spatial`'s grid, `rstar` bulk-loaded, `kiddo`'s mutable tree and its static
//! `ImmutableKdTree`).
//!
//! # Semantics (the same for every design, checked by `impls/tests/integration/spatial_model.rs` and, at
//! the extremes, `impls/tests/integration/spatial_limits.rs`)
//! * The dimension is a const generic `D` (2 or 3); a design registers its 2D and 3D types
//!   ([`registry::for_each_spatial_design`]).
//! * Positions: every finite `[f32; D]`, from subnormals to ±`f32::MAX`. An insert or move to
//!   a position with a NaN or infinite coordinate is refused ([`SpatialError::NotFinite`]).
//!   Documented limits of crates are refused with [`SpatialError::Unsupported`], never a
//!   panic: the `kiddo` peer holds at most 32 points at one exact position
//!   ([`peers::kiddo`]); `kiddo_static` ([`SpatialDesignInfo::static_only`]) is built once
//!   and refuses every later insert, remove and move.
//! * IDs are the caller's, `0..=`[`MAX_POINT_ID`]: a larger ID is refused by insert, move and
//!   remove alike ([`SpatialError::IdTooLarge`]); inserting a live ID, or removing or moving a
//!   dead one, is an error too. Checks run in that order (ID range, then the position, then
//!   the ID's state), and every error leaves the index unchanged.
//! * [`query`](SpatialIndex::query) takes any centre and any radius and calls `f(id)` exactly
//!   once for every live point `p` with [`within`]`(p, center, r)`: the squared distance summed
//!   in axis order in `f32`, compared with `r * r` (`<=`), as the model computes it, with
//!   nothing added. So a negative `r` acts as `|r|`; a NaN `r` (or a NaN or infinite centre
//!   with a finite `r * r`) finds nothing; and an `r` whose square is `+inf` (`|r|` above about
//!   1.8e19, or infinite) finds every live point, even those whose own squared distance
//!   overflows. Order is design-defined. Cell and window designs answer the last case by one
//!   pass over their points ([`needs_full_scan`]), and the hashed grids (`fuzzy_hash*`,
//!   `flat_spatial`) do the same when the query's box has more cells than they hold keys or
//!   points, so no query costs more than one pass over the index (`dense_grid`: over its
//!   fixed grid).
//! * A point set known up front is handed over in one call, [`SpatialIndex::build`] (the
//!   replayer's untimed setup): its default is `new` plus one `insert` per point, with the
//!   same checks and errors, so only designs with a bulk path (a crate's bulk load) override
//!   it.
//! * The [`Space`] a design is built for (the design radius and the bounds the workload keeps
//!   its points in) is a performance hint only: it changes no answer, and any value is
//!   accepted ([`Space::sanitized`]: a radius that is not positive and finite becomes
//!   [`Space::DEFAULT_RADIUS`], non-finite bounds become the whole finite range).
//!
//! Adding a design: write `<design>.rs` (or `peers/<crate>.rs`) implementing [`SpatialIndex`]
//! for `D = 2` and `D = 3`, then add one line to [`registry::for_each_spatial_design`].

pub mod dense_grid;
pub mod fuzzy_hash;
pub mod model;
pub mod peers;
pub mod registry;
pub mod scan;
pub mod sorted_x;

pub use registry::{
    SpatialDesignVisitor, find_spatial_design, for_each_spatial_design, spatial_designs,
};

use crate::DesignMeta;
use thiserror::Error;

/// A point's ID, chosen by the caller (the trace's handle), at most [`MAX_POINT_ID`].
pub type PointId = u32;

/// The largest [`PointId`] an index accepts: 2^24 - 1 (16.7M).
///
/// Designs keep per-ID side arrays indexed by the ID (the article's layout: an ID is an
/// index), so one insert at ID `k` allocates `k + 1` slots of up to 21 bytes; an unbounded
/// `u32` would let one call ask for ~90 GB and abort the process. Traces name points by dense
/// handles (the `k`-th insert is ID `k`) and benchmarks go to 1M points, so 2^24 leaves 16×
/// headroom while a worst-case insert costs at most ~350 MB. Larger IDs are refused
/// ([`SpatialError::IdTooLarge`]); `workloads::spatial` refuses traces with more inserts.
pub const MAX_POINT_ID: PointId = (1 << 24) - 1;

/// The space a design is built for: known before the first insert. A performance hint only:
/// designs read it through [`Space::sanitized`], so no value of it can fail or change an
/// answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Space<const D: usize> {
    /// The radius queries are designed for (the article's "within 5 m": cell = 2 × radius).
    pub radius: f32,
    /// Lower corner of the box the workload keeps its points in (a hint, see the module docs).
    pub lo: [f32; D],
    /// Upper corner of that box.
    pub hi: [f32; D],
}

impl<const D: usize> Space<D> {
    /// The radius a design is built for when [`Space::radius`] is zero, negative, NaN or
    /// infinite (a cell of 2, as for a unit search radius).
    pub const DEFAULT_RADIUS: f32 = 1.0;

    /// This space with every hint usable by a design's `new`: a radius that is not positive
    /// and finite becomes [`Self::DEFAULT_RADIUS`]; a NaN or infinite bound becomes unbounded
    /// on its side (`-f32::MAX` for `lo`, `f32::MAX` for `hi`: every finite position is
    /// inside). Trace validation already refuses such spaces; a library caller may pass any.
    pub fn sanitized(&self) -> Self {
        let bound = |v: f32, unbounded: f32| if v.is_finite() { v } else { unbounded };
        Self {
            radius: if self.radius.is_finite() && self.radius > 0.0 {
                self.radius
            } else {
                Self::DEFAULT_RADIUS
            },
            lo: self.lo.map(|v| bound(v, -f32::MAX)),
            hi: self.hi.map(|v| bound(v, f32::MAX)),
        }
    }
}

/// A failure a user of an index can cause. The index is unchanged after any of them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SpatialError {
    /// The ID names no live point.
    #[error("no live point {id}")]
    NoSuchPoint {
        /// The ID passed in.
        id: PointId,
    },
    /// The ID is already live.
    #[error("point {id} is already live")]
    AlreadyLive {
        /// The ID passed in.
        id: PointId,
    },
    /// The ID is above [`MAX_POINT_ID`].
    #[error("point ID {id} is above the largest supported ID {max}")]
    IdTooLarge {
        /// The ID passed in.
        id: PointId,
        /// [`MAX_POINT_ID`].
        max: PointId,
    },
    /// The position has a NaN or infinite coordinate.
    #[error("point {id}: position has a NaN or infinite coordinate")]
    NotFinite {
        /// The ID passed in.
        id: PointId,
    },
    /// A documented limit of the design (a crate's), which would otherwise panic or corrupt
    /// it: e.g. a static index asked to change, or more copies of one position than a
    /// crate's buckets hold.
    #[error("point {id}: {reason}")]
    Unsupported {
        /// The ID passed in.
        id: PointId,
        /// The limit, in one line.
        reason: &'static str,
    },
}

impl SpatialError {
    /// The ID of the call that failed (every error names one): in a [`SpatialIndex::build`],
    /// which point of the batch was refused.
    pub fn id(&self) -> PointId {
        match *self {
            SpatialError::NoSuchPoint { id }
            | SpatialError::AlreadyLive { id }
            | SpatialError::IdTooLarge { id, .. }
            | SpatialError::NotFinite { id }
            | SpatialError::Unsupported { id, .. } => id,
        }
    }
}

/// [`SpatialError::IdTooLarge`] unless `id <= MAX_POINT_ID`: the first check of every
/// insert, move and remove (before any side array is indexed or grown).
///
/// # Errors
/// [`SpatialError::IdTooLarge`].
#[inline(always)]
pub fn check_id(id: PointId) -> Result<(), SpatialError> {
    if id <= MAX_POINT_ID {
        Ok(())
    } else {
        Err(SpatialError::IdTooLarge {
            id,
            max: MAX_POINT_ID,
        })
    }
}

/// [`check_id`], then [`SpatialError::NotFinite`] unless every coordinate of `p` is finite:
/// what every insert and move checks before changing anything.
///
/// # Errors
/// [`SpatialError::IdTooLarge`], [`SpatialError::NotFinite`].
#[inline(always)]
pub fn check_point<const D: usize>(id: PointId, p: &[f32; D]) -> Result<(), SpatialError> {
    check_id(id)?;
    if p.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(SpatialError::NotFinite { id })
    }
}

/// The checks [`SpatialIndex::insert`] makes, for a whole batch in order, for a
/// [`SpatialIndex::build`] override that loads the crate in one call afterwards: each point
/// passes [`check_point`], then is marked in `live` (grown with [`grow_to`]), refused with
/// [`SpatialError::AlreadyLive`] if an earlier point of the batch (or `live` already) has its
/// ID.
///
/// # Errors
/// The first point's error, as the looping default would return it. `live` is then partly
/// written: callers drop it with the failed build.
pub(crate) fn check_batch<const D: usize>(
    points: &[(PointId, [f32; D])],
    live: &mut Vec<bool>,
) -> Result<(), SpatialError> {
    for &(id, p) in points {
        check_point(id, &p)?;
        let l = grow_to(live, id, false);
        if *l {
            return Err(SpatialError::AlreadyLive { id });
        }
        *l = true;
    }
    Ok(())
}

/// Where a design comes from (the kind every family shares).
pub use crate::kind::DesignKind as SpatialDesignKind;

/// What the registry and the reports know of a spatial design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpatialDesignInfo {
    /// Name, description and origin, as every family\'s designs give them.
    pub meta: DesignMeta,
    /// Whether the design answers 3D traces (a 2D-only crate does not).
    pub supports_3d: bool,
    /// For designs whose every query scans all points: the most live points a benchmark
    /// replays on them (above it the trace is unsupported, never a multi-minute replay).
    pub max_live: Option<usize>,
    /// Whether the design is static: built once by [`SpatialIndex::build`], it refuses every
    /// later insert, remove and move ([`SpatialError::Unsupported`]), so a trace that
    /// changes the points after its setup's inserts is unsupported (decided before replaying).
    pub static_only: bool,
}

/// What one query cost a design, by its own structure (the article's figures).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueryCost {
    /// Grid cells (hash lookups, dense cells) the query looked at; 0 for designs without cells.
    pub cells: u64,
    /// Points whose distance the query computed (or that it walked past, for colliding keys).
    pub tested: u64,
}

/// A point index answering radius queries. See the [module docs](self).
///
/// # Contract (checked for every design by `impls/tests/integration/spatial_model.rs`)
/// * The live points are those inserted and not removed; each has the position of its last
///   insert or move.
/// * A method naming an ID in the wrong state returns a [`SpatialError`] and changes nothing.
pub trait SpatialIndex<const D: usize>: Sized {
    /// Name, kind and capabilities of this design (the same for its 2D and 3D types).
    const INFO: SpatialDesignInfo;

    /// An empty index for `space` (any value: designs read it through [`Space::sanitized`]).
    fn new(space: &Space<D>) -> Self;

    /// An index for `space` holding `points`, in one call: the entry point for a point set
    /// known up front, where a crate's users bulk-load (`RTree::bulk_load`,
    /// `ImmutableKdTree::new_from_slice`). The default is [`new`](Self::new) and one
    /// [`insert`](Self::insert) per point in order; an override keeps its errors exactly.
    ///
    /// # Errors
    /// The first point [`insert`](Self::insert) would refuse, in order, with insert's error
    /// (its [`SpatialError::id`] names the point); no index is returned.
    fn build(space: &Space<D>, points: &[(PointId, [f32; D])]) -> Result<Self, SpatialError> {
        let mut index = Self::new(space);
        for &(id, p) in points {
            index.insert(id, p)?;
        }
        Ok(index)
    }

    /// Adds point `id` at `p`.
    ///
    /// # Errors
    /// In this order: [`SpatialError::IdTooLarge`], [`SpatialError::NotFinite`],
    /// [`SpatialError::AlreadyLive`] (the checks of [`check_point`], then the ID's state).
    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError>;

    /// Removes point `id`.
    ///
    /// # Errors
    /// [`SpatialError::IdTooLarge`], then [`SpatialError::NoSuchPoint`].
    fn remove(&mut self, id: PointId) -> Result<(), SpatialError>;

    /// Moves point `id` to `p`.
    ///
    /// # Errors
    /// In this order: [`SpatialError::IdTooLarge`], [`SpatialError::NotFinite`],
    /// [`SpatialError::NoSuchPoint`].
    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError>;

    /// Calls `f(id)` once for every live point [`within`] `r` of `center`, for any `center`
    /// and `r` (see the [module docs](self) for NaN, negative and huge radii). Takes
    /// `&mut self` so designs that update lazily (a deferred sort, a peer's `maintain`) can
    /// catch up.
    fn query(&mut self, center: [f32; D], r: f32, f: impl FnMut(PointId));

    /// What [`query`](Self::query) at `center`, `r` costs by the design's own structure, or
    /// `None` where it cannot tell (peers). Untimed: the family metrics.
    fn query_cost(&mut self, center: [f32; D], r: f32) -> Option<QueryCost> {
        let _ = (center, r);
        None
    }

    /// The most points one bucket (a hash key's list, a dense cell) holds now, `None` for
    /// designs without buckets: where the XOR key's diagonal collisions show.
    fn longest_chain(&self) -> Option<u64> {
        None
    }

    /// Number of live points.
    fn len(&self) -> usize;

    /// Whether no point is live.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Heap bytes the index holds now, by its own accounting (capacity times element size of
    /// every buffer, hash tables by their buckets; peers a documented estimate). Excludes
    /// `size_of::<Self>()`.
    fn memory_bytes(&self) -> usize;

    /// Checks the design's internal invariants. Called by the property test after every
    /// operation.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    fn check_invariants(&self) -> Result<(), String>;
}

/// Squared distance of `a` and `b`: per axis `d = a - b`, `d * d` summed in axis order, all in
/// `f32`. The one distance of the family's contract.
#[inline(always)]
pub fn distance_squared<const D: usize>(a: &[f32; D], b: &[f32; D]) -> f32 {
    let mut sum = 0.0f32;
    for (x, y) in a.iter().zip(b) {
        let d = x - y;
        sum += d * d;
    }
    sum
}

/// Whether `p` is within `r` of `center` by the family's contract:
/// `distance_squared(p, center) <= r * r`.
#[inline(always)]
pub fn within<const D: usize>(p: &[f32; D], center: &[f32; D], r: f32) -> bool {
    distance_squared(p, center) <= r * r
}

/// `|r|` widened by a relative 2^-20 and an absolute 1e-20, in `f64`: every point [`within`]
/// `r` has each coordinate within the widened radius of the centre's (the `f32` sum can
/// accept a point up to a few ulps outside the exact ball, and a tiny `r * r` underflows), so
/// a design that picks candidate cells or windows by coordinate never misses one. Holds
/// while `r * r` is finite; otherwise no box covers the answer ([`needs_full_scan`]).
#[inline(always)]
pub fn search_radius(r: f32) -> f64 {
    f64::from(r).abs() * (1.0 + 1.0 / (1u64 << 20) as f64) + 1e-20
}

/// Whether a query of radius `r` must test every live point instead of a box of candidates:
/// `r * r` is not finite. An infinite square (`|r|` above about 1.8e19, or infinite) makes
/// [`within`] accept points at any distance, even one whose own squared distance overflows
/// to `+inf`, so no box around the centre holds the answer; a NaN square accepts nothing, and
/// the full pass finds that too. Cell and window designs check it once per query, before
/// their fast path.
#[inline(always)]
pub fn needs_full_scan(r: f32) -> bool {
    !(r * r).is_finite()
}

/// Grid arithmetic shared by the grid designs: the cell of a coordinate and the range of cells
/// a query must look at, both through the same monotone `floor(v * inv_cell)` in `f64`, so a
/// point always lies in a cell its query range covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridMath {
    /// Cell edge length.
    pub cell: f64,
    /// `1 / cell`.
    pub inv_cell: f64,
}

impl GridMath {
    /// A grid of cell edge `cell` (positive, finite).
    pub fn new(cell: f64) -> Self {
        assert!(
            cell.is_finite() && cell > 0.0,
            "cell size {cell} must be positive"
        );
        Self {
            cell,
            inv_cell: 1.0 / cell,
        }
    }

    /// The cell coordinate of `v` (saturating at the `i64` range).
    #[inline(always)]
    pub fn coord(&self, v: f64) -> i64 {
        (v * self.inv_cell).floor() as i64
    }

    /// The cell of position `p`.
    #[inline(always)]
    pub fn cell_of<const D: usize>(&self, p: &[f32; D]) -> [i64; D] {
        std::array::from_fn(|k| self.coord(f64::from(p[k])))
    }

    /// The lowest and highest cell per axis a query at `center`, `r` must visit.
    #[inline(always)]
    pub fn query_range<const D: usize>(&self, center: &[f32; D], r: f32) -> ([i64; D], [i64; D]) {
        let r = search_radius(r);
        (
            std::array::from_fn(|k| self.coord(f64::from(center[k]) - r)),
            std::array::from_fn(|k| self.coord(f64::from(center[k]) + r)),
        )
    }
}

/// Number of cells in the box `lo..=hi` (saturating; 0 for an empty box).
pub fn cells_in<const D: usize>(lo: &[i64; D], hi: &[i64; D]) -> u64 {
    let mut n: u64 = 1;
    for (l, h) in lo.iter().zip(hi) {
        let span = (*h as i128 - *l as i128 + 1).max(0);
        n = n.saturating_mul(u64::try_from(span).unwrap_or(u64::MAX));
    }
    n
}

/// Calls `f(cell)` for every cell of the box `lo..=hi`, last axis outermost.
#[inline(always)]
pub fn for_each_cell<const D: usize>(lo: &[i64; D], hi: &[i64; D], mut f: impl FnMut([i64; D])) {
    if (0..D).any(|k| lo[k] > hi[k]) {
        return;
    }
    let mut c = *lo;
    loop {
        f(c);
        let mut k = 0;
        loop {
            if k == D {
                return;
            }
            if c[k] < hi[k] {
                c[k] += 1;
                break;
            }
            c[k] = lo[k];
            k += 1;
        }
    }
}

/// Counts what a query does, so one query routine serves the timed path ([`NoTally`], which
/// compiles to nothing) and the untimed cost metrics ([`QueryCost`]).
pub(crate) trait Tally {
    /// The query looked at one more cell.
    fn cell(&mut self);
    /// The query walked past one more point.
    fn tested(&mut self);
}

/// The timed path's tally: counts nothing.
pub(crate) struct NoTally;

impl Tally for NoTally {
    #[inline(always)]
    fn cell(&mut self) {}
    #[inline(always)]
    fn tested(&mut self) {}
}

impl Tally for QueryCost {
    fn cell(&mut self) {
        self.cells += 1;
    }
    fn tested(&mut self) {
        self.tested += 1;
    }
}

/// The slot of `id` in a per-ID side array, growing it with `fill` up to `id`. Callers have
/// passed [`check_id`] (so the array stays within `MAX_POINT_ID + 1` slots).
pub(crate) fn grow_to<T: Clone>(v: &mut Vec<T>, id: PointId, fill: T) -> &mut T {
    debug_assert!(id <= MAX_POINT_ID, "grow_to({id}) without check_id");
    let at = id as usize;
    if v.len() <= at {
        v.resize(at + 1, fill);
    }
    &mut v[at]
}

/// `Ok` when `id` is live by a design's live flags (`live[id]`, IDs past the end not live).
///
/// # Errors
/// [`SpatialError::NoSuchPoint`].
#[inline]
pub(crate) fn check_live(live: &[bool], id: PointId) -> Result<(), SpatialError> {
    if live.get(id as usize).copied().unwrap_or(false) {
        Ok(())
    } else {
        Err(SpatialError::NoSuchPoint { id })
    }
}

/// Heap bytes of a `Vec<T>` by capacity.
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * size_of::<T>()
}

/// Asserts that a crate's squared distance, `theirs(p, q)`, is the family's
/// [`distance_squared`] of `p` and `q` bit for bit, over every triple of a grid of ordinary and
/// extreme coordinates with `extra` added: the premise of a peer that takes the crate's own
/// answer to a radius query as is.
#[cfg(test)]
pub(crate) fn assert_crate_distance_is_the_familys(
    extra: &[f32],
    theirs: impl Fn(&[f32; 3], &[f32; 3]) -> f32,
) {
    let mut values = vec![
        0.0f32,
        -0.0,
        1.0,
        -3.5,
        0.1,
        1e-45,
        1.17e-38,
        1e19,
        1.9e19,
        3e38,
        f32::MAX,
        -f32::MAX,
        7.3e-3,
        12345.678,
    ];
    values.extend_from_slice(extra);
    for &a in &values {
        for &b in &values {
            for &c in &values {
                let (p, q) = ([a, b, c], [c, a, -b]);
                assert_eq!(
                    theirs(&p, &q).to_bits(),
                    distance_squared(&p, &q).to_bits(),
                    "{p:?} {q:?}"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cover_the_ball_and_enumerate_in_order() {
        let g = GridMath::new(2.0);
        assert_eq!(g.cell_of(&[-0.5f32, 1.999]), [-1, 0]);
        assert_eq!(g.cell_of(&[-2.0f32, 2.0]), [-1, 1]);
        let (lo, hi) = g.query_range(&[1.0f32, -1.0], 1.0);
        assert_eq!((lo, hi), ([-1, -2], [1, 0]));
        let mut seen = Vec::new();
        for_each_cell(&[0i64, 5], &[1, 6], |c| seen.push(c));
        assert_eq!(seen, [[0, 5], [1, 5], [0, 6], [1, 6]]);
        assert_eq!(cells_in(&lo, &hi), 9);
        assert_eq!(cells_in(&[1i64], &[0]), 0);
        assert!(within(&[3.0f32, 4.0], &[0.0, 0.0], 5.0));
        assert!(!within(&[3.0f32, 4.0], &[0.0, 0.0], 4.999));
    }

    #[test]
    fn ids_and_positions_are_checked_and_full_scans_named() {
        assert_eq!(check_point(MAX_POINT_ID, &[f32::MAX, -f32::MAX]), Ok(()));
        assert_eq!(
            check_point(MAX_POINT_ID + 1, &[f32::NAN, 0.0]),
            Err(SpatialError::IdTooLarge {
                id: MAX_POINT_ID + 1,
                max: MAX_POINT_ID
            })
        );
        assert_eq!(
            check_point(7, &[0.0, f32::NEG_INFINITY]),
            Err(SpatialError::NotFinite { id: 7 })
        );
        assert!(check_id(u32::MAX).is_err());
        // A negative radius searches the box of |r|, as `within` squares it.
        assert_eq!(search_radius(-2.0), search_radius(2.0));
        assert!(within(&[1.0f32, 1.0], &[0.0, 0.0], -2.0));
        for r in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.9e19, f32::MAX] {
            assert!(needs_full_scan(r), "{r}");
        }
        for r in [0.0, 1.0, -1.0, 1e19, 1e-45] {
            assert!(!needs_full_scan(r), "{r}");
        }
    }
}
