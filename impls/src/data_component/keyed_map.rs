//! The plumbing shared by the designs that keep one entity's data in a standard map from key
//! to [`HeapValue`] (`map_hashed`'s `BTreeMap`, the `std_hashmap` peer's `HashMap`): a
//! [`KeyMap`] says how the map is used and how its allocations are counted and sized;
//! [`MapComponent`] is the one [`LocalComponent`] over any of them.

use std::fmt::Debug;

use super::heap_value::HeapValue;
use super::{Key, KvDesignInfo, KvError, LocalComponent, SnapshotError, ValueRef, serial};

/// A map from key to boxed value, as one design uses it.
pub trait KeyMap: Default + Debug {
    /// The registry record of the design.
    const INFO: KvDesignInfo;

    /// The value of `key`.
    fn get(&self, key: Key) -> Option<&HeapValue>;

    /// Inserts or replaces; the replaced value.
    fn insert(&mut self, key: Key, value: HeapValue) -> Option<HeapValue>;

    /// Removes; the removed value.
    fn remove(&mut self, key: Key) -> Option<HeapValue>;

    /// Entries held.
    fn len(&self) -> usize;

    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every entry, in the map's order.
    fn entries(&self) -> impl Iterator<Item = (Key, &HeapValue)>;

    /// Every value, taking them out.
    fn into_values(self) -> impl Iterator<Item = HeapValue>;

    /// What the map's own allocations depend on (its length for a B-tree, its capacity for a
    /// hash table), read before and after every change.
    fn shape(&self) -> usize;

    /// Counts the allocator calls of the map going from shape `before` to `after`.
    fn count_reshape(before: usize, after: usize, calls: &mut u64);

    /// Heap bytes of the map's own allocations (not the values' buffers).
    fn table_bytes(&self) -> usize;
}

/// The [`KeyMap`] methods of a newtype over a std map from key to [`HeapValue`] (`BTreeMap`,
/// `HashMap`): each answered by the map's own method of that name, so a design file says only
/// what differs, its record and how the map's allocations are counted and sized.
macro_rules! std_map_methods {
    () => {
        #[inline]
        fn get(&self, key: Key) -> Option<&HeapValue> {
            self.0.get(&key)
        }

        fn insert(&mut self, key: Key, value: HeapValue) -> Option<HeapValue> {
            self.0.insert(key, value)
        }

        fn remove(&mut self, key: Key) -> Option<HeapValue> {
            self.0.remove(&key)
        }

        fn len(&self) -> usize {
            self.0.len()
        }

        fn entries(&self) -> impl Iterator<Item = (Key, &HeapValue)> {
            self.0.iter().map(|(&k, v)| (k, v))
        }

        fn into_values(self) -> impl Iterator<Item = HeapValue> {
            self.0.into_values()
        }
    };
}
pub(crate) use std_map_methods;

/// One entity's data in a [`KeyMap`].
#[derive(Debug, Default)]
pub struct MapComponent<M: KeyMap> {
    map: M,
}

impl<M: KeyMap> LocalComponent for MapComponent<M> {
    const INFO: KvDesignInfo = M::INFO;

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let value = HeapValue::new(value, calls);
        let before = self.map.shape();
        if let Some(old) = self.map.insert(key, value) {
            old.free(calls);
        }
        M::count_reshape(before, self.map.shape(), calls);
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.map.get(key).map(HeapValue::as_ref))
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        let before = self.map.shape();
        let Some(old) = self.map.remove(key) else {
            return false;
        };
        old.free(calls);
        M::count_reshape(before, self.map.shape(), calls);
        true
    }

    fn release(&mut self, calls: &mut u64) {
        let map = std::mem::take(&mut self.map);
        M::count_reshape(map.shape(), 0, calls);
        for v in map.into_values() {
            v.free(calls);
        }
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn memory_bytes(&self) -> usize {
        self.map.table_bytes()
            + self
                .map
                .entries()
                .map(|(_, v)| v.heap_bytes())
                .sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        for (k, v) in self.map.entries() {
            serial::write_entry(out, k, v.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.map.entries().count() != self.map.len() {
            return Err("the map's length disagrees with its entries".into());
        }
        Ok(())
    }
}
