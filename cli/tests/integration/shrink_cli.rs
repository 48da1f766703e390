//! `dodbench shrink` end to end on the suite's real upstream failure (kiddo 5.3.3's mutable
//! tree on `sp-clustered` at 100,000 points): the shrunk trace still fails under `dodbench
//! replay`, which prints the command that shrinks it, and the standalone program is the one
//! kept in `docs/upstream/kiddo-split/` (`DODBENCH_BLESS=1` rewrites it). Bad input gets one
//! line and exit status 2.

use std::path::Path;

use crate::support::{dodbench, text};

fn repo_file(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

#[test]
fn the_kiddo_failure_shrinks_to_a_small_trace_and_a_standalone_program() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kiddo");
    let out_arg = out.to_str().unwrap();
    let run = dodbench(&[
        "shrink",
        "--workload",
        "sp-clustered",
        "--n",
        "100000",
        "--design",
        "kiddo",
        "--out",
        out_arg,
    ]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    // The figures README.md and docs/kiddo-report.md give: the space, 177 points and one
    // query, of 101,001 ops, and no single op or run can go.
    assert!(
        stdout.contains("kiddo fails on 179 ops (178 setup, 1 body) of the 101001 it failed on"),
        "{stdout}"
    );

    let trace = workloads::format::load_any_from_path(out.join("shrunk.trace")).unwrap();
    let (setup, body) = trace.op_counts();
    assert!(
        (setup + body) * 20 <= 101_001,
        "{setup} + {body} ops are not 5% of the 101,001"
    );
    let account = std::fs::read_to_string(out.join("failure.txt")).unwrap();
    assert!(
        account.contains("What differs: the body's answers differ from the model's."),
        "{account}"
    );
    assert!(account.contains("On the original trace: body digest differs"));
    assert!(
        account.contains("no single op or run of ops can be removed and keep the failure"),
        "{account}"
    );

    // The shrunk trace still fails on the design, and replay says how to shrink it.
    let shrunk = out.join("shrunk.trace");
    let replay = dodbench(&[
        "replay",
        shrunk.to_str().unwrap(),
        "--design",
        "kiddo",
        "--samples",
        "1",
    ]);
    let replayed = text(&replay.stdout);
    assert!(
        replayed.contains("failed: body digest differs"),
        "{replayed}"
    );
    assert!(
        replayed.contains(&format!(
            "shrink kiddo's failure: dodbench shrink {} --design kiddo --out \
             target/dodbench/shrink/kiddo-shrunk",
            shrunk.display()
        )),
        "{replayed}"
    );

    // The standalone program is the one the docs keep.
    for file in ["Cargo.toml", "src/main.rs"] {
        let written = std::fs::read_to_string(out.join("repro").join(file)).unwrap();
        let kept = repo_file(&format!("docs/upstream/kiddo-split/{file}"));
        if std::env::var_os("DODBENCH_BLESS").is_some() {
            std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
            std::fs::write(&kept, &written).unwrap();
        }
        let committed = std::fs::read_to_string(&kept).unwrap_or_default();
        assert!(
            committed == written,
            "docs/upstream/kiddo-split/{file} differs from what `dodbench shrink` writes \
             (DODBENCH_BLESS=1 cargo test -p dodbench --test integration shrink_cli rewrites it)"
        );
    }
}

#[test]
fn bad_shrink_requests_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_arg = out.to_str().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let base = ["shrink", "--workload", "sp-uniform", "--n", "1000"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--design", "no-such-design", "--out", out_arg],
            "unknown spatial design \"no-such-design\"; valid designs: ",
        ),
        (
            vec!["--design", "kiddo", "--out", out_arg],
            "kiddo does not fail verification on this trace (verified)",
        ),
        (
            vec!["--design", "kiddo", "--out", file.to_str().unwrap()],
            "exists and is not a directory",
        ),
        (
            vec!["--design", "kiddo", "--out", out_arg, "--time-limit", "0"],
            "--time-limit must be between 1 and 86400 seconds, not 0",
        ),
    ];
    for (extra, expected) in cases {
        let args: Vec<&str> = base.iter().copied().chain(extra).collect();
        let run = dodbench(&args);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"not a directory",
        "a refused --out was touched"
    );
}
