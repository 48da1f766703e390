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
//!
//! Where the buffer's bytes live is a [`BufStore`]: its own `Vec<u8>` ([`VecBuf`], one global
//! allocation per entity, the article's layout) or a block of a store-wide arena
//! (`buddy_arena`'s store, step 9). A reallocation asks the store for the new buffer and packs
//! the live values straight into it ([`BufStore::rebuild`]), then the store frees the old one:
//! no scratch buffer, so an arena-backed store makes no global allocation per rebuild, and the
//! store counts exactly the global allocator calls it makes (a `VecBuf` rebuild is two, the
//! new buffer's allocation and the old one's free; `impls/tests/integration/allocator_accounting.rs` checks
//! the count against a counting allocator).

use std::fmt::Debug;
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
/// The one slot of an empty string or array: offset 0, size 0, inside every buffer.
///
/// Why it is canonical: an empty value that kept whatever offset it was given (the old
/// value's, when it overwrote a longer one in place) would be copied verbatim by the
/// reallocation, since it has no bytes to move. Two-region buffers can shrink on reallocation
/// (they keep the live bytes, not the old size), so the stale offset could land past the new
/// buffer's end, where `value_of`'s bounds check `buf.get(off..off)` fails and the key reads
/// as absent (and the snapshot as corrupt). With every empty value at offset 0, nothing
/// depends on where it was; `check_invariants` enforces it.
const EMPTY_SLOT: u32 = 0;

/// Where the value region lies; see the [module docs](self).
pub trait Flavor: Default + Debug {
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

/// Where one entity's buffer lives. Its bytes are the whole buffer: empty means no buffer.
pub trait BufStore: Default + Debug {
    /// Store-wide state the buffers share (an arena), `()` for none.
    type Shared: Default + Debug;

    /// The buffer's bytes.
    fn bytes<'a>(&'a self, shared: &'a Self::Shared) -> &'a [u8];

    /// The buffer's bytes, mutably.
    fn bytes_mut<'a>(&'a mut self, shared: &'a mut Self::Shared) -> &'a mut [u8];

    /// Replaces the buffer by a new one of `len` bytes (at most [`MAX_BUFFER`], a power of two
    /// for the top-down flavor) that `build` writes, given the old buffer's bytes and the new
    /// one's (zeroed); then frees the old buffer. Counts every global allocator call it makes.
    /// The new bytes are where the buffer will live, so nothing is built aside and copied.
    fn rebuild(
        &mut self,
        shared: &mut Self::Shared,
        len: usize,
        build: impl FnOnce(&[u8], &mut [u8]),
        calls: &mut u64,
    );

    /// Entries in the buffer (its `count` word; 0 without a buffer). A store that cannot
    /// reach its bytes without the shared state keeps a copy, given by
    /// [`note_count`](BufStore::note_count).
    fn count(&self) -> usize;

    /// Told the buffer's `count` word after every change of it.
    #[inline]
    fn note_count(&mut self, count: usize) {
        let _ = count;
    }

    /// Frees the buffer, counting its global allocator calls.
    fn release(&mut self, shared: &mut Self::Shared, calls: &mut u64);

    /// Heap bytes this buffer holds of its own (not in the shared state).
    fn memory_bytes(&self) -> usize;

    /// Heap bytes of the shared state.
    fn shared_memory_bytes(shared: &Self::Shared) -> usize;

    /// Checks the shared state against every live buffer.
    ///
    /// # Errors
    /// The first broken invariant.
    fn check_shared<'a>(
        shared: &Self::Shared,
        live: impl Iterator<Item = &'a Self>,
    ) -> Result<(), String>
    where
        Self: 'a;
}

/// The buffer in its own `Vec<u8>` (one global allocation per entity).
#[derive(Debug, Default)]
pub struct VecBuf(Vec<u8>);

impl BufStore for VecBuf {
    type Shared = ();

    #[inline]
    fn bytes<'a>(&'a self, _: &'a ()) -> &'a [u8] {
        &self.0
    }

    #[inline]
    fn bytes_mut<'a>(&'a mut self, _: &'a mut ()) -> &'a mut [u8] {
        &mut self.0
    }

    /// Two calls once the entity has a buffer: the new buffer's allocation and the old one's
    /// free (the packing reads the old buffer while it writes the new, so no `realloc`).
    fn rebuild(
        &mut self,
        _: &mut (),
        len: usize,
        build: impl FnOnce(&[u8], &mut [u8]),
        calls: &mut u64,
    ) {
        let mut new = vec![0u8; len];
        *calls += 1;
        build(&self.0, &mut new);
        let old = std::mem::replace(&mut self.0, new);
        count_capacity_change(old.capacity(), 0, calls);
    }

    fn count(&self) -> usize {
        read_u32(&self.0, 0).map_or(0, |c| c as usize)
    }

    fn release(&mut self, _: &mut (), calls: &mut u64) {
        count_capacity_change(std::mem::take(&mut self.0).len(), 0, calls);
    }

    fn memory_bytes(&self) -> usize {
        self.0.capacity()
    }

    fn shared_memory_bytes(_: &()) -> usize {
        0
    }

    fn check_shared<'a>(_: &(), _: impl Iterator<Item = &'a Self>) -> Result<(), String> {
        Ok(())
    }
}

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
pub struct SingleBuffer<F: Flavor, B: BufStore = VecBuf> {
    /// Empty (no allocation) or laid out as the [module docs](self) say. Invariants: the
    /// header ends at or before `lo`; `lo <= hi <= len <= MAX_BUFFER`; with `Meet`
    /// `hi == len`, with `TwoRegions` `lo == header end`; every live string or array
    /// lies inside `[lo, hi)` and no two overlap; an empty one's slot is [`EMPTY_SLOT`].
    buf: B,
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

#[inline]
fn header(buf: &[u8]) -> Header {
    Header::read(buf).expect("the prefix is in the buffer")
}

#[inline]
fn find(buf: &[u8], h: &Header, key: Key) -> Option<usize> {
    let keys = &buf[h.keys_at()..h.keys_at() + 4 * h.count];
    keys.chunks_exact(4)
        .position(|k| u32::from_ne_bytes(k.try_into().expect("4 bytes")) == key)
}

/// Bytes of live strings and arrays.
fn live_value_bytes(buf: &[u8], h: &Header) -> usize {
    entries(buf, h)
        .filter(|&(_, ty, _)| ty >= ValueType::Str as u8)
        .map(|(_, _, slot)| slot_parts(slot).1)
        .sum()
}

impl<F: Flavor, B: BufStore> SingleBuffer<F, B> {
    /// Takes `size` bytes of value space of a buffer of `cap` bytes if the region has them;
    /// their offset.
    fn take_value_space(cap: usize, h: &mut Header, size: usize) -> Option<usize> {
        if size == 0 {
            return Some(0);
        }
        if F::TOP_DOWN {
            let lo = h.lo.checked_sub(size).filter(|&lo| lo >= h.end())?;
            h.lo = lo;
            Some(lo)
        } else {
            let at = h.hi;
            (at + size <= cap).then(|| {
                h.hi += size;
                at
            })
        }
    }

    /// Grows the header to `hcap` in place when the free space allows (top down only).
    fn grow_header_in_place(buf: &mut [u8], h: &mut Header, hcap: usize) -> bool {
        if !F::TOP_DOWN || header_end(hcap) > h.lo {
            return false;
        }
        let new = Header { hcap, ..*h };
        // Move the farthest array first so nothing is overwritten before it is moved.
        buf.copy_within(h.slots_at()..h.slots_at() + 4 * h.count, new.slots_at());
        buf.copy_within(h.types_at()..h.types_at() + h.count, new.types_at());
        *h = new;
        true
    }

    /// Reallocates the buffer with room for a header of `hcap` and `extra` more value bytes,
    /// packing the live values (the compaction). The header `old` is the buffer's current
    /// one (it may not be written back yet).
    fn reallocate(
        &mut self,
        shared: &mut B::Shared,
        entity: Entity,
        old: Header,
        hcap: usize,
        extra: usize,
        calls: &mut u64,
    ) -> Result<Header, KvError> {
        let old_buf = self.buf.bytes(shared);
        let live = live_value_bytes(old_buf, &old);
        let old_len = old_buf.len();
        let need = header_end(hcap) + live + extra;
        let cap = if F::TOP_DOWN {
            need.next_power_of_two().max(2 * old_len).min(MAX_BUFFER)
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
        let mut h = Header {
            count: old.count,
            hcap,
            lo: if F::TOP_DOWN { cap } else { header_end(hcap) },
            hi: if F::TOP_DOWN { cap } else { header_end(hcap) },
        };
        let pack = |old_buf: &[u8], buf: &mut [u8]| {
            for (i, (key, ty, slot)) in entries(old_buf, &old).enumerate() {
                write_u32(buf, h.keys_at() + 4 * i, key);
                buf[h.types_at() + i] = ty;
                let slot = if ty < ValueType::Str as u8 {
                    slot
                } else if slot_parts(slot).1 == 0 {
                    EMPTY_SLOT
                } else {
                    let (off, size) = slot_parts(slot);
                    let at = if F::TOP_DOWN {
                        h.lo -= size;
                        h.lo
                    } else {
                        h.hi += size;
                        h.hi - size
                    };
                    buf[at..at + size].copy_from_slice(&old_buf[off..off + size]);
                    (at as u32) | ((size as u32) << 16)
                };
                write_u32(buf, h.slots_at() + 4 * i, slot);
            }
            h.write(buf);
        };
        self.buf.rebuild(shared, cap, pack, calls);
        Ok(h)
    }
}

impl<F: Flavor, B: BufStore> Component for SingleBuffer<F, B> {
    type Shared = B::Shared;
    const INFO: KvDesignInfo = F::INFO;

    fn set(
        &mut self,
        shared: &mut B::Shared,
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
        let buf = self.buf.bytes(shared);
        let mut h = header(buf);
        let found = if buf.is_empty() {
            None
        } else {
            find(buf, &h, key)
        };
        let index = match found {
            Some(i) => i,
            None => {
                if h.count == h.hcap {
                    let hcap = (2 * h.hcap).max(MIN_HCAP);
                    if !Self::grow_header_in_place(self.buf.bytes_mut(shared), &mut h, hcap) {
                        h = self.reallocate(shared, entity, h, hcap, bytes.len(), calls)?;
                    }
                }
                let buf = self.buf.bytes_mut(shared);
                let i = h.count;
                write_u32(buf, h.keys_at() + 4 * i, key);
                // An empty scalar slot until the value is written below.
                buf[h.types_at() + i] = ValueType::Bool as u8;
                write_u32(buf, h.slots_at() + 4 * i, 0);
                h.count += 1;
                i
            }
        };
        let buf = self.buf.bytes(shared);
        let slot_at = h.slots_at() + 4 * index;
        let old_ty = buf[h.types_at() + index];
        let old_slot = read_u32(buf, slot_at).unwrap_or(0);
        let slot = if value.bytes().is_none() {
            value.scalar_bits()
        } else if bytes.is_empty() {
            EMPTY_SLOT
        } else {
            let (old_off, old_size) = slot_parts(old_slot);
            let at = if old_ty >= ValueType::Str as u8 && bytes.len() <= old_size {
                old_off
            } else if let Some(at) = Self::take_value_space(buf.len(), &mut h, bytes.len()) {
                at
            } else {
                h.write(self.buf.bytes_mut(shared));
                h = match self.reallocate(shared, entity, h, h.hcap, bytes.len(), calls) {
                    Ok(h) => h,
                    Err(too_large) => {
                        // Unchanged but for a grown header: drop the entry just added.
                        if found.is_none() {
                            h.count -= 1;
                            h.write(self.buf.bytes_mut(shared));
                        }
                        return Err(too_large);
                    }
                };
                let cap = self.buf.bytes(shared).len();
                Self::take_value_space(cap, &mut h, bytes.len())
                    .expect("the reallocated buffer has room")
            };
            self.buf.bytes_mut(shared)[at..at + bytes.len()].copy_from_slice(bytes);
            (at as u32) | ((bytes.len() as u32) << 16)
        };
        let buf = self.buf.bytes_mut(shared);
        let slot_at = h.slots_at() + 4 * index;
        write_u32(buf, slot_at, slot);
        buf[h.types_at() + index] = value.value_type() as u8;
        h.write(buf);
        self.buf.note_count(h.count);
        Ok(())
    }

    #[inline]
    fn read<R>(
        &self,
        shared: &B::Shared,
        key: Key,
        f: impl FnOnce(Option<ValueRef<'_>>) -> R,
    ) -> R {
        f(lookup(self.buf.bytes(shared), key))
    }

    fn remove(&mut self, shared: &mut B::Shared, key: Key, _: &mut u64) -> bool {
        let buf = self.buf.bytes_mut(shared);
        if buf.is_empty() {
            return false;
        }
        let mut h = header(buf);
        let Some(i) = find(buf, &h, key) else {
            return false;
        };
        let last = h.count - 1;
        if i != last {
            buf.copy_within(
                h.keys_at() + 4 * last..h.keys_at() + 4 * last + 4,
                h.keys_at() + 4 * i,
            );
            buf[h.types_at() + i] = buf[h.types_at() + last];
            buf.copy_within(
                h.slots_at() + 4 * last..h.slots_at() + 4 * last + 4,
                h.slots_at() + 4 * i,
            );
        }
        h.count = last;
        h.write(buf);
        self.buf.note_count(h.count);
        true
    }

    fn release(&mut self, shared: &mut B::Shared, calls: &mut u64) {
        self.buf.release(shared, calls);
    }

    fn len(&self) -> usize {
        self.buf.count()
    }

    fn memory_bytes(&self, _: &B::Shared) -> usize {
        self.buf.memory_bytes()
    }

    fn shared_memory_bytes(shared: &B::Shared) -> usize {
        B::shared_memory_bytes(shared)
    }

    fn snapshot(&self, shared: &B::Shared, out: &mut Vec<u8>) {
        out.extend_from_slice(self.buf.bytes(shared));
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

    fn check_invariants(&self, shared: &B::Shared) -> Result<(), String> {
        let buf = self.buf.bytes(shared);
        if buf.is_empty() {
            return Ok(());
        }
        let h = header(buf);
        let cap = buf.len();
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
        for (i, (key, ty, slot)) in entries(buf, &h).enumerate() {
            if ValueType::from_u8(ty).is_none() {
                return Err(format!("entry {i}: bad type {ty}"));
            }
            if entries(buf, &h).skip(i + 1).any(|(k, _, _)| k == key) {
                return Err(format!("key {key} held twice"));
            }
            if ty >= ValueType::Str as u8 {
                let (off, size) = slot_parts(slot);
                if size == 0 && slot != EMPTY_SLOT {
                    return Err(format!("key {key}: empty value with stale offset {off}"));
                }
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

    fn check_shared(shared: &B::Shared, live: &[&Self]) -> Result<(), String> {
        B::check_shared(shared, live.iter().map(|c| &c.buf))
    }
}

/// The value of `key` in a buffer.
#[inline]
fn lookup(buf: &[u8], key: Key) -> Option<ValueRef<'_>> {
    if buf.is_empty() {
        return None;
    }
    let h = header(buf);
    let i = find(buf, &h, key)?;
    let slot = read_u32(buf, h.slots_at() + 4 * i)?;
    value_of(buf, buf[h.types_at() + i], slot)
}
