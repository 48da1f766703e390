//! The workloads of the transform hierarchies ([`TransformOp`](crate::TransformOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry) (a `preset!` line is a workload of
//! its own made by another's generator with other defaults).
//!
//! Transform hierarchies ([`TransformOp`](crate::TransformOp); `n` is the node count; 10
//! frames; the forests have depth ≤ 5, about one node in eight a root; work units are one per
//! op but `ApplyBatch`):
//!
//! | workload               | setup (default params)                        | body per frame (default params)                            |
//! |------------------------|-----------------------------------------------|------------------------------------------------------------|
//! | `xf-chain-all`         | chains of 64                                  | SetLocal every node root to leaf, EndFrame, read each leaf |
//! | `xf-chain-all-5`       | chains of 5                                   | as `xf-chain-all`                                          |
//! | `xf-chain-all-1024`    | chains of 1024                                | as `xf-chain-all`                                          |
//! | `xf-chain-all-batch`   | chains of 64                                  | one BatchLocal run + ApplyBatch per chain, EndFrame, leaves |
//! | `xf-root-move`         | forest                                        | SetLocal every root, EndFrame, read 1 % random             |
//! | `xf-sparse-1pct`       | forest + 6 warm-up frames                     | SetLocal 1 % random, EndFrame, read them                   |
//! | `xf-persistent-movers` | forest, fixed 10 % movers, 6 warm-up frames   | SetLocal the movers, EndFrame, read a tenth of them        |
//! | `xf-reparent-churn`    | forest                                        | 1 % of n: SetParent / Destroy+Create / SetLocal, EndFrame, read 1 % |
//! | `xf-query`             | forest, EndFrame                              | 100K random GetWorld (no frames)                           |

pub mod chain_all;
pub mod chain_all_batch;
pub mod persistent_movers;
pub mod query;
pub mod reparent_churn;
pub mod root_move;
pub mod sparse_1pct;

use crate::generate::{Entry, entry, preset};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(chain_all, stale: false),
    preset!(chain_all, "xf-chain-all-5", r#"{"chain_len": 5}"#, "chains of 5 (the article's expected length), every node moves each frame", stale: false),
    preset!(chain_all, "xf-chain-all-1024", r#"{"chain_len": 1024}"#, "chains of 1024, every node moves each frame: the article's O(n^2) worst case", stale: false),
    entry!(chain_all_batch, stale: false),
    entry!(root_move, stale: false),
    entry!(sparse_1pct, stale: false),
    entry!(persistent_movers, stale: false),
    entry!(reparent_churn, stale: false),
    entry!(query, stale: false),
];
