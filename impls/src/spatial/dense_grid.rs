//! Tuned: the fuzzy hash's grid (cell = 2r) as a dense array over the bounds the workload
//! declares ([`Space`]), with each cell's points stored inline. What it changes from the
//! article's design: no hash (a cell's index is arithmetic on its coordinates) and no linked
//! list (a cell is a `Vec<(position, id)>`, so a query reads a cell's positions contiguously
//! instead of following links to scattered records).
//!
//! Layout: `cells: Vec<Vec<([f32; D], u32)>>` row-major over `dims` cells per axis; `slot[id] =
//! (cell, index)`. Positions outside the bounds are clamped into the edge cells (and queries
//! clamp their range the same way), so any position is answered correctly, just slower. A
//! radius whose square overflows ([`needs_full_scan`]) visits every cell, so no query costs
//! more than one pass over the grid.
//! Insert, remove (swap-remove in the cell) and move are O(1); a query visits the same 2^n
//! cells as the fuzzy hash. The price: memory for every cell of the box, empty or not, and
//! the bounds must be known (capped at [`MAX_CELLS`] cells, coarser beyond; a NaN or infinite
//! bound is read as the whole finite range, [`Space::sanitized`], which stays correct but
//! puts an ordinary world in one cell).

use super::{
    NoTally, PointId, QueryCost, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError,
    SpatialIndex, Tally, check_id, check_point, for_each_cell, grow_to, needs_full_scan,
    search_radius, vec_bytes, within,
};
use crate::DesignMeta;

/// Most cells the grid allocates; larger boxes get coarser cells.
pub const MAX_CELLS: usize = 1 << 21;

/// `slot` of a dead ID.
const DEAD: (u32, u32) = (u32::MAX, u32::MAX);

/// A dense grid of point vectors over known bounds.
#[derive(Debug, Clone)]
pub struct DenseGrid<const D: usize> {
    /// Lower corner of the grid.
    lo: [f64; D],
    /// `1 / cell`.
    inv_cell: f64,
    /// Cells per axis (each at least 1).
    dims: [i64; D],
    /// Row-major cells, axis 0 fastest.
    cells: Vec<Vec<([f32; D], PointId)>>,
    /// `slot[id] = (cell, index)` of live point `id`, [`DEAD`] otherwise; `cells[c][i].1 == id`.
    slot: Vec<(u32, u32)>,
    /// Number of live points.
    len: usize,
}

impl<const D: usize> DenseGrid<D> {
    /// The clamped cell coordinate of `v` on axis `k`.
    #[inline(always)]
    fn coord(&self, k: usize, v: f64) -> i64 {
        (((v - self.lo[k]) * self.inv_cell).floor() as i64).clamp(0, self.dims[k] - 1)
    }

    #[inline(always)]
    fn index(&self, c: &[i64; D]) -> usize {
        let mut at = 0i64;
        for (dim, ck) in self.dims.iter().zip(c).rev() {
            at = at * dim + ck;
        }
        at as usize
    }

    #[inline(always)]
    fn cell_index(&self, p: &[f32; D]) -> usize {
        self.index(&std::array::from_fn(|k| self.coord(k, f64::from(p[k]))))
    }

    fn slot_of(&self, id: PointId) -> Result<(u32, u32), SpatialError> {
        match self.slot.get(id as usize) {
            Some(&s) if s != DEAD => Ok(s),
            _ => Err(SpatialError::NoSuchPoint { id }),
        }
    }

    fn push(&mut self, cell: usize, p: [f32; D], id: PointId) {
        let v = &mut self.cells[cell];
        self.slot[id as usize] = (cell as u32, v.len() as u32);
        v.push((p, id));
    }

    fn take(&mut self, (cell, at): (u32, u32)) {
        let v = &mut self.cells[cell as usize];
        v.swap_remove(at as usize);
        if let Some(&(_, moved)) = v.get(at as usize) {
            self.slot[moved as usize] = (cell, at);
        }
    }

    #[inline(always)]
    fn query_with<T: Tally>(
        &self,
        center: [f32; D],
        r: f32,
        tally: &mut T,
        mut f: impl FnMut(PointId),
    ) {
        let (lo, hi) = if needs_full_scan(r) {
            ([0; D], std::array::from_fn(|k| self.dims[k] - 1))
        } else {
            let rr = search_radius(r);
            let lo: [i64; D] = std::array::from_fn(|k| self.coord(k, f64::from(center[k]) - rr));
            let hi: [i64; D] = std::array::from_fn(|k| self.coord(k, f64::from(center[k]) + rr));
            (lo, hi)
        };
        for_each_cell(&lo, &hi, |c| {
            tally.cell();
            for (p, id) in &self.cells[self.index(&c)] {
                tally.tested();
                if within(p, &center, r) {
                    f(*id);
                }
            }
        });
    }
}

impl<const D: usize> DenseGrid<D> {
    /// [`SpatialIndex::query`] through a shared reference: the grid's query reads only, so
    /// threads may query one grid at once (the locking family's physics world).
    #[inline]
    pub fn query_shared(&self, center: [f32; D], r: f32, f: impl FnMut(PointId)) {
        self.query_with(center, r, &mut NoTally, f);
    }
}

impl<const D: usize> SpatialIndex<D> for DenseGrid<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "dense_grid",
            description: "tuned: cell = 2r as a dense array over the known bounds, positions inline per cell (no hash, no links)",
            kind: SpatialDesignKind::Tuned,
        },
        supports_3d: true,
        max_live: None,
        static_only: false,
    };

    fn new(space: &Space<D>) -> Self {
        let space = space.sanitized();
        let mut cell = 2.0 * f64::from(space.radius);
        let extent: [f64; D] =
            std::array::from_fn(|k| (f64::from(space.hi[k]) - f64::from(space.lo[k])).max(cell));
        while extent.iter().map(|e| (e / cell).ceil()).product::<f64>() > MAX_CELLS as f64 {
            cell *= 2.0;
        }
        let dims: [i64; D] = std::array::from_fn(|k| ((extent[k] / cell).ceil() as i64).max(1));
        let total = dims.iter().product::<i64>() as usize;
        Self {
            lo: std::array::from_fn(|k| f64::from(space.lo[k])),
            inv_cell: 1.0 / cell,
            dims,
            cells: vec![Vec::new(); total],
            slot: Vec::new(),
            len: 0,
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        if *grow_to(&mut self.slot, id, DEAD) != DEAD {
            return Err(SpatialError::AlreadyLive { id });
        }
        let cell = self.cell_index(&p);
        self.push(cell, p, id);
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        let s = self.slot_of(id)?;
        self.take(s);
        self.slot[id as usize] = DEAD;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let (cell, at) = self.slot_of(id)?;
        let to = self.cell_index(&p);
        if to == cell as usize {
            self.cells[to][at as usize].0 = p;
        } else {
            self.take((cell, at));
            self.push(to, p, id);
        }
        Ok(())
    }

    #[inline]
    fn query(&mut self, center: [f32; D], r: f32, f: impl FnMut(PointId)) {
        self.query_shared(center, r, f);
    }

    fn query_cost(&mut self, center: [f32; D], r: f32) -> Option<QueryCost> {
        let mut cost = QueryCost::default();
        self.query_with(center, r, &mut cost, |_| {});
        Some(cost)
    }

    fn longest_chain(&self) -> Option<u64> {
        Some(self.cells.iter().map(|c| c.len() as u64).max().unwrap_or(0))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.cells)
            + self.cells.iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.slot)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let mut n = 0;
        for (c, v) in self.cells.iter().enumerate() {
            for (i, (p, id)) in v.iter().enumerate() {
                if self.slot.get(*id as usize) != Some(&(c as u32, i as u32)) {
                    return Err(format!("point {id} at cell {c}[{i}], slot disagrees"));
                }
                if self.cell_index(p) != c {
                    return Err(format!("point {id} at {p:?} filed in cell {c}"));
                }
                n += 1;
            }
        }
        if n != self.len {
            return Err(format!("{n} points in cells, len {}", self.len));
        }
        Ok(())
    }
}
