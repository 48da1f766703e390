//! The article's step 4 header, shared by the co-allocated designs (steps 5 to 7 here): the
//! three SoA columns in ONE byte buffer with one size and one capacity ("instead of doing three
//! separate allocations, we just allocate one big buffer and lay them out sequentially").
//!
//! Layout of a header of capacity `cap` with `W`-byte value slots (integers little-endian):
//!
//! ```text
//! | keys[cap] (u32) | types[cap] (u8, padded to 8) | slots[cap] (W bytes each) |
//! ```
//!
//! A slot is the design's value field ([`SlotWidth::BYTES`]: 8 for step 5's pointer, 16 for
//! step 6's 128-bit value, 4 for step 7's offset and size), handled here as a `u128` truncated
//! to `W` bytes. Growth doubles the capacity into a new buffer (the columns move apart, so it
//! is copied column by column rather than `realloc`ed): two allocator calls, the new buffer
//! and the old one's free; removal moves the last entry into the gap. Search is O(k) over the 4-byte keys only.

use std::marker::PhantomData;

use super::{Key, count_capacity_change, count_moved_buffer};

/// The width of a design's value slot.
pub trait SlotWidth: Default + std::fmt::Debug {
    /// Bytes per slot, at most 16.
    const BYTES: usize;
}

/// Capacity of a header's first allocation.
const MIN_CAP: usize = 4;

/// One entity's keys, types and value slots in one buffer.
#[derive(Debug, Default)]
pub struct CoHeader<W: SlotWidth> {
    /// Empty (no allocation) or exactly [`Self::bytes_for`]`(cap)` bytes laid out as the
    /// [module docs](self) say.
    buf: Vec<u8>,
    /// Live entries, the first `len` of each column. Invariant: `len <= cap`, keys distinct.
    len: usize,
    /// Entries each column has room for (shared by the three columns).
    cap: usize,
    _width: PhantomData<W>,
}

impl<W: SlotWidth> CoHeader<W> {
    const fn types_at(cap: usize) -> usize {
        4 * cap
    }
    const fn slots_at(cap: usize) -> usize {
        (5 * cap).next_multiple_of(8)
    }
    /// Bytes of a header of capacity `cap`.
    pub const fn bytes_for(cap: usize) -> usize {
        Self::slots_at(cap) + W::BYTES * cap
    }

    /// Live entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entry is live.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Heap bytes of the buffer.
    pub fn memory_bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// The index of `key`, searching the key column only.
    #[inline]
    pub fn find(&self, key: Key) -> Option<usize> {
        self.buf[..4 * self.len]
            .chunks_exact(4)
            .position(|k| u32::from_le_bytes(k.try_into().expect("4 bytes")) == key)
    }

    /// Entry `i`'s key.
    #[inline]
    pub fn key(&self, i: usize) -> Key {
        u32::from_le_bytes(self.buf[4 * i..4 * i + 4].try_into().expect("4 bytes"))
    }

    /// Entry `i`'s type byte.
    #[inline]
    pub fn ty(&self, i: usize) -> u8 {
        self.buf[Self::types_at(self.cap) + i]
    }

    /// Entry `i`'s slot.
    #[inline]
    pub fn slot(&self, i: usize) -> u128 {
        let at = Self::slots_at(self.cap) + W::BYTES * i;
        let mut b = [0u8; 16];
        b[..W::BYTES].copy_from_slice(&self.buf[at..at + W::BYTES]);
        u128::from_le_bytes(b)
    }

    /// Overwrites entry `i`'s type and slot.
    #[inline]
    pub fn set_entry(&mut self, i: usize, ty: u8, slot: u128) {
        let t = Self::types_at(self.cap) + i;
        self.buf[t] = ty;
        let at = Self::slots_at(self.cap) + W::BYTES * i;
        self.buf[at..at + W::BYTES].copy_from_slice(&slot.to_le_bytes()[..W::BYTES]);
    }

    /// Appends a new entry (the key must not be held), doubling the buffer when full (its
    /// allocation, and the old buffer's free).
    pub fn push(&mut self, key: Key, ty: u8, slot: u128, calls: &mut u64) {
        if self.len == self.cap {
            let cap = (2 * self.cap).max(MIN_CAP);
            let mut buf = vec![0u8; Self::bytes_for(cap)];
            let (old, n) = (self.cap, self.len);
            buf[..4 * n].copy_from_slice(&self.buf[..4 * n]);
            buf[Self::types_at(cap)..Self::types_at(cap) + n]
                .copy_from_slice(&self.buf[Self::types_at(old)..Self::types_at(old) + n]);
            buf[Self::slots_at(cap)..Self::slots_at(cap) + W::BYTES * n].copy_from_slice(
                &self.buf[Self::slots_at(old)..Self::slots_at(old) + W::BYTES * n],
            );
            let old_buf = std::mem::replace(&mut self.buf, buf);
            count_moved_buffer(old_buf.capacity(), calls);
            self.cap = cap;
        }
        let i = self.len;
        self.buf[4 * i..4 * i + 4].copy_from_slice(&key.to_le_bytes());
        self.len += 1;
        self.set_entry(i, ty, slot);
    }

    /// Removes entry `i`, moving the last entry into its place; returns its type and slot.
    pub fn swap_remove(&mut self, i: usize) -> (u8, u128) {
        let removed = (self.ty(i), self.slot(i));
        let last = self.len - 1;
        if i != last {
            let (key, ty, slot) = (self.key(last), self.ty(last), self.slot(last));
            self.buf[4 * i..4 * i + 4].copy_from_slice(&key.to_le_bytes());
            self.set_entry(i, ty, slot);
        }
        self.len = last;
        removed
    }

    /// Frees the buffer.
    pub fn release(&mut self, calls: &mut u64) {
        count_capacity_change(std::mem::take(&mut self.buf).capacity(), 0, calls);
        self.len = 0;
        self.cap = 0;
    }

    /// Every `(key, type, slot)`.
    pub fn entries(&self) -> impl Iterator<Item = (Key, u8, u128)> + '_ {
        (0..self.len).map(|i| (self.key(i), self.ty(i), self.slot(i)))
    }

    /// Checks the layout and that keys are distinct.
    ///
    /// # Errors
    /// The first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let expect = if self.cap == 0 {
            0
        } else {
            Self::bytes_for(self.cap)
        };
        if self.buf.len() != expect || self.len > self.cap {
            return Err(format!(
                "header of {} bytes for capacity {} holds {} entries",
                self.buf.len(),
                self.cap,
                self.len
            ));
        }
        for i in 0..self.len {
            if (i + 1..self.len).any(|j| self.key(j) == self.key(i)) {
                return Err(format!("key {} held twice", self.key(i)));
            }
        }
        Ok(())
    }
}
