//! Published crates as locking designs, each used as its documentation shows.

pub mod crossbeam;
pub mod dashmap;
pub mod parking_lot;
pub mod rayon;
