//! Peer: `flat_spatial`'s `Grid` (a sparse grid: a hash map from cell to a `Vec` of
//! `(handle, position)`, objects in a slot map), 2D only, used as its docs show
//! (<https://docs.rs/flat_spatial/0.6.1/flat_spatial/grid/struct.Grid.html>). Cell size = 2r
//! rounded to an integer, at least 2 (the crate's cells are `i32` wide, and its cell of a
//! coordinate below -2^31 is `i32::MIN / size - 1`, which overflows at size 1). Moves use the
//! crate's lazy `set_position`, and the adapter calls `maintain` (O(cells)) before the next
//! query, as the crate intends; removal is `remove_maintain` (O(cell)).
//!
//! A query is `query_around(center, r')`, which yields `(handle, position)` pairs straight
//! from the cells, and each hit's ID is read with `get(handle)`, as the crate's example does.
//! The position a cell holds is the one inserted (or set and maintained), bit for bit ours,
//! so it is tested where it lies, with no side array. Two things keep the answer the
//! family's [`within`] exactly: `query_around` keeps `x*x + y*y < r'*r'` (strict; the same
//! `f32` sum as ours), so it is asked for the radius widened by [`search_radius`] and each
//! pair it yields is tested with `within` on its own position (a few flops on values in
//! registers); and `query_around` walks every cell of its box, empty or not, so a box of more
//! cells than there are points, or a radius whose square overflows ([`needs_full_scan`]), is
//! answered by one pass over the crate's `objects()` instead (a huge radius would otherwise
//! walk up to 2^64 cells). The box's cells are bounded from its width (`2r' / cell + 3` per
//! axis, a multiply-add), not counted with the crate's `cell_id` (two integer divisions per
//! axis, which `query_around` then makes again): the check chooses between two exact
//! answers, so a bound is enough, and costs the query next to nothing. 0.6 has no dense grid
//! any more (its `DenseStorage` was removed), so only the sparse grid is measured.
//!
//! Memory is an estimate (the crate exposes no capacities): per live point one slot-map entry
//! and one cell entry, plus the adapter's handle array; the cell table is not counted.

use crate::DesignMeta;
use flat_spatial::Grid;
use flat_spatial::grid::{GridHandle, StoreObject};

use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_id,
    check_point, grow_to, needs_full_scan, search_radius, vec_bytes, within,
};

/// The crate's grid as the peer holds it (for `ref-direct-flat_spatial`, which calls
/// `flat_spatial` directly without depending on the crate itself).
pub type PointGrid = Grid<PointId, [f32; 2]>;

/// The crate's handle of an object in a [`PointGrid`].
pub type PointGridHandle = GridHandle;

/// `flat_spatial::Grid<u32, [f32; 2]>` (each object is its point's ID) with the IDs' handles.
#[derive(Clone)]
pub struct FlatSpatialGrid<const D: usize> {
    grid: Grid<PointId, [f32; 2]>,
    /// `handles[id]`: live point `id`'s handle.
    handles: Vec<Option<GridHandle>>,
    /// Whether moves are pending a `maintain`.
    dirty: bool,
    len: usize,
    /// `2 / cell`: a query box `2w` wide spans at most `w * two_over_cell + 3` cells per axis.
    two_over_cell: f64,
}

fn xy<const D: usize>(p: &[f32; D]) -> [f32; 2] {
    [p[0], p[1]]
}

impl<const D: usize> FlatSpatialGrid<D> {
    fn handle(&self, id: PointId) -> Result<GridHandle, SpatialError> {
        self.handles
            .get(id as usize)
            .copied()
            .flatten()
            .ok_or(SpatialError::NoSuchPoint { id })
    }

    /// The crate's grid, as built and maintained (for a loop calling `flat_spatial` directly on
    /// the same grid), and each ID's handle (`None` for IDs not live).
    pub fn into_grid(mut self) -> (PointGrid, Vec<Option<GridHandle>>) {
        if self.dirty {
            self.grid.maintain();
        }
        (self.grid, self.handles)
    }
}

impl<const D: usize> SpatialIndex<D> for FlatSpatialGrid<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "flat_spatial",
            description: "peer: flat_spatial 0.6.1 Grid as its docs show (sparse hash of cell vectors, cell = 2r rounded): query_around testing the positions the cells hold, get(handle) per hit; lazy moves + maintain; 2D only",
            kind: SpatialDesignKind::Peer {
                crate_name: "flat_spatial",
                version: "0.6.1",
                idiom: "Grid::new(cell) + insert per point, query_around(center, r) testing the positions the cells hold; lazy set_position + maintain for moves",
                docs: "https://docs.rs/flat_spatial/0.6.1/flat_spatial/grid/struct.Grid.html",
                adapter: "Per query, a `dirty` test (running the deferred `maintain` after moves, as the direct loop does once per frame) and a bound on the box's cells (`side * side > len`) that picks one pass over `objects()` instead; the `search_radius` widening and `within` re-test are the direct loop's too. Per move or remove, `check_point`/`check_id` and the ID's handle from the `handles: Vec<Option<GridHandle>>` side array: the family's ID contract, which our own designs pay too.",
            },
        },
        supports_3d: false,
        max_live: None,
        static_only: false,
    };

    fn new(space: &Space<D>) -> Self {
        let cell = (2.0 * space.sanitized().radius)
            .round()
            .clamp(2.0, i32::MAX as f32) as i32;
        Self {
            grid: Grid::new(cell),
            handles: Vec::new(),
            dirty: false,
            len: 0,
            two_over_cell: 2.0 / f64::from(cell),
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        if grow_to(&mut self.handles, id, None).is_some() {
            return Err(SpatialError::AlreadyLive { id });
        }
        self.handles[id as usize] = Some(self.grid.insert(xy(&p), id));
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        let h = self.handle(id)?;
        self.grid.remove_maintain(h);
        self.handles[id as usize] = None;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let h = self.handle(id)?;
        self.grid.set_position(h, xy(&p));
        self.dirty = true;
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        if self.dirty {
            self.grid.maintain();
            self.dirty = false;
        }
        let c = xy(&center);
        let grid = &self.grid;
        // `query_around`'s box is `center ± w` in `f32`: every point `within` r lies in it
        // (rounding is monotone, the radius widened). Its cells per axis: at most `2w / cell`
        // plus one for each partial end cell and one for the crate's cell of a negative
        // multiple of the cell size (`-8 / 8 - 1`), rounding aside.
        let w = search_radius(r);
        let side = w * self.two_over_cell + 3.0;
        if needs_full_scan(r) || side * side > self.len as f64 {
            for (p, &id) in grid.objects() {
                if within(&p, &c, r) {
                    f(id);
                }
            }
            return;
        }
        for (h, p) in grid.query_around(c, w as f32) {
            if within(&p, &c, r) {
                f(*grid.get(h).expect("a queried handle is live").1);
            }
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> usize {
        self.len
            * (size_of::<StoreObject<PointId, [f32; 2]>>()
                + 4
                + size_of::<(GridHandle, [f32; 2])>())
            + vec_bytes(&self.handles)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.handles.iter().filter(|h| h.is_some()).count();
        if live != self.len || self.grid.len() != self.len {
            return Err(format!(
                "{live} handles, grid holds {}, len {}",
                self.grid.len(),
                self.len
            ));
        }
        for (id, h) in self.handles.iter().enumerate() {
            if let Some(h) = h
                && self.grid.get(*h).map(|(_, &x)| x) != Some(id as PointId)
            {
                return Err(format!("handle of {id} names another object"));
            }
        }
        Ok(())
    }
}
