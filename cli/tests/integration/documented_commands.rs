//! The documented commands as a reader copies them: every command line of the `sh` blocks of
//! `README.md` and then of the pages of `docs/` ([`PAGES`], in that order), run by `sh` in a
//! fresh directory, must exit 0.
//!
//! Only what the commands run is narrowed ([`FILTER`], [`PASS_FILTER`]), through two small
//! scripts first on `PATH`: `cargo` (only `cargo bench`: what its target runs, this build's
//! `dodbench` binary as the bench's driver, on [`FILTER`] at 1,000 objects; any other cargo
//! command fails its line, so the documented sequence builds optimized code once) and
//! `dodbench` (also
//! `target/release/dodbench`, the binary `cargo bench` builds; the measurement passes get
//! [`PASS_FILTER`]). The files a reader brings (results of other runs and machines, a history)
//! and the committed baseline are made by this build first: a debug build's simulated counts
//! are not the release build's that `reports/baseline/` holds. A few lines are not run, each
//! for the reason in [`NOT_RUN`]. Listed as ignored, with the reason, when valgrind is absent
//! (`cli/build.rs`: the sequence has `dodbench cache`), unless `CI=true`.

use std::path::Path;
use std::process::Command;

use crate::support;

/// What `cargo bench` runs here: two ID tables and a tag store on one workload each.
const FILTER: &str = "^(id_table/lookup-uniform/(holey|slotmap)|tags/tags-visit-all/vec_of_vecs)/";

/// What the measurement passes run here: the same benchmarks.
const PASS_FILTER: &str = "--family id_table --family tags --workload lookup-uniform \
    --workload tags-visit-all --design holey --design slotmap --design vec_of_vecs --n 1000";

/// The pages whose `sh` blocks run, in this order: the README, then the pages of `docs/`.
/// Every page of `docs/` is listed (`every_docs_page_is_listed`), so a command moved to a new
/// page stays tested.
const PAGES: &[&str] = &[
    "README.md",
    "docs/cli.md",
    "docs/cache-and-memory.md",
    "docs/claims.md",
    "docs/comparing-runs.md",
    "docs/methodology.md",
    "docs/families.md",
    "docs/workloads.md",
    "docs/reference-loops.md",
    "docs/report.md",
    "docs/locking.md",
    "docs/results-json.md",
    "docs/testing.md",
    "docs/adding-a-design.md",
    "docs/kiddo-report.md",
    "docs/ci-matrix.md",
];

/// Documented lines (by a fragment each must contain, in exactly one line of all [`PAGES`])
/// that are not run, and why.
const NOT_RUN: &[(&str, &str)] = &[
    ("cargo test", "this test runs inside it"),
    (
        "apt-get install valgrind",
        "a system package (CI installs it; without it this test is ignored)",
    ),
    (
        "scripts/ab.sh",
        "builds two revisions of the workspace with fat LTO (minutes each); `dodbench \
         ab-report`, its last step, is tested in compare_cli.rs",
    ),
    (
        "timeout 900 sh -c 'while :; do :; done'",
        "starts two CPU-burning processes for 15 minutes (the busy machine of the A/A check)",
    ),
];

/// The command lines of the `sh` blocks of [`PAGES`], in order (comments and blank lines
/// left out).
fn documented_commands() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut commands = Vec::new();
    for page in PAGES {
        let text =
            std::fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        let mut in_sh = false;
        for line in text.lines() {
            let line = line.trim();
            if let Some(fence) = line.strip_prefix("```") {
                in_sh = !in_sh && fence == "sh";
                continue;
            }
            if in_sh && !line.is_empty() && !line.starts_with('#') {
                commands.push(line.to_string());
            }
        }
    }
    commands
}

#[test]
fn every_docs_page_is_listed() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    for entry in std::fs::read_dir(&docs).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            let page = format!("docs/{name}");
            assert!(
                PAGES.contains(&page.as_str()),
                "{page} is not in PAGES: add it, so its `sh` blocks run in a fixed order"
            );
        }
    }
}

/// The `cargo` a documented line calls: exactly `cargo bench` with no arguments, the one
/// command that builds optimized code (it builds `target/release/dodbench` too); any other
/// cargo command fails the line (a second optimized build, or a command this script would run
/// as something else, must not pass).
const CARGO_SCRIPT: &str = r#"#!/bin/sh
case "$*" in
  bench)
    DODBENCH_SIZES=1000 exec env "$README_RUN_AS_BENCH=1" "$README_DODBENCH" --bench "$README_FILTER" ;;
  *)
    echo "cargo $*: not a command the documented sequence runs (only cargo bench)" >&2
    exit 97 ;;
esac
"#;

/// The `dodbench` a documented line calls, bare or as `target/release/dodbench`.
const DODBENCH_SCRIPT: &str = r#"#!/bin/sh
case "$1" in
  cache|memory|latency|sweep) exec "$README_DODBENCH" "$@" $README_PASS_FILTER ;;
  *) exec "$README_DODBENCH" "$@" ;;
esac
"#;

/// Runs `line` with `sh` in `dir`; panics with what it printed unless it exits 0.
fn run_line(dir: &Path, env: &[(&str, String)], line: &str) {
    let started = std::time::Instant::now();
    let output = Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env_remove("DODBENCH_QUICK")
        .env_remove("DODBENCH_FULL")
        .env_remove("DODBENCH_FRESH")
        .env_remove("DODBENCH_SIZES")
        .env_remove("DODBENCH_MACHINE")
        .env_remove("DODBENCH_TIMER")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    let tail = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    };
    assert!(
        output.status.success(),
        "documented command failed ({}): {line}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        tail(&output.stdout),
        tail(&output.stderr)
    );
    eprintln!("ok in {:.1} s: {line}", started.elapsed().as_secs_f64());
}

#[test]
#[cfg_attr(
    dodbench_no_valgrind,
    ignore = "valgrind not found when this test was built (apt-get install valgrind)"
)]
fn the_documented_commands_run_as_copied_in_order() {
    if !support::have_valgrind() {
        return;
    }
    let commands = documented_commands();
    for (fragment, _) in NOT_RUN {
        let found = commands.iter().filter(|c| c.contains(fragment)).count();
        assert_eq!(
            found, 1,
            "{fragment:?}: not run, so it must name one documented line"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(dir.path().join("target/release")).unwrap();
    std::fs::create_dir_all(dir.path().join("reports/baseline")).unwrap();
    // The files of the repository the pages' commands read.
    for file in [
        "workloads/traces/wee_alloc/find.trace",
        "examples/ci/dodbench-ci.sh",
        dodbench::docs::REFERENCE_RUN,
    ] {
        let to = dir.path().join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(file), to).unwrap();
    }
    for (name, script) in [("cargo", CARGO_SCRIPT), ("dodbench", DODBENCH_SCRIPT)] {
        let path = bin.join(name);
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::os::unix::fs::symlink(
        bin.join("dodbench"),
        dir.path().join("target/release/dodbench"),
    )
    .unwrap();
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let env = [
        ("PATH", path.to_string_lossy().into_owned()),
        (
            "CARGO_TARGET_DIR",
            dir.path().join("target").display().to_string(),
        ),
        (
            "README_DODBENCH",
            env!("CARGO_BIN_EXE_dodbench").to_string(),
        ),
        (
            "README_RUN_AS_BENCH",
            dodbench::bench::RUN_AS_BENCH.to_string(),
        ),
        ("README_FILTER", FILTER.to_string()),
        ("README_PASS_FILTER", PASS_FILTER.to_string()),
    ];

    // What a reader brings: runs of another day, branch and machine, a history, and the
    // committed baseline, all of this build.
    for setup in [
        "DODBENCH_QUICK=1 cargo bench",
        "dodbench cache --quick && dodbench memory --quick && dodbench latency --quick \
         && dodbench sweep --quick",
        "dodbench compare reports/baseline/baseline.json target/dodbench/results.json \
         --update-baseline",
        "for f in OLD main branch ci; do cp target/dodbench/results.json $f.json; done",
        "dodbench history append history.jsonl --results target/dodbench/results.json",
        "DODBENCH_MACHINE=laptop DODBENCH_QUICK=1 DODBENCH_FRESH=1 cargo bench \
         && cp target/dodbench/results.json laptop.json",
        "rm -r target/dodbench",
    ] {
        run_line(dir.path(), &env, setup);
    }

    let mut ran = 0;
    for line in &commands {
        if let Some((_, why)) = NOT_RUN.iter().find(|(f, _)| line.contains(f)) {
            eprintln!("not run ({why}): {line}");
            continue;
        }
        run_line(dir.path(), &env, line);
        ran += 1;
    }
    // The lines of `PAGES` less the `NOT_RUN` ones: a page left out of the sequence, or a
    // block no longer fenced as `sh`, shows as fewer.
    assert!(ran >= 41, "the documented sequence ran {ran} commands");
    let results = results::Results::load(&dir.path().join("target/dodbench/results.json"))
        .expect("the sequence leaves a results file");
    assert!(results.benchmarks.iter().any(|b| b.verified));
}
