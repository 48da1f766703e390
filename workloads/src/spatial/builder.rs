//! What the spatial generators (`sp-*`) share: [`SpatialTraceBuilder`], which writes the
//! [`SpatialOp::Space`] header op and remembers every point's position (so a generator can move
//! a point or query at one), and the geometry of the article's sizing rule.
//!
//! # The space
//! The design radius is [`DESIGN_RADIUS`] (cell `2r = 8`, a whole number so `flat_spatial`'s
//! integer cells match it). Points are uniform in the box `[-w/2, w/2)^D`, `w` chosen by the
//! article's rule "pick the cell size … so that you expect … 16 or so [objects] in each group
//! of 2^n cells": a group of 2^n cells of side `2r` is a cube of side `4r`, so
//! `w = 4r · (n / per_group)^(1/D)` ([`box_side`]); in 2D with 16 per group, `w = r · √n`.
//! The box is centred on the origin, so half the coordinates are negative.

use serde::Serialize;

use crate::rng::TraceRng;
use crate::spatial::{Coords, F32Bits, PointHandle, SpatialOp};
use crate::trace::Trace;

use crate::generate::parts::Recorder;
use crate::generate::parts::TraceParts;

/// The radius every `sp-*` workload designs its grid for (queries use it or a multiple).
pub const DESIGN_RADIUS: f32 = 4.0;

/// Side of the box holding `n` points at `per_group` points per group of 2^D cells of side
/// `2 · DESIGN_RADIUS`.
pub(crate) fn box_side(n: usize, dims: u32, per_group: u32) -> f32 {
    let groups = n as f64 / f64::from(per_group.max(1));
    (4.0 * f64::from(DESIGN_RADIUS) * groups.powf(1.0 / f64::from(dims))) as f32
}

/// Builds a spatial trace op by op, remembering positions.
///
/// Invariant: `pos[h]` is handle `h`'s position after the ops in `parts` (no op removes).
#[derive(Debug)]
pub(crate) struct SpatialTraceBuilder {
    parts: TraceParts<SpatialOp>,
    dims: u32,
    half: f32,
    pos: Vec<[f32; 3]>,
}

crate::generate::parts::recorder!(SpatialTraceBuilder: SpatialOp);

impl SpatialTraceBuilder {
    /// A trace in `dims` dimensions whose points stay in `[-side/2, side/2]^dims`.
    pub(crate) fn new(dims: u32, side: f32) -> Self {
        let half = side / 2.0;
        let corner = |v: f32| {
            let mut c = [v; 3];
            if dims == 2 {
                c[2] = 0.0;
            }
            Coords::new(c)
        };
        let mut parts = TraceParts::default();
        parts.push(SpatialOp::Space {
            dims,
            radius: F32Bits::new(DESIGN_RADIUS),
            lo: corner(-half),
            hi: corner(half),
        });
        Self {
            parts,
            dims,
            half,
            pos: Vec::new(),
        }
    }

    /// A uniform position in the box: one `unit_f64` draw per axis.
    pub(crate) fn uniform(&self, rng: &mut TraceRng) -> [f32; 3] {
        let mut p = [0.0; 3];
        for v in p.iter_mut().take(self.dims as usize) {
            *v = ((rng.unit_f64() * 2.0 - 1.0) * f64::from(self.half)) as f32;
        }
        p
    }

    /// `p` clamped into the box (and `z = 0` in 2D).
    pub(crate) fn clamp(&self, mut p: [f32; 3]) -> [f32; 3] {
        for v in &mut p {
            *v = v.clamp(-self.half, self.half);
        }
        if self.dims == 2 {
            p[2] = 0.0;
        }
        p
    }

    /// Number of points inserted.
    pub(crate) fn len(&self) -> usize {
        self.pos.len()
    }

    /// Handle `h`'s position.
    pub(crate) fn position(&self, h: PointHandle) -> [f32; 3] {
        self.pos[h as usize]
    }

    /// Inserts a point at `p` (clamped into the box).
    pub(crate) fn insert(&mut self, p: [f32; 3]) -> PointHandle {
        let p = self.clamp(p);
        self.pos.push(p);
        self.parts.push(SpatialOp::Insert(Coords::new(p)));
        (self.pos.len() - 1) as PointHandle
    }

    /// Moves `h` to `p` (clamped into the box).
    pub(crate) fn move_to(&mut self, h: PointHandle, p: [f32; 3]) {
        let p = self.clamp(p);
        self.pos[h as usize] = p;
        self.parts.push(SpatialOp::Move(h, Coords::new(p)));
    }

    /// A radius query at `c`.
    pub(crate) fn query(&mut self, c: [f32; 3], r: f32) {
        self.parts.push(SpatialOp::Query(
            Coords::new(self.clamp(c)),
            F32Bits::new(r),
        ));
    }
}

/// A uniform workload (`sp-uniform`, `sp-large-radius`, `sp-3d`): `n` uniform points in a
/// `dims`-D box at `per_group`, then `queries` uniform queries at radius
/// `scale × DESIGN_RADIUS`.
pub(crate) struct Uniform {
    /// The workload's registry name.
    pub(crate) name: &'static str,
    /// 2 or 3.
    pub(crate) dims: u32,
    /// Expected points per group of 2^dims cells.
    pub(crate) per_group: u32,
    /// Body queries.
    pub(crate) queries: usize,
    /// Query radius over [`DESIGN_RADIUS`].
    pub(crate) scale: f32,
}

impl Uniform {
    /// The trace at `n` from `seed`, its header recording `params`.
    pub(crate) fn record(&self, n: usize, seed: u64, params: &impl Serialize) -> Trace<SpatialOp> {
        let space = SpatialTraceBuilder::new(self.dims, box_side(n, self.dims, self.per_group));
        space.record(self.name, n, seed, params, |b, rng| {
            for _ in 0..n {
                let p = b.uniform(rng);
                b.insert(p);
            }
            b.start_body();
            for _ in 0..self.queries {
                let c = b.uniform(rng);
                b.query(c, self.scale * DESIGN_RADIUS);
            }
        })
    }
}

/// A standard normal draw (Box–Muller, two `unit_f64` draws).
pub(crate) fn normal(rng: &mut TraceRng) -> f64 {
    let u1 = 1.0 - rng.unit_f64();
    let u2 = rng.unit_f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}
