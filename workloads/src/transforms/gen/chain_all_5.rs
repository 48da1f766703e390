//! `xf-chain-all-5`: chains of 5 (the article's expected length), every node moves each frame. Setup: `n` nodes as chains of `chain_len` (root first), `EndFrame`.
//! Body: `frames` × (every node's local, root to leaf, `EndFrame`, `GetWorld` of every chain's leaf).

use crate::generate::MAX_OPS;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{DEFAULT_FRAMES, chain_all};

/// Registry name.
pub const NAME: &str = "xf-chain-all-5";
/// One-line description for `dodbench list`.
pub const DESCRIPTION: &str =
    "chains of 5 (the article's expected length), every node moves each frame";

crate::workload_params! {
    /// Parameters of `xf-chain-all-5`.
    pub struct XfChainAll5Params {
        /// Nodes per chain (the last chain may be shorter).
        pub chain_len: usize = 5, in 1..=(1 << 20),
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfChainAll5Params) -> Trace<TransformOp> {
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
