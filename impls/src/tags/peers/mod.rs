//! Thin adapters putting published crates behind [`TagStore`](super::TagStore), one file each.
//!
//! Both keep one inline-capacity vector per entity in an outer `Vec`, so they share the
//! `vec_of_vecs` shape; what they measure is the crate's small-vector layout.

pub mod arrayvec;
pub mod smallvec;
