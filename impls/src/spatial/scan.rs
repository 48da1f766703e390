//! Brute force (the article's baseline for every index): the live points packed in one array
//! of `(position, id)`, every query tests them all.
//!
//! Layout: `points: Vec<([f32; D], u32)>` dense (removal swaps the last point into the hole)
//! plus `slot[id]`, the point's index in `points`. Insert, remove and move are O(1); a query is
//! O(n) but a sequential, branch-light pass (the layout a scan wants). Capped at
//! [`MAX_LIVE`] live points in benchmarks.

use super::{
    PointId, QueryCost, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex,
    check_id, check_point, grow_to, vec_bytes, within,
};
use crate::DesignMeta;

/// Most live points a benchmark replays the scan on.
pub const MAX_LIVE: usize = 100_000;

/// `slot` value of a dead ID.
const DEAD: u32 = u32::MAX;

/// Every live point in one packed array.
#[derive(Debug, Clone, Default)]
pub struct Scan<const D: usize> {
    /// The live points, in no meaningful order.
    points: Vec<([f32; D], PointId)>,
    /// `slot[id]` is the index of live point `id` in `points`, [`DEAD`] otherwise; for every
    /// `k`, `slot[points[k].1] == k`.
    slot: Vec<u32>,
}

impl<const D: usize> Scan<D> {
    fn index_of(&self, id: PointId) -> Result<usize, SpatialError> {
        match self.slot.get(id as usize) {
            Some(&k) if k != DEAD => Ok(k as usize),
            _ => Err(SpatialError::NoSuchPoint { id }),
        }
    }
}

impl<const D: usize> SpatialIndex<D> for Scan<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "scan",
            description: "brute force: live points packed as (position, id), every query tests all",
            kind: SpatialDesignKind::Article,
        },
        supports_3d: true,
        max_live: Some(MAX_LIVE),
        static_only: false,
    };

    fn new(_space: &Space<D>) -> Self {
        Self::default()
    }

    fn insert(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let at = self.points.len() as u32;
        let slot = grow_to(&mut self.slot, id, DEAD);
        if *slot != DEAD {
            return Err(SpatialError::AlreadyLive { id });
        }
        *slot = at;
        self.points.push((p, id));
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        let k = self.index_of(id)?;
        self.points.swap_remove(k);
        if let Some(&(_, moved)) = self.points.get(k) {
            self.slot[moved as usize] = k as u32;
        }
        self.slot[id as usize] = DEAD;
        Ok(())
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        let k = self.index_of(id)?;
        self.points[k].0 = p;
        Ok(())
    }

    fn query(&mut self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        for (p, id) in &self.points {
            if within(p, &center, r) {
                f(*id);
            }
        }
    }

    fn query_cost(&mut self, _center: [f32; D], _r: f32) -> Option<QueryCost> {
        Some(QueryCost {
            cells: 0,
            tested: self.points.len() as u64,
        })
    }

    fn len(&self) -> usize {
        self.points.len()
    }

    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.points) + vec_bytes(&self.slot)
    }

    fn check_invariants(&self) -> Result<(), String> {
        for (k, &(_, id)) in self.points.iter().enumerate() {
            if self.slot.get(id as usize) != Some(&(k as u32)) {
                return Err(format!(
                    "point {id} at {k} but slot says {:?}",
                    self.slot.get(id as usize)
                ));
            }
        }
        let live = self.slot.iter().filter(|&&s| s != DEAD).count();
        if live != self.points.len() {
            return Err(format!(
                "{live} live slots for {} points",
                self.points.len()
            ));
        }
        Ok(())
    }
}
