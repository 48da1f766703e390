//! Relation indices built on published crates, each a thin adapter over the shared record
//! arena.

pub mod hashbrown_smallvec;
pub mod multimap;
