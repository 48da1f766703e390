//! Errors a user of a table can cause. Programming mistakes inside a design are bugs and are
//! caught by `check_invariants`; these are the failures that are part of a design's contract.

use thiserror::Error;

/// A failure of [`IdTable::insert`](crate::id_table::IdTable::insert).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// A fixed-capacity table already holds `capacity` live objects.
    #[error("table is full: it holds its capacity of {capacity} live objects")]
    Full {
        /// The most live objects the table can hold.
        capacity: usize,
    },
    /// The ID space is used up: every further ID could collide with one already handed out
    /// (for example a 32-bit creation counter that would wrap around).
    #[error("ID space exhausted after {created} creations: a new ID could equal an old one")]
    IdSpaceExhausted {
        /// How many IDs the table handed out before it refused.
        created: u64,
    },
}
