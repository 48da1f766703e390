//! Bit positions in bitsets of `u64` words, as the designs that keep one bit per slot address
//! them ([`holey_skip`](super::holey_skip)'s live mask, [`pool_lowest`](super::pool_lowest)'s
//! free set and its summary).

/// Bits per bitset word, and so slots per word.
pub(crate) const WORD_BITS: usize = u64::BITS as usize;

/// Position of bit `i` in a bitset of `u64` words: the word, and the mask of the bit in it.
#[inline]
pub(crate) fn bit_position(i: usize) -> (usize, u64) {
    (i / WORD_BITS, 1 << (i % WORD_BITS))
}
