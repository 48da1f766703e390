//! Thin adapters putting published crates behind [`IdTable`](super::IdTable), one file each.
//!
//! Each adapter states its crate's per-slot layout and computes `memory_bytes` from it with a
//! private mirror type of the same shape (the crates keep their slot types private).

/// Writes a peer adapter: the newtype over the crate's map (`pub struct Peer<T>(Map);`), the
/// two accessors that hand the map to the harness's `ref-direct-<peer>` loops (named and
/// documented in the call), and its [`IdTable`](super::IdTable) impl, in which every operation
/// is one call of the crate's own under its own name: `insert` wraps the crate's key in `Ok`,
/// `get`, `get_mut` and `len` are the crate's, `remove` and `contains` the crate's methods
/// named in the call, and iteration the crate's `values()` / `values_mut()` (`iterate:
/// values`) or its `(key, value)` pairs with the key dropped (`iterate: pairs`). So the adapter
/// adds nothing to the idiom its `DesignKind::Peer` states. The call gives the rest: the ID
/// type, the design's `meta` and stale-ID horizon, and `memory_bytes` from the crate's
/// capacity and the adapter's mirror of the crate's slot.
macro_rules! forward_to_the_crate {
    (
        $(#[$doc:meta])*
        pub struct $peer:ident<T>($map:ty);

        $(#[$read_doc:meta])*
        pub fn $read:ident(&self);

        $(#[$write_doc:meta])*
        pub fn $write:ident(&mut self);

        id: $id:ty,
        new: $new:expr,
        remove: $remove:ident,
        contains: $contains:ident,
        iterate: $iterate:ident,
        meta: $meta:expr,
        stale: $stale:expr,
        memory: |$crate_map:ident| $memory:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $peer<T>($map);

        impl<T> $peer<T> {
            $(#[$read_doc])*
            pub fn $read(&self) -> &$map {
                &self.0
            }

            $(#[$write_doc])*
            pub fn $write(&mut self) -> &mut $map {
                &mut self.0
            }
        }

        impl<T: 'static> $crate::id_table::IdTable<T> for $peer<T> {
            type Id = $id;

            const INFO: $crate::id_table::DesignInfo =
                $crate::id_table::DesignInfo::new::<$id>($meta, $stale);

            fn new() -> Self {
                Self($new)
            }

            #[inline]
            fn insert(&mut self, value: T) -> Result<$id, $crate::TableError> {
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

            fn memory_bytes(&self) -> usize {
                let $crate_map = &self.0;
                $memory
            }
        }
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

/// Writes a peer over one of the `slotmap` crate's three maps (`SlotMap`, `DenseSlotMap`,
/// `HopSlotMap`): they share the crate, its version, the key (`DefaultKey`, 32-bit index +
/// 32-bit version, whose version wraps after 2^31 reuses of one slot), the calls and so the
/// adapter's wording, so a peer names only its map, what it says of it and its memory formula.
macro_rules! slotmap_peer {
    (
        $(#[$doc:meta])*
        pub struct $peer:ident<T>($map:ident);
        name: $name:literal,
        description: $description:literal,
        idiom: $idiom:literal,
        docs: $docs:literal,
        memory: |$crate_map:ident| $memory:expr $(,)?
    ) => {
        forward_to_the_crate! {
            $(#[$doc])*
            pub struct $peer<T>($map<::slotmap::DefaultKey, T>);

            #[doc = concat!("The crate's map, for `ref-direct-", $name, "` on a body that only reads: it calls `", stringify!($map), "::get` and `values()` on it directly.")]
            pub fn map(&self);

            #[doc = concat!("The crate's map, mutably, for `ref-direct-", $name, "` on a body that writes: it calls `", stringify!($map), "::insert`, `get_mut`, `remove` and `values_mut()` on it directly.")]
            pub fn map_mut(&mut self);

            id: ::slotmap::DefaultKey,
            new: $map::new(),
            remove: remove,
            contains: contains_key,
            iterate: values,
            meta: $crate::DesignMeta {
                name: $name,
                description: $description,
                kind: $crate::id_table::DesignKind::Peer {
                    crate_name: "slotmap",
                    version: "1.1.1",
                    idiom: $idiom,
                    docs: $docs,
                    adapter: concat!("Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `", stringify!($map), "::get`/`get_mut`/`remove` on the crate's own `DefaultKey`, `insert` wraps its key in `Ok`, and `iter` is `values()`. No key conversion, side array or count is added."),
                },
            },
            stale: $crate::id_table::StaleDetection::UntilSlotReuses(1 << 31),
            memory: |$crate_map| $memory,
        }
    };
}

/// Writes a peer over a crate's `Arena<T>` (`generational_arena`, `thunderdome`): both arenas
/// take the crate's `Index`, iterate `(Index, &T)` pairs and have the same calls, so the idiom
/// and the adapter's wording are one; a peer names its crate, version, docs, stale-ID horizon
/// and memory formula.
macro_rules! arena_peer {
    (
        $(#[$doc:meta])*
        pub struct $peer:ident<T>($krate:ident::Arena);
        name: $name:literal,
        description: $description:literal,
        version: $version:literal,
        docs: $docs:literal,
        stale: $stale:expr,
        memory: |$crate_map:ident| $memory:expr $(,)?
    ) => {
        forward_to_the_crate! {
            $(#[$doc])*
            pub struct $peer<T>(::$krate::Arena<T>);

            #[doc = concat!("The crate's arena, for `ref-direct-", $name, "` on a body that only reads: it calls `Arena::get` and `iter()` on it directly.")]
            pub fn arena(&self);

            #[doc = concat!("The crate's arena, mutably, for `ref-direct-", $name, "` on a body that writes: it calls `Arena::insert`, `get_mut`, `remove` and `iter_mut()` on it directly.")]
            pub fn arena_mut(&mut self);

            id: ::$krate::Index,
            new: ::$krate::Arena::new(),
            remove: remove,
            contains: contains,
            iterate: pairs,
            meta: $crate::DesignMeta {
                name: $name,
                description: $description,
                kind: $crate::id_table::DesignKind::Peer {
                    crate_name: $name,
                    version: $version,
                    idiom: "Arena<T>: insert, get, get_mut, remove by Index; iter() / iter_mut() to iterate",
                    docs: $docs,
                    adapter: "Nothing beyond the idiom: `IdTable::get`/`get_mut`/`remove` are `Arena::get`/`get_mut`/`remove` on the crate's own `Index`, and `insert` wraps its `Index` in `Ok`. No key conversion, side array or count is added; `iter` only drops the index from each `(Index, &T)` pair.",
                },
            },
            stale: $stale,
            memory: |$crate_map| $memory,
        }
    };
}

pub mod generational_arena;
pub mod slab;
pub mod slotmap;
pub mod slotmap_dense;
pub mod slotmap_hop;
pub mod thunderdome;
