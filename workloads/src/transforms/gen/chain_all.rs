//! `xf-chain-all`: chains of 64, every node moves each frame (SetLocal root to leaf): O(L^2) immediate vs O(L) deferred. Setup: `n` nodes as chains of `chain_len` (root first), `EndFrame`.
//! Body: `frames` × (every node's local, root to leaf, `EndFrame`, `GetWorld` of every chain's leaf).
//! `xf-chain-all-5` (the article's expected length) and `xf-chain-all-1024` (its O(n^2) worst
//! case) are this generator with other chain lengths (`preset!` lines in the family's `ENTRIES`).

use crate::generate::MAX_OPS;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{DEFAULT_FRAMES, chain_all};

crate::generate::workload! {
    /// chains of 64, every node moves each frame (SetLocal root to leaf): O(L^2) immediate vs O(L)
    /// deferred
    pub struct XfChainAllParams for "xf-chain-all" {
        /// Nodes per chain (the last chain may be shorter).
        pub chain_len: usize = 64, in 1..=(1 << 20),
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfChainAllParams) -> Trace<TransformOp> {
    chain_all(
        NAME,
        n,
        seed,
        params.chain_len,
        params.frames,
        false,
        params,
    )
}
