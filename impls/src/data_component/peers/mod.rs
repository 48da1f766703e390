//! Published crates behind the [`LocalComponent`](super::LocalComponent) trait, one file each.

pub mod hashmap;
pub mod litemap;
pub mod serde_json;
