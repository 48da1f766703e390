//! Peer: `rstar`'s `RTree` (an R*-tree) of `GeomWithData<[f32; D], u32>`. Insert and remove
//! are the tree's (O(log n), removal by the exact point and ID); a move is remove plus insert;
//! a query is `locate_within_distance` with the widened squared radius, each candidate tested
//! by the family's distance.
//!
//! Memory is an estimate (the crate exposes no capacities): one leaf entry per point plus the
//! adapter's side arrays; inner nodes are not counted.

use rstar::RTree;
use rstar::primitives::GeomWithData;

use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, grow_to,
    search_radius, vec_bytes, within,
};

type Entry<const D: usize> = GeomWithData<[f32; D], PointId>;

/// An R*-tree of points tagged with their IDs.
#[derive(Debug, Clone)]
pub struct RStarTree<const D: usize> {
    tree: RTree<Entry<D>>,
    /// `pos[id]`: live point `id`'s position.
    pos: Vec<[f32; D]>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
}

impl<const D: usize> RStarTree<D> {
    fn check_live(&self, id: PointId) -> Result<(), SpatialError> {
        if self.live.get(id as usize).copied().unwrap_or(false) {
            Ok(())
        } else {
            Err(SpatialError::NoSuchPoint { id })
        }
    }
}

impl<const D: usize> SpatialIndex<D> for RStarTree<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        name: "rstar",
        description: "peer: rstar RTree (R*-tree), locate_within_distance; a move is remove + insert",
        kind: SpatialDesignKind::Peer {
            crate_name: "rstar",
            version: "0.13.1",
        },
        supports_3d: true,
        max_live: None,
    };

    fn new(_space: &Space<D>) -> Self {
        Self {
            tree: RTree::new(),
            pos: Vec::new(),
            live: Vec::new(),
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        let live = grow_to(&mut self.live, id, false);
        if *live {
            return Err(SpatialError::AlreadyLive { id });
        }
        *live = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.tree.insert(GeomWithData::new(p, id));
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        self.check_live(id)?;
        self.tree
            .remove(&GeomWithData::new(self.pos[id as usize], id))
            .expect("a live point is in the tree");
        self.live[id as usize] = false;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        self.check_live(id)?;
        self.tree
            .remove(&GeomWithData::new(self.pos[id as usize], id))
            .expect("a live point is in the tree");
        self.pos[id as usize] = p;
        self.tree.insert(GeomWithData::new(p, id));
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        let w = search_radius(r);
        for e in self
            .tree
            .locate_within_distance(center, (w * w) as f32 * (1.0 + 1e-6))
        {
            if within(e.geom(), &center, r) {
                f(e.data);
            }
        }
    }

    fn len(&self) -> usize {
        self.tree.size()
    }

    fn memory_bytes(&self) -> usize {
        self.tree.size() * size_of::<Entry<D>>() + vec_bytes(&self.pos) + vec_bytes(&self.live)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.live.iter().filter(|&&l| l).count();
        if live != self.tree.size() {
            return Err(format!("{live} live, tree holds {}", self.tree.size()));
        }
        for e in self.tree.iter() {
            let id = e.data as usize;
            if !self.live.get(id).copied().unwrap_or(false)
                || self.pos[id].map(f32::to_bits) != e.geom().map(f32::to_bits)
            {
                return Err(format!("tree entry {:?} is not a live point's", e));
            }
        }
        Ok(())
    }
}
