//! The reference model: `BTreeMap<(entity, key), value>` plus the handle rule written out
//! again with plain `Vec`s, so a bug in [`Entities`](super::Entities) shows as a disagreement.
//! Not a benchmarked design: it is not in the registry.

use crate::DesignMeta;
use std::collections::BTreeMap;

use super::{
    DataStore, Entity, Key, KvDesignInfo, KvDesignKind, KvError, SnapshotError, ValueRef,
    ValueType, fresh_entity, serial,
};

/// An owned value of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedValue {
    ty: ValueType,
    bits: u32,
    bytes: Vec<u8>,
}

impl OwnedValue {
    /// An owned copy of `v`.
    pub fn new(v: ValueRef<'_>) -> Self {
        Self {
            ty: v.value_type(),
            bits: v.scalar_bits(),
            bytes: v.bytes().unwrap_or(&[]).to_vec(),
        }
    }

    /// The value as handed out.
    pub fn as_ref(&self) -> ValueRef<'_> {
        ValueRef::from_parts(self.ty, self.bits, &self.bytes)
    }
}

/// Reference model of the [`DataStore`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelStore {
    data: BTreeMap<(Entity, Key), OwnedValue>,
    /// `live[e]` while entity `e` is live.
    live: Vec<bool>,
    /// Released handles, most recent last.
    released: Vec<Entity>,
}

impl ModelStore {
    fn check(&self, entity: Entity) -> Result<(), KvError> {
        if self.live.get(entity as usize).copied().unwrap_or(false) {
            Ok(())
        } else {
            Err(KvError::NoSuchEntity { entity })
        }
    }

    /// Handles ever handed out.
    pub fn slots(&self) -> usize {
        self.live.len()
    }

    /// Every `(key, value)` of a live entity, in key order.
    pub fn entries(&self, entity: Entity) -> Vec<(Key, OwnedValue)> {
        self.data
            .range((entity, 0)..=(entity, Key::MAX))
            .map(|(&(_, k), v)| (k, v.clone()))
            .collect()
    }
}

impl DataStore for ModelStore {
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "model",
            description: "reference model: BTreeMap<(entity, key), value> (verification only)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };

    fn new() -> Self {
        Self::default()
    }

    fn create_entity(&mut self) -> Result<Entity, KvError> {
        if let Some(e) = self.released.pop() {
            self.live[e as usize] = true;
            return Ok(e);
        }
        let e = fresh_entity(self.live.len())?;
        self.live.push(true);
        Ok(e)
    }

    fn destroy_entity(&mut self, entity: Entity) -> Result<(), KvError> {
        self.check(entity)?;
        let keys: Vec<Key> = self.entries(entity).into_iter().map(|(k, _)| k).collect();
        for k in keys {
            self.data.remove(&(entity, k));
        }
        self.live[entity as usize] = false;
        self.released.push(entity);
        Ok(())
    }

    fn set(&mut self, entity: Entity, key: Key, value: ValueRef<'_>) -> Result<(), KvError> {
        self.check(entity)?;
        self.data.insert((entity, key), OwnedValue::new(value));
        Ok(())
    }

    fn get<R>(
        &self,
        entity: Entity,
        key: Key,
        f: impl FnOnce(Option<ValueRef<'_>>) -> R,
    ) -> Result<R, KvError> {
        self.check(entity)?;
        Ok(f(self.data.get(&(entity, key)).map(OwnedValue::as_ref)))
    }

    fn remove(&mut self, entity: Entity, key: Key) -> Result<bool, KvError> {
        self.check(entity)?;
        Ok(self.data.remove(&(entity, key)).is_some())
    }

    fn snapshot(&self, entity: Entity, out: &mut Vec<u8>) -> Result<(), KvError> {
        self.check(entity)?;
        out.clear();
        for (k, v) in self.entries(entity) {
            serial::write_entry(out, k, v.as_ref());
        }
        Ok(())
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn entity_count(&self) -> usize {
        self.live.iter().filter(|&&l| l).count()
    }

    fn key_count(&self) -> usize {
        self.data.len()
    }

    fn memory_bytes(&self) -> usize {
        self.data
            .values()
            .map(|v| size_of::<(Entity, Key, OwnedValue)>() + v.bytes.capacity())
            .sum()
    }

    fn allocator_calls(&self) -> u64 {
        0
    }

    fn check_invariants(&self) -> Result<(), String> {
        if let Some(&(e, k)) = self.data.keys().find(|(e, _)| self.check(*e).is_err()) {
            return Err(format!("dead entity {e} holds key {k}"));
        }
        Ok(())
    }
}
