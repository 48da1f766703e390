//! End-to-end tests of `dodbench report`: one results file, several machines side by side
//! (repeated `--results` or a directory), and the refusals (exit 2, one line naming both
//! files): different trace seeds, different simulated caches, one machine name twice.

use std::path::{Path, PathBuf};

use crate::support::{assert_user_error, report, text};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../reports/tests/fixtures")
        .join(name)
}

/// The laptop fixture edited by `edit` (as JSON), written to `dir`.
fn edited_laptop(dir: &Path, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("small_results_laptop.json")).unwrap(),
    )
    .unwrap();
    edit(&mut v);
    let path = dir.join("edited.json");
    std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
    path
}

/// Runs `report` on `a` and `b` and checks the refusal names both files and `what`.
fn assert_refused(a: &Path, b: &Path, what: &str) {
    let out = tempfile::tempdir().unwrap();
    let stderr = assert_user_error(&report(&[a, b], out.path()), what);
    assert!(stderr.contains(a.to_str().unwrap()) && stderr.contains(b.to_str().unwrap()));
    assert!(!out.path().join("index.html").exists());
}

#[test]
fn two_results_files_make_one_report_of_two_machines() {
    let out = tempfile::tempdir().unwrap();
    let (a, b) = (
        fixture("small_results.json"),
        fixture("small_results_laptop.json"),
    );
    let run = report(&[&a, &b], out.path());
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).contains("2 machines"));
    let index = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    assert!(index.contains("<h2>Machines</h2>"));
    assert!(index.contains("ci-runner") && index.contains("laptop"));
    let page = std::fs::read_to_string(out.path().join("id_table.html")).unwrap();
    assert!(page.contains("<td>laptop</td>") && page.contains("× reference"));

    // A directory means every results file in it; other JSON files are skipped.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&a, dir.path().join("a.json")).unwrap();
    std::fs::copy(&b, dir.path().join("b.json")).unwrap();
    std::fs::write(dir.path().join("other.json"), "{\"format\": \"x\"}").unwrap();
    let out2 = tempfile::tempdir().unwrap();
    let run = report(&[dir.path()], out2.path());
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).contains("2 machines"));
}

#[test]
fn one_results_file_makes_the_one_machine_report() {
    let out = tempfile::tempdir().unwrap();
    let run = report(&[&fixture("small_results.json")], out.path());
    assert!(run.status.success(), "{}", text(&run.stderr));
    let index = std::fs::read_to_string(out.path().join("index.html")).unwrap();
    assert!(index.contains("<h2>Machine</h2>"));
    assert!(!index.contains("ci-runner"), "one machine needs no name");
}

#[test]
fn runs_that_cannot_be_shown_side_by_side_are_refused() {
    let a = fixture("small_results.json");
    let dir = tempfile::tempdir().unwrap();
    let seed = edited_laptop(dir.path(), |v| {
        v["workloads"][0]["seed"] = serde_json::json!(999_999);
    });
    assert_refused(&a, &seed, "trace seed");
    let sim = edited_laptop(dir.path(), |v| {
        for b in v["benchmarks"].as_array_mut().unwrap() {
            if let Some(sim) = b.get_mut("sim").filter(|s| !s.is_null()) {
                sim["config"]["d1"] = serde_json::json!("65536,8,64");
            }
        }
    });
    assert_refused(&a, &sim, "simulated cache differs");
    let same = edited_laptop(dir.path(), |v| {
        v["machine"]["name"] = serde_json::json!("ci-runner");
    });
    assert_refused(&a, &same, "DODBENCH_MACHINE");
}

#[test]
fn results_with_unusable_numbers_are_refused_and_the_old_report_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    let good = fixture("small_results_laptop.json");
    let run = report(&[&good], &out);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let index = std::fs::read(out.join("index.html")).unwrap();
    type Edit = fn(&mut serde_json::Value);
    let cases: [(Edit, &str); 6] = [
        // A median near f64::MAX must not hang the log-scale axis.
        (
            |v| {
                v["benchmarks"][0]["ns_per_op"] =
                    serde_json::json!({"median": 1e308, "lower": 1.0, "upper": 1e308})
            },
            "1e308 ns is above the plausible maximum 1e12 ns",
        ),
        (
            |v| {
                v["benchmarks"][0]["ns_per_op"] =
                    serde_json::json!({"median": -1.0, "lower": -2.0, "upper": 1.0})
            },
            "not positive",
        ),
        (
            |v| {
                v["benchmarks"][0]["ns_per_op"] =
                    serde_json::json!({"median": 0.0, "lower": 0.0, "upper": 1.0})
            },
            "not positive",
        ),
        (
            |v| v["benchmarks"][0]["samples_ns_per_op"][0] = (-5.0).into(),
            "a sample: -5 ns is not positive",
        ),
        (
            |v| {
                let first = v["benchmarks"][0].clone();
                v["benchmarks"].as_array_mut().unwrap().push(first);
            },
            "two entries for one benchmark",
        ),
        (|v| v["schema_version"] = "5".into(), "schema version \"5\""),
    ];
    for (edit, reason) in cases {
        let bad = edited_laptop(dir.path(), edit);
        let before = std::fs::read(&bad).unwrap();
        let started = std::time::Instant::now();
        let stderr = assert_user_error(&report(&[&bad], &out), reason);
        assert!(stderr.contains(bad.to_str().unwrap()), "{stderr}");
        assert!(started.elapsed().as_secs() < 30, "{reason}: took too long");
        // Nothing else is lost: the previous report and the results file are untouched.
        assert_eq!(std::fs::read(out.join("index.html")).unwrap(), index);
        assert_eq!(std::fs::read(&bad).unwrap(), before);
    }
}
