//! End-to-end tests of `dodbench compare`, `export`, `history` and `ab-report`: exit codes and
//! messages of the real binary on the results crate's fixture files.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{dodbench, report};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results/tests/fixtures")
        .join(name)
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn compare(base: &str, new: &str, extra: &[&str]) -> Output {
    let (b, n) = (fixture(base), fixture(new));
    let mut args = vec!["compare", b.to_str().unwrap(), n.to_str().unwrap()];
    args.extend_from_slice(extra);
    dodbench(&args)
}

#[test]
fn identical_inputs_exit_0() {
    let out = compare("results_v2_base.json", "results_v2_base.json", &[]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("OK: 0 deterministic regressions"),
        "{stdout}"
    );
}

#[test]
fn deterministic_regression_exits_1_and_names_the_benchmark() {
    for flags in [&[][..], &["--markdown"][..]] {
        let out = compare(
            "results_v2_base.json",
            "results_v2_ir_regression.json",
            flags,
        );
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
        assert!(stdout.contains("id_table/churn/pool/1000"), "{stdout}");
        assert!(stdout.contains("FAIL"), "{stdout}");
    }
    let out = compare(
        "results_v2_base.json",
        "results_v2_ir_regression.json",
        &["--threshold-det", "0.2"],
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn time_change_inside_the_noise_exits_0() {
    let out = compare(
        "results_v2_base.json",
        "results_v2_time_noise.json",
        &["--all"],
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("within noise"), "{stdout}");
}

#[test]
fn unusable_inputs_exit_2_with_one_clear_line() {
    for (new, expect) in [
        ("missing.json", "cannot read"),
        (
            "results_corrupt.json",
            "not a dodbench results or baseline file",
        ),
        ("results_v99.json", "schema version 99"),
    ] {
        let out = compare("results_v2_base.json", new, &[]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{new}: {stdout}{stderr}");
        assert!(stderr.starts_with("dodbench: "), "{stderr}");
        assert!(stderr.contains(expect), "{new}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let out = compare(
        "results_v2_base.json",
        "results_v2_base.json",
        &["--threshold-det", "-1"],
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_unknown_reference_design_exits_2_naming_the_designs() {
    let out = compare(
        "results_v2_base.json",
        "results_v2_base.json",
        &["--reference", "hooley"],
    );
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("\"hooley\""), "{stderr}");
    assert!(stderr.contains("holey, packed_fixed, pool"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

#[test]
fn old_results_files_compare_against_the_committed_baseline() {
    let baseline = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/baseline/baseline.json");
    let v3 = fixture("results_v3.json");
    let out = dodbench(&["compare", baseline.to_str().unwrap(), v3.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    // It reads and compares; the baseline's benchmarks the small v3 file lacks are gone (a
    // v3 file records no selection that would explain them), which fails the gate.
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("gone"), "{stdout}");
    assert!(
        stdout.contains("id_table: holey; tags: vec_of_vecs; alloc: buddy"),
        "{stdout}"
    );
}

#[test]
fn update_baseline_writes_then_gates_and_refuses_results_files() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let b = baseline.to_str().unwrap();
    let base = fixture("results_v2_base.json");
    let reg = fixture("results_v2_ir_regression.json");
    let out = dodbench(&["compare", b, base.to_str().unwrap(), "--update-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(written["format"], "dodbench-baseline");

    let out = dodbench(&["compare", b, base.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let out = dodbench(&["compare", b, reg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{:?}", text(&out));
    // Accepting the change: prints the table, rewrites, exits 0; then the gate passes.
    let out = dodbench(&["compare", b, reg.to_str().unwrap(), "--update-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert!(text(&out).0.contains("regressed"));
    let out = dodbench(&["compare", b, reg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));

    // Never overwrites a results file.
    let copy = dir.path().join("results.json");
    std::fs::copy(&base, &copy).unwrap();
    let out = dodbench(&[
        "compare",
        copy.to_str().unwrap(),
        reg.to_str().unwrap(),
        "--update-baseline",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("refusing"));
    assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&base).unwrap());
}

/// The fixture `name` changed by `edit`, written to `dir`.
fn edited(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture(name)).unwrap()).unwrap();
    edit(&mut v);
    let path = dir.join(format!("edited-{}", rand_suffix()));
    std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
    path
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{}.json", NEXT.fetch_add(1, Ordering::Relaxed))
}

fn benchmark_ids(v: &serde_json::Value) -> Vec<String> {
    v["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            format!(
                "{}/{}/{}/{}",
                b["family"].as_str().unwrap(),
                b["workload"].as_str().unwrap(),
                b["design"].as_str().unwrap(),
                b["n"]
            )
        })
        .collect()
}

#[test]
fn an_empty_new_or_a_missing_design_fails_the_gate() {
    let dir = tempfile::tempdir().unwrap();
    let base = fixture("results_v2_base.json");
    let empty = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"] = serde_json::json!([]);
    });
    let out = dodbench(&["compare", base.to_str().unwrap(), empty.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("has no benchmarks"), "{stdout}");
    let missing = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"].as_array_mut().unwrap().remove(0);
    });
    let out = dodbench(&["compare", base.to_str().unwrap(), missing.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("gone"), "{stdout}");
}

#[test]
fn a_benchmark_the_new_runs_selection_excluded_is_listed_not_run_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let base = fixture("results_v2_base.json");
    let filtered = edited(dir.path(), "results_v2_base.json", |v| {
        let first = benchmark_ids(v).remove(0);
        v["benchmarks"].as_array_mut().unwrap().remove(0);
        v["steps"] = serde_json::json!([{
            "step": "bench",
            "selection": "scale quick; arguments ^id_table/lookup",
            "excluded": [first],
        }]);
    });
    let out = dodbench(&[
        "compare",
        base.to_str().unwrap(),
        filtered.to_str().unwrap(),
        "--all",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("not run (filtered)"), "{stdout}");
    assert!(
        stdout.contains("excluded by bench (scale quick"),
        "{stdout}"
    );
    assert!(stdout.contains(", 0 gone (gating), 1 not run"), "{stdout}");
}

#[test]
fn update_baseline_refuses_an_empty_failed_or_shrunken_new_and_keeps_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("baseline.json");
    let b = baseline.to_str().unwrap();
    let base = fixture("results_v2_base.json");
    let out = dodbench(&["compare", b, base.to_str().unwrap(), "--update-baseline"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let before = std::fs::read(&baseline).unwrap();
    let empty = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"] = serde_json::json!([]);
    });
    let shrunk = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"].as_array_mut().unwrap().truncate(1);
    });
    let failed = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"][0]["status"] = "failed".into();
        v["benchmarks"][0]["verified"] = false.into();
    });
    for (new, expected) in [
        (&empty, "no benchmarks"),
        (&shrunk, "--allow-shrink"),
        (&failed, "--allow-failed"),
    ] {
        let out = dodbench(&["compare", b, new.to_str().unwrap(), "--update-baseline"]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
        assert!(
            stderr.contains("refusing to update the baseline"),
            "{stderr}"
        );
        assert!(stderr.contains(expected), "{stderr}");
        assert_eq!(
            std::fs::read(&baseline).unwrap(),
            before,
            "baseline changed"
        );
    }
    // Forced, it goes through and keeps the previous baseline beside it.
    let out = dodbench(&[
        "compare",
        b,
        shrunk.to_str().unwrap(),
        "--update-baseline",
        "--allow-shrink",
    ]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_eq!(
        std::fs::read(dir.path().join("baseline.json.prev")).unwrap(),
        before
    );
    assert_ne!(std::fs::read(&baseline).unwrap(), before);
}

#[test]
fn hostile_names_are_escaped_in_the_markdown_comment() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = edited(dir.path(), "results_v2_base.json", |v| {
        v["benchmarks"][0]["design"] = "a|b<script>`x`\n| y".into();
        v["commit"] = "<img src=x>".into();
    });
    let base = fixture("results_v2_base.json");
    let out = dodbench(&[
        "compare",
        base.to_str().unwrap(),
        hostile.to_str().unwrap(),
        "--markdown",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains('<') && !stdout.contains('`'), "{stdout}");
    assert!(
        stdout.contains("a\\|b&lt;script&gt;&#96;x&#96; \\| y"),
        "{stdout}"
    );
}

#[test]
fn history_append_and_show() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("h.jsonl");
    let hs = h.to_str().unwrap();
    let out = compare(
        "results_v2_base.json",
        "results_v2_base.json",
        &["--history", hs],
    );
    assert_eq!(out.status.code(), Some(0));
    let reg = fixture("results_v2_ir_regression.json");
    let out = dodbench(&["history", "append", hs, "--results", reg.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let mut bytes = std::fs::read(&h).unwrap();
    bytes.extend_from_slice(b"{\"history_version\": 1, \"comm");
    std::fs::write(&h, bytes).unwrap();
    let out = dodbench(&["history", "show", hs]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout.contains("2 entries, 1 corrupt lines skipped"),
        "{stdout}"
    );
    assert!(stderr.contains(":3: skipped corrupt line"), "{stderr}");
}

#[test]
fn export_writes_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let results = fixture("results_v2_base.json");
    for (format, first) in [("bmf", '{'), ("github-action-benchmark", '[')] {
        let out_path = dir.path().join(format!("{format}.json"));
        let out = dodbench(&[
            "export",
            "--format",
            format,
            "--results",
            results.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
        let written = std::fs::read_to_string(&out_path).unwrap();
        assert!(written.starts_with(first), "{written}");
        serde_json::from_str::<serde_json::Value>(&written).unwrap();
    }
    let out = dodbench(&[
        "export",
        "--format",
        "bmf",
        "--results",
        "/nonexistent/r.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ab_report_pairs_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    for i in 1..=3 {
        std::fs::copy(
            fixture("results_v2_base.json"),
            a.join(format!("round-{i}.json")),
        )
        .unwrap();
        std::fs::copy(
            fixture("results_v2_time_noise.json"),
            b.join(format!("round-{i}.json")),
        )
        .unwrap();
    }
    let out = dodbench(&["ab-report", a.to_str().unwrap(), b.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("id_table/churn/pool/1000"), "{stdout}");
    assert!(stdout.contains("1.438"), "{stdout}");
    assert!(stdout.contains("geometric mean"), "{stdout}");
}

#[test]
fn report_and_compare_refuse_absurd_times_and_duplicates_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let absurd = edited(dir.path(), "results_v3.json", |v| {
        v["benchmarks"][0]["ns_per_op"] =
            serde_json::json!({"median": 1e308, "lower": 1e308, "upper": 1e308});
    });
    let duplicate = edited(dir.path(), "results_v3.json", |v| {
        let first = v["benchmarks"][0].clone();
        v["benchmarks"].as_array_mut().unwrap().push(first);
    });
    for (file, expected) in [
        (&absurd, "above the plausible maximum"),
        (&duplicate, "two entries for one benchmark"),
    ] {
        let out_dir = dir.path().join("report");
        let out = report(&[file], &out_dir);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        let base = fixture("results_v3.json");
        let out = dodbench(&["compare", base.to_str().unwrap(), file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
        assert!(text(&out).1.contains(expected), "{:?}", text(&out));
    }
}
