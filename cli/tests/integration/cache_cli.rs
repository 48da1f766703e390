//! `dodbench cache` end to end: identical counts on a second run, and a clear message without
//! valgrind. Listed as ignored, with the reason, when valgrind is absent (`cli/build.rs`), unless
//! `CI=true`, where a missing valgrind fails.

use std::process::Command;

use crate::support;

fn dodbench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dodbench"))
}

fn sim_of(path: &std::path::Path) -> Vec<serde_json::Value> {
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(r["schema_version"], results::SCHEMA_VERSION);
    r["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["sim"].clone())
        .collect()
}

/// Same binary and trace give identical counts, whether the children run one at a time or
/// side by side, and whatever other designs their server forked children for before them.
#[test]
#[cfg_attr(
    dodbench_no_valgrind,
    ignore = "valgrind not found when this test was built (apt-get install valgrind)"
)]
fn same_binary_and_trace_give_identical_counts() {
    if !support::have_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: &str, designs: &[&str], extra: &[&str]| {
        let out = dir.path().join(name);
        let mut command = dodbench();
        command.args(["cache", "--workload", "churn", "--n", "300", "--jobs", jobs]);
        for design in designs {
            command.args(["--design", design]);
        }
        let status = command.args(extra).arg("--out").arg(&out).status().unwrap();
        assert!(status.success());
        sim_of(&out)
    };
    let all = ["holey", "packed", "slotmap"];
    let first = run("a.json", "1", &all, &[]);
    let second = run("b.json", "3", &all, &[]);
    // The children run a copy without debug info by default; the binary as built counts the
    // same.
    let as_built = run("c.json", "2", &all, &["--keep-debug-info"]);
    // One server forks every child of a trace (with one job): `slotmap`'s child alone starts
    // from the same memory as after the children of `holey` and `packed`.
    let alone = run("d.json", "1", &["slotmap"], &[]);
    assert_eq!(first.len(), 3);
    assert!(
        first.iter().all(|s| s["ir"].as_f64().unwrap() > 0.0),
        "{first:?}"
    );
    assert_ne!(first[0], first[1], "two designs, two sets of counts");
    assert_eq!(first, second);
    assert_eq!(
        first, as_built,
        "stripping the debug info changed the counts"
    );
    assert_eq!(
        alone[..],
        first[2..],
        "a child's counts depend on the designs simulated before it"
    );
}

#[test]
fn zero_jobs_is_a_clear_error() {
    let out = dodbench()
        .args(["cache", "--jobs", "0", "--workload", "churn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--jobs must be at least 1"), "{stderr}");
}

#[test]
fn missing_valgrind_is_a_clear_message_and_status_2() {
    let empty = tempfile::tempdir().unwrap();
    let out = dodbench()
        .args(["cache", "--quick", "--out"])
        .arg(empty.path().join("r.json"))
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("valgrind not found: install it with apt-get install valgrind"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
