//! Array with holes whose iteration skips the holes with a live-slot bitmask: our tuned variant
//! of the article's "array with holes" (`holey`).
//!
//! Slots, IDs and the free list are `holey`'s: one `Vec` of slots that never move, an `Id64`
//! (32-bit index + 32-bit generation), a LIFO free list threaded through the holes, and a slot
//! retired when its generation would wrap. Added: `live`, one bit per slot, set iff the slot is
//! occupied. Iteration walks the bitmask a word at a time and visits only the set bits
//! (`trailing_zeros`, then `word &= word - 1`), so it costs per live object plus one word test
//! per 64 slots, and has no data-dependent branch per slot. With 50% random holes `holey` (like
//! `slotmap::SlotMap`) mispredicts about every other slot; this design does not.
//!
//! Cost: insert, get, remove O(1) (plus one bit flip); iteration O(live + slots / 64).
//! Memory: `holey`'s slot (`size_of::<T>() + 8` for 8-aligned `T`) plus 1 bit per slot.
//! Trade-off: iteration still strides over the holes' memory, so with random holes it loads
//! about as many cache lines as `holey`; only the branch and per-slot instruction cost go.
//! Measured (examples/iter_holes.rs, 1M slots, 50% random holes, 32-byte payload): about
//! 2.2 ns per live object through `fold`, 3.4 through `next`, against 9.5 for `holey` and 1.05
//! for a packed `Vec`. The one `unsafe` block (in `LiveIter::fold`) is argued where it stands.

use std::iter::Zip;
use std::slice;

use super::{DesignInfo, DesignKind, IdTable, id_bytes};
use crate::TableError;
use crate::id::Id64;

/// End of the free list.
const NIL: u32 = u32::MAX;

/// Bits per `live` word, and so slots per word.
const WORD_BITS: usize = u64::BITS as usize;

/// Position of slot `i` in the `live` bitmask: the word, and the mask of the bit in it.
#[inline]
fn bit_position(i: usize) -> (usize, u64) {
    (i / WORD_BITS, 1 << (i % WORD_BITS))
}

/// One slot, as in `holey`: the generation shares the first word with the discriminant.
#[derive(Debug, Clone)]
enum Slot<T> {
    /// A live object; IDs with this `generation` name it.
    Occupied { generation: u32, value: T },
    /// A hole; `next_free` is the next hole in the free list (or `NIL`). `generation` is the
    /// generation the next object in this slot will get; `u32::MAX` marks a retired slot.
    Vacant { generation: u32, next_free: u32 },
}

/// Array with holes, 64-bit IDs, LIFO free list, and a live-slot bitmask for iteration.
#[derive(Debug, Clone)]
pub struct HoleySkip<T> {
    /// Invariant: `Occupied` count == `len`; every `Vacant` slot with generation < `u32::MAX`
    /// is on the free list exactly once; retired slots (generation `u32::MAX`) are on no list.
    slots: Vec<Slot<T>>,
    /// Bit `i` set iff `slots[i]` is `Occupied`. Exactly `ceil(slots.len() / 64)` words; bits
    /// past `slots.len()` are zero. The iterators rely on this to index `slots` only at
    /// occupied positions.
    live: Vec<u64>,
    /// Most recently freed slot, or `NIL`.
    free_head: u32,
    len: usize,
}

impl<T: 'static> IdTable<T> for HoleySkip<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo {
        name: "holey_skip",
        description: "array with holes (as holey) plus a live-slot bitmask, so iteration visits only live slots, branch-free per slot",
        kind: DesignKind::Tuned,
        id_bytes: id_bytes::<Id64>(),
        detects_stale: true,
        capacity: None,
    };

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            live: Vec::new(),
            free_head: NIL,
            len: 0,
        }
    }

    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        if self.free_head != NIL {
            let index = self.free_head;
            let slot = &mut self.slots[index as usize];
            let Slot::Vacant {
                generation,
                next_free,
            } = *slot
            else {
                unreachable!("free list points at an occupied slot");
            };
            self.free_head = next_free;
            *slot = Slot::Occupied { generation, value };
            let (word, mask) = bit_position(index as usize);
            self.live[word] |= mask;
            self.len += 1;
            return Ok(Id64::new(index, generation));
        }
        let index = u32::try_from(self.slots.len())
            .ok()
            .filter(|&i| i != NIL)
            .ok_or(TableError::IdSpaceExhausted {
                created: self.slots.len() as u64,
            })?;
        self.slots.push(Slot::Occupied {
            generation: 0,
            value,
        });
        let (word, mask) = bit_position(index as usize);
        if word == self.live.len() {
            self.live.push(0);
        }
        self.live[word] |= mask;
        self.len += 1;
        Ok(Id64::new(index, 0))
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        match self.slots.get(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        match self.slots.get_mut(id.index() as usize) {
            Some(Slot::Occupied { generation, value }) if *generation == id.generation() => {
                Some(value)
            }
            _ => None,
        }
    }

    fn remove(&mut self, id: Id64) -> Option<T> {
        let index = id.index();
        let slot = self.slots.get_mut(index as usize)?;
        match slot {
            Slot::Occupied { generation, .. } if *generation == id.generation() => {}
            _ => return None,
        }
        let next_generation = id.generation().wrapping_add(1);
        let retired = next_generation == u32::MAX;
        let vacant = Slot::Vacant {
            generation: next_generation,
            next_free: if retired { NIL } else { self.free_head },
        };
        let Slot::Occupied { value, .. } = std::mem::replace(slot, vacant) else {
            unreachable!()
        };
        if !retired {
            self.free_head = index;
        }
        let (word, mask) = bit_position(index as usize);
        self.live[word] &= !mask;
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        LiveIter {
            words: self.slots.chunks(WORD_BITS).zip(self.live.iter()),
            chunk: [].iter(),
            word: 0,
        }
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        LiveIterMut {
            words: self.slots.chunks_mut(WORD_BITS).zip(self.live.iter()),
            chunk: [].iter_mut(),
            word: 0,
        }
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot<T>>()
            + self.live.capacity() * std::mem::size_of::<u64>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let occupied = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Occupied { .. }))
            .count();
        if occupied != self.len {
            return Err(format!("len {} but {} occupied slots", self.len, occupied));
        }
        if self.live.len() != self.slots.len().div_ceil(WORD_BITS) {
            return Err(format!(
                "{} live words for {} slots",
                self.live.len(),
                self.slots.len()
            ));
        }
        for i in 0..self.live.len() * WORD_BITS {
            let (word, mask) = bit_position(i);
            let marked = self.live[word] & mask != 0;
            let occupied = matches!(self.slots.get(i), Some(Slot::Occupied { .. }));
            if marked != occupied {
                return Err(format!(
                    "live bit of slot {i} is {marked}, occupied: {occupied}"
                ));
            }
        }
        let mut on_list = vec![false; self.slots.len()];
        let mut cursor = self.free_head;
        while cursor != NIL {
            let i = cursor as usize;
            match self.slots.get(i) {
                Some(Slot::Vacant {
                    generation,
                    next_free,
                }) => {
                    if on_list[i] {
                        return Err(format!("free list has a cycle through slot {i}"));
                    }
                    if *generation == u32::MAX {
                        return Err(format!("retired slot {i} is on the free list"));
                    }
                    on_list[i] = true;
                    cursor = *next_free;
                }
                _ => return Err(format!("free list reaches non-vacant slot {i}")),
            }
        }
        for (i, slot) in self.slots.iter().enumerate() {
            if let Slot::Vacant { generation, .. } = slot
                && *generation != u32::MAX
                && !on_list[i]
            {
                return Err(format!("vacant slot {i} is not on the free list"));
            }
        }
        Ok(())
    }
}

/// The value of a slot the `live` bitmask says is occupied.
#[inline]
fn live_value<T>(slot: Option<&Slot<T>>) -> &T {
    match slot {
        Some(Slot::Occupied { value, .. }) => value,
        _ => unreachable!("live bit set on a vacant slot"),
    }
}

/// Iterator over the live objects of a [`HoleySkip`]: one 64-slot chunk and its `live` word at
/// a time, stepping straight from one set bit to the next. `next` is safe code; `fold` (used by
/// `sum`, `for_each`, `map(..).fold`, ...) skips the bounds and discriminant checks.
struct LiveIter<'a, T> {
    /// The chunks (and their `live` words) not yet started.
    words: Zip<slice::Chunks<'a, Slot<T>>, slice::Iter<'a, u64>>,
    /// The current chunk, from the slot after the last one yielded.
    chunk: slice::Iter<'a, Slot<T>>,
    /// The current live word, shifted so bit 0 is `chunk`'s first slot.
    word: u64,
}

impl<'a, T> Iterator for LiveIter<'a, T> {
    type Item = &'a T;

    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        while self.word == 0 {
            let (chunk, &word) = self.words.next()?;
            self.chunk = chunk.iter();
            self.word = word;
        }
        let skip = self.word.trailing_zeros();
        // Shift in two steps: `skip + 1` can be 64, which a single shift cannot express.
        self.word = (self.word >> skip) >> 1;
        Some(live_value(self.chunk.nth(skip as usize)))
    }

    #[inline]
    fn fold<B, F: FnMut(B, &'a T) -> B>(self, init: B, mut f: F) -> B {
        let mut acc = init;
        let mut rest = self.word;
        let mut chunk = self.chunk.as_slice();
        let mut words = self.words;
        loop {
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                debug_assert!(matches!(chunk.get(i), Some(Slot::Occupied { .. })));
                // SAFETY: `rest` is the `live` word of `chunk`, shifted so bit 0 names
                // `chunk[0]`. `HoleySkip::live`'s invariant (checked by `check_invariants`,
                // kept by `insert` and `remove`, the only writers) says a set bit names an
                // existing, occupied slot, so `i` is in bounds and the slot is `Occupied`.
                // Measured gain over the checked `live_value(chunk.get(i))`: 2.7 -> 2.15 ns
                // per live object at 1M slots with 50% random holes, 0.9 -> 0.45 ns at 16K
                // slots (examples/iter_holes.rs). Reached by the tests below (`sum`, `count`,
                // `fold`) and by every fold-based consumer.
                let value = unsafe {
                    match chunk.get_unchecked(i) {
                        Slot::Occupied { value, .. } => value,
                        Slot::Vacant { .. } => std::hint::unreachable_unchecked(),
                    }
                };
                acc = f(acc, value);
            }
            let Some((next_chunk, &word)) = words.next() else {
                return acc;
            };
            chunk = next_chunk;
            rest = word;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.word.count_ones() as usize, None)
    }
}

/// Mutable counterpart of [`LiveIter`].
struct LiveIterMut<'a, T> {
    /// The chunks (and their `live` words) not yet started.
    words: Zip<slice::ChunksMut<'a, Slot<T>>, slice::Iter<'a, u64>>,
    /// The current chunk, from the slot after the last one yielded.
    chunk: slice::IterMut<'a, Slot<T>>,
    /// The current live word, shifted so bit 0 is `chunk`'s first slot.
    word: u64,
}

impl<'a, T> Iterator for LiveIterMut<'a, T> {
    type Item = &'a mut T;

    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        while self.word == 0 {
            let (chunk, &word) = self.words.next()?;
            self.chunk = chunk.iter_mut();
            self.word = word;
        }
        let skip = self.word.trailing_zeros();
        self.word = (self.word >> skip) >> 1;
        match self.chunk.nth(skip as usize) {
            Some(Slot::Occupied { value, .. }) => Some(value),
            _ => unreachable!("live bit set on a vacant slot"),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.word.count_ones() as usize, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_live_slots_in_order_across_words() {
        let mut t = HoleySkip::<u32>::new();
        let ids: Vec<_> = (0..200).map(|i| t.insert(i).unwrap()).collect();
        for (i, id) in ids.iter().enumerate() {
            if i % 3 != 0 && i != 63 && i != 64 && i != 199 {
                t.remove(*id).unwrap();
            }
        }
        let expected: Vec<u32> = (0..200)
            .filter(|i| i % 3 == 0 || [63, 64, 199].contains(i))
            .collect();
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), expected);
        // `fold` (used by `sum`, `for_each`) and `next` must agree, also after a partial `next`.
        assert_eq!(t.iter().sum::<u32>(), expected.iter().sum::<u32>());
        for consumed in [0, 2, 22, expected.len()] {
            let (mut a, mut b) = (t.iter(), t.iter());
            for _ in 0..consumed {
                a.next().unwrap();
                b.next().unwrap();
            }
            let mut by_next = Vec::new();
            // A `for` loop drives `next`, never `fold`.
            for x in a {
                by_next.push(*x);
            }
            let by_fold = b.fold(Vec::new(), |mut v, x| {
                v.push(*x);
                v
            });
            assert_eq!(by_next, expected[consumed..]);
            assert_eq!(by_fold, expected[consumed..]);
        }
        for v in t.iter_mut() {
            *v += 1000;
        }
        let bumped: Vec<u32> = expected.iter().map(|v| v + 1000).collect();
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), bumped);
        t.check_invariants().unwrap();
    }

    #[test]
    fn full_word_and_empty_table_iterate() {
        let mut t = HoleySkip::<u64>::new();
        assert_eq!(t.iter().count(), 0);
        let ids: Vec<_> = (0..128).map(|i| t.insert(i).unwrap()).collect();
        assert_eq!(t.iter().count(), 128);
        assert_eq!(t.iter().fold(0, |n, _| n + 1), 128);
        for id in ids {
            t.remove(id).unwrap();
        }
        assert_eq!(t.iter().count(), 0);
        assert_eq!(t.iter_mut().count(), 0);
        t.check_invariants().unwrap();
    }

    #[test]
    fn free_list_is_lifo() {
        let mut t = HoleySkip::<u32>::new();
        let ids: Vec<_> = (0..4).map(|i| t.insert(i).unwrap()).collect();
        t.remove(ids[1]).unwrap();
        t.remove(ids[2]).unwrap();
        assert_eq!(t.insert(10).unwrap().index(), 2);
        assert_eq!(t.insert(11).unwrap().index(), 1);
        t.check_invariants().unwrap();
    }
}
