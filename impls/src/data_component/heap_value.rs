//! A value owned on the heap the way the article's early steps keep it: scalars inline,
//! strings and float arrays each in their own allocation (`std::string *`,
//! `std::vector<float> *`). Shared by the designs of steps 1 to 4 and the `HashMap` peer.

use super::{ValueRef, count_capacity_change};

/// One value with its string or array in its own heap buffer.
#[derive(Debug, Clone, PartialEq)]
pub enum HeapValue {
    /// A boolean.
    Bool(bool),
    /// A float.
    F32(f32),
    /// A string's bytes, one allocation (none when empty).
    Str(Box<[u8]>),
    /// An array of floats, one allocation (none when empty).
    F32s(Box<[f32]>),
}

impl HeapValue {
    /// An owned copy of `value`, counting its allocation.
    pub fn new(value: ValueRef<'_>, calls: &mut u64) -> Self {
        let v = match value {
            ValueRef::Bool(b) => HeapValue::Bool(b),
            ValueRef::F32(f) => HeapValue::F32(f),
            ValueRef::Str(s) => HeapValue::Str(s.into()),
            ValueRef::F32s(bytes) => HeapValue::F32s(
                bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_ne_bytes(c.try_into().expect("4 bytes")))
                    .collect(),
            ),
        };
        count_capacity_change(0, v.heap_bytes(), calls);
        v
    }

    /// The value as handed out.
    #[inline]
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            HeapValue::Bool(b) => ValueRef::Bool(*b),
            HeapValue::F32(f) => ValueRef::F32(*f),
            HeapValue::Str(s) => ValueRef::Str(s),
            HeapValue::F32s(a) => ValueRef::F32s(bytemuck::cast_slice(a)),
        }
    }

    /// Bytes of its own heap buffer.
    pub fn heap_bytes(&self) -> usize {
        match self {
            HeapValue::Bool(_) | HeapValue::F32(_) => 0,
            HeapValue::Str(s) => s.len(),
            HeapValue::F32s(a) => a.len() * 4,
        }
    }

    /// Drops the value, counting the free of its buffer.
    pub fn free(self, calls: &mut u64) {
        count_capacity_change(self.heap_bytes(), 0, calls);
    }
}

/// Estimated B-tree nodes of a `BTreeMap` with `len` entries (std's nodes hold up to 11; after
/// splits leaves are about two-thirds full, so one leaf per 8 entries past the first node, and
/// one internal node per 8 leaves). `std` does not expose its node count; designs built on
/// `BTreeMap` count one allocator call per change of this estimate.
pub const fn btree_nodes(len: usize) -> usize {
    match len {
        0 => 0,
        1..=11 => 1,
        _ => {
            let leaves = len.div_ceil(8);
            leaves + leaves.div_ceil(8)
        }
    }
}

/// Estimated heap bytes of a `BTreeMap<K, V>` with `len` entries: [`btree_nodes`] nodes of 11
/// keys and values plus a parent pointer and lengths (internal nodes' edges ignored).
pub const fn btree_bytes(len: usize, key_bytes: usize, value_bytes: usize) -> usize {
    btree_nodes(len) * (11 * (key_bytes + value_bytes) + 16)
}

/// Counts the allocator calls of a B-tree going from `before` to `after` entries.
#[inline]
pub fn count_btree_change(before: usize, after: usize, calls: &mut u64) {
    *calls += btree_nodes(before).abs_diff(btree_nodes(after)) as u64;
}
