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

/// A run where our `holey` is 1.2× `slotmap`'s time on `churn` at 300 in every round, and
/// `packed` (ours, slower still) and `slab` (a peer with a weaker contract) are timed too.
fn run_with_ours_behind(path: &std::path::Path) {
    use results::{DesignRecord, Family, Machine, Results, Rounds, Status};
    let machine = Machine::test_box("box");
    let mut r = Results::empty(machine, "c".into(), "rustc".into(), 1, "quick");
    for (design, kind, gaps, base) in [
        ("holey", "tuned", &[][..], 12.0),
        ("packed", "tuned", &[][..], 14.0),
        ("slotmap", "peer", &[][..], 10.0),
        ("slab", "peer", &["detects no stale ID"][..], 5.0),
    ] {
        r.designs
            .push(DesignRecord::new(Family::IdTable, design, kind).with_gaps(gaps));
        let b = r.entry(Family::IdTable, "churn", design, 300, 300);
        b.verified = true;
        b.status = Status::Verified;
        b.samples_ns_per_op = (0..20).map(|i| base + f64::from(i % 3)).collect();
        b.ns_per_op = results::stats::median_interval(&mut b.samples_ns_per_op.clone());
        b.rounds = Some(Rounds::new(1, 20, Vec::new()));
    }
    r.save(path).unwrap();
}

/// `--behind` counts our fastest design and the peer of its contract in the cells where ours
/// is behind, and nothing else, recorded as one step.
#[test]
#[cfg_attr(
    dodbench_no_valgrind,
    ignore = "valgrind not found when this test was built (apt-get install valgrind)"
)]
fn behind_counts_ours_and_the_peer_of_its_contract_where_ours_trails() {
    if !support::have_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    run_with_ours_behind(&path);
    // Narrowed to another workload: no cell, and the file as it was.
    let before = std::fs::read(&path).unwrap();
    let out = dodbench()
        .args(["cache", "--behind", "--workload", "fill", "--out"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no cell of"));
    assert_eq!(std::fs::read(&path).unwrap(), before);

    let status = dodbench()
        .args([
            "cache",
            "--behind",
            "--jobs",
            "2",
            "--workload",
            "churn",
            "--out",
        ])
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    let r = results::Results::load(&path).unwrap();
    let counted: Vec<&str> = r
        .benchmarks
        .iter()
        .filter(|b| b.sim.is_some())
        .map(|b| b.design.as_str())
        .collect();
    assert_eq!(counted, ["holey", "slotmap"]);
    let step = r.steps.last().unwrap();
    assert_eq!(
        (step.step.as_str(), step.selection.as_str()),
        ("cache", "--behind (1 cells)")
    );
    // The pass's default matrix (not churn at 300) is excluded, as every cell's step said.
    assert!(
        step.excludes("id_table/churn/holey/1000"),
        "{:?}",
        step.excluded
    );
    assert_eq!(r.steps.iter().filter(|s| s.step == "cache").count(), 1);
}

#[test]
fn behind_without_a_results_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dodbench()
        .args(["cache", "--behind", "--out"])
        .arg(dir.path().join("none.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--behind reads the results file"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
