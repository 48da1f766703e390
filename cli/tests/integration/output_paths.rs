//! End-to-end tests of the one output rule (`results::write_atomically`) through the real
//! binary: a symbolic link stays a link and its target gets the data, a FIFO stays a FIFO and
//! its reader gets every byte, `/dev/null` stays a device, `-` is stdout, a directory is
//! refused by name; for `export`, `gen`, `convert-wee-alloc`, `compare --update-baseline`,
//! `history append` and `report --out`.

#![cfg(unix)]

use std::os::unix::fs::{FileTypeExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Longest any one command may take before the test kills it and fails (a FIFO without a
/// reader, or a writer that never opens it, would otherwise block forever).
const TIME_LIMIT: Duration = Duration::from_secs(120);

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports/tests/fixtures/families_results.json")
}

/// Runs dodbench with `args`, killing it (by its id) and failing past [`TIME_LIMIT`].
fn dodbench(args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_dodbench"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run dodbench");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(out) => out.expect("wait for dodbench"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("dodbench {args:?} did not finish within {TIME_LIMIT:?}");
        }
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn assert_success(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

fn is_symlink(p: &Path) -> bool {
    std::fs::symlink_metadata(p).unwrap().is_symlink()
}

/// Runs dodbench with `args`, which name the symbolic link `link` as an output: checks that
/// it succeeds and `link` is still a link.
fn assert_writes_through(link: &Path, args: &[&str]) {
    assert_success(&dodbench(args));
    assert!(is_symlink(link), "{args:?} replaced the link");
}

/// The export of the fixture, as `-o -` prints it.
fn export_to_stdout() -> Vec<u8> {
    let out = export_to(Path::new("-"));
    assert_success(&out);
    assert!(out.stdout.len() > 100);
    serde_json::from_slice::<serde_json::Value>(&out.stdout).expect("stdout is the export");
    out.stdout
}

fn export_to(path: &Path) -> Output {
    dodbench(&[
        "export",
        "--format",
        "github-action-benchmark",
        "--results",
        s(&fixture()),
        "-o",
        s(path),
    ])
}

#[test]
fn dash_is_stdout_and_equals_the_file_export() {
    let expected = export_to_stdout();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.json");
    assert_success(&export_to(&file));
    assert_eq!(std::fs::read(&file).unwrap(), expected);
    // `/dev/stdout` (here a pipe, through `/proc/self/fd/1`) is written through too.
    let out = export_to(Path::new("/dev/stdout"));
    assert_success(&out);
    assert_eq!(out.stdout, expected);
}

#[test]
fn a_symlinked_export_keeps_the_link_and_fills_its_target() {
    let expected = export_to_stdout();
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.json");
    std::fs::write(&real, b"old").unwrap();
    let link = dir.path().join("link.json");
    symlink("real.json", &link).unwrap();
    assert_success(&export_to(&link));
    assert!(is_symlink(&link));
    assert_eq!(std::fs::read(&real).unwrap(), expected);
    // A dangling link's target is created, in a directory created for it.
    let dangling = dir.path().join("dangling.json");
    symlink("later/made.json", &dangling).unwrap();
    assert_success(&export_to(&dangling));
    assert!(is_symlink(&dangling));
    assert_eq!(
        std::fs::read(dir.path().join("later/made.json")).unwrap(),
        expected
    );
}

#[test]
fn a_fifo_stays_a_fifo_and_its_reader_gets_every_byte() {
    let expected = export_to_stdout();
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let (tx, rx) = mpsc::channel();
    {
        let fifo = fifo.clone();
        // Opened before and while the writer runs: the writer's open waits for it.
        std::thread::spawn(move || tx.send(std::fs::read(fifo)));
    }
    let out = export_to(&fifo);
    assert_success(&out);
    let read = rx
        .recv_timeout(TIME_LIMIT)
        .expect("the reader finished")
        .expect("the reader read the FIFO");
    assert_eq!(read, expected);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn dev_null_stays_a_character_device() {
    // As root a rename onto /dev/null would succeed and turn it into a file; as any user
    // the write must succeed.
    let out = export_to(Path::new("/dev/null"));
    assert_success(&out);
    let kind = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/null is no longer a device");
    // A device that refuses the bytes is an error, not a silent success.
    if Path::new("/dev/full").exists() {
        let out = export_to(Path::new("/dev/full"));
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("No space left on device"));
        let kind = std::fs::symlink_metadata("/dev/full").unwrap().file_type();
        assert!(kind.is_char_device(), "/dev/full is no longer a device");
    }
}

#[test]
fn a_directory_is_refused_by_name_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("a-directory");
    std::fs::create_dir(&target).unwrap();
    let out = export_to(&target);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim(),
        format!(
            "dodbench: cannot write {}: Is a directory",
            target.display()
        )
    );
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
    // The same for a trace.
    let out = dodbench(&["gen", "fill", "--n", "10", "-o", s(&target)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("Is a directory"), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
}

#[test]
fn update_baseline_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("kept");
    std::fs::create_dir(&kept).unwrap();
    let link = dir.path().join("baseline.json");
    symlink("kept/baseline.json", &link).unwrap();
    let update = || {
        dodbench(&[
            "compare",
            s(&link),
            s(&fixture()),
            "--update-baseline",
            "--allow-failed",
        ])
    };
    // First through the dangling link (its target is created), then over the file.
    assert_success(&update());
    assert!(is_symlink(&link));
    let first = std::fs::read(kept.join("baseline.json")).unwrap();
    assert!(first.starts_with(b"{"));
    let out = update();
    assert_success(&out);
    assert!(is_symlink(&link));
    assert_eq!(std::fs::read(kept.join("baseline.json")).unwrap(), first);
    // The previous baseline is kept beside the path the user named.
    assert_eq!(
        std::fs::read(dir.path().join("baseline.json.prev")).unwrap(),
        first
    );
    // `-` cannot be a baseline: it is read before it is rewritten.
    let out = dodbench(&[
        "compare",
        "-",
        s(&fixture()),
        "--update-baseline",
        "--allow-failed",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn history_append_through_a_symlink_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("history.jsonl");
    symlink("kept/history.jsonl", &link).unwrap();
    for _ in 0..2 {
        assert_success(&dodbench(&[
            "history",
            "append",
            s(&link),
            "--results",
            s(&fixture()),
        ]));
    }
    assert!(is_symlink(&link));
    let lines = std::fs::read_to_string(dir.path().join("kept/history.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 2);
    // `-` prints the line.
    let out = dodbench(&["history", "append", "-", "--results", s(&fixture())]);
    assert_success(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        lines.lines().next().unwrap().to_owned() + "\n"
    );
}

#[test]
fn traces_go_through_symlinks_and_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("tl.dodtrace");
    symlink("real.dodtrace", &link).unwrap();
    assert_writes_through(&link, &["gen", "churn-hot", "--n", "100", "-o", s(&link)]);
    let written = std::fs::read(dir.path().join("real.dodtrace")).unwrap();
    workloads::format::from_bytes_any(&written).expect("the target holds the trace");
    // The same trace on stdout, its summary on stderr.
    let out = dodbench(&["gen", "churn-hot", "--n", "100", "-o", "-"]);
    assert_success(&out);
    assert_eq!(out.stdout, written);
    assert!(
        stderr(&out).contains("wrote - (id_table trace)"),
        "{}",
        stderr(&out)
    );
    // A converted trace follows the same rule.
    let wee =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../workloads/traces/wee_alloc/find.trace");
    let converted = dir.path().join("converted.dodtrace");
    symlink("sub/converted.dodtrace", &converted).unwrap();
    assert_writes_through(
        &converted,
        &["convert-wee-alloc", s(&wee), "-o", s(&converted)],
    );
    let bytes = std::fs::read(dir.path().join("sub/converted.dodtrace")).unwrap();
    workloads::format::from_bytes_any(&bytes).expect("the target holds the trace");
}

#[test]
fn a_report_directory_follows_a_symlink_and_refuses_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("report");
    symlink("real-report", &link).unwrap();
    assert_writes_through(
        &link,
        &["report", "--results", s(&fixture()), "--out", s(&link)],
    );
    assert!(dir.path().join("real-report/index.html").is_file());
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let out = dodbench(&["report", "--results", s(&fixture()), "--out", s(&file)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(s(&file)), "{err}");
    assert!(err.contains("is a regular file, not a directory"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}
