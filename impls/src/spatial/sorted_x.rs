//! The article's counterexample (seed 003, "Fuzzy hashing": "Say, that you've sorted your data
//! along the x-coordinate … only a tiny fraction of those objects will have y in the range …
//! you pretty much have to go through all of them"): the points sorted by x, a query binary
//! searches the window `x ± r` and tests every point in it.
//!
//! Layout: `entries: Vec<([f32; D], u32)>` sorted by `(x, id)` (x by `total_cmp`), plus per ID
//! its position and a live flag. Inserts append and mark the array unsorted; the next query,
//! remove or move sorts it once (O(n log n), so building costs one sort, not n shifts). Then
//! remove is a binary search plus a shift (O(n)), a move rotates the entries between the old
//! and the new place (O(distance in x order): small for small moves), and a query is
//! O(log n + w) for the w points in the window: about `n · 2r / width` (2√n on `sp-uniform`),
//! against the grid's ~16. A radius whose square overflows ([`needs_full_scan`]) takes every
//! entry as the window.

use crate::DesignMeta;
use std::cmp::Ordering;

use super::{
    PointId, QueryCost, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex,
    check_id, check_point, grow_to, needs_full_scan, search_radius, vec_bytes, within,
};

/// The order of `entries`.
#[inline(always)]
fn order<const D: usize>(a: &([f32; D], PointId), b: &([f32; D], PointId)) -> Ordering {
    a.0[0].total_cmp(&b.0[0]).then(a.1.cmp(&b.1))
}

/// The points sorted by x.
#[derive(Debug, Clone, Default)]
pub struct SortedX<const D: usize> {
    /// The live points; sorted by [`order`] whenever `sorted` is true.
    entries: Vec<([f32; D], PointId)>,
    /// Whether `entries` is sorted.
    sorted: bool,
    /// `pos[id]`: live point `id`'s position (stale for dead IDs); equal to its entry's.
    pos: Vec<[f32; D]>,
    /// `live[id]` exactly for live IDs.
    live: Vec<bool>,
}

impl<const D: usize> SortedX<D> {
    fn ensure_sorted(&mut self) {
        if !self.sorted {
            self.entries.sort_unstable_by(order);
            self.sorted = true;
        }
    }

    /// The index of live point `id`'s entry (sorts first).
    fn index_of(&mut self, id: PointId) -> Result<usize, SpatialError> {
        if !self.live.get(id as usize).copied().unwrap_or(false) {
            return Err(SpatialError::NoSuchPoint { id });
        }
        self.ensure_sorted();
        let e = (self.pos[id as usize], id);
        Ok(self
            .entries
            .binary_search_by(|x| order(x, &e))
            .expect("a live point has its entry"))
    }

    /// The window of entries a query must test.
    #[inline(always)]
    fn window(&self, center: &[f32; D], r: f32) -> std::ops::Range<usize> {
        if needs_full_scan(r) {
            return 0..self.entries.len();
        }
        let r = search_radius(r);
        let (lo, hi) = (f64::from(center[0]) - r, f64::from(center[0]) + r);
        let start = self.entries.partition_point(|e| f64::from(e.0[0]) < lo);
        let len = self.entries[start..].partition_point(|e| f64::from(e.0[0]) <= hi);
        start..start + len
    }
}

impl<const D: usize> SpatialIndex<D> for SortedX<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "sorted_x",
            description: "article counterexample: points sorted by x, a query binary-searches x +- r and tests the window",
            kind: SpatialDesignKind::Article,
        },
        supports_3d: true,
        max_live: None,
        static_only: false,
    };

    fn new(_space: &Space<D>) -> Self {
        Self::default()
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let live = grow_to(&mut self.live, id, false);
        if *live {
            return Err(SpatialError::AlreadyLive { id });
        }
        *live = true;
        *grow_to(&mut self.pos, id, [0.0; D]) = p;
        self.entries.push((p, id));
        self.sorted = self.entries.len() <= 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        let k = self.index_of(id)?;
        self.entries.remove(k);
        self.live[id as usize] = false;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let i = self.index_of(id)?;
        let e = (p, id);
        self.pos[id as usize] = p;
        // Entries before `j` order before the moved point's new entry (the old entry among them
        // exactly when `j > i`).
        let j = self
            .entries
            .partition_point(|x| order(x, &e) == Ordering::Less);
        if j > i {
            self.entries[i..j].rotate_left(1);
            self.entries[j - 1] = e;
        } else {
            self.entries[j..=i].rotate_right(1);
            self.entries[j] = e;
        }
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        self.ensure_sorted();
        for (p, id) in &self.entries[self.window(&center, r)] {
            if within(p, &center, r) {
                f(*id);
            }
        }
    }

    fn query_cost(&mut self, center: [f32; D], r: f32) -> Option<QueryCost> {
        self.ensure_sorted();
        Some(QueryCost {
            cells: 0,
            tested: self.window(&center, r).len() as u64,
        })
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.entries) + vec_bytes(&self.pos) + vec_bytes(&self.live)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.sorted
            && !self
                .entries
                .is_sorted_by(|a, b| order(a, b) == Ordering::Less)
        {
            return Err("entries marked sorted are not".into());
        }
        for &(p, id) in &self.entries {
            if !self.live.get(id as usize).copied().unwrap_or(false) {
                return Err(format!("entry of dead point {id}"));
            }
            if self.pos[id as usize].map(f32::to_bits) != p.map(f32::to_bits) {
                return Err(format!(
                    "entry of {id} at {p:?}, its position {:?}",
                    self.pos[id as usize]
                ));
            }
        }
        let live = self.live.iter().filter(|&&l| l).count();
        if live != self.entries.len() {
            return Err(format!("{live} live for {} entries", self.entries.len()));
        }
        Ok(())
    }
}
