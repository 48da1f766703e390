//! The measurement passes serve every family: `memory`, `latency`, `sweep` and (where valgrind
//! is installed, always under `CI=true`) `cache` fill the same fields for every family of
//! `bench_harness::families`, and a selection naming no family's (workload, design) pair is a
//! clear error, not a silent no-op.

use std::path::Path;

use bench_harness::families::{FamilyVisitor, family_names, for_each_family};
use bench_harness::replay::Family;

use crate::support::{self, dodbench};

fn run_ok(args: &[&str]) {
    let out = dodbench(args);
    assert!(
        out.status.success(),
        "dodbench {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn results(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// How many benchmarks of `family` carry field `field`.
fn filled(r: &serde_json::Value, family: &str, field: &str) -> usize {
    r["benchmarks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["family"] == family && !b[field].is_null())
        .count()
}

#[test]
fn memory_latency_and_sweep_fill_every_family() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let out = out.to_str().unwrap();
    run_ok(&["memory", "--quick", "--n", "200", "--out", out]);
    run_ok(&["latency", "--quick", "--n", "200", "--out", out]);
    run_ok(&["sweep", "--quick", "--n", "1024", "--out", out]);
    let r = results(Path::new(out));
    // The sweep measured the machine's memory limits past its largest working set (1,024
    // objects of 32 B, four times over), each figure positive.
    let limits = r["sweeps"]["memory_limits"]["points"].as_array().unwrap();
    assert!(limits.len() >= 2, "{limits:?}");
    assert!(limits.last().unwrap()["bytes"].as_u64().unwrap() >= 4 * 1024 * 32);
    for p in limits {
        for figure in [
            "read_bytes_per_ns",
            "independent_load_ns",
            "dependent_load_ns",
        ] {
            assert!(p[figure].as_f64().unwrap() > 0.0, "{p}");
        }
    }
    let families = family_names();
    assert!(families.len() >= 3);
    for family in families {
        assert!(filled(&r, family, "memory") > 0, "no memory for {family}");
        assert!(filled(&r, family, "latency") > 0, "no latency for {family}");
        assert!(filled(&r, family, "hw_reason") + filled(&r, family, "hw") > 0);
        let points = r["sweeps"]["points"].as_array().unwrap();
        assert!(
            points
                .iter()
                .any(|p| p["family"] == family && p["ns_per_op"].is_number()),
            "no sweep point for {family}"
        );
        assert!(
            r["families"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["family"] == family),
            "{family} is not in families"
        );
    }
}

#[test]
#[cfg_attr(
    dodbench_no_valgrind,
    ignore = "valgrind not found when this test was built (apt-get install valgrind)"
)]
fn cache_fills_every_family() {
    if !support::have_valgrind() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let out = out.to_str().unwrap();
    // One small design per family on the first workload of the pass's default set keeps the
    // simulation to seconds (CI's quick pass runs every default workload of every family), all
    // in one command: one copy of the binary for the servers, which run on every core. The
    // selection is every named family's workloads × designs of that family: a workload name
    // is one family's, and a design name two families share (`vec_of_vecs`, tags and
    // relations) adds one more pair, one more simulation.
    let first_workloads = first_memory_bound_workloads();
    let mut args = vec!["cache", "--n", "100", "--out", out];
    for (family, design) in [
        ("id_table", "holey"),
        ("tags", "vec_of_vecs"),
        ("alloc", "buddy"),
        ("components", "buffer_hash"),
        ("data_component", "flat_aos"),
        ("transforms", "deferred_flag_scan"),
        ("relations", "intrusive"),
        ("spatial", "fuzzy_hash"),
        ("spawn", "grouped_batched"),
        ("locking", "single_thread"),
    ] {
        let workload = first_workloads
            .iter()
            .find(|(f, _)| *f == family)
            .map(|(_, w)| *w)
            .unwrap_or_else(|| panic!("{family} is not a family"));
        args.extend([
            "--family",
            family,
            "--workload",
            workload,
            "--design",
            design,
        ]);
    }
    run_ok(&args);
    let r = results(Path::new(out));
    for family in family_names() {
        assert!(
            filled(&r, family, "sim") > 0,
            "no simulated counts for {family}"
        );
    }
}

/// Each family's first workload of `dodbench cache`'s default set.
fn first_memory_bound_workloads() -> Vec<(&'static str, &'static str)> {
    struct First(Vec<(&'static str, &'static str)>);
    impl FamilyVisitor for First {
        fn visit<F: Family>(&mut self) {
            self.0.push((F::NAME, F::MEMORY_BOUND_WORKLOADS[0]));
        }
    }
    let mut first = First(Vec::new());
    for_each_family(&mut first);
    first.0
}

#[test]
fn a_selection_of_no_family_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.json");
    let out = out.to_str().unwrap();
    let o = dodbench(&[
        "memory",
        "--workload",
        "tags-build",
        "--design",
        "holey",
        "--out",
        out,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("no family has both"), "{stderr}");
    assert!(!Path::new(out).exists(), "nothing should be written");
    let o = dodbench(&["latency", "--family", "nope", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("valid families: id_table, tags, alloc"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}
