//! Thin adapters putting published crates behind [`IdTable`](super::IdTable), one file each.
//!
//! Each adapter states its crate's per-slot layout and computes `memory_bytes` from it with a
//! private mirror type of the same shape (the crates keep their slot types private).

/// Writes the [`IdTable`](super::IdTable) operations of an adapter whose crate's map (the
/// adapter's field `0`) already has each of them under its own name: `IdTable::insert` wraps
/// the crate's key in `Ok`, `get`, `get_mut` and `len` are the crate's, `remove` and `contains`
/// the crate's methods named in the call, and iteration the crate's `values()` /
/// `values_mut()` (`iterate: values`) or its `(key, value)` pairs with the key dropped
/// (`iterate: pairs`). Every operation is one call of the crate's own, so the adapter adds
/// nothing to the idiom its `DesignKind::Peer` states.
macro_rules! forward_to_the_crate {
    (id: $id:ty, new: $new:expr, remove: $remove:ident, contains: $contains:ident, iterate: $iterate:ident $(,)?) => {
        fn new() -> Self {
            Self($new)
        }

        #[inline]
        fn insert(&mut self, value: T) -> Result<$id, TableError> {
            Ok(self.0.insert(value))
        }

        #[inline]
        fn get(&self, id: $id) -> Option<&T> {
            self.0.get(id)
        }

        #[inline]
        fn get_mut(&mut self, id: $id) -> Option<&mut T> {
            self.0.get_mut(id)
        }

        #[inline]
        fn remove(&mut self, id: $id) -> Option<T> {
            self.0.$remove(id)
        }

        fn contains(&self, id: $id) -> bool {
            self.0.$contains(id)
        }

        fn len(&self) -> usize {
            self.0.len()
        }

        forward_to_the_crate!(@iterate $iterate);
    };
    (@iterate values) => {
        fn iter(&self) -> impl Iterator<Item = &T> {
            self.0.values()
        }

        fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
            self.0.values_mut()
        }
    };
    (@iterate pairs) => {
        fn iter(&self) -> impl Iterator<Item = &T> {
            self.0.iter().map(|(_, value)| value)
        }

        fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
            self.0.iter_mut().map(|(_, value)| value)
        }
    };
}

pub mod generational_arena;
pub mod slab;
pub mod slotmap;
pub mod slotmap_dense;
pub mod slotmap_hop;
pub mod thunderdome;
