//! Step 5 (the article's "4: Co-allocate the arrays"): the step-4 SoA columns in one buffer
//! per entity with one shared size and capacity, so the header is one allocation instead of
//! three ("Presto, now we have all the header data stored in a single buffer").
//!
//! Layout: a [`CoHeader`] with 64-bit value slots (the article's `Value` union of `bool`,
//! `float`, `std::string *` and `std::vector<float> *`). A scalar's slot holds its bits; a
//! string's or array's slot holds its handle in the store-wide [`ValueSlab`] (the `Shared`
//! state), whose entry owns the value in its own heap allocation. The slab stands in for the
//! raw pointer safe Rust cannot put in a byte buffer, with the same two levels of indirection
//! the article complains of (slot -> owner -> bytes); freed handles are reused LIFO.
//!
//! Cost: get/set/remove O(k) over 4-byte keys. Allocations: one header buffer per entity
//! (two calls per doubling: the new buffer, the old one's free) plus one per string or array (the slab's own growth is amortised
//! over all entities). Snapshot: serialisation.

use super::co_header::{CoHeader, SlotWidth};
use super::heap_value::HeapValue;
use super::{
    Component, Entities, Entity, Key, KvDesignInfo, KvDesignKind, KvError, SnapshotError, ValueRef,
    ValueType, push_counted, serial,
};
use crate::DesignMeta;

/// 64-bit slots: a scalar or a slab handle.
#[derive(Debug, Default)]
pub struct Pointer64;

impl SlotWidth for Pointer64 {
    const BYTES: usize = 8;
}

/// Every string and array of a store, each in its own heap allocation, by handle.
#[derive(Debug, Default)]
pub struct ValueSlab {
    /// `values[h]` is `Some` exactly while handle `h` is held by one live slot.
    values: Vec<Option<HeapValue>>,
    /// Free handles, most recent last: exactly the `None` entries.
    free: Vec<u32>,
}

impl ValueSlab {
    fn insert(&mut self, value: HeapValue, calls: &mut u64) -> u32 {
        if let Some(h) = self.free.pop() {
            self.values[h as usize] = Some(value);
            h
        } else {
            push_counted(&mut self.values, Some(value), calls);
            (self.values.len() - 1) as u32
        }
    }

    fn take(&mut self, handle: u32, calls: &mut u64) {
        if let Some(v) = self.values[handle as usize].take() {
            v.free(calls);
            push_counted(&mut self.free, handle, calls);
        }
    }

    fn get(&self, handle: u32) -> Option<&HeapValue> {
        self.values.get(handle as usize)?.as_ref()
    }
}

/// One entity's co-allocated header.
#[derive(Debug, Default)]
pub struct CoAllocComponent {
    /// Slots of strings and arrays are handles of live slab entries, each held by one slot.
    header: CoHeader<Pointer64>,
}

/// One header buffer per entity, values behind slab handles.
pub type CoAllocated = Entities<CoAllocComponent>;

const fn is_heap(ty: u8) -> bool {
    ty >= ValueType::Str as u8
}

impl CoAllocComponent {
    fn value<'a>(&self, slab: &'a ValueSlab, i: usize) -> Option<ValueRef<'a>> {
        let (ty, slot) = (self.header.ty(i), self.header.slot(i));
        let ty = ValueType::from_u8(ty)?;
        Some(match ty {
            ValueType::Bool | ValueType::F32 => ValueRef::from_parts(ty, slot as u32, &[]),
            ValueType::Str | ValueType::F32s => slab.get(slot as u32)?.as_ref(),
        })
    }
}

impl Component for CoAllocComponent {
    type Shared = ValueSlab;
    const INFO: KvDesignInfo = KvDesignInfo {
        meta: DesignMeta {
            name: "co_allocated",
            description: "keys, types and 64-bit values in one buffer per entity with shared size and capacity; strings and arrays still one allocation each (the article's step 4)",
            kind: KvDesignKind::Article,
        },
        bytes_per_entity_cap: None,
    };

    fn set(
        &mut self,
        slab: &mut ValueSlab,
        _: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError> {
        let ty = value.value_type() as u8;
        let found = self.header.find(key);
        if let Some(i) = found
            && is_heap(self.header.ty(i))
        {
            slab.take(self.header.slot(i) as u32, calls);
        }
        let slot = match value.bytes() {
            None => u128::from(value.scalar_bits()),
            Some(_) => u128::from(slab.insert(HeapValue::new(value, calls), calls)),
        };
        match found {
            Some(i) => self.header.set_entry(i, ty, slot),
            None => self.header.push(key, ty, slot, calls),
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, slab: &ValueSlab, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.header.find(key).and_then(|i| self.value(slab, i)))
    }

    fn remove(&mut self, slab: &mut ValueSlab, key: Key, calls: &mut u64) -> bool {
        let Some(i) = self.header.find(key) else {
            return false;
        };
        let (ty, slot) = self.header.swap_remove(i);
        if is_heap(ty) {
            slab.take(slot as u32, calls);
        }
        true
    }

    fn release(&mut self, slab: &mut ValueSlab, calls: &mut u64) {
        for i in 0..self.header.len() {
            if is_heap(self.header.ty(i)) {
                slab.take(self.header.slot(i) as u32, calls);
            }
        }
        self.header.release(calls);
    }

    fn len(&self) -> usize {
        self.header.len()
    }

    fn memory_bytes(&self, slab: &ValueSlab) -> usize {
        self.header.memory_bytes()
            + self
                .header
                .entries()
                .filter(|&(_, ty, _)| is_heap(ty))
                .filter_map(|(_, _, slot)| slab.get(slot as u32))
                .map(HeapValue::heap_bytes)
                .sum::<usize>()
    }

    fn shared_memory_bytes(slab: &ValueSlab) -> usize {
        slab.values.capacity() * size_of::<Option<HeapValue>>()
            + slab.free.capacity() * size_of::<u32>()
    }

    fn snapshot(&self, slab: &ValueSlab, out: &mut Vec<u8>) {
        for i in 0..self.header.len() {
            if let Some(v) = self.value(slab, i) {
                serial::write_entry(out, self.header.key(i), v);
            }
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self, slab: &ValueSlab) -> Result<(), String> {
        self.header.check_invariants()?;
        for (key, ty, slot) in self.header.entries() {
            let Some(t) = ValueType::from_u8(ty) else {
                return Err(format!("key {key}: bad type {ty}"));
            };
            if is_heap(ty) && slab.get(slot as u32).map(|v| v.as_ref().value_type()) != Some(t) {
                return Err(format!("key {key}: slab handle {slot} not a live {t:?}"));
            }
        }
        Ok(())
    }

    fn check_shared(slab: &ValueSlab, live: &[&Self]) -> Result<(), String> {
        let held: usize = live
            .iter()
            .map(|c| c.header.entries().filter(|&(_, ty, _)| is_heap(ty)).count())
            .sum();
        let occupied = slab.values.iter().filter(|v| v.is_some()).count();
        if held != occupied || occupied + slab.free.len() != slab.values.len() {
            return Err(format!(
                "slab: {occupied} values, {} free handles, {} entries, {held} held by slots",
                slab.free.len(),
                slab.values.len()
            ));
        }
        Ok(())
    }
}
