//! Peers: published ECS crates spawning the same levels into their own worlds (their own
//! entity allocators and storage), so they are marked as peers and compared with care.

pub mod hecs;
