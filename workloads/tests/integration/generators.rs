//! Every registered ID-table generator: valid traces at small and edge sizes, deterministic in
//! the seed, and shaped as its module doc says. (The block-allocator generators are checked in
//! `alloc_generators.rs`.)

use std::collections::HashMap;

use workloads::registry::{self, workloads_of};
use workloads::{IdTableOp, Trace, TraceOp};

const ID_TABLE: &str = <IdTableOp as TraceOp>::FAMILY;

/// The ID-table workloads (the tag family's are covered by `tests/tags_generators.rs`).
const SIZES: [usize; 4] = [1, 2, 10, 1000];

/// Workloads whose ops do not depend on the seed.
const SEEDLESS: [&str; 8] = [
    "fill",
    "iterate-full",
    "iterate-full-p8",
    "iterate-full-p128",
    "churn-hot",
    "churn-hot-stale",
    "lookup-key-order",
    "lookup-key-order-sorted",
];

fn generate(name: &str, n: usize, seed: u64) -> Trace<IdTableOp> {
    registry::generate(name, n, seed, None).unwrap_or_else(|e| panic!("{name} n={n}: {e}"))
}

#[test]
fn every_generator_validates_at_every_size_and_keeps_peak_live_bounded() {
    for w in workloads_of(ID_TABLE) {
        for n in SIZES {
            for seed in [0, 1, u64::MAX] {
                let t = generate(w.name, n, seed);
                let stats = t
                    .validate()
                    .unwrap_or_else(|e| panic!("{} n={n} seed={seed}: {e}", w.name));
                assert!(!t.body.is_empty(), "{} n={n}: empty body", w.name);
                if w.name == "iterate-holes" {
                    assert_eq!(stats.live_at_start, n as u64);
                    assert!(stats.peak_live <= 2 * n as u64);
                } else {
                    assert!(stats.peak_live <= n as u64, "{} n={n}: {stats:?}", w.name);
                }
                assert_eq!(t.header.generator, w.name);
                assert_eq!(t.header.n, n as u64);
                assert_eq!(t.header.seed, seed);
                crate::assert_header_params(&t, &w);
            }
        }
    }
}

#[test]
fn same_seed_gives_identical_bytes_and_different_seeds_different_ops() {
    for w in workloads_of(ID_TABLE) {
        let seedless = SEEDLESS.contains(&w.name);
        crate::assert_seeded(&w, seedless, |seed| generate(w.name, 1000, seed));
    }
}

#[test]
fn lookup_bodies_are_read_only_gets_of_live_handles() {
    for name in ["lookup-uniform", "lookup-zipf"] {
        let t = generate(name, 1000, 3);
        assert_eq!(t.setup, vec![IdTableOp::Add; 1000]);
        assert_eq!(t.body.len(), 100_000);
        assert!(t.body.iter().all(|op| matches!(op, IdTableOp::Get(_))));
        assert!(t.body_is_read_only());
    }
}

#[test]
fn zipf_lookups_have_a_scattered_hot_set() {
    let t = generate("lookup-zipf", 1000, 5);
    let mut counts: HashMap<u32, u32> = HashMap::new();
    for op in &t.body {
        *counts.entry(op.handle().unwrap()).or_default() += 1;
    }
    let (&hottest, &top) = counts.iter().max_by_key(|&(h, c)| (c, h)).unwrap();
    // Harmonic(1000) ≈ 7.49: the hottest object gets ≈ 13% of 100k lookups.
    assert!((12_000..14_700).contains(&top), "{top}");
    assert_ne!(
        hottest, 0,
        "the hot set should not be the first objects created"
    );
    let uniform = generate("lookup-uniform", 1000, 5);
    let mut uniform_counts: HashMap<u32, u32> = HashMap::new();
    for op in &uniform.body {
        *uniform_counts.entry(op.handle().unwrap()).or_default() += 1;
    }
    assert!(*uniform_counts.values().max().unwrap() < 200);
}

#[test]
fn lookup_stale_replaces_the_removed_objects_and_looks_only_them_up() {
    let n = 1000;
    let t = generate("lookup-stale", n, 9);
    let removes: Vec<u32> = t
        .setup
        .iter()
        .filter_map(|op| match op {
            IdTableOp::Remove(h) => Some(*h),
            _ => None,
        })
        .collect();
    assert_eq!(removes.len(), n / 2);
    assert_eq!(
        t.setup.iter().filter(|op| **op == IdTableOp::Add).count(),
        n + n / 2
    );
    // The re-adds come after all removes, so freed slots are there to be reused.
    assert_eq!(
        &t.setup[n + n / 2..],
        vec![IdTableOp::Add; n / 2].as_slice()
    );
    let stats = t.validate().unwrap();
    assert_eq!((stats.live_at_start, stats.peak_live), (n as u64, n as u64));
    assert!(
        t.body
            .iter()
            .all(|op| matches!(op, IdTableOp::GetStale(h) if removes.contains(h)))
    );
    assert!(registry::needs_stale_detection("lookup-stale"));
    // n = 1 still has one stale handle.
    let t = generate("lookup-stale", 1, 0);
    assert_eq!(
        t.setup,
        vec![IdTableOp::Add, IdTableOp::Remove(0), IdTableOp::Add]
    );
}

#[test]
fn iterate_workloads_scale_passes_with_n() {
    for (n, passes) in [(1, 64), (1000, 64), (65_536, 16), (1 << 20, 1)] {
        let t = generate("iterate-full", n, 0);
        assert_eq!(t.body, vec![IdTableOp::Iterate; passes], "n={n}");
    }
    let t = generate("iterate-holes", 1000, 0);
    let stats = t.validate().unwrap();
    assert_eq!(t.handle_count(), 2000);
    assert_eq!((stats.live_at_start, stats.peak_live), (1000, 2000));
    assert_eq!(stats.iterated_objects, 64 * 1000);
}

#[test]
fn churn_hot_reuses_few_slots_with_short_lived_objects() {
    let n = 100;
    let t = generate("churn-hot", n, 0);
    assert_eq!(t.body.len(), 800_000);
    let stats = t.validate().unwrap();
    assert_eq!(
        (stats.live_at_start, stats.peak_live),
        (n as u64 - 1, n as u64)
    );
    // Step k adds handle n - 1 + k and removes the object added 4 steps before it.
    assert_eq!(
        &t.body[..2],
        &[IdTableOp::Add, IdTableOp::Remove(n as u32 - 5)]
    );
    assert_eq!(
        &t.body[8..10],
        &[IdTableOp::Add, IdTableOp::Remove(n as u32 - 1)]
    );
    let pure = registry::generate(
        "churn-hot",
        1,
        0,
        Some(&serde_json::json!({ "steps": 3, "window": 4 })),
    )
    .unwrap();
    assert_eq!(
        pure.body,
        vec![
            IdTableOp::Add,
            IdTableOp::Remove(0),
            IdTableOp::Add,
            IdTableOp::Remove(1),
            IdTableOp::Add,
            IdTableOp::Remove(2)
        ]
    );
}

#[test]
fn churn_and_frame_keep_n_live() {
    let t = generate("churn", 500, 1);
    let stats = t.validate().unwrap();
    assert_eq!((stats.adds, stats.removes), (100_000, 100_000));
    let t = generate("frame", 1000, 1);
    let stats = t.validate().unwrap();
    assert_eq!(stats.iterations, 10);
    assert_eq!(stats.iterated_objects, 10 * 1000);
    assert_eq!((stats.gets, stats.removes, stats.adds), (1000, 100, 100));
    assert!(t.body.contains(&IdTableOp::IterateMut));
}

#[test]
fn article_mix_is_about_80_10_10_and_stays_near_n() {
    let n = 1000;
    let t = generate("article-mix", n, 2);
    let stats = t.validate().unwrap();
    assert_eq!(t.body.len(), 100_000);
    assert!((79_000..81_000).contains(&stats.gets), "{stats:?}");
    assert!((9_000..11_000).contains(&stats.removes), "{stats:?}");
    assert!(stats.adds.abs_diff(stats.removes) <= 100, "{stats:?}");
    assert_eq!(stats.peak_live, n as u64);
}

#[test]
fn remove_random_removes_distinct_handles_in_scrambled_order() {
    let t = generate("remove-random", 1000, 4);
    let handles: Vec<u32> = t.body.iter().map(|op| op.handle().unwrap()).collect();
    assert_eq!(handles.len(), 500);
    assert!(t.body.iter().all(|op| matches!(op, IdTableOp::Remove(_))));
    let mut sorted = handles.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 500);
    assert_ne!(handles, sorted);
}
