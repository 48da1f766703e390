//! Peer: `kiddo`'s static `ImmutableKdTree<f32, u32, D, 32>`, used as its docs show for a
//! point set known up front
//! (<https://docs.rs/kiddo/5.3.3/kiddo/immutable/float/kdtree/struct.ImmutableKdTree.html>):
//! `ImmutableKdTree::new_from_slice(&points)` in [`SpatialIndex::build`], each result's item
//! being the point's index in that slice (mapped to its ID through the adapter's `ids`, as a
//! user maps it to their own records). Queries are the mutable peer's
//! ([`kiddo`](super::kiddo)): `within_unsorted::<SquaredEuclidean>` at
//! [`pruning_radius`], each result kept by its own `distance <= r * r` (the crate's distance
//! is the family's bit for bit); a radius whose square overflows ([`needs_full_scan`]) is one
//! pass over the slice, as the tree has no iterator.
//!
//! Static ([`SpatialDesignInfo::static_only`]): built once, it refuses every later insert,
//! remove and move with [`SpatialError::Unsupported`] (after the ID and position checks every
//! design makes), so traces whose body changes the points (`sp-moving`) are unsupported,
//! decided before replaying. The trade-off against the mutable tree: a balanced tree built in
//! one O(n log n) pass, leaves stored per axis for the crate's chunked distance loop, no
//! copies limit (its leaves are not fixed buckets) and no split defect: it answers
//! `sp-clustered` at 100K correctly (8167 points) where the mutable tree finds 8164.
//!
//! Memory is an estimate (the crate exposes no capacities): one leaf point and item per point
//! plus the adapter's slice and ID arrays; stems (one per 32 points) are not counted.

use kiddo::SquaredEuclidean;
use kiddo::immutable::float::kdtree::ImmutableKdTree;

use super::kiddo::pruning_radius;
use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_batch,
    check_id, check_point, needs_full_scan, vec_bytes, within,
};

/// What a static index says to any change after its build.
const STATIC: &str =
    "kiddo_static is an ImmutableKdTree: built once, it takes no inserts, removes or moves";

/// A static k-d tree over the points it was built from.
#[derive(Debug, Clone)]
pub struct KiddoStatic<const D: usize> {
    tree: ImmutableKdTree<f32, u32, D, 32>,
    /// The slice the tree was built from: item `k` is `points[k]`.
    points: Vec<[f32; D]>,
    /// `ids[k]`: the ID of `points[k]`; all distinct.
    ids: Vec<PointId>,
}

impl<const D: usize> SpatialIndex<D> for KiddoStatic<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        name: "kiddo_static",
        description: "peer: kiddo 5.3.3 ImmutableKdTree as its docs show: new_from_slice of the setup, within_unsorted kept by its own distances; static; no split defect (verifies sp-clustered)",
        kind: SpatialDesignKind::Peer {
            crate_name: "kiddo",
            version: "5.3.3",
        },
        supports_3d: true,
        max_live: None,
        static_only: true,
    };

    fn new(space: &Space<D>) -> Self {
        Self::build(space, &[]).expect("an empty build refuses nothing")
    }

    fn build(_space: &Space<D>, points: &[(PointId, [f32; D])]) -> Result<Self, SpatialError> {
        // The checks of insert, for the batch: the tree itself keeps no per-ID state.
        check_batch(points, &mut Vec::new())?;
        let (ids, points): (Vec<PointId>, Vec<[f32; D]>) = points.iter().copied().unzip();
        Ok(Self {
            tree: ImmutableKdTree::new_from_slice(&points),
            points,
            ids,
        })
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        Err(SpatialError::Unsupported { id, reason: STATIC })
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        Err(SpatialError::Unsupported { id, reason: STATIC })
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        Err(SpatialError::Unsupported { id, reason: STATIC })
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        if needs_full_scan(r) {
            for (p, &id) in self.points.iter().zip(&self.ids) {
                if within(p, &center, r) {
                    f(id);
                }
            }
            return;
        }
        let rr = r * r;
        for n in self
            .tree
            .within_unsorted::<SquaredEuclidean>(&center, pruning_radius(r))
        {
            if n.distance <= rr {
                f(self.ids[n.item as usize]);
            }
        }
    }

    fn len(&self) -> usize {
        self.points.len()
    }

    fn memory_bytes(&self) -> usize {
        self.points.len() * (size_of::<[f32; D]>() + size_of::<u32>())
            + vec_bytes(&self.points)
            + vec_bytes(&self.ids)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.tree.size() != self.points.len() || self.ids.len() != self.points.len() {
            return Err(format!(
                "tree holds {}, {} points, {} IDs",
                self.tree.size(),
                self.points.len(),
                self.ids.len()
            ));
        }
        Ok(())
    }
}
