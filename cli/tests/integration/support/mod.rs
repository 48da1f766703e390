//! What the CLI's end-to-end tests share.

use std::path::Path;
use std::process::{Command, Output};

/// Whether valgrind is installed, for a test that needs it: without it the test returns early
/// (it is also listed as ignored, `cli/build.rs`), except under `CI=true`, where a missing
/// valgrind fails the test.
pub fn have_valgrind() -> bool {
    let found = Command::new("valgrind").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but valgrind is not installed (apt-get install valgrind)"
        );
        eprintln!("skipped: valgrind not found (apt-get install valgrind)");
    }
    found
}

/// Runs the `dodbench` binary with `args` and waits for it.
pub fn dodbench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dodbench"))
        .args(args)
        .output()
        .expect("run dodbench")
}

/// A process's output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `dodbench report` on the results files or directories `results` (a `--results` each),
/// writing the report to the directory `out`.
pub fn report(results: &[&Path], out: &Path) -> Output {
    let mut args = vec!["report"];
    for r in results {
        args.extend(["--results", r.to_str().unwrap()]);
    }
    args.extend(["--out", out.to_str().unwrap()]);
    dodbench(&args)
}

/// Checks that `out` is a user mistake: exit status 2 and one line on stderr, naming `needle`,
/// no panic. Returns that stderr, for the checks a test adds.
pub fn assert_user_error(out: &Output, needle: &str) -> String {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(needle), "expected {needle:?} in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one clear line: {stderr}");
    stderr
}
