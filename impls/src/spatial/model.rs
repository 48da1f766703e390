//! The reference model: an obviously correct spatial index whose answers every design's replay
//! must reproduce (`bench-harness` verification, `impls/tests/integration/spatial_model.rs`). Not a
//! benchmarked design: it is not in the registry.
//!
//! Layout: `Vec<Option<[f32; D]>>` indexed by ID (`Some` exactly for live points); a query
//! scans every slot in ID order and tests [`within`]: a brute-force model.

use super::{
    PointId, Space, SpatialDesignInfo, SpatialDesignKind, SpatialError, SpatialIndex, check_id,
    check_point, grow_to, vec_bytes, within,
};
use crate::DesignMeta;

/// Reference model of the [`SpatialIndex`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelIndex<const D: usize> {
    /// `points[id]` is `Some(position)` exactly while point `id` is live.
    points: Vec<Option<[f32; D]>>,
    /// Number of `Some` entries.
    live: usize,
}

impl<const D: usize> ModelIndex<D> {
    /// The live points within `r` of `center`, in ID order.
    pub fn scan(&self, center: [f32; D], r: f32) -> Vec<PointId> {
        let mut out = Vec::new();
        self.scan_each(center, r, |id| out.push(id));
        out
    }

    fn scan_each(&self, center: [f32; D], r: f32, mut f: impl FnMut(PointId)) {
        for (id, p) in self.points.iter().enumerate() {
            if let Some(p) = p
                && within(p, &center, r)
            {
                f(id as PointId);
            }
        }
    }

    /// The position of live point `id`.
    pub fn position(&self, id: PointId) -> Option<[f32; D]> {
        self.points.get(id as usize).copied().flatten()
    }

    /// One more than the largest ID ever inserted.
    pub fn id_bound(&self) -> usize {
        self.points.len()
    }
}

impl<const D: usize> SpatialIndex<D> for ModelIndex<D> {
    const INFO: SpatialDesignInfo = SpatialDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: Vec<Option<position>>, every query scans all slots",
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
        let slot = grow_to(&mut self.points, id, None);
        if slot.is_some() {
            return Err(SpatialError::AlreadyLive { id });
        }
        *slot = Some(p);
        self.live += 1;
        Ok(())
    }

    fn remove(&mut self, id: PointId) -> Result<(), SpatialError> {
        check_id(id)?;
        match self.points.get_mut(id as usize) {
            Some(slot @ Some(_)) => {
                *slot = None;
                self.live -= 1;
                Ok(())
            }
            _ => Err(SpatialError::NoSuchPoint { id }),
        }
    }

    fn move_to(&mut self, id: PointId, p: [f32; D]) -> Result<(), SpatialError> {
        check_point(id, &p)?;
        match self.points.get_mut(id as usize) {
            Some(Some(at)) => {
                *at = p;
                Ok(())
            }
            _ => Err(SpatialError::NoSuchPoint { id }),
        }
    }

    fn query(&mut self, center: [f32; D], r: f32, f: impl FnMut(PointId)) {
        self.scan_each(center, r, f);
    }

    fn len(&self) -> usize {
        self.live
    }

    fn memory_bytes(&self) -> usize {
        vec_bytes(&self.points)
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.points.iter().filter(|p| p.is_some()).count();
        if live != self.live {
            return Err(format!("{live} live slots, counted {}", self.live));
        }
        Ok(())
    }
}
