//! An ID table from "another crate", benchmarked with dodbench beside every built-in design.
//!
//! [`VecGen`] is the smallest generational table: one `Vec<Option<(u32, T)>>` of slots (the
//! generation of the occupant beside its value) and a LIFO stack of free slots, each with the
//! generation its next occupant gets. An ID is (slot, generation), 8 bytes; a lookup is one
//! bounds check, one slot read and a generation compare; iteration walks every slot, holes
//! included. Removal bumps the slot's generation, so stale IDs are detected; a slot whose
//! generation would wrap is retired (never reused), so a stale ID never matches again. The
//! trade-off against the built-in `holey` design: the `Option` tag costs a word per slot for an
//! 8-aligned `T`, and the free list is a side `Vec` instead of threading through the holes.
//!
//! [`BrokenVecGen`] is a deliberately wrong copy (it forgets to bump the generation on
//! removal, so stale IDs resolve to the slot's next occupant): dodbench reports it `failed`
//! with the reason, never a number.

use dodbench::impls::DesignMeta;
use dodbench::impls::TableError;
use dodbench::impls::id_table::{DesignInfo, DesignKind, IdTable, StaleDetection};

/// An ID of [`VecGen`]: the slot and the generation of the object it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenId {
    slot: u32,
    generation: u32,
}

/// `Vec<Option<(generation, value)>>` with a free-slot stack; see the [crate docs](crate).
#[derive(Debug, Clone)]
pub struct VecGen<T> {
    /// Invariant: `Some` count == `len`; every `None` slot is on `free` exactly once, except
    /// retired slots (whose next generation would wrap), which are on no list.
    slots: Vec<Option<(u32, T)>>,
    /// Free slots, most recently freed last, each with the generation its next occupant gets.
    free: Vec<(u32, u32)>,
    /// Live objects.
    len: usize,
    /// `false` in the broken copy: removal keeps the generation (the bug under test).
    bump_generation: bool,
}

impl<T> VecGen<T> {
    fn with_bump(bump_generation: bool) -> Self {
        Self {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            bump_generation,
        }
    }

    fn insert_value(&mut self, value: T) -> Result<GenId, TableError> {
        let (slot, generation) = match self.free.pop() {
            Some(free) => free,
            None => {
                let slot =
                    u32::try_from(self.slots.len()).map_err(|_| TableError::IdSpaceExhausted {
                        created: self.slots.len() as u64,
                    })?;
                self.slots.push(None);
                (slot, 0)
            }
        };
        self.slots[slot as usize] = Some((generation, value));
        self.len += 1;
        Ok(GenId { slot, generation })
    }

    fn slot(&self, id: GenId) -> Option<&T> {
        match self.slots.get(id.slot as usize) {
            Some(Some((g, value))) if *g == id.generation => Some(value),
            _ => None,
        }
    }

    fn slot_mut(&mut self, id: GenId) -> Option<&mut T> {
        match self.slots.get_mut(id.slot as usize) {
            Some(Some((g, value))) if *g == id.generation => Some(value),
            _ => None,
        }
    }

    fn remove_value(&mut self, id: GenId) -> Option<T> {
        self.slot(id)?;
        let (generation, value) = self.slots[id.slot as usize].take()?;
        self.len -= 1;
        let next = if self.bump_generation {
            generation.checked_add(1)
        } else {
            Some(generation)
        };
        if let Some(next) = next {
            self.free.push((id.slot, next));
        }
        Some(value)
    }

    fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Option<(u32, T)>>()
            + self.free.capacity() * std::mem::size_of::<(u32, u32)>()
    }

    fn invariants(&self) -> Result<(), String> {
        let live = self.slots.iter().filter(|s| s.is_some()).count();
        if live != self.len {
            return Err(format!("{live} occupied slots, len {}", self.len));
        }
        for &(slot, _) in &self.free {
            if self.slots.get(slot as usize).is_none_or(Option::is_some) {
                return Err(format!("free slot {slot} is occupied or out of range"));
            }
        }
        Ok(())
    }
}

impl<T: 'static> IdTable<T> for VecGen<T> {
    type Id = GenId;

    const INFO: DesignInfo = DesignInfo {
        meta: DesignMeta {
            name: "vecgen",
            description: "Vec<Option<(generation, T)>> with a free-slot stack (example crate)",
            kind: DesignKind::External,
        },
        id_bytes: 8,
        stale: StaleDetection::Never,
        demonstrates: None,
        capacity: None,
        remove_shift_cap: None,
    };

    fn new() -> Self {
        Self::with_bump(true)
    }

    fn insert(&mut self, value: T) -> Result<GenId, TableError> {
        self.insert_value(value)
    }

    fn get(&self, id: GenId) -> Option<&T> {
        self.slot(id)
    }

    fn get_mut(&mut self, id: GenId) -> Option<&mut T> {
        self.slot_mut(id)
    }

    fn remove(&mut self, id: GenId) -> Option<T> {
        self.remove_value(id)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|s| s.as_ref().map(|(_, v)| v))
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots
            .iter_mut()
            .filter_map(|s| s.as_mut().map(|(_, v)| v))
    }

    fn memory_bytes(&self) -> usize {
        self.bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.invariants()
    }
}

/// [`VecGen`] with a bug: removal does not bump the generation, so a stale ID finds the slot's
/// next occupant. It claims stale detection all the same: dodbench must report it `failed`.
#[derive(Debug, Clone)]
pub struct BrokenVecGen<T>(VecGen<T>);

impl<T: 'static> IdTable<T> for BrokenVecGen<T> {
    type Id = GenId;

    const INFO: DesignInfo = DesignInfo {
        meta: DesignMeta {
            name: "vecgen-broken",
            description: "VecGen whose removal forgets to bump the generation (deliberately wrong)",
            ..VecGen::<T>::INFO.meta
        },
        ..VecGen::<T>::INFO
    };

    fn new() -> Self {
        Self(VecGen::with_bump(false))
    }

    fn insert(&mut self, value: T) -> Result<GenId, TableError> {
        self.0.insert_value(value)
    }

    fn get(&self, id: GenId) -> Option<&T> {
        self.0.slot(id)
    }

    fn get_mut(&mut self, id: GenId) -> Option<&mut T> {
        self.0.slot_mut(id)
    }

    fn remove(&mut self, id: GenId) -> Option<T> {
        self.0.remove_value(id)
    }

    fn len(&self) -> usize {
        self.0.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }

    fn memory_bytes(&self) -> usize {
        self.0.bytes()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.0.invariants()
    }
}
