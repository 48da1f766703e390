//! The callgrind output parser on real files captured from `dodbench cache`'s child (valgrind
//! 3.19, `--cache-sim=yes`, collection toggled on `dodbench_collected`).

use bench_harness::measure::cache_sim::{parse_callgrind, sim_config};

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn reads_totals_with_omitted_trailing_columns() {
    // iterate-holes n=1000 on holey_skip: 64 passes over 1000 live objects; the file's totals
    // line stops after ILmr (DLmr and DLmw are zero and omitted).
    let t = parse_callgrind(&fixture("callgrind.iterate-holes.holey_skip.1000.out")).unwrap();
    assert_eq!(
        t.events,
        [
            "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"
        ]
    );
    assert_eq!(t.get("Ir"), 535_245);
    assert_eq!(t.get("D1mr"), 52_421);
    assert_eq!(t.get("DLmr"), 0);
    assert_eq!(t.get("DLmw"), 0);
    let per = t.per_op(
        64_000,
        sim_config(std::path::Path::new("/nonexistent/valgrind")),
    );
    assert!((per.d1_miss - (52_421.0 + 70.0) / 64_000.0).abs() < 1e-12);
    assert_eq!(per.ll_miss, 0.0);
    assert_eq!(per.i1_miss, Some(3.0 / 64_000.0));
    assert_eq!(per.bytes_streamed, per.d1_miss * 64.0);
    assert_eq!(per.config.valgrind, "unknown");
}

#[test]
fn reads_a_full_totals_line() {
    // churn n=1000 on map-btree: 100 000 remove + add steps.
    let t = parse_callgrind(&fixture("callgrind.churn.map-btree.1000.out")).unwrap();
    assert_eq!(t.get("Ir"), 92_017_626);
    assert_eq!(t.get("Dw"), 9_821_590);
    assert_eq!(t.get("DLmw"), 5_296);
    let per = t.per_op(200_000, sim_config(std::path::Path::new("/nonexistent")));
    assert!((per.ll_miss - 5_296.0 / 200_000.0).abs() < 1e-12);
    assert!((per.ir - 92_017_626.0 / 200_000.0).abs() < 1e-9);
}

#[test]
fn falls_back_to_summary_when_totals_is_missing() {
    let text = fixture("callgrind.churn.map-btree.1000.out");
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("totals:"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(parse_callgrind(&without).unwrap().get("Ir"), 92_017_626);
}
