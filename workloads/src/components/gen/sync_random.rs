//! `comp-sync-random`: `comp-sync` with the bone → node mapping a random permutation of the
//! nodes ("random access in a small contiguous memory area ... is still a lot better than
//! random access all over memory, because you will get fewer L2 cache misses").
//!
//! For the boxed object-oriented designs (`oop_objects`, `oop_fields`, `oop_pools`) the nodes'
//! data is "all over memory" only because those designs hand their boxes out from a shuffled
//! reserve (`impls/src/components/game_objects.rs`, `ScatteredBoxes`): this trace's setup
//! spawns and attaches every entity in order on a fresh heap, where boxes allocated one by one
//! would land one after the other and the "random" walk would cover a compact, ordered region.

use super::sync::{CompSyncParams, sync};
use crate::components::ComponentOp;
use crate::trace::Trace;

/// Registry name.
pub const NAME: &str = "comp-sync-random";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str = "comp-sync with the bone -> node mapping random";

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &CompSyncParams) -> Trace<ComponentOp> {
    sync(NAME, n, seed, params, true)
}
