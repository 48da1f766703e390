//! The op vocabulary of the spatial-index family (the "Fuzzy hashing" section of "Data
//! Structures Part 2: Indices"), its validation and its bytes in trace files.
//!
//! A trace's first op is [`SpatialOp::Space`]: the dimension (2 or 3), the design radius and
//! the box the generator keeps its points in (designs are built for it; it is only a hint, see
//! `impls::spatial`). Point handle `k` names the point of the trace's `k`-th
//! [`SpatialOp::Insert`], and is also the point's ID in the design (IDs are the caller's in this
//! family). Coordinates and radii are `f32`, stored as their bits; 2D traces have `z = 0`.
//! Validation refuses what the family's contract does not cover or a trace has no use for:
//! non-finite coordinates anywhere, a query radius that is NaN, infinite or negative, and more
//! than [`MAX_INSERTS`] inserts. Any finite radius is valid, however large (`f32::MAX` finds
//! every point); the designs answer it in one pass over their points.
//!
//! Work units: one per op (a query is one unit however many points it finds).
//!
//! | tag | op       | fields                                  |
//! |-----|----------|-----------------------------------------|
//! | 0   | `Space`  | dims, radius, lo x, y, z, hi x, y, z    |
//! | 1   | `Insert` | x, y, z                                 |
//! | 2   | `Remove` | point                                   |
//! | 3   | `Move`   | point, x, y, z                          |
//! | 4   | `Query`  | x, y, z, radius                         |

mod builder;
#[path = "gen/mod.rs"]
pub mod generators;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::codec::{FormatError, OpFields};
use crate::family::{TraceOp, trace_stats};
use crate::trace::{InvalidTrace, Part};

/// A point handle: handle `k` is the `k`-th `Insert` of the trace.
pub type PointHandle = u32;

/// Most `Insert`s a trace may hold: handle `k` is the design's point ID `k`, and the spatial
/// family's IDs stop at 2^24 - 1 (`impls::spatial::MAX_POINT_ID`, which sizes the designs'
/// per-ID arrays; this crate does not depend on `impls`, and
/// `bench-harness/tests/integration/spatial_replay.rs` pins the two equal).
pub const MAX_INSERTS: u64 = 1 << 24;

/// An `f32` kept as its bits, so ops are `Eq` and encode as `u32` fields.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct F32Bits(pub u32);

impl F32Bits {
    /// The bits of `v`.
    pub fn new(v: f32) -> Self {
        Self(v.to_bits())
    }

    /// The value.
    pub fn get(self) -> f32 {
        f32::from_bits(self.0)
    }
}

impl fmt::Debug for F32Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

/// A position `[x, y, z]` as `f32` bits (`z = 0` in 2D traces).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coords(pub [F32Bits; 3]);

impl Coords {
    /// The coordinates `p`.
    pub fn new(p: [f32; 3]) -> Self {
        Self(p.map(F32Bits::new))
    }

    /// The 2D position `[x, y]`.
    pub fn xy(x: f32, y: f32) -> Self {
        Self::new([x, y, 0.0])
    }

    /// All three coordinates.
    pub fn get(self) -> [f32; 3] {
        self.0.map(F32Bits::get)
    }

    /// The first `D` coordinates (`D` is 2 or 3).
    pub fn first<const D: usize>(self) -> [f32; D] {
        let p = self.get();
        std::array::from_fn(|k| p[k])
    }

    fn is_finite(self) -> bool {
        self.get().iter().all(|v| v.is_finite())
    }
}

impl fmt::Debug for Coords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

/// The family's op vocabulary, under the name the family list gives every family's
/// (`crate::vocabularies`).
pub type Op = SpatialOp;

/// One operation on a spatial index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpatialOp {
    /// The space the trace lives in: the first op of every trace, and only there.
    Space {
        /// 2 or 3.
        dims: u32,
        /// The design radius (the article's cell is twice it).
        radius: F32Bits,
        /// Lower corner of the box the generator keeps points in.
        lo: Coords,
        /// Upper corner of that box.
        hi: Coords,
    },
    /// Insert a point here (the next handle).
    Insert(Coords),
    /// Remove a live point.
    Remove(PointHandle),
    /// Move a live point here.
    Move(PointHandle, Coords),
    /// Visit every live point within the radius of the centre.
    Query(Coords, F32Bits),
}

/// Counts of a spatial trace's body (and peaks over the whole trace), from validation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpatialStats {
    /// The trace's dimension (2 or 3).
    pub dims: u64,
    /// `Insert` ops.
    pub inserts: u64,
    /// `Remove` ops.
    pub removes: u64,
    /// `Move` ops.
    pub moves: u64,
    /// `Query` ops.
    pub queries: u64,
    /// Live points after the setup.
    pub live_at_start: u64,
    /// Most live points at any point of the trace.
    pub peak_live: u64,
}

trace_stats!(SpatialStats: inserts, removes, moves, queries);

crate::codec::op_tags! { SPACE, INSERT, REMOVE, MOVE, QUERY }

/// Checks a position: finite, and on the z = 0 plane when `planar`.
fn check_position(c: Coords, planar: bool) -> Result<(), String> {
    if !c.is_finite() {
        return Err("has a non-finite coordinate".into());
    }
    if planar && c.get()[2] != 0.0 {
        return Err("has z != 0 in a 2D trace".into());
    }
    Ok(())
}

/// Checks a `Space` op's dimensions, radius and box (`planar` as for any position).
fn check_space(
    d: u32,
    radius: F32Bits,
    lo: Coords,
    hi: Coords,
    planar: bool,
) -> Result<(), String> {
    if d != 2 && d != 3 {
        return Err(format!("has {d} dimensions, not 2 or 3"));
    }
    let r = radius.get();
    if !(r.is_finite() && r > 0.0) {
        return Err("needs a positive finite radius".into());
    }
    check_position(lo, planar)?;
    check_position(hi, planar)?;
    if d == 2 && (lo.get()[2] != 0.0 || hi.get()[2] != 0.0) {
        return Err("has z != 0 in a 2D trace".into());
    }
    if (0..d as usize).any(|k| lo.get()[k] >= hi.get()[k]) {
        return Err("needs lo < hi on every axis".into());
    }
    Ok(())
}

impl TraceOp for SpatialOp {
    const FAMILY: &'static str = "spatial";
    type Stats = SpatialStats;

    fn validate(setup: &[Self], body: &[Self]) -> Result<SpatialStats, InvalidTrace> {
        let mut stats = SpatialStats::default();
        let mut live: Vec<bool> = Vec::new();
        let mut live_count = 0u64;
        let mut dims = 0u32;
        for (part, ops) in [(Part::Setup, setup), (Part::Body, body)] {
            let in_body = part == Part::Body;
            if in_body {
                stats.live_at_start = live_count;
            }
            let counted = |n: u64| if in_body { n } else { 0 };
            for (at, op) in part.steps(ops) {
                let bad = |reason: String| at.bad(op, reason);
                let first = part == Part::Setup && at.index == 0;
                if first != matches!(op, SpatialOp::Space { .. }) {
                    return Err(bad("the first op, and only it, must be Space".into()));
                }
                let planar = dims == 2;
                let position = |c: Coords| check_position(c, planar).map_err(bad);
                let live_handle = |h: PointHandle, live: &[bool]| match live.get(h as usize) {
                    Some(true) => Ok(()),
                    Some(false) => Err(at.already_removed(op, h)),
                    None => Err(at.not_yet_added(op, h)),
                };
                match op {
                    SpatialOp::Space {
                        dims: d,
                        radius,
                        lo,
                        hi,
                    } => {
                        check_space(d, radius, lo, hi, planar).map_err(bad)?;
                        dims = d;
                    }
                    SpatialOp::Insert(c) => {
                        position(c)?;
                        if live.len() as u64 >= MAX_INSERTS {
                            return Err(bad(format!(
                                "inserts more than {MAX_INSERTS} points (the spatial family's \
                                 point IDs stop at {})",
                                MAX_INSERTS - 1
                            )));
                        }
                        live.push(true);
                        live_count += 1;
                        stats.inserts += counted(1);
                        stats.peak_live = stats.peak_live.max(live_count);
                    }
                    SpatialOp::Remove(h) => {
                        live_handle(h, &live)?;
                        live[h as usize] = false;
                        live_count -= 1;
                        stats.removes += counted(1);
                    }
                    SpatialOp::Move(h, c) => {
                        live_handle(h, &live)?;
                        position(c)?;
                        stats.moves += counted(1);
                    }
                    SpatialOp::Query(c, r) => {
                        position(c)?;
                        if !(r.get().is_finite() && r.get() >= 0.0) {
                            return Err(bad("needs a finite radius >= 0".into()));
                        }
                        stats.queries += counted(1);
                    }
                }
            }
        }
        if setup.is_empty() && !body.is_empty() {
            return Err(InvalidTrace::BadOp {
                part: Part::Setup,
                index: 0,
                op: "(none)".into(),
                reason: "a spatial trace starts with Space".into(),
            });
        }
        stats.dims = u64::from(dims);
        Ok(stats)
    }

    fn creates_handle(self) -> bool {
        matches!(self, SpatialOp::Insert(_))
    }

    fn is_read_only(self) -> bool {
        matches!(self, SpatialOp::Query(..))
    }

    const RENAMES_HANDLES: bool = true;

    /// A removal or move of a point that no longer exists is dropped.
    fn renamed(self, rename: &dyn Fn(u32) -> Option<u32>) -> Option<Self> {
        Some(match self {
            SpatialOp::Remove(h) => SpatialOp::Remove(rename(h)?),
            SpatialOp::Move(h, c) => SpatialOp::Move(rename(h)?, c),
            SpatialOp::Space { .. } | SpatialOp::Insert(_) | SpatialOp::Query(..) => self,
        })
    }

    fn touches(self) -> Option<u32> {
        match self {
            SpatialOp::Remove(h) | SpatialOp::Move(h, _) => Some(h),
            SpatialOp::Space { .. } | SpatialOp::Insert(_) | SpatialOp::Query(..) => None,
        }
    }

    fn encode(self, out: &mut Vec<u8>) {
        let bits = |c: Coords| c.0.map(|b| b.0);
        let (tag, fields): (u8, Vec<u32>) = match self {
            SpatialOp::Space {
                dims,
                radius,
                lo,
                hi,
            } => {
                let mut f = vec![dims, radius.0];
                f.extend(bits(lo));
                f.extend(bits(hi));
                (tag::SPACE, f)
            }
            SpatialOp::Insert(c) => (tag::INSERT, bits(c).to_vec()),
            SpatialOp::Remove(h) => (tag::REMOVE, vec![h]),
            SpatialOp::Move(h, c) => {
                let mut f = vec![h];
                f.extend(bits(c));
                (tag::MOVE, f)
            }
            SpatialOp::Query(c, r) => {
                let mut f = bits(c).to_vec();
                f.push(r.0);
                (tag::QUERY, f)
            }
        };
        OpFields::write_op(out, tag, fields);
    }

    fn decode(tag: u8, f: &mut OpFields<'_, '_>) -> Result<Option<Self>, FormatError> {
        fn coords(f: &mut OpFields<'_, '_>) -> Result<Coords, FormatError> {
            Ok(Coords([
                F32Bits(f.u32()?),
                F32Bits(f.u32()?),
                F32Bits(f.u32()?),
            ]))
        }
        Ok(Some(match tag {
            tag::SPACE => SpatialOp::Space {
                dims: f.u32()?,
                radius: F32Bits(f.u32()?),
                lo: coords(f)?,
                hi: coords(f)?,
            },
            tag::INSERT => SpatialOp::Insert(coords(f)?),
            tag::REMOVE => SpatialOp::Remove(f.u32()?),
            tag::MOVE => {
                let h = f.u32()?;
                SpatialOp::Move(h, coords(f)?)
            }
            tag::QUERY => {
                let c = coords(f)?;
                SpatialOp::Query(c, F32Bits(f.u32()?))
            }
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TraceStats;
    use crate::trace::Trace;

    fn space(dims: u32) -> SpatialOp {
        let z = if dims == 3 { 10.0 } else { 0.0 };
        SpatialOp::Space {
            dims,
            radius: F32Bits::new(4.0),
            lo: Coords::new([-10.0, -10.0, -z]),
            hi: Coords::new([10.0, 10.0, z]),
        }
    }

    #[test]
    fn validates_counts_and_round_trips() {
        use SpatialOp::*;
        let t = Trace::for_test(
            vec![
                space(2),
                Insert(Coords::xy(-1.5, 2.0)),
                Insert(Coords::xy(0.0, 0.0)),
            ],
            vec![
                Query(Coords::xy(0.0, 0.0), F32Bits::new(4.0)),
                Move(1, Coords::xy(3.0, -3.0)),
                Remove(0),
                Insert(Coords::xy(1.0, 1.0)),
            ],
        );
        let s = t.validate().unwrap();
        assert_eq!((s.dims, s.live_at_start, s.peak_live), (2, 2, 2));
        assert_eq!((s.queries, s.moves, s.removes, s.inserts), (1, 1, 1, 1));
        assert_eq!(s.work_units(), 4);
        let bytes = crate::format::to_bytes(&t).unwrap();
        assert_eq!(crate::format::from_bytes::<SpatialOp>(&bytes).unwrap(), t);
        Trace::assert_invalid(vec![space(2)], vec![Remove(0)], "not added");
        Trace::assert_invalid(vec![Insert(Coords::xy(0.0, 0.0))], vec![], "must be Space");
        Trace::assert_invalid(
            vec![space(2), Insert(Coords::new([0.0, 0.0, 1.0]))],
            vec![],
            "z != 0",
        );
        assert!(
            Trace::for_test(vec![space(3), Insert(Coords::new([0.0, 0.0, 1.0]))], vec![])
                .validate()
                .is_ok()
        );
    }

    #[test]
    fn queries_outside_the_contract_are_refused_and_a_huge_radius_is_not() {
        use SpatialOp::*;
        let query = |c: [f32; 2], r: f32| {
            Trace::for_test(
                vec![space(2), Insert(Coords::xy(1.0, 1.0))],
                vec![Query(Coords::xy(c[0], c[1]), F32Bits::new(r))],
            )
            .validate()
        };
        for r in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.0] {
            let err = query([0.0, 0.0], r).unwrap_err().to_string();
            assert!(err.contains("needs a finite radius >= 0"), "{r}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
        for c in [[f32::NAN, 0.0], [0.0, f32::INFINITY]] {
            let err = query(c, 1.0).unwrap_err().to_string();
            assert!(err.contains("non-finite coordinate"), "{c:?}: {err}");
        }
        for r in [f32::MAX, 1e19, 0.0] {
            assert!(query([f32::MAX, -f32::MAX], r).is_ok(), "{r}");
        }
        let err = Trace::for_test(vec![space(2)], vec![Insert(Coords::xy(f32::NAN, 0.0))])
            .validate()
            .unwrap_err()
            .to_string();
        assert!(err.contains("non-finite coordinate"), "{err}");
    }
}
