//! Peer: `kiddo`'s mutable float `KdTree<f32, u32, D, 32, u32>` (a k-d tree with buckets of
//! 32), used as its docs show (<https://docs.rs/kiddo/5.3.3/kiddo/float/kdtree/struct.KdTree.html>):
//! a point set known up front goes into `KdTree::with_capacity(n)` then `add` per point
//! ([`SpatialIndex::build`]); insert is `add`, removal `remove(point, id)`, a move is remove
//! plus add. A query is `within_unsorted::<SquaredEuclidean>` and each result's own
//! `distance` decides: `SquaredEuclidean::dist` sums `(a - b) * (a - b)` from 0 in axis order
//! in `f32`, the family's [`distance_squared`](crate::spatial::distance_squared) bit for bit,
//! and the adapter keeps a result when `distance <= r * r`, exactly [`within`]. The crate is
//! asked for a radius widened by [`search_radius`] ([`pruning_radius`]) because its pruning
//! sums per-split offsets in another order than the leaf distance, which can round a few ulps
//! above a point exactly at `r`. A radius whose square overflows ([`needs_full_scan`]) is
//! answered by one pass over the tree's `iter()` instead: the crate's incremental
//! distance-to-region update turns an infinite radius into `inf - inf = NaN` and prunes
//! subtrees holding points [`within`] it. The adapter's `pos`/`live` arrays serve removal
//! (the crate removes by point and item) and the ID checks only.
//!
//! **Wrong answers on some inputs (a defect of kiddo 5.3.3, kept visible, not worked
//! around):** when a full bucket splits on an axis where 17 or more of its 32 points share the
//! bucket's smallest value on that axis (many points on one line, as clustered points clamped
//! to a box edge), the crate's `split` (`src/float/construction.rs`, its `pivot_idx == 0`
//! branch) re-runs a select that only places the maximum and then scans the bucket as if it
//! were sorted, so points land on the wrong side of the new split: later queries miss them
//! and `remove` cannot find them. `sp-clustered` at 100K points fails verification (8167
//! points expected, 8164 found). `impls/tests/integration/kiddo_split_defect.rs` reproduces it with the
//! crate alone. The static [`kiddo_static`](super::kiddo_static) (`ImmutableKdTree`) builds
//! differently and gives 8167.
//!
//! A limit, the crate's, refused instead of panicking: a bucket of 32 cannot split 33 points
//! at exactly one position, and `add` panics then ("Increase the bucket size `B` above the
//! maximum duplicate count, deduplicate the input"). The adapter counts the live points per
//! exact position (a `hashbrown` map from position bits, `-0.0` as `0.0`, as the crate
//! compares with `==`) and refuses the 33rd with [`SpatialError::Unsupported`]. The crate
//! offers nothing cheaper (its leaves are private, so "is the target bucket full of copies" is
//! not visible from outside): the guard costs one map lookup per insert and remove (two per
//! move to another exact position, none to the same; the check and the count are one `entry`),
//! about one more cache miss per lookup at 1M points, and 16 B (2D) to 20 B (3D) per
//! distinct position plus the map's slack, counted in [`memory_bytes`](SpatialIndex::memory_bytes).
//!
//! Memory is an estimate (the crate exposes no capacities): one leaf slot (point and item) per
//! live point plus the adapter's side arrays and guard map; stems and bucket slack are not
//! counted.

use crate::DesignMeta;
use hashbrown::HashMap;
use hashbrown::hash_map::Entry;
use kiddo::SquaredEuclidean;
use kiddo::float::kdtree::KdTree;

use crate::hashing::hash_map_bytes;
use crate::spatial::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_id,
    check_live, check_point, grow_to, needs_full_scan, search_radius, vec_bytes, within,
};

/// The tree's bucket size (the crate's default): also the most points one exact position may
/// hold.
pub const BUCKET: usize = 32;

/// The crate's tree as the peer holds it (for `ref-direct-kiddo`, which calls `kiddo` directly
/// without depending on the crate itself).
pub type PointKdTree<const D: usize> = KdTree<f32, u32, D, BUCKET, u32>;

/// The crate's distance metric the peers query with (`SquaredEuclidean`), for the same loops.
pub type Metric = SquaredEuclidean;

/// What [`SpatialError::Unsupported`] says when a position already holds [`BUCKET`] points.
const FULL_POSITION: &str =
    "kiddo's buckets hold at most 32 points at one exact position (add would panic)";

/// The squared radius to hand `within_unsorted` for a query of radius `r` (finite `r * r`):
/// [`search_radius`] squared, plus a relative 1e-6, so the crate's pruning keeps every point
/// whose own distance is at most `r * r`; the caller then tests each result's distance.
#[inline(always)]
pub fn pruning_radius(r: f32) -> f32 {
    let w = search_radius(r);
    (w * w) as f32 * (1.0 + 1e-6)
}

/// An exact position as the crate compares positions (`==`: `-0.0` is `0.0`).
#[inline(always)]
fn position_key<const D: usize>(p: &[f32; D]) -> [u32; D] {
    p.map(|v| (v + 0.0).to_bits())
}

/// A k-d tree of points tagged with their IDs.
#[derive(Debug, Clone)]
pub struct KiddoTree<const D: usize> {
    tree: KdTree<f32, u32, D, BUCKET, u32>,
    /// `pos[id]`: live point `id`'s position (what `remove` must name).
    pos: Vec<[f32; D]>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
    /// Live points per exact position ([`position_key`]), only positions holding one or more:
    /// never above [`BUCKET`].
    copies: HashMap<[u32; D], u32>,
    len: usize,
}

impl<const D: usize> KiddoTree<D> {
    /// Counts one more live point at `p` (one map lookup), or [`SpatialError::Unsupported`]
    /// if `p` already holds [`BUCKET`] (nothing counted then).
    fn count(&mut self, id: PointId, p: &[f32; D]) -> Result<(), SpatialError> {
        match self.copies.entry(position_key(p)) {
            Entry::Occupied(e) if *e.get() as usize >= BUCKET => Err(SpatialError::Unsupported {
                id,
                reason: FULL_POSITION,
            }),
            Entry::Occupied(mut e) => {
                *e.get_mut() += 1;
                Ok(())
            }
            Entry::Vacant(e) => {
                e.insert(1);
                Ok(())
            }
        }
    }

    /// Counts one live point fewer at `p` (one map lookup).
    fn uncount(&mut self, p: &[f32; D]) {
        let Entry::Occupied(mut e) = self.copies.entry(position_key(p)) else {
            unreachable!("a live point's position is counted");
        };
        if *e.get() == 1 {
            e.remove();
        } else {
            *e.get_mut() -= 1;
        }
    }

    /// Takes live point `id` at `p` out of the tree.
    fn take(&mut self, id: PointId, p: &[f32; D]) {
        // 0 when the crate's split defect misplaced the point (see the module docs): the
        // tree then keeps it, `check_invariants` reports the tree's size, and the replay
        // fails verification; no panic on a crate's wrong answer.
        self.tree.remove(p, id);
    }

    fn with_capacity(n: usize) -> Self {
        Self {
            tree: KdTree::with_capacity(n),
            pos: Vec::new(),
            live: Vec::new(),
            copies: HashMap::with_capacity(n),
            len: 0,
        }
    }

    /// The crate's tree, as built (for a loop calling `kiddo` directly on the same tree).
    pub fn into_tree(self) -> PointKdTree<D> {
        self.tree
    }
}

impl<const D: usize> SpatialIndex<D> for KiddoTree<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "kiddo",
            description: "peer: kiddo 5.3.3 float KdTree (buckets of 32) as its docs show: with_capacity + add, within_unsorted kept by its own distances; a move is remove + add; at most 32 points at one exact position; WRONG ANSWERS when 17+ points of a full bucket share its smallest coordinate on one axis (a kiddo split defect: fails sp-clustered at 100K; kiddo_static does not)",
            kind: SpatialDesignKind::Peer {
                crate_name: "kiddo",
                version: "5.3.3",
                idiom: "float KdTree::with_capacity + add per point, within_unsorted::<SquaredEuclidean> per query keeping its own distances; a move is remove + add",
                docs: "https://docs.rs/kiddo/5.3.3/kiddo/float/kdtree/struct.KdTree.html",
                adapter: "Per move, `check_point`, the `live` test and the old position from `pos` (the direct loop keeps its own), plus the 32-copies guard: two `copies` hash-map `entry` lookups when the exact position changes, which neither the direct loop nor our designs pay. Per query only a `needs_full_scan` test: the `pruning_radius` widening and `distance <= r * r` re-test are the direct loop's too.",
            },
        },
        supports_3d: true,
        max_live: None,
        static_only: false,
    };

    fn new(_space: &Space<D>) -> Self {
        Self {
            tree: KdTree::new(),
            pos: Vec::new(),
            live: Vec::new(),
            copies: HashMap::new(),
            len: 0,
        }
    }

    fn build(_space: &Space<D>, points: &[(PointId, [f32; D])]) -> Result<Self, SpatialError> {
        let mut index = Self::with_capacity(points.len());
        for &(id, p) in points {
            index.insert(id, p)?;
        }
        Ok(index)
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        if self.live.get(id as usize).copied().unwrap_or(false) {
            return Err(SpatialError::AlreadyLive { id });
        }
        self.count(id, &p)?;
        *grow_to(&mut self.live, id, false) = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.tree.add(&p, id);
        self.len += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        check_live(&self.live, id)?;
        let p = self.pos[id as usize];
        self.take(id, &p);
        self.uncount(&p);
        self.live[id as usize] = false;
        self.len -= 1;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        check_live(&self.live, id)?;
        let old = self.pos[id as usize];
        // Two map lookups, only when the exact position changes: count the new one (or
        // refuse, nothing changed), then uncount the old.
        if position_key(&p) != position_key(&old) {
            self.count(id, &p)?;
            self.uncount(&old);
        }
        self.take(id, &old);
        self.pos[id as usize] = p;
        self.tree.add(&p, id);
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        if needs_full_scan(r) {
            for (id, p) in self.tree.iter() {
                if within(&p, &center, r) {
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
            + hash_map_bytes::<[u32; D], u32>(self.copies.capacity())
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.live.iter().filter(|&&l| l).count();
        let size = self.tree.size() as usize;
        if live != self.len || size != self.len {
            return Err(format!("{live} live, tree holds {size}, len {}", self.len));
        }
        let counted: u32 = self.copies.values().sum();
        if counted as usize != self.len
            || self.copies.values().any(|&n| n == 0 || n as usize > BUCKET)
        {
            return Err(format!(
                "copy counts sum to {counted} for {} points, or one is 0 or above {BUCKET}",
                self.len
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use kiddo::traits::DistanceMetric;

    use super::*;
    use crate::spatial::assert_crate_distance_is_the_familys;

    /// The premise of keeping results by their own distance: the crate's squared distance is
    /// the family's, bit for bit, at ordinary values and at the extremes.
    #[test]
    fn kiddo_squared_euclidean_is_the_family_distance_bit_for_bit() {
        assert_crate_distance_is_the_familys(&[], |p, q| SquaredEuclidean::dist(q, p));
    }

    #[test]
    fn a_33rd_point_at_one_position_is_refused_not_a_panic() {
        let mut t = KiddoTree::<2>::new(&Space {
            radius: 1.0,
            lo: [0.0; 2],
            hi: [1.0; 2],
        });
        for id in 0..BUCKET as PointId {
            t.insert(id, [1.0, if id % 2 == 0 { 0.0 } else { -0.0 }])
                .unwrap();
        }
        let full = Err(SpatialError::Unsupported {
            id: 40,
            reason: FULL_POSITION,
        });
        assert_eq!(t.insert(40, [1.0, 0.0]), full);
        t.insert(41, [2.0, 0.0]).unwrap();
        assert_eq!(
            t.move_to(41, [1.0, -0.0]),
            Err(SpatialError::Unsupported {
                id: 41,
                reason: FULL_POSITION
            })
        );
        // Moving within the full position, or out of it and back, is fine.
        t.move_to(3, [1.0, 0.0]).unwrap();
        t.move_to(3, [5.0, 5.0]).unwrap();
        t.move_to(41, [1.0, 0.0]).unwrap();
        assert_eq!(
            t.move_to(3, [1.0, 0.0]),
            Err(SpatialError::Unsupported {
                id: 3,
                reason: FULL_POSITION
            })
        );
        t.remove(0).unwrap();
        t.move_to(3, [1.0, 0.0]).unwrap();
        t.check_invariants().unwrap();
        let mut n = 0;
        t.query([1.0, 0.0], 0.0, |_| n += 1);
        assert_eq!(n, BUCKET);
    }
}
