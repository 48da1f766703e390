//! End-to-end tests of `dodbench list`, `gen` and `replay`, including user mistakes: each
//! gives one clear line and exit status 2, never a panic.

use crate::support::{assert_user_error, dodbench, text};

#[test]
fn list_names_every_design_and_workload() {
    let out = dodbench(&["list"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    for d in impls::id_table::designs() {
        assert!(
            stdout.contains(d.meta.name),
            "list lacks design {}",
            d.meta.name
        );
    }
    for w in workloads::registry::workloads() {
        assert!(stdout.contains(w.name), "list lacks workload {}", w.name);
    }
    // Every peer says how it uses its crate (a peer is used as its documentation shows).
    for d in impls::spatial::spatial_designs() {
        if let Some((idiom, docs)) = d.meta.kind.usage() {
            assert!(
                stdout.contains(&format!("used as: {idiom}")),
                "{}",
                d.meta.name
            );
            assert!(stdout.contains(&format!("docs: {docs}")), "{}", d.meta.name);
        }
    }
}

#[test]
fn gen_then_replay_verifies_and_times_the_chosen_designs() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("stale.trace");
    let trace = trace.to_str().unwrap();
    let out = dodbench(&[
        "gen",
        "lookup-stale",
        "--n",
        "500",
        "--seed",
        "3",
        "-o",
        trace,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = dodbench(&[
        "replay",
        trace,
        "--design",
        "holey",
        "--design",
        "slab",
        "--samples",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let holey = stdout
        .lines()
        .find(|l| l.starts_with("holey "))
        .expect("holey row");
    assert!(holey.ends_with("verified"), "{holey}");
    let slab = stdout
        .lines()
        .find(|l| l.starts_with("slab "))
        .expect("slab row");
    assert!(
        slab.contains("unsupported: does not detect stale IDs"),
        "{slab}"
    );
    assert!(!stdout.contains("pool"), "only the chosen designs run");
}

#[test]
fn gen_takes_params_and_refuses_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("z.trace");
    let trace = trace.to_str().unwrap();
    let ok = dodbench(&[
        "gen",
        "lookup-zipf",
        "--n",
        "100",
        "--params",
        r#"{"skew": 1.3}"#,
        "-o",
        trace,
    ]);
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let bad = dodbench(&[
        "gen",
        "lookup-zipf",
        "--n",
        "100",
        "--params",
        r#"{"skew": "x"}"#,
        "-o",
        trace,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("skew"), "{}", text(&bad.stderr));
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    let trace = trace.to_str().unwrap();
    assert_user_error(
        &dodbench(&["gen", "lookup-everything", "-o", trace]),
        "lookup-uniform",
    );
    assert!(
        dodbench(&["gen", "fill", "--n", "10", "-o", trace])
            .status
            .success()
    );
    assert_user_error(
        &dodbench(&["replay", trace, "--design", "btree"]),
        "map-btree",
    );
}

#[test]
fn corrupt_and_missing_trace_files_give_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.trace");
    assert!(
        dodbench(&["gen", "churn", "--n", "50", "-o", good.to_str().unwrap()])
            .status
            .success()
    );
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.path().join("truncated.trace");
    std::fs::write(&truncated, &bytes[..bytes.len() - 20]).unwrap();
    assert_user_error(
        &dodbench(&["replay", truncated.to_str().unwrap()]),
        "truncated.trace",
    );
    let mut flipped = bytes.clone();
    let mid = flipped.len() - 30;
    flipped[mid] ^= 0x40;
    let flipped_path = dir.path().join("flipped.trace");
    std::fs::write(&flipped_path, &flipped).unwrap();
    assert_user_error(
        &dodbench(&["replay", flipped_path.to_str().unwrap()]),
        "flipped.trace",
    );
    assert_user_error(&dodbench(&["replay", "/nonexistent/x.trace"]), "x.trace");
}

#[test]
fn an_allocator_trace_too_large_for_the_arenas_is_unsupported_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let wee = dir.path().join("huge.wee");
    std::fs::write(&wee, "Alloc(4294967295)\n".repeat(4)).unwrap();
    let trace = dir.path().join("huge.dodtrace");
    let out = dodbench(&[
        "convert-wee-alloc",
        wee.to_str().unwrap(),
        "-o",
        trace.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // `system` builds no arena: it still runs and verifies beside the refused designs (the
    // arena designs are not all named, so that a machine with 64 GiB free does not build one).
    let out = dodbench(&[
        "replay",
        trace.to_str().unwrap(),
        "--samples",
        "1",
        "--design",
        "buddy",
        "--design",
        "buddy_system_allocator",
        "--design",
        "system",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    for line in stdout.lines().filter(|l| l.starts_with("buddy")) {
        assert!(
            line.contains("unsupported: the trace needs an arena of"),
            "{line}"
        );
    }
    assert_eq!(stdout.lines().filter(|l| l.starts_with("buddy")).count(), 2);
    // A design's documented limit (buddy_system_allocator's arena range) is `unsupported` with
    // the limit, never `failed`.
    let bsa = stdout
        .lines()
        .find(|l| l.starts_with("buddy_system_allocator"))
        .unwrap();
    assert!(
        bsa.contains("the design supports at most 4294967296 bytes"),
        "{bsa}"
    );
    assert!(!stdout.contains("failed"), "{stdout}");
    let system = stdout.lines().find(|l| l.starts_with("system")).unwrap();
    assert!(system.ends_with("verified"), "{system}");
}

#[test]
fn error_causes_are_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let not_utf8 = dir.path().join("not-utf8.wee");
    std::fs::write(&not_utf8, b"Alloc(\xff\xfe)\n").unwrap();
    let not_utf8 = not_utf8.to_str().unwrap();
    let out_trace = dir.path().join("o.trace");
    let out_trace = out_trace.to_str().unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["replay", d], "Is a directory"),
        (&["convert-wee-alloc", d, "-o", out_trace], "Is a directory"),
        (
            &["convert-wee-alloc", not_utf8, "-o", out_trace],
            "valid UTF-8",
        ),
        (&["history", "show", d], "Is a directory"),
        (&["compare", d, d], "Is a directory"),
        (
            &["report", "--results", not_utf8, "--out", d],
            "valid UTF-8",
        ),
        (&["gen", "fill", "-o", d], "Is a directory"),
    ];
    for (args, cause) in cases {
        let out = dodbench(args);
        assert_user_error(&out, cause);
        let stderr = text(&out.stderr);
        assert_eq!(stderr.matches(cause).count(), 1, "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(out_trace).exists());
}

#[test]
fn every_writer_creates_missing_directories_and_writes_readable_files() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("new").join("dir").join("t.trace");
    let out = dodbench(&["gen", "fill", "--n", "10", "-o", trace.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = dir.path().join("other").join("find.dodtrace");
    let wee = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../workloads/traces/wee_alloc/find.trace"
    );
    let out = dodbench(&["convert-wee-alloc", wee, "-o", converted.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    #[cfg(unix)]
    for file in [&trace, &converted] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{}", file.display());
    }
    // A target that cannot be written names the user's path once, never a temporary file.
    let target = dir.path().join("a-directory");
    std::fs::create_dir(&target).unwrap();
    let out = dodbench(&["gen", "fill", "-o", target.to_str().unwrap()]);
    assert_user_error(&out, target.to_str().unwrap());
    let stderr = text(&out.stderr);
    let named_files = stderr.matches(dir.path().to_str().unwrap()).count();
    assert_eq!(named_files, 1, "only the user's path: {stderr}");
    assert_eq!(stderr.matches("Is a directory").count(), 1, "{stderr}");
}

#[test]
fn replay_bounds_its_samples() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    let trace = trace.to_str().unwrap();
    assert!(
        dodbench(&["gen", "fill", "--n", "10", "-o", trace])
            .status
            .success()
    );
    assert_user_error(
        &dodbench(&["replay", trace, "--samples", "18446744073709551615"]),
        "above the limit 10000",
    );
    assert_user_error(
        &dodbench(&["replay", trace, "--samples", "0"]),
        "at least 1",
    );
}
