//! Reading criterion's estimates back, on output captured from a real criterion 0.8 run.

use std::path::Path;

use bench_harness::criterion_output::read_medians;

#[test]
fn reads_the_median_and_interval_of_real_criterion_output() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/criterion");
    let medians = read_medians(&dir);
    // The broken entry (truncated benchmark.json) is skipped, not fatal.
    assert_eq!(medians.len(), 1, "{medians:?}");
    let key = (
        "id_table/churn".to_string(),
        "holey".to_string(),
        "1000".to_string(),
    );
    let est = medians[&key];
    assert!(
        est.lower <= est.median && est.median <= est.upper,
        "{est:?}"
    );
    assert!((est.median - 794_167.705_882_353).abs() < 1e-6, "{est:?}");
    assert!((est.lower - 723_084.647_058_823_6).abs() < 1e-6, "{est:?}");
}

#[test]
fn a_missing_directory_gives_no_estimates() {
    assert!(read_medians(Path::new("/nonexistent/criterion")).is_empty());
}
