//! Every registered block-allocator workload (`alloc-*`): valid at small and edge sizes, peak
//! live within `n` (recorded traces aside), a round trip through the file format, and
//! deterministic in the seed.

use workloads::registry::{self, WorkloadInfo, workloads_of};
use workloads::{AllocOp, Trace, TraceOp, format};

const ALLOC: &str = <AllocOp as TraceOp>::FAMILY;

/// Workloads whose ops do not depend on the seed.
const SEEDLESS: [&str; 1] = ["alloc-every-other-leaf"];

fn generate(w: &WorkloadInfo, n: usize, seed: u64) -> Trace<AllocOp> {
    registry::generate_for::<AllocOp>(w.name, n, seed, None)
        .unwrap_or_else(|e| panic!("{} n={n}: {e}", w.name))
}

#[test]
fn the_alloc_family_has_its_workloads_all_named_alloc() {
    let all = workloads_of(ALLOC);
    assert_eq!(all.len(), 10);
    assert!(all.iter().all(|w| w.name.starts_with("alloc-")));
    assert_eq!(all.iter().filter(|w| w.recorded).count(), 6);
    assert!(matches!(
        registry::generate("alloc-random-mix", 10, 0, None),
        Err(registry::WorkloadError::WrongFamily { .. })
    ));
}

#[test]
fn every_alloc_workload_validates_and_keeps_peak_live_within_n() {
    for w in workloads_of(ALLOC) {
        for n in [1, 2, 10, 1000] {
            for seed in [0, 1, u64::MAX] {
                let t = generate(&w, n, seed);
                let stats = t
                    .validate()
                    .unwrap_or_else(|e| panic!("{} n={n} seed={seed}: {e}", w.name));
                assert!(!t.body.is_empty(), "{} n={n}: empty body", w.name);
                assert_eq!(t.header.generator, w.name);
                if w.recorded {
                    assert_eq!(t.header.n, stats.peak_live, "{}", w.name);
                } else {
                    assert!(stats.peak_live <= n as u64, "{} n={n}: {stats:?}", w.name);
                    assert_eq!((t.header.n, t.header.seed), (n as u64, seed));
                }
                let mut recorded: Vec<String> = t
                    .header
                    .params
                    .as_object()
                    .unwrap()
                    .keys()
                    .cloned()
                    .collect();
                let mut declared: Vec<String> =
                    w.params.iter().map(|p| p.name.to_string()).collect();
                recorded.sort_unstable();
                declared.sort_unstable();
                assert_eq!(recorded, declared, "{}: header params", w.name);
            }
        }
    }
}

#[test]
fn every_alloc_workload_round_trips_through_bytes() {
    for w in workloads_of(ALLOC) {
        for n in [1, 1000] {
            let t = generate(&w, n, 8);
            let bytes = format::to_bytes(&t).unwrap();
            assert_eq!(
                format::from_bytes::<AllocOp>(&bytes).unwrap(),
                t,
                "{}",
                w.name
            );
            let any = format::from_bytes_any(&bytes).unwrap();
            assert_eq!(any.family(), ALLOC);
        }
    }
}

#[test]
fn same_seed_gives_identical_bytes_and_different_seeds_different_ops() {
    for w in workloads_of(ALLOC) {
        let seedless = w.recorded || SEEDLESS.contains(&w.name);
        crate::assert_seeded(&w, seedless, |seed| generate(&w, 1000, seed));
    }
}

#[test]
fn bad_random_mix_size_range_names_the_fields() {
    let json = serde_json::json!({ "min_size_log2": 12, "max_size_log2": 10 });
    let err = registry::generate_any("alloc-random-mix", 10, 0, Some(&json)).unwrap_err();
    assert!(err.to_string().contains("min_size_log2"), "{err}");
}
