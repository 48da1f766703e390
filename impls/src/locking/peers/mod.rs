//! Published crates as locking designs, each used as its documentation shows.

pub mod parking_lot;
