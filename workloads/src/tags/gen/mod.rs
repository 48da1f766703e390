//! The workloads of the tag stores ([`TagOp`](crate::TagOp) traces), one generator per file,
//! and `ENTRIES`, their lines of the [registry](crate::registry) (a `preset!` line is a workload of
//! its own made by another's generator with other defaults).
//!
//! The tag-store family ([`TagOp`](crate::TagOp) traces; `n` is the entity count). "Build"
//! is [`builder`](super::builder)'s interleaved build: entity `k` spawned with its first tag, then the
//! remaining tags in rounds over all entities in shuffled order. Tag counts are 3 per entity
//! (`constant-3`) or heavy-tailed (`heavy-tail`: 99% uniform 1..=4, 1% uniform 20..=100, mean
//! 3.075); work units count one per single-entity op and one per tag visited by `VisitAll`.
//!
//! | workload                    | setup (default params)                  | body (default params)                                  | body ops at n = 1K / 100K / 1M      |
//! |-----------------------------|-----------------------------------------|--------------------------------------------------------|-------------------------------------|
//! | `tags-build`                | —                                       | build `n` entities, 3 tags each                        | 4K / 400K / 4M                      |
//! | `tags-build-heavy`          | —                                       | build `n` entities, heavy tail                         | ≈ 4.1K / 408K / 4.1M                |
//! | `tags-visit-entity`         | build, 3 tags each                      | 100K VisitEntity of random entities                    | 100K                                |
//! | `tags-visit-all`            | build, 3 tags each                      | `clamp(ceil(1M/tags), 1, 64)` VisitAll                 | 64 / 4 / 1 passes (192K / 1.2M / 3M tags) |
//! | `tags-visit-all-heavy`      | build, heavy tail                       | as `tags-visit-all`                                    | 64 / 4 / 1 passes (≈ 197K / 1.2M / 3.1M tags) |
//! | `tags-visit-all-fragmented` | build, 3 tags each, amid `3n` Foreign (16..=256 B), ≈ half freed | as `tags-visit-all`                 | 64 / 4 / 1 passes                   |
//! | `tags-has`                  | build, 3 tags each                      | 100K HasTag, random entity, tag present half the time  | 100K                                |
//! | `tags-mutate`               | build, 3 tags each                      | 100K of 80% reads (HasTag, VisitEntity), 20% AddTag/RemoveTag | 100K                         |
//! | `tags-churn`                | build, 3 tags each                      | 50K × (Despawn random, Spawn, 3 AddTag)                | 250K                                |
//! | `tags-grow-long`            | 64 entities (`n` counts tags here)      | `n` AddTag onto the 64 in turn: lists grow to `n / 64` | 1K / 100K / 1M                      |

pub mod build;
pub mod build_heavy;
pub mod churn;
pub mod grow_long;
pub mod has;
pub mod mutate;
pub mod visit_all;
pub mod visit_all_fragmented;
pub mod visit_entity;

use crate::generate::{Entry, entry, preset, variant};

/// The family's workloads, in the order `dodbench list` shows them.
pub(crate) const ENTRIES: &[Entry] = &[
    entry!(build, stale: false),
    entry!(build_heavy, stale: false),
    entry!(visit_entity, stale: false),
    entry!(visit_all, stale: false),
    preset!(
        visit_all,
        "tags-visit-all-heavy",
        r#"{"tag_counts": "heavy-tail"}"#,
        "n entities with heavy-tailed tag counts (1% with 20-100); body of VisitAll passes",
        stale: false
    ),
    entry!(visit_all_fragmented, stale: false),
    entry!(has, stale: false),
    entry!(mutate, stale: false),
    // Points of its parameter sweep (default and full runs only).
    variant!(
        mutate,
        "tags-mutate-r0",
        r#"{"reads_per_write": 0}"#,
        "tags-mutate with writes only (the mutation-rate sweep)"
    ),
    variant!(
        mutate,
        "tags-mutate-r1",
        r#"{"reads_per_write": 1}"#,
        "tags-mutate with one read per write"
    ),
    variant!(
        mutate,
        "tags-mutate-r16",
        r#"{"reads_per_write": 16}"#,
        "tags-mutate with 16 reads per write"
    ),
    variant!(
        mutate,
        "tags-mutate-r64",
        r#"{"reads_per_write": 64}"#,
        "tags-mutate with 64 reads per write"
    ),
    entry!(churn, stale: false),
    entry!(grow_long, stale: false),
];
