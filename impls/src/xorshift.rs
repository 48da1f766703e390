//! xorshift64 (Marsaglia, "Xorshift RNGs", 2003, shifts 13, 7, 17): the small deterministic
//! generator that `game_objects`' shuffles, the locking family's script work and the tests'
//! churn sequences draw from, so a run needs no random-number dependency and repeats exactly.

/// One xorshift64 step of `x` (nonzero in, nonzero out).
#[inline(always)]
pub const fn step(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

/// A xorshift64 generator whose state is its last value (start it from a nonzero seed).
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next value.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = step(self.0);
        self.0
    }

    /// The next value reduced to `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_are_marsaglias_and_never_reach_zero() {
        // The first value from seed 1 under shifts (13, 7, 17), worked by hand:
        // 1 ^ 1 << 13 = 0x2001; ^ >> 7 = 0x2041; ^ << 17 = 0x4082_2041.
        assert_eq!(step(1), 0x4082_2041);
        let mut rng = XorShift(1);
        for _ in 0..10_000 {
            assert_ne!(rng.next_u64(), 0);
            assert!(rng.below(7) < 7);
        }
    }
}
