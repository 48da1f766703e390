//! Array with holes whose iteration skips the holes with a live-slot bitmask: our tuned variant
//! of the article's "array with holes" (`holey`).
//!
//! Slots, IDs and the free list are `holey`'s (this type wraps a `Holey`): one `Vec` of slots
//! that never move, an `Id64`
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

use crate::DesignMeta;
use std::iter::Zip;
use std::slice;

use super::bits::{WORD_BITS, bit_position};
use super::holey::{Holey, Slot};
use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::TableError;
use crate::id::Id64;

/// Array with holes, 64-bit IDs, LIFO free list, and a live-slot bitmask for iteration.
#[derive(Debug, Clone)]
pub struct HoleySkip<T> {
    /// Slots, IDs, free list and their invariants: exactly `holey`'s. Only this type's
    /// `insert` and `remove` change which slots are occupied.
    holey: Holey<T>,
    /// Bit `i` set iff slot `i` is `Occupied`. Exactly `ceil(slots / 64)` words; bits past the
    /// last slot are zero. The iterators rely on this to index slots only at occupied
    /// positions.
    live: Vec<u64>,
}

impl<T: 'static> IdTable<T> for HoleySkip<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "holey_skip",
            description: "array with holes (as holey) plus a live-slot bitmask, so iteration visits only live slots, branch-free per slot",
            kind: DesignKind::Tuned,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            holey: Holey::new(),
            live: Vec::new(),
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        let id = self.holey.insert(value)?;
        let (word, mask) = bit_position(id.index() as usize);
        if word == self.live.len() {
            self.live.push(0);
        }
        self.live[word] |= mask;
        Ok(id)
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        self.holey.get(id)
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        self.holey.get_mut(id)
    }

    #[inline]
    fn remove(&mut self, id: Id64) -> Option<T> {
        let value = self.holey.remove(id)?;
        let (word, mask) = bit_position(id.index() as usize);
        self.live[word] &= !mask;
        Some(value)
    }

    fn len(&self) -> usize {
        self.holey.len()
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        LiveIter {
            words: self.holey.slots().chunks(WORD_BITS).zip(self.live.iter()),
            chunk: [].iter(),
            word: 0,
        }
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        LiveIterMut {
            words: self
                .holey
                .slots_mut()
                .chunks_mut(WORD_BITS)
                .zip(self.live.iter()),
            chunk: [].iter_mut(),
            word: 0,
        }
    }

    fn memory_bytes(&self) -> usize {
        self.holey.memory_bytes() + self.live.capacity() * std::mem::size_of::<u64>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.holey.check_invariants()?;
        let slots = self.holey.slots();
        if self.live.len() != slots.len().div_ceil(WORD_BITS) {
            return Err(format!(
                "{} live words for {} slots",
                self.live.len(),
                slots.len()
            ));
        }
        for i in 0..self.live.len() * WORD_BITS {
            let (word, mask) = bit_position(i);
            let marked = self.live[word] & mask != 0;
            let occupied = matches!(slots.get(i), Some(Slot::Occupied { .. }));
            if marked != occupied {
                return Err(format!(
                    "live bit of slot {i} is {marked}, occupied: {occupied}"
                ));
            }
        }
        Ok(())
    }
}

/// Writes an iterator over the live objects of a [`HoleySkip`]: one 64-slot chunk and its
/// `live` word at a time, stepping straight from one set bit to the next. The shared and the
/// mutable one differ only in the borrow they yield, so one body serves both; extra methods
/// (the shared one's `fold`) follow the name.
macro_rules! live_iter {
    (
        $(#[$doc:meta])*
        $name:ident over $chunks:ident of $iter:ident by $chunk_iter:ident yielding $item:ty;
        $($method:item)*
    ) => {
        $(#[$doc])*
        struct $name<'a, T> {
            /// The chunks (and their `live` words) not yet started.
            words: Zip<slice::$chunks<'a, Slot<T>>, slice::Iter<'a, u64>>,
            /// The current chunk, from the slot after the last one yielded.
            chunk: slice::$iter<'a, Slot<T>>,
            /// The current live word, shifted so bit 0 is `chunk`'s first slot.
            word: u64,
        }

        impl<'a, T> Iterator for $name<'a, T> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<$item> {
                while self.word == 0 {
                    let (chunk, &word) = self.words.next()?;
                    self.chunk = chunk.$chunk_iter();
                    self.word = word;
                }
                let skip = self.word.trailing_zeros();
                // Shift in two steps: `skip + 1` can be 64, which a single shift cannot
                // express.
                self.word = (self.word >> skip) >> 1;
                match self.chunk.nth(skip as usize) {
                    Some(Slot::Occupied { value, .. }) => Some(value),
                    _ => unreachable!("live bit set on a vacant slot"),
                }
            }

            $($method)*

            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.word.count_ones() as usize, None)
            }
        }
    };
}

live_iter! {
    /// The live objects, shared. `next` is safe code; `fold` (used by `sum`, `for_each`,
    /// `map(..).fold`, ...) skips the bounds and discriminant checks.
    LiveIter over Chunks of Iter by iter yielding &'a T;

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
                // Measured gain over the checked `chunk.get(i)` and match: 2.7 -> 2.15 ns
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
}

live_iter! {
    /// The live objects, mutably.
    LiveIterMut over ChunksMut of IterMut by iter_mut yielding &'a mut T;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::checks;

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

    /// The stated horizon (`StaleDetection::Never`): a slot whose generation would wrap is
    /// retired, as in `holey`, and the live bitmask stays in step.
    #[test]
    fn slot_is_retired_when_its_generation_would_wrap() {
        let t = checks::slot_is_retired_at_its_last_generation::<HoleySkip<u32>>(
            Id64::index,
            Id64::new(0, u32::MAX - 1),
            |t| t.holey.fast_forward_vacant(0, u32::MAX - 1),
        );
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [2]);
    }

    #[test]
    fn free_list_is_lifo() {
        checks::holes_are_reused_newest_first::<HoleySkip<u32>>([1, 2], Id64::index);
    }
}
