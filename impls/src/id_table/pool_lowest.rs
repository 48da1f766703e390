//! Stable-pointer pool that always fills the lowest hole first: the Blue Moon Games pool with the
//! article's sorted free list, so live objects stay packed towards the front.
//!
//! Same slots and IDs as `pool` (alive flag, generation, `Id64`: 32-bit index + 32-bit
//! generation). The article keeps the free indices in a vector sorted high to low (remove
//! O(log n) search plus an O(n) shifting insert, insert O(1) pop). We keep the free set as a
//! two-level bitset instead: one bit per slot (`free_bits`, 1 = reusable hole), one bit per
//! `free_bits` word (`summary`, 1 = word non-zero), and a cursor below which every summary word
//! is zero. Finding the lowest hole is a forward scan of the summary from the cursor, then two
//! `trailing_zeros`.
//!
//! Cost: get O(1); remove O(1) (set two bits, maybe lower the cursor); insert O(1) plus the
//! summary scan, at most `n / 4096` words (245 words at 1M slots) and usually none, since the
//! cursor stays on the lowest non-zero summary word. The bitsets add 1 + 1/64 bits per slot.
//! Iteration walks every slot like `pool`, but after churn the live objects sit in the lowest
//! slots, so iteration over a table that shrank and regrew touches fewer, denser cache lines.
//!
//! Trade-off against `pool`: a few more instructions per insert/remove for the bit updates, and
//! lowest-first reuse concentrates reuse on the low slots (their generations advance faster; a
//! slot is retired when its generation would wrap, as in `pool`). The shared slot keeps its
//! `next_free` link unused (always `NIL`), which costs nothing for 8-aligned payloads (alignment
//! padding) and 4 bytes per slot for smaller ones.

use super::pool::{NIL, PoolSlot, slot_index};
use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// Bits per bitset word.
const WORD_BITS: usize = u64::BITS as usize;

/// Position of bit `i` in a bitset of `u64` words: the word, and the mask of the bit in it.
#[inline]
fn bit_position(i: usize) -> (usize, u64) {
    (i / WORD_BITS, 1 << (i % WORD_BITS))
}

/// Pool with lowest-hole-first reuse, found through a two-level bitset; 64-bit IDs.
#[derive(Debug, Clone)]
pub struct PoolLowest<T> {
    /// Invariant: alive slots == `len`; every `next_free` is `NIL`.
    slots: Vec<PoolSlot<T>>,
    /// Bit `i` set iff slot `i` is a hole that is not retired. Exactly `ceil(slots.len() / 64)`
    /// words; bits past `slots.len()` are zero.
    free_bits: Vec<u64>,
    /// Bit `j` set iff `free_bits[j] != 0`. Exactly `ceil(free_bits.len() / 64)` words.
    summary: Vec<u64>,
    /// Every `summary` word below this index is zero (words at or above it may be zero too).
    summary_cursor: usize,
    len: usize,
}

impl<T> PoolLowest<T> {
    /// The lowest reusable hole, or `None`. Moves the cursor up past zero summary words.
    fn lowest_free(&mut self) -> Option<usize> {
        while let Some(&summary_word) = self.summary.get(self.summary_cursor) {
            if summary_word != 0 {
                let word = self.summary_cursor * WORD_BITS + summary_word.trailing_zeros() as usize;
                let bit = self.free_bits[word].trailing_zeros() as usize;
                return Some(word * WORD_BITS + bit);
            }
            self.summary_cursor += 1;
        }
        None
    }

    /// Marks hole `i` reusable.
    fn mark_free(&mut self, i: usize) {
        let (word, mask) = bit_position(i);
        self.free_bits[word] |= mask;
        let (summary_word, summary_mask) = bit_position(word);
        self.summary[summary_word] |= summary_mask;
        self.summary_cursor = self.summary_cursor.min(summary_word);
    }

    /// Marks slot `i` no longer free (it is about to be occupied).
    fn mark_used(&mut self, i: usize) {
        let (word, mask) = bit_position(i);
        self.free_bits[word] &= !mask;
        if self.free_bits[word] == 0 {
            let (summary_word, summary_mask) = bit_position(word);
            self.summary[summary_word] &= !summary_mask;
        }
    }
}

impl<T: 'static> IdTable<T> for PoolLowest<T> {
    type Id = Id64;

    const INFO: DesignInfo = DesignInfo::new::<Id64>(
        DesignMeta {
            name: "pool_lowest",
            description: "stable-pointer pool filling the lowest hole first (two-level free bitset), alive flag per slot, 32-bit index + 32-bit generation",
            kind: DesignKind::Article,
        },
        StaleDetection::Never,
    );

    fn new() -> Self {
        Self {
            slots: Vec::new(),
            free_bits: Vec::new(),
            summary: Vec::new(),
            summary_cursor: 0,
            len: 0,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert(&mut self, value: T) -> Result<Id64, TableError> {
        if let Some(i) = self.lowest_free() {
            self.mark_used(i);
            let generation = self.slots[i].occupy(value);
            self.len += 1;
            return Ok(Id64::new(i as u32, generation));
        }
        let index = slot_index(self.slots.len())?;
        self.slots.push(PoolSlot::fresh(value));
        if self.free_bits.len() * WORD_BITS < self.slots.len() {
            self.free_bits.push(0);
            if self.summary.len() * WORD_BITS < self.free_bits.len() {
                self.summary.push(0);
            }
        }
        self.len += 1;
        Ok(Id64::new(index, 0))
    }

    #[inline]
    fn get(&self, id: Id64) -> Option<&T> {
        self.slots.get(id.index() as usize)?.get(id.generation())
    }

    #[inline]
    fn get_mut(&mut self, id: Id64) -> Option<&mut T> {
        self.slots
            .get_mut(id.index() as usize)?
            .get_mut(id.generation())
    }

    #[inline]
    fn remove(&mut self, id: Id64) -> Option<T> {
        let i = id.index() as usize;
        let slot = self.slots.get_mut(i)?;
        let value = slot.vacate(id.generation())?;
        if !slot.is_retired() {
            self.mark_free(i);
        }
        self.len -= 1;
        Some(value)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|slot| slot.value.as_ref())
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.slots.iter_mut().filter_map(|slot| slot.value.as_mut())
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<PoolSlot<T>>()
            + (self.free_bits.capacity() + self.summary.capacity()) * std::mem::size_of::<u64>()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let alive = self.slots.iter().filter(|s| s.is_alive()).count();
        if alive != self.len {
            return Err(format!("len {} but {} alive slots", self.len, alive));
        }
        if self.free_bits.len() != self.slots.len().div_ceil(WORD_BITS) {
            return Err(format!(
                "{} free_bits words for {} slots",
                self.free_bits.len(),
                self.slots.len()
            ));
        }
        if self.summary.len() != self.free_bits.len().div_ceil(WORD_BITS) {
            return Err(format!(
                "{} summary words for {} free_bits words",
                self.summary.len(),
                self.free_bits.len()
            ));
        }
        for i in 0..self.free_bits.len() * WORD_BITS {
            let (word, mask) = bit_position(i);
            let marked = self.free_bits[word] & mask != 0;
            let reusable = self
                .slots
                .get(i)
                .is_some_and(|s| !s.is_alive() && !s.is_retired());
            if marked != reusable {
                return Err(format!(
                    "free bit of slot {i} is {marked}, slot reusable: {reusable}"
                ));
            }
            if let Some(slot) = self.slots.get(i)
                && slot.next_free != NIL
            {
                return Err(format!("slot {i} has a free-list link"));
            }
        }
        for (word, &bits) in self.free_bits.iter().enumerate() {
            let (summary_word, summary_mask) = bit_position(word);
            if (self.summary[summary_word] & summary_mask != 0) != (bits != 0) {
                return Err(format!(
                    "summary bit of word {word} disagrees with the word"
                ));
            }
        }
        let padding = self.summary.len() * WORD_BITS - self.free_bits.len();
        if let Some(&last) = self.summary.last()
            && padding > 0
            && last >> (WORD_BITS - padding) != 0
        {
            return Err("summary bits set past the last word".to_owned());
        }
        if let Some(s) = self.summary[..self.summary_cursor.min(self.summary.len())]
            .iter()
            .position(|&w| w != 0)
        {
            return Err(format!(
                "summary word {s} is non-zero but below the cursor {}",
                self.summary_cursor
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::id_table::checks;
    use crate::id_table::pool::RETIRED;

    #[test]
    fn fills_the_lowest_hole_first() {
        let (mut t, ids) = checks::filled::<PoolLowest<u32>>(10);
        // The article's example: remove 3, 8, 5, 4; a LIFO list would refill 4, 5, 8, 3.
        for i in [3, 8, 5, 4] {
            t.remove(ids[i]).unwrap();
            t.check_invariants().unwrap();
        }
        let refilled: Vec<u32> = (0..5).map(|v| t.insert(v).unwrap().index()).collect();
        assert_eq!(refilled, [3, 4, 5, 8, 10]);
        t.check_invariants().unwrap();
    }

    #[test]
    fn finds_holes_across_words_and_summary_words() {
        let n = 3 * 4096 + 5;
        let (mut t, ids) = checks::filled::<PoolLowest<u32>>(n);
        let holes = [n as usize - 1, 9000, 4096, 70, 64];
        for &h in &holes {
            t.remove(ids[h]).unwrap();
        }
        t.check_invariants().unwrap();
        let mut expected = holes;
        expected.sort_unstable();
        for &h in &expected {
            assert_eq!(t.insert(0).unwrap().index() as usize, h);
            t.check_invariants().unwrap();
        }
        assert_eq!(t.insert(0).unwrap().index(), n);
        t.check_invariants().unwrap();
    }

    #[test]
    fn retired_slot_is_not_reused() {
        checks::slot_is_retired_at_its_last_generation::<PoolLowest<u32>>(
            Id64::index,
            Id64::new(0, RETIRED - 1),
            |t| t.slots[0].generation = RETIRED - 1,
        );
    }
}
