//! Peer: `rstar`'s `RTree` (an R*-tree) of `GeomWithData<[f32; D], u32>`, used as its docs
//! show (<https://docs.rs/rstar/0.13.1/rstar/struct.RTree.html>): a point set known up front
//! is loaded with `RTree::bulk_load` ([`SpatialIndex::build`]; "the preferred way for
//! creating r-trees ... runs faster and yields an r-tree with better internal structure"),
//! later points with `insert`, removal by the exact point and ID (O(log n)), a move is remove
//! plus insert. A query is `locate_within_distance(center, r * r)` as the crate's users call
//! it, each returned entry reported as is: the crate keeps an entry when
//! `distance_2 <= max_squared_radius`, with `distance_2` the per-axis `p - center` squared
//! and summed from 0 in axis order in `f32`, the family's [`within`] bit for bit; and its
//! pruning test (the squared distance to a node's box, clamped per axis) rounds monotonically
//! below every point inside, so it never drops one the leaf test keeps. No widening, no
//! re-test. The adapter's `pos`/`live` arrays serve removal (the crate removes by value) and
//! the ID checks only.
//!
//! Points with a coordinate beyond ±[`FAR`] (`f32::MAX / 4`) stay out of the tree, in a short
//! list every query scans: the tree's forced reinsertion sorts a node's children by their
//! centres' squared distance with `partial_cmp().unwrap()`, and a centre at `(MAX + MAX) / 2 =
//! inf` makes `inf - inf = NaN` there and panics. Within ±`FAR` every centre and difference is
//! finite (squares may overflow to `inf`, never to NaN). Benchmarks have no such points: the
//! list stays empty and costs one empty loop per query; removing a far point is O(far points).
//!
//! Memory is an estimate (the crate exposes no capacities): one leaf entry per point plus the
//! adapter's side arrays; inner nodes are not counted.

use crate::DesignMeta;
use rstar::RTree;
use rstar::primitives::GeomWithData;

use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_batch,
    check_id, check_live, check_point, grow_to, vec_bytes, within,
};

type Entry<const D: usize> = GeomWithData<[f32; D], PointId>;

/// The crate's tree as the peer holds it (for `ref-direct-rstar`, which calls `rstar`
/// directly without depending on the crate itself).
pub type PointTree<const D: usize> = RTree<PointEntry<D>>;

/// An entry of a [`PointTree`]: a point tagged with its ID (`GeomWithData::new(p, id)`).
pub type PointEntry<const D: usize> = GeomWithData<[f32; D], PointId>;

/// Largest coordinate magnitude the tree holds (see the module docs).
pub const FAR: f32 = f32::MAX / 4.0;

/// Whether `p` is kept out of the tree, in the far list.
#[inline(always)]
fn is_far<const D: usize>(p: &[f32; D]) -> bool {
    p.iter().any(|v| v.abs() > FAR)
}

/// An R*-tree of points tagged with their IDs.
#[derive(Debug, Clone)]
pub struct RStarTree<const D: usize> {
    /// The live points within ±[`FAR`] on every axis.
    tree: RTree<Entry<D>>,
    /// The other live points (beyond ±[`FAR`] on some axis), in no order.
    far: Vec<([f32; D], PointId)>,
    /// `pos[id]`: live point `id`'s position (it says whether the point is in the tree or far).
    pos: Vec<[f32; D]>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
}

impl<const D: usize> RStarTree<D> {
    /// Puts point `id` at `p` into the tree or the far list.
    fn place(&mut self, id: PointId, p: [f32; D]) {
        if is_far(&p) {
            self.far.push((p, id));
        } else {
            self.tree.insert(GeomWithData::new(p, id));
        }
    }

    /// Takes live point `id` out of the tree or the far list.
    fn take(&mut self, id: PointId) {
        let p = self.pos[id as usize];
        if is_far(&p) {
            let k = self
                .far
                .iter()
                .position(|e| e.1 == id)
                .expect("a live far point is in the far list");
            self.far.swap_remove(k);
        } else {
            self.tree
                .remove(&GeomWithData::new(p, id))
                .expect("a live point is in the tree");
        }
    }

    /// The crate's tree, as built (for a loop calling `rstar` directly on the same tree);
    /// `None` when some live point is in the far list, outside the tree.
    pub fn into_tree(self) -> Option<PointTree<D>> {
        self.far.is_empty().then_some(self.tree)
    }
}

impl<const D: usize> SpatialIndex<D> for RStarTree<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "rstar",
            description: "peer: rstar 0.13.1 RTree (R*-tree) as its docs show: bulk_load of the setup, locate_within_distance(c, r*r) as is; later insert/remove, a move is remove + insert",
            kind: SpatialDesignKind::Peer {
                crate_name: "rstar",
                version: "0.13.1",
                idiom: "RTree::bulk_load of the setup's points, locate_within_distance(center, r²) per query; insert / remove afterwards, a move is remove + insert",
                docs: "https://docs.rs/rstar/0.13.1/rstar/struct.RTree.html",
                adapter: "Per query, the tree's answer as is (`locate_within_distance(center, r * r)`, no widening or re-test) plus a scan of the `far` list, empty in every benchmark. Per move, `check_point`, the `live` test and an `is_far` test of the old and new position around the crate's `remove` + `insert`; the ID checks are the family's, which our designs pay too.",
            },
        },
        supports_3d: true,
        max_live: None,
        static_only: false,
    };

    fn new(_space: &Space<D>) -> Self {
        Self {
            tree: RTree::new(),
            far: Vec::new(),
            pos: Vec::new(),
            live: Vec::new(),
        }
    }

    fn build(_space: &Space<D>, points: &[(PointId, [f32; D])]) -> Result<Self, SpatialError> {
        let (mut pos, mut live) = (Vec::new(), Vec::new());
        check_batch(points, &mut live)?;
        for &(id, p) in points {
            *grow_to(&mut pos, id, [0.0; D]) = p;
        }
        let (far, near): (Vec<_>, Vec<_>) = points.iter().partition(|(_, p)| is_far(p));
        Ok(Self {
            tree: RTree::bulk_load(
                near.iter()
                    .map(|&&(id, p)| GeomWithData::new(p, id))
                    .collect(),
            ),
            far: far.iter().map(|&&(id, p)| (p, id)).collect(),
            pos,
            live,
        })
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let live = grow_to(&mut self.live, id, false);
        if *live {
            return Err(SpatialError::AlreadyLive { id });
        }
        *live = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.place(id, p);
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        check_live(&self.live, id)?;
        self.take(id);
        self.live[id as usize] = false;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        check_live(&self.live, id)?;
        self.take(id);
        self.pos[id as usize] = p;
        self.place(id, p);
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        for e in self.tree.locate_within_distance(center, r * r) {
            f(e.data);
        }
        for (p, id) in &self.far {
            if within(p, &center, r) {
                f(*id);
            }
        }
    }

    fn len(&self) -> usize {
        self.tree.size() + self.far.len()
    }

    fn memory_bytes(&self) -> usize {
        self.tree.size() * size_of::<Entry<D>>()
            + vec_bytes(&self.far)
            + vec_bytes(&self.pos)
            + vec_bytes(&self.live)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.live.iter().filter(|&&l| l).count();
        if live != self.tree.size() + self.far.len() {
            return Err(format!(
                "{live} live, tree holds {}, far list {}",
                self.tree.size(),
                self.far.len()
            ));
        }
        let entries = self.tree.iter().map(|e| (*e.geom(), e.data, false));
        for (p, id, far) in entries.chain(self.far.iter().map(|&(p, id)| (p, id, true))) {
            let at = id as usize;
            if !self.live.get(at).copied().unwrap_or(false)
                || self.pos[at].map(f32::to_bits) != p.map(f32::to_bits)
                || is_far(&p) != far
            {
                return Err(format!(
                    "entry of {id} at {p:?} (far list: {far}) is not a live point's"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rstar::PointDistance;

    use super::*;
    use crate::spatial::assert_crate_distance_is_the_familys;

    /// The premise of taking `locate_within_distance`'s answer as is: the crate's squared
    /// distance of a point is the family's, bit for bit, at ordinary values and at the
    /// extremes the tree holds (within ±`FAR`) and beyond.
    #[test]
    fn rstar_distance_2_is_the_family_distance_bit_for_bit() {
        assert_crate_distance_is_the_familys(&[FAR], |p, q| {
            PointDistance::distance_2(&GeomWithData::new(*p, 0u32), q)
        });
    }
}
