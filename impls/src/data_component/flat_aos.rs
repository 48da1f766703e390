//! Step 2, flatten: `Vec<Entry { key, value }>` searched linearly (the article's
//! `std::vector<Entry>`), and its ablation kept sorted by key with a binary search ("we could
//! sort the entries and do a binary search, but ... it is probably not even worth bothering").
//!
//! Layout: one array of 32-byte entries (4-byte key, the value's type tag and a 16-byte boxed
//! slice; Rust's enum tag stands for the article's `DataType`). A search loads every entry it
//! passes, value included. Strings and arrays stay boxed, one allocation each.
//!
//! Cost: linear get/set/remove O(k) (remove swaps the last entry in); sorted get O(log k),
//! set/remove O(k) to keep the order. Allocations: the entry array's growth (doubling) plus one
//! per string or array.

use super::heap_value::HeapValue;
use super::{
    Entities, Key, KvDesignInfo, KvDesignKind, KvError, LocalComponent, SnapshotError, ValueRef,
    count_capacity_change, push_counted, serial,
};
use crate::DesignMeta;

/// One key and its value.
#[derive(Debug)]
pub struct Entry {
    key: Key,
    value: HeapValue,
}

/// One entity's entries; `SORTED`: kept in key order and binary-searched.
#[derive(Debug, Default)]
pub struct FlatComponent<const SORTED: bool> {
    /// Keys are distinct; ascending when `SORTED`.
    entries: Vec<Entry>,
}

/// The flat array with a linear search.
pub type FlatAos = Entities<FlatComponent<false>>;
/// The ablation: sorted, binary search.
pub type FlatSorted = Entities<FlatComponent<true>>;

impl<const SORTED: bool> FlatComponent<SORTED> {
    /// `Ok(index)` of `key`, or `Err(insertion point)` (the end when unsorted).
    #[inline]
    fn find(&self, key: Key) -> Result<usize, usize> {
        if SORTED {
            self.entries.binary_search_by_key(&key, |e| e.key)
        } else {
            self.entries
                .iter()
                .position(|e| e.key == key)
                .ok_or(self.entries.len())
        }
    }
}

impl<const SORTED: bool> LocalComponent for FlatComponent<SORTED> {
    const INFO: KvDesignInfo = if SORTED {
        KvDesignInfo {
            meta: DesignMeta {
                name: "flat_sorted",
                description: "Vec<Entry> kept sorted, binary search (the article's \"not even worth bothering\" ablation of step 2)",
                kind: KvDesignKind::Article,
            },
            bytes_per_entity_cap: None,
        }
    } else {
        KvDesignInfo {
            meta: DesignMeta {
                name: "flat_aos",
                description: "Vec<Entry{key, type, value}> with a linear search; strings boxed (the article's step 2)",
                kind: KvDesignKind::Article,
            },
            bytes_per_entity_cap: None,
        }
    };

    fn set(&mut self, key: Key, value: ValueRef<'_>, calls: &mut u64) -> Result<(), KvError> {
        let value = HeapValue::new(value, calls);
        match self.find(key) {
            Ok(i) => std::mem::replace(&mut self.entries[i].value, value).free(calls),
            Err(i) if SORTED => {
                let before = self.entries.capacity();
                self.entries.insert(i, Entry { key, value });
                count_capacity_change(before, self.entries.capacity(), calls);
            }
            Err(_) => push_counted(&mut self.entries, Entry { key, value }, calls),
        }
        Ok(())
    }

    #[inline]
    fn read<R>(&self, key: Key, f: impl FnOnce(Option<ValueRef<'_>>) -> R) -> R {
        f(self.lookup(key))
    }

    fn remove(&mut self, key: Key, calls: &mut u64) -> bool {
        let Ok(i) = self.find(key) else {
            return false;
        };
        let e = if SORTED {
            self.entries.remove(i)
        } else {
            self.entries.swap_remove(i)
        };
        e.value.free(calls);
        true
    }

    fn release(&mut self, calls: &mut u64) {
        let entries = std::mem::take(&mut self.entries);
        count_capacity_change(entries.capacity(), 0, calls);
        for e in entries {
            e.value.free(calls);
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn memory_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entry>()
            + self
                .entries
                .iter()
                .map(|e| e.value.heap_bytes())
                .sum::<usize>()
    }

    fn snapshot(&self, out: &mut Vec<u8>) {
        for e in &self.entries {
            serial::write_entry(out, e.key, e.value.as_ref());
        }
    }

    fn visit_snapshot(bytes: &[u8], f: impl FnMut(Key, ValueRef<'_>)) -> Result<(), SnapshotError> {
        serial::visit(bytes, f)
    }

    fn check_invariants(&self) -> Result<(), String> {
        for (i, e) in self.entries.iter().enumerate() {
            let later = &self.entries[i + 1..];
            if SORTED {
                if later.first().is_some_and(|n| n.key <= e.key) {
                    return Err(format!("entries out of order at {i}"));
                }
            } else if later.iter().any(|n| n.key == e.key) {
                return Err(format!("key {} held twice", e.key));
            }
        }
        Ok(())
    }
}

impl<const SORTED: bool> FlatComponent<SORTED> {
    /// The value of `key`.
    #[inline]
    fn lookup(&self, key: Key) -> Option<ValueRef<'_>> {
        let i = self.find(key).ok()?;
        Some(self.entries[i].value.as_ref())
    }
}
