//! The "key → first record" map of the intrusive designs (the article's `chash32_t`, a
//! `u64 → u32` lookup): std's `HashMap` (SipHash, the article design as a Rust programmer would
//! write it) or [`OpenFirstMap`], a tuned open-addressing table in the spirit of `chash32`.
//! The intrusive designs are generic over it, so the ablation is one type parameter.
//! [`OpenFirstMap`]'s hash and backward-shift deletion are two helpers, which the buckets of
//! [`small_sets`](super::small_sets) use too.

use crate::hashing::{FixedSipHash, hash_map_bytes};
use std::collections::HashMap;

use super::{Key, RecordId};

/// A map from key to the first record of the key's cycle.
pub trait FirstMap: Default + Clone + std::fmt::Debug {
    /// Whether this is the tuned table (designs pick their registry entry by it).
    const TUNED: bool;
    /// The first record of `key`.
    fn get(&self, key: Key) -> Option<RecordId>;
    /// Sets (inserts or updates) the first record of `key`.
    fn set(&mut self, key: Key, first: RecordId);
    /// Removes `key`.
    fn remove(&mut self, key: Key);
    /// Number of keys.
    fn len(&self) -> usize;
    /// Whether no key is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Calls `f(key, first)` for every entry.
    fn for_each(&self, f: impl FnMut(Key, RecordId));
    /// Heap bytes held.
    fn memory_bytes(&self) -> usize;
}

/// std's `HashMap<u32, u32>` with its SipHash-1-3 hasher under fixed keys
/// (`DefaultHasher::new()`), not per-process random ones: the same algorithm, but the same
/// probe sequences in every run, so its simulated instruction counts are deterministic.
pub type StdFirstMap = HashMap<Key, RecordId, FixedSipHash>;

impl FirstMap for StdFirstMap {
    const TUNED: bool = false;

    #[inline]
    fn get(&self, key: Key) -> Option<RecordId> {
        HashMap::get(self, &key).copied()
    }

    #[inline]
    fn set(&mut self, key: Key, first: RecordId) {
        self.insert(key, first);
    }

    #[inline]
    fn remove(&mut self, key: Key) {
        HashMap::remove(self, &key);
    }

    fn len(&self) -> usize {
        HashMap::len(self)
    }

    fn for_each(&self, mut f: impl FnMut(Key, RecordId)) {
        for (&k, &v) in self {
            f(k, v);
        }
    }

    fn memory_bytes(&self) -> usize {
        hash_map_bytes::<Key, RecordId>(self.capacity())
    }
}

/// The home bucket of `key` in a table of `buckets` buckets (a power of two, at least 2):
/// Fibonacci hashing, the key times 2^64 / φ, whose top bits are the bucket. One multiply, and
/// consecutive keys land far apart, so a run of consecutive keys spreads over the table.
#[inline]
pub(crate) fn fibonacci_home(key: u64, buckets: usize) -> usize {
    let shift = 64 - buckets.trailing_zeros();
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize
}

/// Backward-shift deletion from a linear-probing table whose bucket `hole` has just been
/// vacated: moves each later member of the probe run into the hole when its home bucket is not
/// between the hole and it (cyclically), so no tombstone is left and every key stays reachable
/// from its home. Returns the bucket left empty, for the caller to mark.
///
/// `home(table, i)` is the home bucket of bucket `i`'s key, `None` when bucket `i` is empty
/// (the end of the run); `shift(table, from, to)` moves bucket `from`'s entry to `to`. The
/// table has a power-of-two number of buckets, `mask + 1`.
#[inline]
pub(crate) fn backward_shift<T: ?Sized>(
    table: &mut T,
    mask: usize,
    mut hole: usize,
    home: impl Fn(&T, usize) -> Option<usize>,
    mut shift: impl FnMut(&mut T, usize, usize),
) -> usize {
    let mut i = hole;
    loop {
        i = (i + 1) & mask;
        let Some(home) = home(table, i) else {
            return hole;
        };
        if (i.wrapping_sub(home) & mask) >= (i.wrapping_sub(hole) & mask) {
            shift(table, i, hole);
            hole = i;
        }
    }
}

/// Open addressing with linear probing over two flat arrays, `u64` keys (as `chash32`) with
/// [`OpenFirstMap::EMPTY`] marking a free bucket, a Fibonacci (multiplicative) hash, at most
/// 7/8 full, and backward-shift deletion (no tombstones, so probe runs stay short after churn).
///
/// Invariant: every key sits at its home bucket or after it with no empty bucket between
/// (probing from the home bucket finds it); `len` counts the non-empty buckets.
#[derive(Debug, Clone, Default)]
pub struct OpenFirstMap {
    /// `keys[i]`: the key in bucket `i`, or `EMPTY`. Length zero or a power of two.
    keys: Vec<u64>,
    /// `values[i]`: the first record of `keys[i]`.
    values: Vec<RecordId>,
    len: usize,
}

impl OpenFirstMap {
    /// The key of an empty bucket (no `u32` key widens to it).
    pub const EMPTY: u64 = u64::MAX;

    #[inline]
    fn home(&self, key: u64) -> usize {
        fibonacci_home(key, self.keys.len())
    }

    #[inline]
    fn find(&self, key: u64) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(i);
            }
            if k == Self::EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let buckets = (self.keys.len() * 2).max(16);
        let keys = std::mem::replace(&mut self.keys, vec![Self::EMPTY; buckets]);
        let values = std::mem::replace(&mut self.values, vec![0; buckets]);
        self.len = 0;
        for (k, v) in keys.into_iter().zip(values) {
            if k != Self::EMPTY {
                self.set(k as Key, v);
            }
        }
    }
}

impl FirstMap for OpenFirstMap {
    const TUNED: bool = true;

    #[inline]
    fn get(&self, key: Key) -> Option<RecordId> {
        self.find(u64::from(key)).map(|i| self.values[i])
    }

    #[inline]
    fn set(&mut self, key: Key, first: RecordId) {
        if (self.len + 1) * 8 > self.keys.len() * 7 {
            self.grow();
        }
        let key = u64::from(key);
        let mask = self.keys.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.keys[i];
            if k == key {
                self.values[i] = first;
                return;
            }
            if k == Self::EMPTY {
                self.keys[i] = key;
                self.values[i] = first;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn remove(&mut self, key: Key) {
        let Some(hole) = self.find(u64::from(key)) else {
            return;
        };
        self.len -= 1;
        let mask = self.keys.len() - 1;
        let hole = backward_shift(
            self,
            mask,
            hole,
            |map, i| (map.keys[i] != Self::EMPTY).then(|| map.home(map.keys[i])),
            |map, from, to| {
                map.keys[to] = map.keys[from];
                map.values[to] = map.values[from];
            },
        );
        self.keys[hole] = Self::EMPTY;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn for_each(&self, mut f: impl FnMut(Key, RecordId)) {
        for (&k, &v) in self.keys.iter().zip(&self.values) {
            if k != Self::EMPTY {
                f(k as Key, v);
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        self.keys.capacity() * size_of::<u64>() + self.values.capacity() * size_of::<RecordId>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_map_agrees_with_std_under_churn() {
        let mut open = OpenFirstMap::default();
        let mut std = StdFirstMap::default();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for step in 0..50_000u32 {
            x = crate::xorshift::step(x);
            let key = (x % 3000) as Key;
            if x % 3 == 0 {
                FirstMap::remove(&mut open, key);
                FirstMap::remove(&mut std, key);
            } else {
                open.set(key, step);
                std.set(key, step);
            }
            assert_eq!(FirstMap::get(&open, key), FirstMap::get(&std, key));
        }
        assert_eq!(FirstMap::len(&open), FirstMap::len(&std));
        let mut n = 0;
        open.for_each(|k, v| {
            n += 1;
            assert_eq!(FirstMap::get(&std, k), Some(v));
        });
        assert_eq!(n, FirstMap::len(&std));
        assert_eq!(FirstMap::get(&open, u32::MAX), None);
    }
}
