//! What the CLI's end-to-end tests share.

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
