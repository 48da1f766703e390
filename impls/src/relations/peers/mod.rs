//! Relation indices built on published crates, each a thin adapter over the shared record
//! arena.

/// The accessors of a peer that keeps its records in a [`RecordArena`](super::arena::RecordArena)
/// and one `Index` per side (`by_a`, `by_b`): what the harness's `ref-direct-<peer>` loop
/// reads, and the parts it takes as its throwaway state.
macro_rules! records_and_two_indices {
    ($peer:ty) => {
        impl $peer {
            /// The records, by ID, for the harness's direct loop, which uses the crates directly.
            pub fn arena(&self) -> &RecordArena<()> {
                &self.arena
            }

            /// The map on `a`.
            pub fn by_a(&self) -> &Index {
                &self.by_a
            }

            /// The map on `b`.
            pub fn by_b(&self) -> &Index {
                &self.by_b
            }

            /// The records and both maps taken out of the index (a reference loop's throwaway
            /// state).
            pub fn into_parts(self) -> (RecordArena<()>, Index, Index) {
                (self.arena, self.by_a, self.by_b)
            }
        }
    };
}

pub mod hashbrown_smallvec;
pub mod multimap;
