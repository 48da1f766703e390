//! Peer: `kiddo`'s float `KdTree<f32, u32, D, 32, u32>` (a k-d tree with buckets of 32).
//! Insert is `add`, removal `remove(point, id)`, a move is remove plus add; a query is
//! `within_unsorted::<SquaredEuclidean>` with the widened squared radius (it returns a `Vec`
//! per query: the crate's API), each candidate tested by the family's distance.
//!
//! Memory is an estimate (the crate exposes no capacities): one leaf slot (point and item) per
//! live point plus the adapter's side arrays; stems and bucket slack are not counted.

use kiddo::SquaredEuclidean;
use kiddo::float::kdtree::KdTree;

use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, grow_to,
    search_radius, vec_bytes, within,
};

/// A k-d tree of points tagged with their IDs.
#[derive(Debug, Clone)]
pub struct KiddoTree<const D: usize> {
    tree: KdTree<f32, u32, D, 32, u32>,
    /// `pos[id]`: live point `id`'s position.
    pos: Vec<[f32; D]>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
    len: usize,
}

impl<const D: usize> KiddoTree<D> {
    fn check_live(&self, id: PointId) -> Result<(), SpatialError> {
        if self.live.get(id as usize).copied().unwrap_or(false) {
            Ok(())
        } else {
            Err(SpatialError::NoSuchPoint { id })
        }
    }
}

impl<const D: usize> SpatialIndex<D> for KiddoTree<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        name: "kiddo",
        description: "peer: kiddo float KdTree (buckets of 32), within_unsorted; a move is remove + add",
        kind: SpatialDesignKind::Peer {
            crate_name: "kiddo",
            version: "5.3.3",
        },
        supports_3d: true,
        max_live: None,
    };

    fn new(_space: &Space<D>) -> Self {
        Self {
            tree: KdTree::new(),
            pos: Vec::new(),
            live: Vec::new(),
            len: 0,
        }
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        let live = grow_to(&mut self.live, id, false);
        if *live {
            return Err(SpatialError::AlreadyLive { id });
        }
        *live = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.tree.add(&p, id);
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        self.check_live(id)?;
        let removed = self.tree.remove(&self.pos[id as usize], id);
        debug_assert_eq!(removed, 1, "a live point is in the tree once");
        self.live[id as usize] = false;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        self.check_live(id)?;
        self.tree.remove(&self.pos[id as usize], id);
        self.pos[id as usize] = p;
        self.tree.add(&p, id);
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        let w = search_radius(r);
        for n in self
            .tree
            .within_unsorted::<SquaredEuclidean>(&center, (w * w) as f32 * (1.0 + 1e-6))
        {
            if within(&self.pos[n.item as usize], &center, r) {
                f(n.item);
            }
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn memory_bytes(&self) -> usize {
        self.len * (size_of::<[f32; D]>() + size_of::<u32>())
            + vec_bytes(&self.pos)
            + vec_bytes(&self.live)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.live.iter().filter(|&&l| l).count();
        let size = self.tree.size() as usize;
        if live != self.len || size != self.len {
            return Err(format!("{live} live, tree holds {size}, len {}", self.len));
        }
        Ok(())
    }
}
