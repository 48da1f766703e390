//! Thin adapters putting published crates behind [`IdTable`](super::IdTable), one file each.
//!
//! Each adapter states its crate's per-slot layout and computes `memory_bytes` from it with a
//! private mirror type of the same shape (the crates keep their slot types private).

pub mod generational_arena;
pub mod slab;
pub mod slotmap;
pub mod slotmap_dense;
pub mod slotmap_hop;
pub mod thunderdome;
