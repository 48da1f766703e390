//! Published crates behind thin [`SpatialIndex`](super::SpatialIndex) adapters. Each keeps the
//! positions by ID beside the crate's structure (the crates return their own handles or
//! stored items) and filters the crate's candidates with the family's [`within`](super::within),
//! asking the crate for a radius widened by [`search_radius`](super::search_radius): the
//! crates compare distances with their own rounding (and `flat_spatial` with `<`), and the
//! contract is the model's `<=` in a fixed `f32` order.

pub mod flat_spatial;
pub mod kiddo;
pub mod rstar;
