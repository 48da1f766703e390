//! Peer: `flat_spatial`'s `Grid` (a sparse grid: a hash map from cell to a `Vec` of
//! `(handle, position)`, objects in a slot map), 2D only. Cell size = 2r rounded to an integer
//! (the crate's cells are `i32` wide). Moves use the crate's lazy `set_position`, and the
//! adapter calls `maintain` (O(cells)) before the next query, as the crate intends; removal is
//! `remove_maintain` (O(cell)). A query is `query_visitor` over the widened box, each
//! candidate tested by the family's distance. 0.6 has no dense grid any more (its
//! `DenseStorage` was removed), so only the sparse grid is measured.
//!
//! Memory is an estimate (the crate exposes no capacities): per live point one slot-map entry
//! and one cell entry, plus the adapter's side arrays; the cell table is not counted.

use flat_spatial::Grid;
use flat_spatial::grid::{GridHandle, StoreObject};

use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, grow_to,
    search_radius, vec_bytes, within,
};

/// `flat_spatial::Grid<u32, [f32; 2]>` with the IDs' handles and positions.
#[derive(Clone)]
pub struct FlatSpatialGrid<const D: usize> {
    grid: Grid<PointId, [f32; 2]>,
    /// `handles[id]`: live point `id`'s handle.
    handles: Vec<Option<GridHandle>>,
    /// `pos[id]`: live point `id`'s position.
    pos: Vec<[f32; D]>,
    /// Whether moves are pending a `maintain`.
    dirty: bool,
    len: usize,
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
}

impl<const D: usize> SpatialIndex<D> for FlatSpatialGrid<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        name: "flat_spatial",
        description: "peer: flat_spatial Grid (sparse hash of cell vectors, cell = 2r rounded), lazy moves + maintain; 2D only",
        kind: SpatialDesignKind::Peer {
            crate_name: "flat_spatial",
            version: "0.6.1",
        },
        supports_3d: false,
        max_live: None,
    };

    fn new(space: &Space<D>) -> Self {
        let cell = (2.0 * space.radius).round().clamp(1.0, i32::MAX as f32) as i32;
        Self {
            grid: Grid::new(cell),
            handles: Vec::new(),
            pos: Vec::new(),
            dirty: false,
            len: 0,
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        if grow_to(&mut self.handles, id, None).is_some() {
            return Err(SpatialError::AlreadyLive { id });
        }
        self.handles[id as usize] = Some(self.grid.insert(xy(&p), id));
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        let h = self.handle(id)?;
        self.grid.remove_maintain(h);
        self.handles[id as usize] = None;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        let h = self.handle(id)?;
        self.grid.set_position(h, xy(&p));
        self.pos[id as usize] = p;
        self.dirty = true;
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        if self.dirty {
            self.grid.maintain();
            self.dirty = false;
        }
        let w = search_radius(r);
        let ll = [
            (f64::from(center[0]) - w) as f32,
            (f64::from(center[1]) - w) as f32,
        ];
        let ur = [
            (f64::from(center[0]) + w) as f32,
            (f64::from(center[1]) + w) as f32,
        ];
        let (grid, pos) = (&self.grid, &self.pos);
        grid.query_visitor(ll, ur, |(h, _)| {
            let (_, &id) = grid.get(h).expect("a queried handle is live");
            if within(&pos[id as usize], &center, r) {
                f(id);
            }
        });
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
            + vec_bytes(&self.pos)
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
