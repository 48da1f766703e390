//! The two-buffer core of the article's steps 5 to 7 (steps 6 and 7 here): the co-allocated
//! header ([`CoHeader`]) plus ONE value buffer per entity into which strings and arrays are
//! bump-allocated ("we just keep track of this buffer and how much of it is currently in use").
//!
//! Value buffer: `values[..used]` holds live values and holes; `values[used..]` is free. A
//! value that grows past its room gets new space at `used` and leaves a hole; holes are never
//! reused, only squeezed out when the buffer runs out and is reallocated, which packs the live
//! values ("this will reallocate the buffer which will also defragment it"). Removal leaves a
//! hole too. A [`Slots`] flavor fixes the value slot:
//!
//! * [`Wide`](super::value_buffer::Wide) (step 6, the article's steps 5 and 6): 128 bits, a 64-bit location (the article's
//!   `char *data`, here an offset: safe Rust keeps no pointers into a `Vec`, but compaction
//!   still rewrites every one of them, as pointer patching would), a 32-bit size and a 32-bit
//!   capacity (`struct { int capacity; int size; float *data; }`), so a value regrows in place
//!   up to its capacity.
//! * [`Slim`](super::slim_values::Slim) (step 7): 32 bits, `u16` offset and `u16` size; a value is rewritten in place
//!   only if it does not grow, and the value buffer holds at most 64 KiB.
//!
//! Cost: get O(k) over 4-byte keys, then the slot and the bytes in the second buffer. Two
//! allocations per entity with data (header, values), plus two allocator calls per growth of
//! either (the new buffer, the old one's free).

use super::co_header::{CoHeader, SlotWidth};
use super::{
    Component, Entity, Key, KvDesignInfo, KvError, SnapshotError, ValueRef, ValueType,
    count_capacity_change, count_moved_buffer, serial,
};

/// The value slot of a flavor; see the [module docs](self).
pub trait Slots: SlotWidth {
    /// The registry record.
    const INFO: KvDesignInfo;
    /// The largest value buffer the slot addresses.
    const MAX_VALUES: usize;
    /// The slot of a string or array at `offset` of `size` bytes in room of `room` bytes.
    fn encode(offset: usize, size: usize, room: usize) -> u128;
    /// `(offset, size, room)` of a slot.
    fn decode(slot: u128) -> (usize, usize, usize);
}

/// One entity's header and value buffer.
#[derive(Debug, Default)]
pub struct TwoBuffers<S: Slots> {
    /// Slots of strings and arrays name `[offset, offset + size)` inside `values[..used]`,
    /// with `size <= room` and rooms of live values pairwise disjoint.
    header: CoHeader<S>,
    /// The bump-allocated value buffer; `values.len()` is its capacity.
    values: Vec<u8>,
    /// Bytes handed out (live values and holes). Invariant: `used <= values.len()`.
    used: usize,
}

const fn is_heap(ty: u8) -> bool {
    ty >= ValueType::Str as u8
}

impl<S: Slots> TwoBuffers<S> {
    fn value(&self, i: usize) -> Option<ValueRef<'_>> {
        let ty = ValueType::from_u8(self.header.ty(i))?;
        let slot = self.header.slot(i);
        Some(match ty {
            ValueType::Bool | ValueType::F32 => ValueRef::from_parts(ty, slot as u32, &[]),
            ValueType::Str | ValueType::F32s => {
                let (off, size, _) = S::decode(slot);
                ValueRef::from_parts(ty, 0, self.values.get(off..off + size)?)
            }
        })
    }

    /// Live bytes of strings and arrays (the rooms compaction keeps), skipping entry `skip`.
    fn live_bytes(&self, skip: Option<usize>) -> usize {
        (0..self.header.len())
            .filter(|&i| Some(i) != skip && is_heap(self.header.ty(i)))
            .map(|i| S::decode(self.header.slot(i)).1)
            .sum()
    }

    /// `size` bytes of value space for entry `skip` (whose old value is dropped), compacting
    /// into a new buffer when the bump space is used up: its allocation and the old buffer's
    /// free (the compaction reads the old buffer while it writes the new).
    fn allocate(
        &mut self,
        entity: Entity,
        skip: Option<usize>,
        size: usize,
        calls: &mut u64,
    ) -> Result<usize, KvError> {
        if self.used + size <= self.values.len() {
            self.used += size;
            return Ok(self.used - size);
        }
        let live = self.live_bytes(skip);
        let need = live + size;
        if need > S::MAX_VALUES {
            return Err(KvError::TooLarge {
                entity,
                bytes: need as u64,
                limit: S::MAX_VALUES as u64,
            });
        }
        let cap = need
            .next_power_of_two()
            .max(2 * self.values.len())
            .max(16)
            .min(S::MAX_VALUES);
        let mut values = vec![0u8; cap];
        let mut used = 0;
        for i in 0..self.header.len() {
            if Some(i) == skip || !is_heap(self.header.ty(i)) {
                continue;
            }
            let (off, size, _) = S::decode(self.header.slot(i));
            values[used..used + size].copy_from_slice(&self.values[off..off + size]);
            let ty = self.header.ty(i);
            self.header.set_entry(i, ty, S::encode(used, size, size));
            used += size;
        }
        let old = std::mem::replace(&mut self.values, values);
        count_moved_buffer(old.capacity(), calls);
        self.used = used + size;
        Ok(used)
    }
}

impl<S: Slots> Component for TwoBuffers<S> {
    type Shared = ();
    const INFO: KvDesignInfo = S::INFO;

    fn set(
        &mut self,
        _: &mut (),
        entity: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError> {
        let ty = value.value_type() as u8;
        let found = self.header.find(key);
        let slot = match value.bytes() {
            None => u128::from(value.scalar_bits()),
            Some(bytes) => {
                let old = found
                    .filter(|&i| is_heap(self.header.ty(i)))
                    .map(|i| S::decode(self.header.slot(i)));
                let (at, room) = match old {
                    Some((off, _, room)) if bytes.len() <= room => (off, room),
                    _ if bytes.is_empty() => (0, 0),
                    _ => (
                        self.allocate(entity, found, bytes.len(), calls)?,
                        bytes.len(),
                    ),
                };
                self.values[at..at + bytes.len()].copy_from_slice(bytes);
                S::encode(at, bytes.len(), room)
            }
        };
        match found {
            Some(i) => self.header.set_entry(i, ty, slot),
            None => self.header.push(key, ty, slot, calls),
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, _: &(), key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.header.find(key).and_then(|i| self.value(i)))
    }

    fn remove(&mut self, _: &mut (), key: Key, _: &mut u64) -> bool {
        let Some(i) = self.header.find(key) else {
            return false;
        };
        self.header.swap_remove(i);
        true
    }

    fn release(&mut self, _: &mut (), calls: &mut u64) {
        self.header.release(calls);
        count_capacity_change(std::mem::take(&mut self.values).len(), 0, calls);
        self.used = 0;
    }

    fn len(&self) -> usize {
        self.header.len()
    }

    fn memory_bytes(&self, _: &()) -> usize {
        self.header.memory_bytes() + self.values.capacity()
    }

    fn snapshot(&self, _: &(), out: &mut Vec<u8>) {
        for i in 0..self.header.len() {
            if let Some(v) = self.value(i) {
                serial::write_entry(out, self.header.key(i), v);
            }
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self, _: &()) -> Result<(), String> {
        self.header.check_invariants()?;
        if self.used > self.values.len() || self.values.len() > S::MAX_VALUES {
            return Err(format!(
                "{} bytes used of a value buffer of {}",
                self.used,
                self.values.len()
            ));
        }
        let mut rooms = Vec::new();
        for (key, ty, slot) in self.header.entries() {
            if ValueType::from_u8(ty).is_none() {
                return Err(format!("key {key}: bad type {ty}"));
            }
            if is_heap(ty) {
                let (off, size, room) = S::decode(slot);
                if size > room || (room > 0 && off + room > self.used) {
                    return Err(format!(
                        "key {key}: value [{off}, +{size}) in room {room} outside [0, {})",
                        self.used
                    ));
                }
                if room > 0 {
                    rooms.push((off, off + room));
                }
            }
        }
        rooms.sort_unstable();
        if rooms.windows(2).any(|w| w[0].1 > w[1].0) {
            return Err("two live values overlap".into());
        }
        Ok(())
    }
}
