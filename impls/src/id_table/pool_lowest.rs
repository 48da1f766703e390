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

use super::bits::{WORD_BITS, bit_position};
use super::pool_table::{FreeSlots, NIL, PoolSlot, PoolTable, slot_index};
use super::{DesignInfo, DesignKind, StaleDetection};
use crate::DesignMeta;
use crate::TableError;
use crate::id::Id64;

/// Pool with lowest-hole-first reuse, found through a two-level bitset; 64-bit IDs.
pub type PoolLowest<T> = PoolTable<T, LowestFree>;

/// The free set as a two-level bitset, with a cursor below which it holds no free slot. Every
/// slot's `next_free` stays `NIL`.
#[derive(Debug, Clone)]
pub struct LowestFree {
    /// Bit `i` set iff slot `i` is a hole that is not retired. Exactly `ceil(slots / 64)`
    /// words; bits past the last slot are zero.
    free_bits: Vec<u64>,
    /// Bit `j` set iff `free_bits[j] != 0`. Exactly `ceil(free_bits.len() / 64)` words.
    summary: Vec<u64>,
    /// Every `summary` word below this index is zero (words at or above it may be zero too).
    summary_cursor: usize,
}

impl LowestFree {
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

impl FreeSlots for LowestFree {
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
            free_bits: Vec::new(),
            summary: Vec::new(),
            summary_cursor: 0,
        }
    }

    #[inline(always)] // several call sites in the replay: see IdTable's doc
    fn insert<T>(table: &mut PoolTable<T, Self>, value: T) -> Result<Id64, TableError> {
        if let Some(i) = table.free.lowest_free() {
            table.free.mark_used(i);
            let generation = table.slots[i].occupy(value);
            table.len += 1;
            return Ok(Id64::new(i as u32, generation));
        }
        let index = slot_index(table.slots.len())?;
        table.slots.push(PoolSlot::fresh(value));
        let free = &mut table.free;
        if free.free_bits.len() * WORD_BITS < table.slots.len() {
            free.free_bits.push(0);
            if free.summary.len() * WORD_BITS < free.free_bits.len() {
                free.summary.push(0);
            }
        }
        table.len += 1;
        Ok(Id64::new(index, 0))
    }

    #[inline]
    fn release<T>(&mut self, _: &mut PoolSlot<T>, index: u32) {
        self.mark_free(index as usize);
    }

    fn memory_bytes(&self) -> usize {
        (self.free_bits.capacity() + self.summary.capacity()) * std::mem::size_of::<u64>()
    }

    fn check_invariants<T>(&self, slots: &[PoolSlot<T>]) -> Result<(), String> {
        if self.free_bits.len() != slots.len().div_ceil(WORD_BITS) {
            return Err(format!(
                "{} free_bits words for {} slots",
                self.free_bits.len(),
                slots.len()
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
            let reusable = slots.get(i).is_some_and(PoolSlot::is_reusable);
            if marked != reusable {
                return Err(format!(
                    "free bit of slot {i} is {marked}, slot reusable: {reusable}"
                ));
            }
            if let Some(slot) = slots.get(i)
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
    use crate::id_table::{IdTable, checks, pool_table};

    #[test]
    fn fills_the_lowest_hole_first() {
        checks::holes_are_refilled_lowest_first::<PoolLowest<u32>>(Id64::index);
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
        pool_table::slot_is_retired_when_its_generation_would_wrap::<LowestFree>();
    }
}
