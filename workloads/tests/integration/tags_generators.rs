//! Every registered tag-store (`tags-*`) generator: valid traces at small and edge sizes that
//! round-trip through the file format, deterministic in `(n, seed, params)`, and shaped as its
//! module doc says.

use workloads::registry::{self, WorkloadInfo};
use workloads::tags::TagStats;
use workloads::{IdTableOp, TagOp, Trace, TraceOp, TraceStats, format};

const ID_TABLE: &str = <IdTableOp as TraceOp>::FAMILY;
const TAGS: &str = <TagOp as TraceOp>::FAMILY;

fn tag_workloads() -> Vec<WorkloadInfo> {
    registry::workloads_of(TAGS)
}

fn generate(name: &str, n: usize, seed: u64) -> Trace<TagOp> {
    generate_with(name, n, seed, None)
}

fn generate_with(
    name: &str,
    n: usize,
    seed: u64,
    params: Option<&serde_json::Value>,
) -> Trace<TagOp> {
    registry::generate_for::<TagOp>(name, n, seed, params)
        .unwrap_or_else(|e| panic!("{name} n={n}: {e}"))
}

fn stats(t: &Trace<TagOp>) -> TagStats {
    t.validate()
        .unwrap_or_else(|e| panic!("{}: {e}", t.header.generator))
}

#[test]
fn the_tag_family_has_its_ten_workloads_after_the_id_table_ones() {
    let names: Vec<&str> = tag_workloads()
        .iter()
        .filter(|w| w.variant_of.is_none())
        .map(|w| w.name)
        .collect();
    assert_eq!(
        names,
        [
            "tags-build",
            "tags-build-heavy",
            "tags-visit-entity",
            "tags-visit-all",
            "tags-visit-all-heavy",
            "tags-visit-all-fragmented",
            "tags-has",
            "tags-mutate",
            "tags-churn",
            "tags-grow-long",
        ]
    );
    let all = registry::workloads();
    let first_tag = all.iter().position(|w| w.family == TAGS).unwrap();
    // Listed together, after the ID-table workloads (the allocator workloads follow).
    assert!(all[..first_tag].iter().all(|w| w.family == ID_TABLE));
    // Ten, and the other points of tags-mutate's mutation-rate sweep.
    let count = tag_workloads().len();
    assert_eq!(count, 14);
    assert!(
        all[first_tag..first_tag + count]
            .iter()
            .all(|w| w.family == TAGS)
    );
    assert!(all[first_tag + count..].iter().all(|w| w.family != TAGS));
    // The ID-table entry point refuses them with a clear error.
    let err = registry::generate("tags-has", 10, 0, None).unwrap_err();
    assert!(err.to_string().contains("`tags` workload"), "{err}");
}

#[test]
fn every_tag_generator_validates_round_trips_and_keeps_n_entities() {
    for w in tag_workloads() {
        for n in [1, 2, 10, 300] {
            for seed in [0, 1, u64::MAX] {
                let t = generate(w.name, n, seed);
                let s = stats(&t);
                assert!(!t.body.is_empty(), "{} n={n}: empty body", w.name);
                assert!(s.peak_live <= n as u64, "{} n={n}: {s:?}", w.name);
                let bytes = format::to_bytes(&t).unwrap();
                assert_eq!(
                    format::from_bytes::<TagOp>(&bytes).unwrap(),
                    t,
                    "{}",
                    w.name
                );
                assert_eq!(
                    (t.header.generator.as_str(), t.header.n, t.header.seed),
                    (w.name, n as u64, seed)
                );
                crate::assert_header_params(&t, &w);
            }
        }
    }
}

#[test]
fn same_inputs_give_identical_bytes_and_seeds_matter() {
    for w in tag_workloads() {
        crate::assert_seeded(&w, false, |seed| generate(w.name, 300, seed));
    }
}

/// Whether an entity's consecutive `AddTag`s are spread over the build (not one entity at a
/// time): the mean gap between them, in ops.
fn mean_gap_between_an_entitys_adds(ops: &[TagOp]) -> f64 {
    let mut last: Vec<Option<usize>> = Vec::new();
    let (mut gaps, mut count) = (0usize, 0usize);
    for (i, op) in ops.iter().enumerate() {
        if let TagOp::AddTag(e, _) = *op {
            let e = e as usize;
            if last.len() <= e {
                last.resize(e + 1, None);
            }
            if let Some(prev) = last[e] {
                gaps += i - prev;
                count += 1;
            }
            last[e] = Some(i);
        }
    }
    gaps as f64 / count.max(1) as f64
}

#[test]
fn builds_interleave_tags_over_entities() {
    let n = 1000;
    let t = generate("tags-build", n, 7);
    assert!(t.setup.is_empty());
    let s = stats(&t);
    assert_eq!((s.spawns, s.adds, s.max_tags_per_entity), (1000, 3000, 3));
    assert!(
        mean_gap_between_an_entitys_adds(&t.body) > n as f64 / 2.0,
        "tags of one entity arrive together"
    );
    let t = generate("tags-visit-all", n, 7);
    assert!(mean_gap_between_an_entitys_adds(&t.setup) > n as f64 / 2.0);
}

#[test]
fn heavy_tail_has_long_lists_past_the_fixed_cap() {
    let n = 10_000;
    for name in ["tags-build-heavy", "tags-visit-all-heavy"] {
        let t = generate(name, n, 3);
        let s = stats(&t);
        assert!((20..=100).contains(&s.max_tags_per_entity), "{name}: {s:?}");
        let tags = if name == "tags-build-heavy" {
            s.adds
        } else {
            s.tags_at_start
        };
        let mean = tags as f64 / n as f64;
        assert!((2.9..3.3).contains(&mean), "{name}: mean {mean}");
    }
    let constant = serde_json::json!({ "tag_counts": "constant-3" });
    let t = generate_with("tags-build-heavy", 100, 3, Some(&constant));
    assert_eq!(stats(&t).max_tags_per_entity, 3);
    let bad = serde_json::json!({ "tag_counts": "constant-4" });
    let err = registry::generate_for::<TagOp>("tags-build", 100, 3, Some(&bad)).unwrap_err();
    assert!(err.to_string().contains("tag_counts"), "{err}");
}

#[test]
fn visit_all_passes_visit_about_a_million_tags() {
    for (n, passes) in [(1, 64), (1000, 64), (100_000, 4)] {
        let t = generate("tags-visit-all", n, 0);
        assert_eq!(t.body, vec![TagOp::VisitAll; passes], "n={n}");
        let s = stats(&t);
        assert_eq!(s.full_visit_tags, 3 * n as u64 * passes as u64);
        assert_eq!(s.work_units(), s.full_visit_tags);
        assert!(t.body_is_read_only());
    }
}

#[test]
fn fragmented_setup_frees_about_half_its_foreign_buffers() {
    let n = 1000;
    let t = generate("tags-visit-all-fragmented", n, 5);
    let s = stats(&t);
    assert_eq!(s.foreign_allocs, 3 * n as u64);
    let frees = t
        .setup
        .iter()
        .filter(|op| matches!(op, TagOp::ForeignFree(_)))
        .count() as u64;
    assert!(frees.abs_diff(s.foreign_allocs / 2) < 150, "{frees}");
    let sizes = t.setup.iter().filter_map(|op| match op {
        TagOp::Foreign(bytes) => Some(*bytes),
        _ => None,
    });
    assert!(sizes.clone().all(|b| (16..=256).contains(&b)));
    // The body is the plain visit-all body.
    let plain = generate("tags-visit-all", n, 5);
    assert_eq!(t.body, plain.body);
    assert_eq!(s.tags_at_start, 3 * n as u64);
}

#[test]
fn has_finds_its_tag_about_half_the_time() {
    let t = generate("tags-has", 1000, 9);
    let s = stats(&t);
    assert_eq!(s.has, 100_000);
    assert!((48_000..52_000).contains(&s.has_found), "{s:?}");
    assert!(t.body_is_read_only());
}

#[test]
fn mutate_mixes_reads_and_writes_and_keeps_tag_counts_stable() {
    let n = 1000;
    let t = generate("tags-mutate", n, 4);
    let s = stats(&t);
    let writes = s.adds + s.removes;
    assert_eq!(writes + s.has + s.entity_visits, 100_000);
    assert!((19_000..21_000).contains(&writes), "{s:?}");
    assert_eq!(
        s.removes_found, s.removes,
        "every remove names a present tag"
    );
    assert!(s.max_tags_per_entity <= 4, "{s:?}");
    let end_tags = s.tags_at_start + s.adds - s.removes;
    assert!(end_tags.abs_diff(s.tags_at_start) <= n as u64, "{s:?}");
    let all_writes = serde_json::json!({ "reads_per_write": 0, "ops": 500 });
    let t = generate_with("tags-mutate", 10, 4, Some(&all_writes));
    let s = stats(&t);
    assert_eq!(s.adds + s.removes, 500);
}

#[test]
fn churn_keeps_n_entities_with_three_tags() {
    let n = 500;
    let t = generate("tags-churn", n, 1);
    let s = stats(&t);
    assert_eq!((s.despawns, s.spawns, s.adds), (50_000, 50_000, 150_000));
    assert_eq!((s.live_at_start, s.peak_live), (n as u64, n as u64));
    assert_eq!(s.max_tags_per_entity, 3);
    assert_eq!(t.body.len(), 250_000);
}
