//! What the CLI's end-to-end tests share.

use std::process::Command;

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
