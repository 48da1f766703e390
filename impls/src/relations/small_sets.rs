//! Tuned (`open_small_sets`): [`KeyedSets`]' two indices, each our own open-addressing table
//! whose bucket holds a key's set inline while it has at most [`INLINE`] IDs, so visiting a
//! small set is one probe and a read of the IDs beside the key, no pointer chased.
//!
//! Taken from the peer `hashbrown_smallvec` (`HashMap<u32, SmallVec<[u32; 4]>>`): sets of up
//! to four IDs inline in the bucket, larger ones on the heap, removal by a linear search and a
//! `swap_remove` (O(m) in the key's set, quadratic on the star, so capped at [`MAX_SET`]).
//! Taken from [`OpenFirstMap`](super::first_map::OpenFirstMap), the first map of
//! `intrusive_open`: one flat power-of-two array, the Fibonacci hash of the `u32` key, linear
//! probing, at most 7/8 full, and backward-shift deletion (no tombstones), through the helpers
//! both tables share.
//!
//! What differs from the peer: the table is ours, without hashbrown's control bytes (a probe
//! compares keys in the buckets themselves, one array read, where hashbrown reads a group of
//! control bytes and then the bucket) and with a multiply for a hash instead of foldhash. A
//! bucket is `{key, len, ids: [u32; 4]}`, 24 bytes, where hashbrown's holds a `(u32,
//! SmallVec<[u32; 4]>)` of 40 bytes plus its control byte (both sizes asserted by
//! `the_bucket_is_24_bytes_and_the_peers_40`): a table of fewer bytes per key. `len`
//! doubles as the occupancy mark (0: empty, since no key maps to an empty set), so every `u32`
//! can be a key, with no sentinel. A set that grows past four moves to a `Vec` in a side pool
//! and its bucket keeps the pool index in `ids[0]`.
//!
//! The spill rule: a set lives inline exactly when it has at most four IDs. A spilled set that
//! shrinks to four moves back into its bucket and its vector, emptied, goes to a free list
//! with its capacity, for the next set that spills; so a visit of any set of at most four
//! never leaves the bucket, and a set going back and forth across four copies four IDs each
//! way but allocates nothing once the pool has a vector. The peer's `SmallVec` stays on the
//! heap once spilled until its key empties (it moves back only on `shrink_to_fit`) and frees
//! it then; the pool instead keeps the largest capacity each of its vectors ever reached.
//!
//! Add is amortised O(1) (a probe, then an inline write or a push; the table doubles at 7/8),
//! remove O(m), visit O(m) after one probe, count O(1) (the bucket's `len`).

use crate::DesignMeta;

use super::first_map::{backward_shift, fibonacci_home};
use super::keyed_sets::{IdSets, KeyedSets};
use super::vec_of_vecs::MAX_SET;
use super::{Key, RecordId, RelationDesignInfo, RelationDesignKind};

/// The most IDs a bucket holds inline; a larger set spills to the pool.
pub const INLINE: usize = 4;

/// One bucket: a key and its set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Bucket {
    /// The key; meaningless while the bucket is empty.
    key: Key,
    /// The size of the key's set; 0 exactly when the bucket is empty.
    len: u32,
    /// `len <= INLINE`: the set, `ids[..len]`. `len > INLINE`: `ids[0]` is the index of the
    /// set's vector in the pool, the rest unused.
    ids: [RecordId; INLINE],
}

impl Bucket {
    #[inline]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn is_spilled(&self) -> bool {
        self.len as usize > INLINE
    }
}

/// One index: key → the IDs of its live records, sets of up to [`INLINE`] inline.
#[derive(Debug, Clone, Default)]
pub struct SmallSetsMap {
    /// Length zero or a power of two, at most 7/8 occupied. Invariant: every key sits at its
    /// home bucket or after it with no empty bucket between, once.
    buckets: Vec<Bucket>,
    /// Number of occupied buckets.
    len: usize,
    /// The spilled sets' vectors. Invariant: each is either the set of exactly one bucket
    /// (whose `ids[0]` names it and whose `len` is its length) or empty and in `free_spill`.
    spill: Vec<Vec<RecordId>>,
    /// Indices of the empty vectors in `spill`, reused (with their capacity) by the next set
    /// that spills.
    free_spill: Vec<u32>,
}

/// Two open-addressing indices of small inline sets over the records.
pub type OpenSmallSets = KeyedSets<SmallSetsMap>;

impl SmallSetsMap {
    /// The bucket holding `key` (`Ok`) or the empty bucket ending its probe run (`Err`), in a
    /// table with buckets.
    #[inline]
    fn probe(&self, key: Key) -> Result<usize, usize> {
        let mask = self.buckets.len() - 1;
        let mut i = fibonacci_home(u64::from(key), self.buckets.len());
        loop {
            let b = &self.buckets[i];
            if b.is_empty() {
                return Err(i);
            }
            if b.key == key {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The bucket holding `key`, if any.
    #[inline]
    fn find(&self, key: Key) -> Option<usize> {
        if self.buckets.is_empty() {
            return None;
        }
        self.probe(key).ok()
    }

    /// The bucket holding `key`, claimed for it (still with `len` 0, which the caller sets) if
    /// the key is new; the table doubles first when a new key would fill it past 7/8.
    #[inline]
    fn entry(&mut self, key: Key) -> usize {
        if self.buckets.is_empty() {
            self.grow();
        }
        let empty = match self.probe(key) {
            Ok(i) => return i,
            Err(_) if (self.len + 1) * 8 > self.buckets.len() * 7 => {
                self.grow();
                self.probe(key).expect_err("a new key")
            }
            Err(empty) => empty,
        };
        self.buckets[empty].key = key;
        self.len += 1;
        empty
    }

    /// Doubles the table (16 buckets at first) and reinserts every bucket whole: spilled sets
    /// keep their pool vectors.
    fn grow(&mut self) {
        let buckets = (self.buckets.len() * 2).max(16);
        let old = std::mem::replace(&mut self.buckets, vec![Bucket::default(); buckets]);
        for b in old.into_iter().filter(|b| !b.is_empty()) {
            let i = self.probe(b.key).expect_err("keys are distinct");
            self.buckets[i] = b;
        }
    }

    /// Empties bucket `hole`, whose set has just emptied, by backward shift.
    fn vacate(&mut self, hole: usize) {
        self.len -= 1;
        let mask = self.buckets.len() - 1;
        let hole = backward_shift(
            &mut self.buckets[..],
            mask,
            hole,
            |buckets, i| {
                let b = &buckets[i];
                (!b.is_empty()).then(|| fibonacci_home(u64::from(b.key), buckets.len()))
            },
            |buckets, from, to| buckets[to] = buckets[from],
        );
        self.buckets[hole].len = 0;
    }

    /// The set of the occupied bucket `i`: its inline IDs or its pool vector.
    #[inline]
    fn set_at(&self, i: usize) -> &[RecordId] {
        let b = &self.buckets[i];
        if b.is_spilled() {
            &self.spill[b.ids[0] as usize]
        } else {
            &b.ids[..b.len as usize]
        }
    }

    /// Moves the inline set of the full bucket `i` and `id` to a pool vector (a free one if
    /// any, with its capacity).
    fn spill_with(&mut self, i: usize, id: RecordId) {
        let slot = self.free_spill.pop().unwrap_or_else(|| {
            self.spill.push(Vec::new());
            u32::try_from(self.spill.len() - 1).expect("fewer spilled sets than records")
        });
        let b = &mut self.buckets[i];
        let ids = &mut self.spill[slot as usize];
        ids.extend_from_slice(&b.ids);
        ids.push(id);
        b.ids[0] = slot;
    }

    /// Checks the spill rule and the pool: a bucket spills exactly when its set has more than
    /// [`INLINE`] IDs (so an inline bucket needs no check), each spilled bucket names its own
    /// pool vector of its length, and every other vector is empty and free once.
    fn check_pool(&self) -> Result<(), String> {
        let mut claimed = vec![false; self.spill.len()];
        for b in self.buckets.iter().filter(|b| b.is_spilled()) {
            let slot = b.ids[0] as usize;
            let ids = self
                .spill
                .get(slot)
                .ok_or_else(|| format!("key {}: pool vector {slot} out of bounds", b.key))?;
            if ids.len() != b.len as usize {
                return Err(format!(
                    "key {}: len {} but its pool vector holds {}",
                    b.key,
                    b.len,
                    ids.len()
                ));
            }
            if std::mem::replace(&mut claimed[slot], true) {
                return Err(format!("key {}: pool vector {slot} has two owners", b.key));
            }
        }
        for &slot in &self.free_spill {
            let slot = slot as usize;
            match (claimed.get_mut(slot), self.spill.get(slot)) {
                (Some(c @ false), Some(ids)) if ids.is_empty() => *c = true,
                _ => {
                    return Err(format!(
                        "free pool vector {slot}: out of bounds, used or twice"
                    ));
                }
            }
        }
        match claimed.iter().position(|&c| !c) {
            Some(slot) => Err(format!("pool vector {slot} is neither used nor free")),
            None => Ok(()),
        }
    }
}

impl IdSets for SmallSetsMap {
    const INFO: RelationDesignInfo = RelationDesignInfo {
        meta: DesignMeta {
            name: "open_small_sets",
            description: "our map of small sets per index: intrusive_open's open addressing (Fibonacci hash, linear probing, backward-shift deletion) over 24-byte buckets holding sets of ≤ 4 IDs inline, larger sets in pooled Vecs; swap_remove by position",
            kind: RelationDesignKind::Tuned,
        },
        indexes_b: true,
        max_live_records: None,
        max_set_size: Some(MAX_SET),
    };

    #[inline]
    fn add(&mut self, key: Key, id: RecordId) {
        let i = self.entry(key);
        let n = self.buckets[i].len as usize;
        if n < INLINE {
            self.buckets[i].ids[n] = id;
        } else if n == INLINE {
            self.spill_with(i, id);
        } else {
            let slot = self.buckets[i].ids[0] as usize;
            self.spill[slot].push(id);
        }
        self.buckets[i].len += 1;
    }

    fn remove(&mut self, key: Key, id: RecordId) {
        let i = self.find(key).expect("indexed key");
        let b = &mut self.buckets[i];
        if b.is_spilled() {
            let slot = b.ids[0];
            let ids = &mut self.spill[slot as usize];
            let at = ids.iter().position(|&x| x == id).expect("indexed record");
            ids.swap_remove(at);
            b.len -= 1;
            if !b.is_spilled() {
                b.ids.copy_from_slice(ids);
                ids.clear();
                self.free_spill.push(slot);
            }
        } else {
            let last = b.len as usize - 1;
            let at = b.ids[..=last]
                .iter()
                .position(|&x| x == id)
                .expect("indexed record");
            b.ids[at] = b.ids[last];
            b.len -= 1;
            if b.is_empty() {
                self.vacate(i);
            }
        }
    }

    #[inline]
    fn for_each_id(&self, key: Key, mut f: impl FnMut(RecordId)) {
        if let Some(i) = self.find(key) {
            for &id in self.set_at(i) {
                f(id);
            }
        }
    }

    #[inline]
    fn first(&self, key: Key) -> Option<RecordId> {
        self.find(key).map(|i| self.set_at(i)[0])
    }

    fn count(&self, key: Key) -> usize {
        self.find(key).map_or(0, |i| self.buckets[i].len as usize)
    }

    fn pairs(&self) -> impl Iterator<Item = (Key, RecordId)> {
        (0..self.buckets.len())
            .filter(|&i| !self.buckets[i].is_empty())
            .flat_map(|i| {
                let key = self.buckets[i].key;
                self.set_at(i).iter().map(move |&id| (key, id))
            })
    }

    /// The bucket array, the pool (its vectors and their IDs) and its free list.
    fn bytes(&self) -> usize {
        self.buckets.capacity() * size_of::<Bucket>()
            + self.spill.capacity() * size_of::<Vec<RecordId>>()
            + self
                .spill
                .iter()
                .map(|ids| ids.capacity() * size_of::<RecordId>())
                .sum::<usize>()
            + self.free_spill.capacity() * size_of::<u32>()
    }

    fn check_layout(&self) -> Result<(), String> {
        let n = self.buckets.len();
        if n != 0 && !n.is_power_of_two() {
            return Err(format!("{n} buckets, not a power of two"));
        }
        let occupied = self.buckets.iter().filter(|b| !b.is_empty()).count();
        if occupied != self.len || occupied * 8 > n * 7 {
            return Err(format!(
                "{occupied} occupied buckets of {n}, len {}",
                self.len
            ));
        }
        for (i, b) in self.buckets.iter().enumerate() {
            if !b.is_empty() && self.find(b.key) != Some(i) {
                return Err(format!(
                    "key {} in bucket {i}: not found there by probing",
                    b.key
                ));
            }
        }
        self.check_pool()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relations::peers::hashbrown_smallvec::Ids;
    use std::collections::HashMap;

    /// The set of `key` in `map`, sorted.
    fn set_of(map: &SmallSetsMap, key: Key) -> Vec<RecordId> {
        let mut ids = Vec::new();
        map.for_each_id(key, |id| ids.push(id));
        ids.sort_unstable();
        ids
    }

    #[test]
    fn the_bucket_is_24_bytes_and_the_peers_40() {
        assert_eq!(size_of::<Bucket>(), 24);
        // smallvec without its `union` feature: an enum of the inline array and the heap
        // pointer and length, beside the capacity.
        assert_eq!(size_of::<Ids>(), 32);
        assert_eq!(size_of::<(Key, Ids)>(), 40);
    }

    /// Seeded churn against `HashMap<u32, Vec<u32>>`: a growing phase, then a shrinking one, on
    /// keys that include 0 and `u32::MAX`, so sets cross four both ways and the table grows
    /// and shifts buckets back.
    #[test]
    fn agrees_with_a_map_of_vecs_under_churn() {
        let mut map = SmallSetsMap::default();
        let mut model: HashMap<Key, Vec<RecordId>> = HashMap::new();
        let (mut spills, mut returns) = (0, 0);
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let steps = 40_000u32;
        for step in 0..steps {
            x = crate::xorshift::step(x);
            let key = match x % 16 {
                0 => 0,
                1 => Key::MAX,
                r => ((x >> 8) % 300) as Key + (r as Key & 1) * 0x8000_0000,
            };
            let adding_share = if step < steps / 2 { 6 } else { 4 };
            let set = model.entry(key).or_default();
            if set.is_empty() || (x >> 40) % 10 < adding_share {
                map.add(key, step);
                set.push(step);
                spills += usize::from(set.len() == INLINE + 1);
            } else {
                let id = set.swap_remove((x >> 20) as usize % set.len());
                map.remove(key, id);
                returns += usize::from(set.len() == INLINE);
            }
            set.sort_unstable();
            assert_eq!(set_of(&map, key), *set, "step {step}, key {key}");
            assert_eq!(map.count(key), set.len());
            assert_eq!(map.first(key).is_some(), !set.is_empty());
            assert!(map.first(key).is_none_or(|id| set.contains(&id)));
            if set.is_empty() {
                model.remove(&key);
            }
            if step % 1000 == 0 {
                map.check_layout().unwrap();
            }
        }
        map.check_layout().unwrap();
        assert!(
            spills > 100 && returns > 100,
            "{spills} spills, {returns} returns"
        );
        let mut pairs: Vec<_> = map.pairs().collect();
        pairs.sort_unstable();
        let mut want: Vec<_> = model
            .iter()
            .flat_map(|(&k, ids)| ids.iter().map(move |&id| (k, id)))
            .collect();
        want.sort_unstable();
        assert_eq!(pairs, want);
    }

    /// A set spilled and shrunk back leaves its vector, with its capacity, for the next spill.
    #[test]
    fn a_set_shrinking_to_four_moves_back_inline() {
        let mut map = SmallSetsMap::default();
        for id in 0..6 {
            map.add(Key::MAX, id);
        }
        assert_eq!(map.spill.len(), 1);
        map.remove(Key::MAX, 0);
        map.remove(Key::MAX, 5);
        assert!(!map.buckets[map.find(Key::MAX).unwrap()].is_spilled());
        assert_eq!(set_of(&map, Key::MAX), [1, 2, 3, 4]);
        assert_eq!(map.free_spill, [0]);
        map.check_layout().unwrap();
        for id in 10..15 {
            map.add(0, id);
        }
        assert_eq!((map.spill.len(), map.free_spill.len()), (1, 0));
        assert_eq!(set_of(&map, 0), [10, 11, 12, 13, 14]);
        map.check_layout().unwrap();
    }
}
