//! Published crates behind the [`Component`](super::Component) trait, one file each.

pub mod hashmap;
pub mod litemap;
pub mod serde_json;
