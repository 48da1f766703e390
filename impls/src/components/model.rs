//! The reference model: an obviously correct component store, whose answers every design's
//! replay must reproduce (`bench-harness` verification, `impls/tests/integration/components_model.rs`).
//! Not a benchmarked design: it is not in the registry.
//!
//! Layout: a `BTreeSet` of live entities (numbers never reused) and a
//! `BTreeMap<entity, Vec<PointMass>>` of instances (several per entity through
//! `attach_another`; the first is the one lookups see); killing an entity removes its
//! instances at once, so it never holds garbage. `simulate` applies [`PointMass::step`] per
//! instance.

use crate::DesignMeta;
use std::collections::{BTreeMap, BTreeSet};

use super::{
    ComponentDesignInfo, ComponentDesignKind, ComponentError, ComponentStore, Destruction,
    PointMass, VectorField,
};

/// Reference model of the [`ComponentStore`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelStore {
    /// Live entities. Invariant: every key of `instances` is in it.
    live: BTreeSet<u64>,
    /// Invariant: no empty list.
    instances: BTreeMap<u64, Vec<PointMass>>,
    /// Total length of the lists.
    count: usize,
    /// Entities ever spawned (the next entity number).
    spawned: u64,
}

impl ModelStore {
    /// The instance of a live entity, if any.
    pub fn instance(&self, entity: u64) -> Option<&PointMass> {
        self.instances.get(&entity).map(|list| &list[0])
    }

    fn first_mut(&mut self, entity: u64) -> Option<&mut PointMass> {
        self.instances.get_mut(&entity).map(|list| &mut list[0])
    }

    fn check(&self, entity: u64) -> Result<(), ComponentError> {
        if self.live.contains(&entity) {
            Ok(())
        } else {
            Err(ComponentError::dead(entity))
        }
    }
}

impl ComponentStore for ModelStore {
    type Entity = u64;
    const INFO: ComponentDesignInfo = ComponentDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: BTreeMap<entity, PointMass> (verification only)",
            kind: ComponentDesignKind::Article,
        },
        destruction: Destruction::Callback,
        several_per_entity: true,
    };

    fn new() -> Self {
        Self::default()
    }

    fn spawn(&mut self) -> Result<u64, ComponentError> {
        let e = self.spawned;
        self.spawned += 1;
        self.live.insert(e);
        Ok(e)
    }

    fn kill(&mut self, entity: u64) -> Result<(), ComponentError> {
        if !self.live.remove(&entity) {
            return Err(ComponentError::dead(entity));
        }
        self.count -= self.instances.remove(&entity).map_or(0, |l| l.len());
        Ok(())
    }

    fn attach(&mut self, entity: u64, init: PointMass) -> Result<(), ComponentError> {
        self.check(entity)?;
        if self.instances.contains_key(&entity) {
            return Err(ComponentError::attached(entity));
        }
        self.instances.insert(entity, vec![init]);
        self.count += 1;
        Ok(())
    }

    fn attach_another(&mut self, entity: u64, init: PointMass) -> Result<(), ComponentError> {
        self.check(entity)?;
        self.instances.entry(entity).or_default().push(init);
        self.count += 1;
        Ok(())
    }

    fn detach(&mut self, entity: u64) -> Result<bool, ComponentError> {
        self.check(entity)?;
        let removed = self.instances.remove(&entity).map_or(0, |l| l.len());
        self.count -= removed;
        Ok(removed > 0)
    }

    fn position(&self, entity: u64) -> Result<Option<[f32; 3]>, ComponentError> {
        self.check(entity)?;
        Ok(self.instance(entity).map(|m| m.position))
    }

    fn write(
        &mut self,
        entity: u64,
        field: VectorField,
        value: [f32; 3],
    ) -> Result<bool, ComponentError> {
        self.check(entity)?;
        Ok(match self.first_mut(entity) {
            Some(m) => {
                *field.of(m) = value;
                true
            }
            None => false,
        })
    }

    fn simulate(&mut self, dt: f32) {
        for m in self.instances.values_mut().flatten() {
            PointMass::step(&mut m.position, &mut m.velocity, &m.acceleration, dt);
        }
    }

    fn visit(&self, mut f: impl FnMut(&PointMass)) {
        self.instances.values().flatten().for_each(&mut f);
    }

    fn entity_count(&self) -> usize {
        self.live.len()
    }

    fn instance_count(&self) -> usize {
        self.count
    }

    fn memory_bytes(&self) -> usize {
        0
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        if let Some(e) = self.instances.keys().find(|e| !self.live.contains(e)) {
            return Err(format!("instance of dead entity {e}"));
        }
        let total: usize = self.instances.values().map(Vec::len).sum();
        if total != self.count || self.instances.values().any(Vec::is_empty) {
            return Err(format!("{total} instances, count {}", self.count));
        }
        Ok(())
    }
}
