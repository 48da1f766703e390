//! The article's "STL method": every object boxed on its own, a map from ID to box.
//!
//! `BTreeMapTable` is the article's `std::map<ID, Object *>` and `HashMapTable` its `hash_map`
//! variant ("slightly better performance, but that still leaves a lot of unnecessary pointer
//! chasing"). The ID is a plain 32-bit creation counter (`typedef unsigned ID`); it is unique per
//! creation, so a stale ID simply misses the map.
//!
//! Cost: the B-tree's insert, get and remove are O(log n) node walks, the hash map's O(1)
//! expected with one hash and a probe; both then chase a pointer to a heap box, and iteration
//! visits the boxes in map order, scattered over the heap. This is the baseline the article's
//! array designs are measured against (its quick test found the array with holes 40x faster).
//!
//! Difference from the article, stated: the article's counter wraps after 2^32 creations and
//! then hands out duplicate IDs. Here the counter is 64 bits wide and `insert` returns
//! [`TableError::IdSpaceExhausted`] once all 2^32 IDs `0..=u32::MAX` have been handed out, so an
//! ID is never reused.

use crate::DesignMeta;
use std::collections::{BTreeMap, HashMap};
use std::mem::size_of;

use super::{DesignInfo, DesignKind, IdTable, StaleDetection};
use crate::TableError;
use crate::hashing::FixedSipHash;

/// The creation counter both maps draw their IDs from.
#[derive(Debug, Clone, Default)]
struct IdCounter {
    /// The next ID to hand out. Invariant: `<= 2^32`; every key in the map is below it, and
    /// `2^32` means the ID space is used up.
    next: u64,
}

impl IdCounter {
    /// Takes the next ID, or fails once all 2^32 IDs have been handed out.
    fn take(&mut self) -> Result<u32, TableError> {
        let id = u32::try_from(self.next)
            .map_err(|_| TableError::IdSpaceExhausted { created: self.next })?;
        self.next += 1;
        Ok(id)
    }

    /// Checks that `key` was handed out by this counter.
    fn check_issued(&self, key: u32) -> Result<(), String> {
        if u64::from(key) < self.next {
            Ok(())
        } else {
            Err(format!(
                "key {key} was never handed out (next is {})",
                self.next
            ))
        }
    }
}

/// Estimated bytes of the B-tree nodes holding `len` entries of `(K, V)` in std's `BTreeMap`.
///
/// std's tree has `B = 6`: a node holds up to 11 keys and values, an internal node also 12
/// child pointers, and each node a parent pointer, its index in the parent and its length.
/// Counter keys are always appended at the right edge, where std splits a full node 6 | 1 | 4,
/// so a leaf ends up with about 6 entries plus one separator in its parent: about `len / 7`
/// leaves, and about one internal node per 6 leaves above them. Removal merges nodes that drop
/// below 5 entries, so the estimate holds within about 20% under churn. Allocator headers are
/// not counted.
fn btree_node_bytes<K, V>(len: usize) -> usize {
    const CAPACITY: usize = 11;
    let word = size_of::<usize>();
    let leaf = (word + 4 + CAPACITY * (size_of::<K>() + size_of::<V>())).next_multiple_of(word);
    let internal = leaf + (CAPACITY + 1) * word;
    let leaves = len.div_ceil(7);
    let internals = if leaves > 1 { leaves.div_ceil(6) } else { 0 };
    leaves * leaf + internals * internal
}

/// Bytes of the table behind a std `HashMap` of `(K, V)` with the given `capacity()`.
///
/// std's map (hashbrown) keeps a power-of-two number of buckets, at most 7/8 full (3 of 4 or
/// 7 of 8 for tiny tables), each an entry plus one control byte, and 16 trailing control bytes
/// for its SIMD group probe.
fn hash_table_bytes<K, V>(capacity: usize) -> usize {
    const GROUP_WIDTH: usize = 16;
    let buckets = match capacity {
        0 => return 0,
        1..8 => capacity + 1,
        _ => capacity / 7 * 8,
    };
    buckets * (size_of::<(K, V)>() + 1) + GROUP_WIDTH
}

/// Writes one of the STL-method designs: a table over the std map `Map` from the counter ID to
/// a boxed object, whose operations are the map's own calls on the boxes. The two designs
/// differ only in the map, its constructor, what the registry says of them and how their memory
/// and keys are accounted, which each call gives.
macro_rules! stl_method_table {
    (
        $(#[$doc:meta])*
        pub struct $table:ident<T>($map:ty = $new:expr);
        meta: $meta:expr,
        memory: |$memory_map:ident| $memory:expr,
        check_keys: |$check_map:ident, $ids:ident| $check:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $table<T> {
            /// Invariant: every key was handed out by `ids` and names a live object.
            map: $map,
            ids: IdCounter,
        }

        impl<T> $table<T> {
            /// Test hook: the next insert hands out `next` (so the exhaustion at 2^32 is
            /// reachable).
            #[cfg(test)]
            fn set_next_id(&mut self, next: u64) {
                self.ids.next = next;
            }
        }

        impl<T: 'static> IdTable<T> for $table<T> {
            type Id = u32;

            const INFO: DesignInfo = DesignInfo::new::<u32>($meta, StaleDetection::Never);

            fn new() -> Self {
                Self {
                    map: $new,
                    ids: IdCounter::default(),
                }
            }

            fn insert(&mut self, value: T) -> Result<u32, TableError> {
                let id = self.ids.take()?;
                self.map.insert(id, Box::new(value));
                Ok(id)
            }

            #[inline]
            fn get(&self, id: u32) -> Option<&T> {
                self.map.get(&id).map(|b| &**b)
            }

            #[inline]
            fn get_mut(&mut self, id: u32) -> Option<&mut T> {
                self.map.get_mut(&id).map(|b| &mut **b)
            }

            fn remove(&mut self, id: u32) -> Option<T> {
                self.map.remove(&id).map(|b| *b)
            }

            fn len(&self) -> usize {
                self.map.len()
            }

            fn iter(&self) -> impl Iterator<Item = &T> {
                self.map.values().map(|b| &**b)
            }

            fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
                self.map.values_mut().map(|b| &mut **b)
            }

            fn memory_bytes(&self) -> usize {
                let $memory_map = &self.map;
                $memory
            }

            fn check_invariants(&self) -> Result<(), String> {
                let ($check_map, $ids) = (&self.map, &self.ids);
                $check
            }
        }
    };
}

stl_method_table! {
    /// The article's `std::map<ID, Object *>`: a B-tree from a 32-bit counter ID to a boxed
    /// object.
    pub struct BTreeMapTable<T>(BTreeMap<u32, Box<T>> = BTreeMap::new());
    meta: DesignMeta {
        name: "map-btree",
        description: "article's STL method: std BTreeMap from a 32-bit counter ID to an individually boxed object",
        kind: DesignKind::Article,
    },
    // An estimate: B-tree nodes (see `btree_node_bytes`) plus one box per object.
    memory: |map| btree_node_bytes::<u32, Box<T>>(map.len()) + map.len() * size_of::<T>(),
    // The keys are ordered: the largest was handed out last.
    check_keys: |map, ids| match map.last_key_value() {
        Some((&key, _)) => ids.check_issued(key),
        None => Ok(()),
    },
}

stl_method_table! {
    /// The article's `hash_map` variant: std's `HashMap` (SipHash-1-3, fixed keys) from a
    /// 32-bit counter ID to a boxed object.
    pub struct HashMapTable<T>(HashMap<u32, Box<T>, FixedSipHash> = HashMap::default());
    meta: DesignMeta {
        name: "map-hash",
        description: "article's hash_map variant of the STL method: std HashMap (SipHash-1-3, fixed keys) from a 32-bit counter ID to an individually boxed object",
        kind: DesignKind::Article,
    },
    // The bucket array (see `hash_table_bytes`) plus one box per object.
    memory: |map| hash_table_bytes::<u32, Box<T>>(map.capacity()) + map.len() * size_of::<T>(),
    check_keys: |map, ids| map.keys().try_for_each(|&key| ids.check_issued(key)),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids_run_out_at_the_top_of_the_u32_range<D: IdTable<u32, Id = u32>>(
        set_next_id: fn(&mut D, u64),
    ) {
        let mut t = D::new();
        let early = t.insert(7).unwrap();
        set_next_id(&mut t, u64::from(u32::MAX) - 1);
        assert_eq!(t.insert(1), Ok(u32::MAX - 1));
        assert_eq!(t.insert(2), Ok(u32::MAX));
        let created = 1 << 32;
        assert_eq!(t.insert(3), Err(TableError::IdSpaceExhausted { created }));
        assert_eq!(t.remove(u32::MAX), Some(2));
        // Freeing an object frees no ID: the counter never wraps back to 0 or to `early`.
        assert_eq!(t.insert(4), Err(TableError::IdSpaceExhausted { created }));
        assert_eq!(t.get(early), Some(&7));
        assert_eq!(t.len(), 2);
        t.check_invariants().unwrap();
    }

    #[test]
    fn btree_ids_run_out_instead_of_wrapping() {
        ids_run_out_at_the_top_of_the_u32_range::<BTreeMapTable<u32>>(BTreeMapTable::set_next_id);
    }

    #[test]
    fn hash_ids_run_out_instead_of_wrapping() {
        ids_run_out_at_the_top_of_the_u32_range::<HashMapTable<u32>>(HashMapTable::set_next_id);
    }

    #[test]
    fn ids_are_a_counter_never_reused() {
        let mut t = HashMapTable::<u32>::new();
        let a = t.insert(0).unwrap();
        t.remove(a).unwrap();
        let b = t.insert(1).unwrap();
        assert_eq!((a, b), (0, 1));
        assert_eq!(t.get(a), None);
    }

    #[test]
    fn check_invariants_catches_a_key_never_handed_out() {
        let mut t = BTreeMapTable::<u32>::new();
        t.insert(0).unwrap();
        t.map.insert(5, Box::new(5));
        assert!(t.check_invariants().is_err());
    }

    #[test]
    fn memory_estimates_grow_with_the_objects() {
        assert_eq!(hash_table_bytes::<u32, Box<u64>>(0), 0);
        // 3 of 4 buckets, 7 of 8, then 7/8 of a power of two; 16-byte entries.
        assert_eq!(hash_table_bytes::<u32, Box<u64>>(3), 4 * 17 + 16);
        assert_eq!(hash_table_bytes::<u32, Box<u64>>(7), 8 * 17 + 16);
        assert_eq!(hash_table_bytes::<u32, Box<u64>>(14), 16 * 17 + 16);
        let mut t = BTreeMapTable::<[u64; 4]>::new();
        assert_eq!(t.memory_bytes(), 0);
        for _ in 0..700 {
            t.insert([0; 4]).unwrap();
        }
        // 100 leaves of 144 bytes (8 + 4 + 11 * 12), 17 internal nodes of 240, 700 boxes.
        assert_eq!(t.memory_bytes(), 100 * 144 + 17 * 240 + 700 * 32);
    }
}
