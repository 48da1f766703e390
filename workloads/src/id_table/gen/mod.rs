//! The workloads of the ID tables ([`IdTableOp`](crate::IdTableOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry) (a `preset!` line is a workload of
//! its own made by another's generator with other defaults).
//!
//! | workload         | setup (default params)            | body (default params)                            | body ops at n = 1K / 64K / 1M |
//! |------------------|-----------------------------------|--------------------------------------------------|-------------------------------|
//! | `fill`           | —                                 | `n` Add                                          | 1K / 64K / 1M                 |
//! | `lookup-uniform` | `n` Add                           | 100K uniform Get                                 | 100K                          |
//! | `lookup-zipf`    | `n` Add                           | 100K Zipf(1.0) Get, scattered hot set            | 100K                          |
//! | `lookup-stale`   | `n` Add, `n/2` Remove, `n/2` Add  | 100K GetStale of removed handles                 | 100K                          |
//! | `lookup-stale-pass` | as `lookup-stale`              | passes of GetStale over every removed handle, shuffled | 100K / 131K / 500K      |
//! | `lookup-stale-vacant` | `n` Add, `n/2` Remove        | as `lookup-stale-pass` (the slots stay free)     | 100K / 131K / 500K            |
//! | `remove-random`  | `n` Add                           | `n/2` Remove, random order                       | 500 / 32K / 512K              |
//! | `iterate-full`   | `n` Add                           | `clamp(ceil(1M/n), 1, 64)` Iterate               | 64 / 16 / 1 passes            |
//! | `iterate-holes`  | `2n` Add, `n` Remove              | as `iterate-full`                                | 64 / 16 / 1 passes            |
//! | `churn`          | `n` Add                           | 100K × (Remove random, Add)                      | 200K                          |
//! | `churn-hot`      | `n − 1` Add                       | 400K × (Add, Remove oldest of last 5)            | 800K                          |
//! | `frame`          | `n` Add                           | 10 × (IterateMut, `min(n/10, 10K)` Get, `n/100` Remove + Add) | 1.2K / 79K / 310K |
//! | `article-mix`    | `n` Add                           | 100K of 80% Get, 10% Remove, 10% Add             | 100K                          |

pub mod article_mix;
pub mod churn;
pub mod churn_hot;
pub mod churn_hot_stale;
pub mod fill;
pub mod frame;
pub mod iterate_full;
pub mod iterate_full_p8;
pub mod iterate_holes;
pub mod lookup_key_order;
pub mod lookup_key_order_sorted;
pub mod lookup_stale;
pub mod lookup_stale_pass;
pub mod lookup_stale_vacant;
pub mod lookup_uniform;
pub mod lookup_uniform_p8;
pub mod lookup_zipf;
pub mod remove_random;

use crate::generate::{Entry, entry, preset};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(fill, stale: false),
    entry!(lookup_uniform, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(lookup_uniform_p8, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    preset!(lookup_uniform_p8, "lookup-uniform-p128", r#"{"payload_bytes": 128}"#, "lookup-uniform with 128-byte objects", stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(lookup_key_order, stale: false),
    entry!(lookup_key_order_sorted, stale: false),
    entry!(lookup_zipf, stale: false),
    entry!(lookup_stale, stale: true),
    entry!(lookup_stale_pass, stale: true),
    entry!(lookup_stale_vacant, stale: true),
    entry!(remove_random, stale: false),
    entry!(iterate_full, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(iterate_full_p8, stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    preset!(iterate_full_p8, "iterate-full-p128", r#"{"payload_bytes": 128}"#, "iterate-full with 128-byte objects", stale: false, check: |_, p| crate::PayloadSize::check(p.payload_bytes)),
    entry!(iterate_holes, stale: false),
    entry!(churn, stale: false),
    entry!(churn_hot, stale: false),
    entry!(churn_hot_stale, stale: true),
    entry!(frame, stale: false, check: frame::check),
    entry!(article_mix, stale: false),
];
