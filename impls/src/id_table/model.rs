//! The reference model: an obviously correct ID table, used to compute the answers every
//! design's replay must reproduce. Not a benchmarked design (it is not in the registry).
//!
//! Every insert appends a new slot and the ID is the slot number, so IDs are never reused and
//! a stale ID always misses. Iteration walks all slots ever made. Simple, slow, correct.

use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;

/// Reference model of the [`IdTable`] contract.
#[derive(Debug, Clone, Default)]
pub struct ModelTable<T> {
    /// Invariant: `slots[id]` is `Some` exactly while the object inserted as `id` is live.
    slots: Vec<Option<T>>,
    len: usize,
}

impl<T: 'static> IdTable<T> for ModelTable<T> {
    type Id = u64;

    const INFO: DesignInfo = DesignInfo::new::<u64>(
        DesignMeta {
            name: "model",
            description: "reference model: append-only slots, IDs never reused (verification only)",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            len: 0,
        }
    }

    fn insert(&mut self, value: T) -> Result<u64, TableError> {
        self.slots.push(Some(value));
        self.len += 1;
        Ok(self.slots.len() as u64 - 1)
    }

    fn get(&self, id: u64) -> Option<&T> {
        self.slots.get(usize::try_from(id).ok()?)?.as_ref()
    }

    fn get_mut(&mut self, id: u64) -> Option<&mut T> {
        self.slots.get_mut(usize::try_from(id).ok()?)?.as_mut()
    }

    fn remove(&mut self, id: u64) -> Option<T> {
        let value = self.slots.get_mut(usize::try_from(id).ok()?)?.take()?;
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().flatten()
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Option<T>>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.slots.iter().filter(|s| s.is_some()).count();
        if live == self.len {
            Ok(())
        } else {
            Err(format!("len {} but {live} live slots", self.len))
        }
    }
}
