//! `comp-sync-random`: `comp-sync` with the bone → node mapping a random permutation of the
//! nodes ("random access in a small contiguous memory area ... is still a lot better than
//! random access all over memory, because you will get fewer L2 cache misses").

use super::comp_sync::{CompSyncParams, sync};
use crate::component_op::ComponentOp;
use crate::trace::Trace;

/// Registry name.
pub const NAME: &str = "comp-sync-random";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str = "comp-sync with the bone -> node mapping random";

/// See the module doc.
pub fn generate(n: usize, seed: u64, params: &CompSyncParams) -> Trace<ComponentOp> {
    sync(NAME, n, seed, params, true)
}
