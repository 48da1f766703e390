//! `xf-chain-all-batch`: xf-chain-all through the batch API: one set_local_batch per chain per frame. Setup: `n` nodes as chains of `chain_len` (root first), `EndFrame`.
//! Body: `frames` × (every node's local, root to leaf, as one `BatchLocal` run + `ApplyBatch` per chain, `EndFrame`, `GetWorld` of every chain's leaf).

use crate::generate::MAX_OPS;
use crate::trace::Trace;
use crate::transforms::TransformOp;
use crate::transforms::builder::{DEFAULT_FRAMES, chain_all};

crate::generate::workload! {
    /// xf-chain-all through the batch API: one set_local_batch per chain per frame
    pub struct XfChainAllBatchParams for "xf-chain-all-batch" {
        /// Nodes per chain (the last chain may be shorter).
        pub chain_len: usize = 64, in 1..=(1 << 20),
        /// Frames in the body.
        pub frames: usize = DEFAULT_FRAMES, in 1..=MAX_OPS,
    }
}

/// See the module docs.
pub fn generate(n: usize, seed: u64, params: &XfChainAllBatchParams) -> Trace<TransformOp> {
    chain_all(NAME, n, seed, params.chain_len, params.frames, true, params)
}
