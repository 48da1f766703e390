//! Hashing helpers every family that keeps a std or hashbrown map shares: a hasher whose
//! layout repeats from run to run, and the bytes such a map holds.

use std::hash::{BuildHasherDefault, DefaultHasher};
use std::mem::size_of;

/// std's SipHash-1-3 (`DefaultHasher::new()`) with fixed instead of per-process random keys:
/// the same algorithm, but the same probe sequences and table layout in every run, so every
/// simulated cache count is deterministic. The keys are the suite's own counters and
/// coordinates, so there is no hash-flooding input to defend against.
pub type FixedSipHash = BuildHasherDefault<DefaultHasher>;

/// Bytes a `std::collections::HashMap<K, V>` holds for `capacity`: hashbrown's layout, one
/// control byte plus one `(K, V)` per bucket, buckets the next power of two of `capacity * 8 /
/// 7`. Shared by every design that accounts for a std or hashbrown map.
pub(crate) fn hash_map_bytes<K, V>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        if capacity < 4 { 4 } else { 8 }
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    buckets * (size_of::<(K, V)>() + 1) + 16
}
