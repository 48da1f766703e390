//! Peer: `kiddo`'s static `ImmutableKdTree<f32, u32, D, 32>`, used as its docs show for a
//! point set known up front
//! (<https://docs.rs/kiddo/5.3.3/kiddo/immutable/float/kdtree/struct.ImmutableKdTree.html>):
//! `ImmutableKdTree::new_from_slice(&points)` in [`SpatialIndex::build`], each result's item
//! being the point's index in that slice: the point's ID itself when the batch's IDs are its
//! indices (every `sp-*` setup: point `k` is ID `k`, as an application's records are indexed),
//! otherwise mapped to its ID through the adapter's `ids`, as a user maps it to their own
//! records. Queries are the mutable peer's
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

use crate::DesignMeta;
use kiddo::SquaredEuclidean;
use kiddo::immutable::float::kdtree::ImmutableKdTree;

use super::kiddo::pruning_radius;
use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_batch,
    check_id, check_point, needs_full_scan, vec_bytes, within,
};

/// The crate's tree as the peer holds it (for `ref-direct-kiddo_static`, which calls `kiddo`
/// directly without depending on the crate itself).
pub type StaticKdTree<const D: usize> = ImmutableKdTree<f32, u32, D, 32>;

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
    /// Whether `ids[k] == k` for every `k`: a result's item is then its ID, with no lookup.
    identity: bool,
}

impl<const D: usize> KiddoStatic<D> {
    /// The crate's tree, as built (for a loop calling `kiddo` directly on the same tree), when
    /// its items are the points' IDs (the batch's IDs were its indices); `None` otherwise.
    pub fn into_tree(self) -> Option<StaticKdTree<D>> {
        self.identity.then_some(self.tree)
    }
}

impl<const D: usize> SpatialIndex<D> for KiddoStatic<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "kiddo_static",
            description: "peer: kiddo 5.3.3 ImmutableKdTree as its docs show: new_from_slice of the setup, within_unsorted kept by its own distances; static; no split defect (verifies sp-clustered)",
            kind: SpatialDesignKind::Peer {
                crate_name: "kiddo",
                version: "5.3.3",
                idiom: "ImmutableKdTree::new_from_slice of the setup's points, within_unsorted::<SquaredEuclidean> per query keeping its own distances; static sets only",
                docs: "https://docs.rs/kiddo/5.3.3/kiddo/immutable/float/kdtree/struct.ImmutableKdTree.html",
                adapter: "Per query, a `needs_full_scan` test and one branch on `identity`: items are the IDs when the setup's point k is ID k (every benchmark), else mapped through `ids[item]`; the `pruning_radius` widening and `distance <= r * r` re-test are the direct loop's too. Insert, remove and move make the family's ID checks, then refuse: the tree is static.",
            },
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
        let identity = ids.iter().enumerate().all(|(k, &id)| id as usize == k);
        Ok(Self {
            tree: ImmutableKdTree::new_from_slice(&points),
            points,
            ids,
            identity,
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
        let hits = self
            .tree
            .within_unsorted::<SquaredEuclidean>(&center, pruning_radius(r));
        if self.identity {
            for n in hits {
                if n.distance <= rr {
                    f(n.item);
                }
            }
        } else {
            for n in hits {
                if n.distance <= rr {
                    f(self.ids[n.item as usize]);
                }
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
        if self.identity != self.ids.iter().enumerate().all(|(k, &id)| id as usize == k) {
            return Err(format!(
                "items taken as IDs: {}, but the IDs say otherwise",
                self.identity
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A batch whose IDs are not its indices maps each item through `ids`; one whose IDs are
    /// takes the items as they are (and hands its tree out).
    #[test]
    fn items_are_ids_only_when_the_batch_ids_are_its_indices() {
        let space = Space {
            radius: 1.0,
            lo: [0.0; 2],
            hi: [10.0; 2],
        };
        let found = |t: &mut KiddoStatic<2>| {
            let mut ids = Vec::new();
            t.query([0.0, 0.0], 1.5, |id| ids.push(id));
            ids.sort_unstable();
            ids
        };
        let points = [[0.0, 0.0], [5.0, 5.0], [1.0, 1.0]];
        let mut other =
            KiddoStatic::build(&space, &[(7, points[0]), (0, points[1]), (3, points[2])]).unwrap();
        other.check_invariants().unwrap();
        assert_eq!(found(&mut other), [3, 7]);
        assert!(other.into_tree().is_none());
        let mut indexed =
            KiddoStatic::build(&space, &[(0, points[0]), (1, points[1]), (2, points[2])]).unwrap();
        indexed.check_invariants().unwrap();
        assert_eq!(found(&mut indexed), [0, 2]);
        assert_eq!(indexed.into_tree().map(|t| t.size()), Some(3));
    }
}
