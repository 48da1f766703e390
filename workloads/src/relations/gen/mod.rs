//! The workloads of the one-to-many indices ([`RelationOp`](crate::RelationOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry).
//!
//! One-to-many indices ([`RelationOp`](crate::RelationOp); `n` is the number of relations).
//! "Sets" is `builder.rs`'s `build_sets`: keys `0..k` with drawn set sizes (uniform 1..=7
//! unless said), observers uniform over the same `k` entities, added in shuffled order.
//!
//! | workload            | setup (default params)          | body (default params)                                      |
//! |---------------------|---------------------------------|------------------------------------------------------------|
//! | `idx-build`         | —                               | sets: `n` Add                                              |
//! | `idx-notify`        | sets (`layout`: scattered)      | 100K of 80% VisitByA, 10% Add, 10% Remove                  |
//! | `idx-first`         | sets                            | 100K FirstByA                                              |
//! | `idx-star`          | `n` records of one key          | remove all `n` in random order                             |
//! | `idx-entity-delete` | sets                            | `min(10K, k/10)` RemoveEntity of distinct entities         |
//! | `idx-heavy-tail`    | sets, 1% of keys 100..=1000     | as `idx-notify`                                            |
//! | `idx-churn`         | sets                            | 50K × (Remove random, Add)                                 |
//! | `idx-tags`          | `n/3` entities × 3 Zipf tags    | VisitByA common / rare tags in turn, about 1M records      |

pub mod build;
pub mod churn;
pub mod entity_delete;
pub mod first;
pub mod heavy_tail;
pub mod notify;
pub mod star;
pub mod tags;

use crate::generate::{Entry, entry};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(build, stale: false),
    entry!(notify, stale: false),
    entry!(first, stale: false),
    entry!(star, stale: false),
    entry!(entity_delete, stale: false),
    entry!(heavy_tail, stale: false),
    entry!(churn, stale: false),
    entry!(tags, stale: false),
];
