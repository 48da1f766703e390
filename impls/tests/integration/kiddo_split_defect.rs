//! An upstream defect of `kiddo` 5.3.3's mutable `KdTree`, reproduced with the crate alone
//! (ready to report): when a full bucket (32 points) splits on an axis where 17 or more of its
//! points share the bucket's smallest value, `split()` in `src/float/construction.rs` takes its
//! `pivot_idx == 0` branch, re-runs a select that only places the maximum at the end, then
//! scans from the middle as if the bucket were sorted. Points land on the wrong side of the
//! new split value: `within_unsorted` misses them and `remove` cannot find them.
//!
//! This test asserts the locked version still has the defect, so the `kiddo` peer's note on it
//! (`impls/src/spatial/peers/kiddo.rs`, its `//!` header and `INFO.meta.description`) stays true.
//! The static `ImmutableKdTree` builds differently and answers correctly (checked here too).

use kiddo::SquaredEuclidean;
use kiddo::float::kdtree::KdTree;
use kiddo::immutable::float::kdtree::ImmutableKdTree;

/// 10 points at x = 1..=10, then 23 points sharing x = 0 (the smallest x); all y distinct.
/// The 33rd `add` splits the full bucket on x, where 23 of its 32 points share the minimum.
fn points() -> Vec<[f32; 2]> {
    (0..33u32)
        .map(|i| [if i < 10 { (i + 1) as f32 } else { 0.0 }, i as f32])
        .collect()
}

#[test]
fn kiddo_5_3_3_mutable_kdtree_misplaces_points_when_a_bucket_splits_on_its_minimum() {
    let mut tree: KdTree<f32, u32, 2, 32, u32> = KdTree::new();
    for (i, p) in points().iter().enumerate() {
        tree.add(p, i as u32);
    }
    // Item 0 is at [1, 0]: exactly at the query point, so every radius should find it.
    let found = |r2: f32| {
        tree.within_unsorted::<SquaredEuclidean>(&[1.0, 0.0], r2)
            .iter()
            .any(|n| n.item == 0)
    };
    let fixed = "if this fails, kiddo fixed the bucket-split defect: drop the note on it from \
                 the kiddo peer's description and `//!` header (impls/src/spatial/peers/kiddo.rs) \
                 and this test";
    assert!(!found(0.0), "{fixed}");
    assert!(!found(0.25), "{fixed}");
    assert_eq!(tree.remove(&[1.0, 0.0], 0), 0, "{fixed}");
}

#[test]
fn the_immutable_kdtree_finds_the_same_point() {
    let points = points();
    let tree: ImmutableKdTree<f32, u32, 2, 32> = ImmutableKdTree::new_from_slice(&points);
    for r2 in [0.0, 0.25] {
        let hits = tree.within_unsorted::<SquaredEuclidean>(&[1.0, 0.0], r2);
        assert!(hits.iter().any(|n| n.item == 0), "r2 = {r2}");
    }
}
