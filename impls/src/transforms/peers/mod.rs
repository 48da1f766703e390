//! Thin adapters putting published crates behind [`TransformStore`](super::TransformStore),
//! one file each.
//!
//! `bevy_transform`'s propagation is not here: it needs `bevy_ecs` and its dependency tree
//! (hundreds of crates, minutes of build on the shared machine), beyond the family's budget.

pub mod indextree;
