//! Data-oriented storage designs measured by dodbench.
//!
//! Each family of designs is one trait plus one file per design:
//!
//! * [`id_table`]: ID lookup tables (the BitSquid "ID lookup table" article and the
//!   stable-pointer pool articles): insert an object, get an ID back, look it up, remove it,
//!   iterate the live objects. See [`id_table::IdTable`] for the contract and
//!   [`id_table::registry`] for the list every benchmark, test and report iterates over.
//! * [`tags`]: per-entity lists of `u32` tags (the BitSquid "Arrays of Arrays" article): the
//!   `Vec<Vec<u32>>` baseline against fixed records, linked nodes and linked chunks in one
//!   buffer, and power-of-two arrays from a buddy-allocated arena. See [`tags::TagStore`] and
//!   [`tags::registry`].
//! * [`alloc`]: block allocators over one arena (the buddy allocator of "Allocation
//!   Adventures 3", its ablations and published peers). See [`alloc::BlockAllocator`] and
//!   [`alloc::registry`].
//! * [`relations`]: one-to-many indices over a bulk array of records ("Data Structures Part 2:
//!   Indices"): the article's hash → first record plus intrusive cyclic lists against brute
//!   force, arrays of arrays, multimaps and peers. See [`relations::RelationIndex`] and
//!   [`relations::registry`]. Its lists are [`intrusive_list`], shared with other families.
//!
//! * [`spatial`]: radius queries over points in 2D and 3D (the "Fuzzy hashing" section of
//!   "Data Structures Part 2: Indices"): the article's hashed grid with per-cell intrusive
//!   lists, its XOR-key and cell-size ablations, brute force, sorted-by-x, a dense grid and
//!   `flat_spatial`, `rstar`, `kiddo`. See [`spatial::SpatialIndex`].
//!
//! * [`spawn`]: entity resources and batched spawning ("Building a Data-Oriented Entity
//!   System Part 4: Entity Resources"): nested, offset-table and grouped-by-type resources
//!   spawned entity by entity or in batches into one shared world, and `hecs`. See
//!   [`spawn::Spawner`].
//!
//! * [`transforms`]: transform hierarchies (the BitSquid "Transform Component" article):
//!   immediate against deferred world updates, flag scan against a dirty list kept by
//!   swapping, an object tree and a published arena tree. See [`transforms::TransformStore`].
//!
//! * [`components`]: component managers (the BitSquid "Building a Data-Oriented Entity System
//!   Part 2: Components" article): the point-mass component in one buffer of SoA arrays, its
//!   three entity → instance maps, its GC, ablations and ECS crates. See
//!   [`components::ComponentStore`] and [`components::registry`].
//!
//! * [`locking`]: gameplay jobs on several threads against one shared world (the BitSquid
//!   "Multithreaded Gameplay" post): per-call critical sections, API-level locks over a batch,
//!   actors, command buffers and published crates. See [`locking::GameplayRunner`].
//!
//! `impls` knows nothing of traces or benchmarks; `bench-harness` joins designs and workloads.
#![deny(missing_docs)]

pub mod alloc;
pub mod components;
pub mod data_component;
pub mod error;
pub mod hashing;
pub mod id;
pub mod id_table;
pub mod intrusive_list;
pub mod kind;
pub mod locking;
pub mod meta;
mod registry;
pub mod relations;
pub mod spatial;
pub mod spawn;
pub mod tags;
pub mod transforms;
pub mod xorshift;

pub use error::TableError;
pub use kind::DesignKind;
pub use meta::DesignMeta;
