//! What the component-manager generators (`comp-*`) share: `ComponentTraceBuilder`, which
//! tracks live entities and which of them have a point mass, and `populate`, the setup every
//! `comp-*` workload starts from.
//!
//! # Populating
//! `populate(n, density)` spawns `n` entities; each gets a point mass (an `Attach` right after
//! its `Spawn`) with probability `density`, decided by one `unit_f64` draw per entity when
//! `density < 1` (no draw at 1). The attach seed is one `next_u64` draw, truncated to 32 bits.
//! Entities with a point mass are thus spread uniformly over the entity indices.

use crate::components::{ComponentOp, EntityHandle};
use crate::rng::TraceRng;

use crate::generate::parts::{LiveHandles, TraceParts};

/// Builds a component trace op by op while tracking live entities and their point masses.
///
/// Invariants: `live` holds exactly the entities spawned and not killed by the ops in `parts`;
/// `with_instance` exactly the live ones with a point mass.
#[derive(Debug, Default)]
pub(crate) struct ComponentTraceBuilder {
    parts: TraceParts<ComponentOp>,
    live: LiveHandles,
    with_instance: LiveHandles,
    /// `has[h]`: whether handle `h` has a point mass, i.e. is in `with_instance` (every handle
    /// is inserted in both sets at its spawn and removed from `with_instance` at once).
    has: Vec<bool>,
}

crate::generate::parts::recorder!(ComponentTraceBuilder: ComponentOp, live: live);

impl ComponentTraceBuilder {
    /// Appends a `Spawn` and returns its handle.
    pub(crate) fn spawn(&mut self) -> EntityHandle {
        let h = self.live.insert_next();
        let same = self.with_instance.insert_next();
        debug_assert_eq!(h, same);
        self.with_instance.remove(h);
        self.has.push(false);
        self.parts.push(ComponentOp::Spawn);
        h
    }

    /// Appends an `Attach` with a seed drawn by one `next_u64`.
    ///
    /// # Panics
    /// If `h` is not live or already has a point mass.
    pub(crate) fn attach(&mut self, h: EntityHandle, rng: &mut TraceRng) {
        assert!(
            self.live.contains(h) && !self.has[h as usize],
            "attach to {h}"
        );
        self.has[h as usize] = true;
        self.with_instance.reinsert(h);
        self.parts
            .push(ComponentOp::Attach(h, rng.next_u64() as u32));
    }

    /// Appends an `AttachAnother` with a seed drawn by one `next_u64`.
    ///
    /// # Panics
    /// If `h` is not live or has no point mass yet.
    pub(crate) fn attach_another(&mut self, h: EntityHandle, rng: &mut TraceRng) {
        assert!(
            self.live.contains(h) && self.has[h as usize],
            "attach another to {h}"
        );
        self.parts
            .push(ComponentOp::AttachAnother(h, rng.next_u64() as u32));
    }

    /// Appends a `Kill`.
    ///
    /// # Panics
    /// If `h` is not live.
    pub(crate) fn kill(&mut self, h: EntityHandle) {
        self.live.remove(h);
        if std::mem::take(&mut self.has[h as usize]) {
            self.with_instance.remove(h);
        }
        self.parts.push(ComponentOp::Kill(h));
    }

    /// A uniformly chosen live entity with a point mass (one `index` draw), `None` if there
    /// is none (no draw).
    #[cfg(test)]
    pub(crate) fn random_with_instance(&self, rng: &mut TraceRng) -> Option<EntityHandle> {
        (self.with_instance.len() > 0).then(|| self.with_instance.random(rng))
    }

    /// Appends `op` as it is: for ops that change no entity (`Lookup`, `Write`,
    /// `CopyPosition`, `Simulate`, `DestroyStep`).
    ///
    /// # Panics
    /// If `op` names an entity that is not live.
    pub(crate) fn push(&mut self, op: ComponentOp) {
        assert!(
            matches!(
                op,
                ComponentOp::Lookup(_)
                    | ComponentOp::Write(..)
                    | ComponentOp::CopyPosition(..)
                    | ComponentOp::Simulate
                    | ComponentOp::DestroyStep
            ),
            "{op:?} changes entities"
        );
        for h in [op.entity(), op.second_entity()].into_iter().flatten() {
            assert!(self.live.contains(h), "{op:?} of a dead entity");
        }
        self.parts.push(op);
    }
}

/// Spawns `n` entities, each given a point mass with probability `density` (see the module
/// doc).
pub(crate) fn populate(b: &mut ComponentTraceBuilder, n: usize, density: f64, rng: &mut TraceRng) {
    for _ in 0..n {
        let h = b.spawn();
        if density >= 1.0 || rng.unit_f64() < density {
            b.attach(h, rng);
        }
    }
}

/// Allowed range of a `density` parameter.
pub(crate) const DENSITY: std::ops::RangeInclusive<f64> = 0.0..=1.0;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::parts::Recorder;

    #[test]
    fn populate_spreads_instances_by_density() {
        let t = ComponentTraceBuilder::default().record("test", 10_000, 1, &(), |b, rng| {
            populate(b, 10_000, 0.1, rng);
            b.start_body();
            let e = b.random_with_instance(rng).unwrap();
            b.kill(e);
        });
        let s = t.validate().unwrap();
        assert!(
            (900..1100).contains(&s.instances_at_start),
            "{}",
            s.instances_at_start
        );
        assert_eq!(s.kills_with_instance, 1);
    }
}
