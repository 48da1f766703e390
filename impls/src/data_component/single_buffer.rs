//! The single-buffer core of the article's step 8 and its ablation: one entity's whole data in
//! one byte buffer with no pointers, so it moves and copies with `memcpy`.
//!
//! Layout of a buffer of `cap` bytes (all integers native-endian):
//!
//! ```text
//! | count | hcap | lo | hi | keys[hcap] | types[hcap] (padded to 4) | slots[hcap] | ... values ... |
//!   prefix, 4 x u32          header (the step-4 SoA arrays, shared capacity)
//! ```
//!
//! A slot is 32 bits (step 7): a scalar's bits, or a string's / array's `u16` offset and
//! `u16` size in the buffer, so a buffer addresses at most 64 KiB ([`MAX_BUFFER`]).
//! Values live in `[lo, hi)`, a region that [`Flavor`] places:
//!
//! * [`Meet`] (the article's end point): values are allocated top down from the end
//!   (`hi == cap`, `lo` falls), the header grows up; both share the free space between them and
//!   the buffer is reallocated only when they meet.
//! * [`TwoRegions`] (the rejected alternative): values are allocated bottom up from the end of
//!   the header (`lo` is the header's end, `hi` rises); the header region has its own free
//!   entries and the value region its own free bytes, so either filling up reallocates.
//!
//! A value that grows is given new space and leaves a hole (step 6); holes are never reused,
//! only squeezed out when the buffer is reallocated, which packs the live values (the article:
//! "this will reallocate the buffer which will also defragment it"). Removal moves the last
//! header entry into the gap.

use std::marker::PhantomData;

use super::serial::read_u32;
use super::{
    Component, Entity, Key, KvDesignInfo, KvError, SnapshotError, ValueRef, ValueType,
    count_capacity_change,
};

/// The largest buffer 16-bit offsets address.
pub const MAX_BUFFER: usize = 1 << 16;
/// Bytes of the prefix: count, header capacity, value region start and end.
const PREFIX: usize = 16;
/// Header capacity of a new buffer.
const MIN_HCAP: usize = 4;

/// Where the value region lies; see the [module docs](self).
pub trait Flavor: Default + std::fmt::Debug {
    /// Whether values are allocated top down from the end of the buffer (sharing free space
    /// with the header).
    const TOP_DOWN: bool;
    /// The registry record.
    const INFO: KvDesignInfo;
}

/// Header up, values down: one shared free space.
#[derive(Debug, Default)]
pub struct Meet;

/// Header and values each with their own free space.
#[derive(Debug, Default)]
pub struct TwoRegions;

/// Bytes of a header of capacity `hcap`, prefix included.
const fn header_end(hcap: usize) -> usize {
    PREFIX + hcap * 4 + hcap.next_multiple_of(4) + hcap * 4
}

/// A view of a buffer's header fields.
#[derive(Debug, Clone, Copy)]
struct Header {
    count: usize,
    hcap: usize,
    lo: usize,
    hi: usize,
}

impl Header {
    fn read(buf: &[u8]) -> Option<Self> {
        if buf.is_empty() {
            return Some(Header {
                count: 0,
                hcap: 0,
                lo: 0,
                hi: 0,
            });
        }
        Some(Header {
            count: read_u32(buf, 0)? as usize,
            hcap: read_u32(buf, 4)? as usize,
            lo: read_u32(buf, 8)? as usize,
            hi: read_u32(buf, 12)? as usize,
        })
    }

    fn write(&self, buf: &mut [u8]) {
        for (i, v) in [self.count, self.hcap, self.lo, self.hi]
            .into_iter()
            .enumerate()
        {
            buf[4 * i..4 * i + 4].copy_from_slice(&(v as u32).to_ne_bytes());
        }
    }

    const fn keys_at(&self) -> usize {
        PREFIX
    }
    const fn types_at(&self) -> usize {
        PREFIX + self.hcap * 4
    }
    const fn slots_at(&self) -> usize {
        PREFIX + self.hcap * 4 + self.hcap.next_multiple_of(4)
    }
    const fn end(&self) -> usize {
        header_end(self.hcap)
    }
}

#[inline]
fn write_u32(buf: &mut [u8], at: usize, v: u32) {
    buf[at..at + 4].copy_from_slice(&v.to_ne_bytes());
}

#[inline]
fn slot_parts(slot: u32) -> (usize, usize) {
    ((slot & 0xFFFF) as usize, (slot >> 16) as usize)
}

/// One entity's data in one buffer.
#[derive(Debug, Default)]
pub struct SingleBuffer<F: Flavor> {
    /// Empty (no allocation) or laid out as the [module docs](self) say. Invariants: the
    /// header ends at or before `lo`; `lo <= hi <= buf.len() <= MAX_BUFFER`; with `Meet`
    /// `hi == buf.len()`, with `TwoRegions` `lo == header end`; every live string or array
    /// lies inside `[lo, hi)` and no two overlap.
    buf: Vec<u8>,
    _flavor: PhantomData<F>,
}

/// Every `(key, type, slot)` of a buffer's header.
fn entries(buf: &[u8], h: &Header) -> impl Iterator<Item = (Key, u8, u32)> {
    (0..h.count).map(move |i| {
        (
            read_u32(buf, h.keys_at() + 4 * i).unwrap_or(0),
            buf[h.types_at() + i],
            read_u32(buf, h.slots_at() + 4 * i).unwrap_or(0),
        )
    })
}

/// The value of a header entry, or `None` if the type byte or the slot is out of range.
fn value_of(buf: &[u8], ty: u8, slot: u32) -> Option<ValueRef<'_>> {
    let ty = ValueType::from_u8(ty)?;
    Some(match ty {
        ValueType::Bool | ValueType::F32 => ValueRef::from_parts(ty, slot, &[]),
        ValueType::Str | ValueType::F32s => {
            let (off, size) = slot_parts(slot);
            ValueRef::from_parts(ty, 0, buf.get(off..off + size)?)
        }
    })
}

impl<F: Flavor> SingleBuffer<F> {
    #[inline]
    fn header(&self) -> Header {
        Header::read(&self.buf).expect("the prefix is in the buffer")
    }

    #[inline]
    fn find(&self, h: &Header, key: Key) -> Option<usize> {
        let keys = &self.buf[h.keys_at()..h.keys_at() + 4 * h.count];
        keys.chunks_exact(4)
            .position(|k| u32::from_ne_bytes(k.try_into().expect("4 bytes")) == key)
    }

    /// Bytes of live strings and arrays.
    fn live_value_bytes(&self, h: &Header) -> usize {
        entries(&self.buf, h)
            .filter(|&(_, ty, _)| ty >= ValueType::Str as u8)
            .map(|(_, _, slot)| slot_parts(slot).1)
            .sum()
    }

    /// Takes `size` bytes of value space if the region has them; their offset.
    fn take_value_space(&mut self, h: &mut Header, size: usize) -> Option<usize> {
        if size == 0 {
            return Some(0);
        }
        if F::TOP_DOWN {
            let lo = h.lo.checked_sub(size).filter(|&lo| lo >= h.end())?;
            h.lo = lo;
            Some(lo)
        } else {
            let at = h.hi;
            (at + size <= self.buf.len()).then(|| {
                h.hi += size;
                at
            })
        }
    }

    /// Grows the header to `hcap` in place when the free space allows (top down only).
    fn grow_header_in_place(&mut self, h: &mut Header, hcap: usize) -> bool {
        if !F::TOP_DOWN || header_end(hcap) > h.lo {
            return false;
        }
        let new = Header { hcap, ..*h };
        // Move the farthest array first so nothing is overwritten before it is moved.
        self.buf
            .copy_within(h.slots_at()..h.slots_at() + 4 * h.count, new.slots_at());
        self.buf
            .copy_within(h.types_at()..h.types_at() + h.count, new.types_at());
        *h = new;
        true
    }

    /// Reallocates the buffer with room for a header of `hcap` and `extra` more value bytes,
    /// packing the live values (the compaction). One allocator call.
    fn reallocate(
        &mut self,
        entity: Entity,
        hcap: usize,
        extra: usize,
        calls: &mut u64,
    ) -> Result<Header, KvError> {
        let old = self.header();
        let live = self.live_value_bytes(&old);
        let need = header_end(hcap) + live + extra;
        let cap = if F::TOP_DOWN {
            need.next_power_of_two()
                .max(2 * self.buf.len())
                .min(MAX_BUFFER)
        } else {
            // The value region at least doubles when it was the part that filled up.
            let region = (old.hi - old.lo).max(16);
            let region = if extra > 0 {
                (2 * region).max(live + extra)
            } else {
                region.max(live)
            };
            header_end(hcap) + region.next_multiple_of(16)
        };
        if need > cap || cap > MAX_BUFFER {
            return Err(KvError::TooLarge {
                entity,
                bytes: need as u64,
                limit: MAX_BUFFER as u64,
            });
        }
        let mut buf = vec![0u8; cap];
        let mut h = Header {
            count: old.count,
            hcap,
            lo: if F::TOP_DOWN { cap } else { header_end(hcap) },
            hi: if F::TOP_DOWN { cap } else { header_end(hcap) },
        };
        for (i, (key, ty, slot)) in entries(&self.buf, &old).enumerate() {
            write_u32(&mut buf, h.keys_at() + 4 * i, key);
            buf[h.types_at() + i] = ty;
            let slot = if ty >= ValueType::Str as u8 && slot_parts(slot).1 > 0 {
                let (off, size) = slot_parts(slot);
                let at = if F::TOP_DOWN {
                    h.lo -= size;
                    h.lo
                } else {
                    h.hi += size;
                    h.hi - size
                };
                buf[at..at + size].copy_from_slice(&self.buf[off..off + size]);
                (at as u32) | ((size as u32) << 16)
            } else {
                slot
            };
            write_u32(&mut buf, h.slots_at() + 4 * i, slot);
        }
        h.write(&mut buf);
        *calls += 1;
        self.buf = buf;
        Ok(h)
    }
}

impl<F: Flavor> Component for SingleBuffer<F> {
    type Shared = ();
    const INFO: KvDesignInfo = F::INFO;

    fn set(
        &mut self,
        _: &mut (),
        entity: Entity,
        key: Key,
        value: ValueRef<'_>,
        calls: &mut u64,
    ) -> Result<(), KvError> {
        let bytes = value.bytes().unwrap_or(&[]);
        if bytes.len() >= MAX_BUFFER {
            return Err(KvError::TooLarge {
                entity,
                bytes: bytes.len() as u64,
                limit: MAX_BUFFER as u64 - 1,
            });
        }
        let mut h = self.header();
        let found = if self.buf.is_empty() {
            None
        } else {
            self.find(&h, key)
        };
        let index = match found {
            Some(i) => i,
            None => {
                if h.count == h.hcap {
                    let hcap = (2 * h.hcap).max(MIN_HCAP);
                    if !self.grow_header_in_place(&mut h, hcap) {
                        h = self.reallocate(entity, hcap, bytes.len(), calls)?;
                    }
                }
                let i = h.count;
                write_u32(&mut self.buf, h.keys_at() + 4 * i, key);
                // An empty scalar slot until the value is written below.
                self.buf[h.types_at() + i] = ValueType::Bool as u8;
                write_u32(&mut self.buf, h.slots_at() + 4 * i, 0);
                h.count += 1;
                i
            }
        };
        let slot_at = h.slots_at() + 4 * index;
        let old_ty = self.buf[h.types_at() + index];
        let old_slot = read_u32(&self.buf, slot_at).unwrap_or(0);
        let slot = if value.bytes().is_none() {
            value.scalar_bits()
        } else {
            let (old_off, old_size) = slot_parts(old_slot);
            let at = if old_ty >= ValueType::Str as u8 && bytes.len() <= old_size {
                old_off
            } else if let Some(at) = self.take_value_space(&mut h, bytes.len()) {
                at
            } else {
                h.write(&mut self.buf);
                h = match self.reallocate(entity, h.hcap, bytes.len(), calls) {
                    Ok(h) => h,
                    Err(too_large) => {
                        // Unchanged but for a grown header: drop the entry just added.
                        if found.is_none() {
                            h.count -= 1;
                            h.write(&mut self.buf);
                        }
                        return Err(too_large);
                    }
                };
                self.take_value_space(&mut h, bytes.len())
                    .expect("the reallocated buffer has room")
            };
            self.buf[at..at + bytes.len()].copy_from_slice(bytes);
            (at as u32) | ((bytes.len() as u32) << 16)
        };
        let slot_at = h.slots_at() + 4 * index;
        write_u32(&mut self.buf, slot_at, slot);
        self.buf[h.types_at() + index] = value.value_type() as u8;
        h.write(&mut self.buf);
        Ok(())
    }

    #[inline]
    fn read<R>(&self, _: &(), key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, _: &mut (), key: Key, _: &mut u64) -> bool {
        if self.buf.is_empty() {
            return false;
        }
        let mut h = self.header();
        let Some(i) = self.find(&h, key) else {
            return false;
        };
        let last = h.count - 1;
        if i != last {
            self.buf.copy_within(
                h.keys_at() + 4 * last..h.keys_at() + 4 * last + 4,
                h.keys_at() + 4 * i,
            );
            self.buf[h.types_at() + i] = self.buf[h.types_at() + last];
            self.buf.copy_within(
                h.slots_at() + 4 * last..h.slots_at() + 4 * last + 4,
                h.slots_at() + 4 * i,
            );
        }
        h.count = last;
        h.write(&mut self.buf);
        true
    }

    fn release(&mut self, _: &mut (), calls: &mut u64) {
        count_capacity_change(std::mem::take(&mut self.buf).len(), 0, calls);
    }

    fn len(&self) -> usize {
        self.header().count
    }

    fn memory_bytes(&self, _: &()) -> usize {
        self.buf.capacity()
    }

    fn snapshot(&self, _: &(), out: &mut Vec<u8>) {
        out.extend_from_slice(&self.buf);
    }

    fn visit_snapshot(
        bytes: &[u8],
        mut f: impl FnMut(Key, ValueRef<'_>),
    ) -> Result<(), SnapshotError> {
        let h = Header::read(bytes).ok_or_else(|| SnapshotError("no prefix".into()))?;
        if h.count > h.hcap || (!bytes.is_empty() && h.end() > bytes.len()) {
            return Err(SnapshotError("header past the buffer".into()));
        }
        for (key, ty, slot) in entries(bytes, &h) {
            let v = value_of(bytes, ty, slot)
                .ok_or_else(|| SnapshotError(format!("key {key}: bad type or slot")))?;
            f(key, v);
        }
        Ok(())
    }

    fn check_invariants(&self, _: &()) -> Result<(), String> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let h = self.header();
        let cap = self.buf.len();
        if cap > MAX_BUFFER || h.count > h.hcap || h.end() > h.lo || h.lo > h.hi || h.hi > cap {
            return Err(format!(
                "regions overlap or exceed the buffer: {h:?}, {cap} bytes"
            ));
        }
        if F::TOP_DOWN && h.hi != cap {
            return Err("values do not end at the buffer's end".into());
        }
        if !F::TOP_DOWN && h.lo != h.end() {
            return Err("the value region does not start at the header's end".into());
        }
        let mut spans = Vec::new();
        for (i, (key, ty, slot)) in entries(&self.buf, &h).enumerate() {
            if ValueType::from_u8(ty).is_none() {
                return Err(format!("entry {i}: bad type {ty}"));
            }
            if entries(&self.buf, &h).skip(i + 1).any(|(k, _, _)| k == key) {
                return Err(format!("key {key} held twice"));
            }
            if ty >= ValueType::Str as u8 {
                let (off, size) = slot_parts(slot);
                if size > 0 {
                    if off < h.lo || off + size > h.hi {
                        return Err(format!(
                            "key {key}: value [{off}, +{size}) outside [{}, {})",
                            h.lo, h.hi
                        ));
                    }
                    spans.push((off, off + size));
                }
            }
        }
        spans.sort_unstable();
        if spans.windows(2).any(|w| w[0].1 > w[1].0) {
            return Err("two live values overlap".into());
        }
        Ok(())
    }
}

impl<F: Flavor> SingleBuffer<F> {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        if self.buf.is_empty() {
            return None;
        }
        let h = self.header();
        let i = self.find(&h, key)?;
        let slot = read_u32(&self.buf, h.slots_at() + 4 * i)?;
        value_of(&self.buf, self.buf[h.types_at() + i], slot)
    }
}
