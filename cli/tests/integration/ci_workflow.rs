//! The CI workflow users copy (`examples/ci/dodbench.yml`) cannot rot: every step it runs is a
//! call of `examples/ci/dodbench-ci.sh` with a subcommand the script has, the steps
//! `docs/ci-matrix.md` runs locally (in `documented_commands.rs`, as copied) are the workflow's, and
//! the history step, pointed at a branch, keeps every earlier run on it, whose cell times the
//! shard step deals by.

use std::path::{Path, PathBuf};
use std::process::Command;

const SCRIPT: &str = "examples/ci/dodbench-ci.sh";

fn repo(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo(relative)).unwrap()
}

/// The subcommands the script's `case` handles.
fn subcommands() -> Vec<String> {
    read(SCRIPT)
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(')'))
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_step_of_the_workflow_calls_the_script_and_the_docs_run_the_same_steps() {
    let known = subcommands();
    assert!(known.len() >= 6, "{known:?}");
    let workflow = read("examples/ci/dodbench.yml");
    let mut used = Vec::new();
    for line in workflow.lines() {
        let Some(run) = line
            .trim_start()
            .trim_start_matches("- ")
            .strip_prefix("run:")
        else {
            continue;
        };
        let call = run
            .trim()
            .strip_prefix(&format!("bash {SCRIPT} "))
            .unwrap_or_else(|| panic!("a step runs something else than {SCRIPT}: {line}"));
        let sub = call.split_whitespace().next().unwrap().to_string();
        assert!(known.contains(&sub), "{SCRIPT} has no step {sub:?}: {line}");
        used.push(sub);
    }
    for sub in ["shard", "merge", "gate", "comment", "history", "report"] {
        assert!(
            used.iter().any(|u| u == sub),
            "the workflow never runs {sub}"
        );
    }
    // Every step but the pull-request comment runs locally, as the page gives it.
    let page = read("docs/ci-matrix.md");
    for sub in used.iter().filter(|s| *s != "comment") {
        assert!(
            page.contains(&format!("bash {SCRIPT} {sub}")),
            "docs/ci-matrix.md does not run {sub}"
        );
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "test")
        .env("GIT_AUTHOR_EMAIL", "test@localhost")
        .env("GIT_COMMITTER_NAME", "test")
        .env("GIT_COMMITTER_EMAIL", "test@localhost")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_history_step_keeps_every_run_on_its_branch() {
    let dir = tempfile::tempdir().unwrap();
    let origin = dir.path().join("origin.git");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(
        dir.path(),
        &["init", "-q", "--bare", origin.to_str().unwrap()],
    );
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("README"), "a checkout\n").unwrap();
    git(&work, &["add", "README"]);
    git(&work, &["commit", "-qm", "first"]);
    git(
        &work,
        &["remote", "add", "origin", origin.to_str().unwrap()],
    );
    std::fs::create_dir_all(work.join("target/dodbench")).unwrap();
    // The reference run with cell times in its bench step, as every `cargo bench` records them.
    let mut run = results::Results::load(&repo(dodbench::docs::REFERENCE_RUN)).unwrap();
    let bench = run.steps.iter_mut().find(|s| s.step == "bench").unwrap();
    bench.cell_ms = [("id_table/churn/1000".to_string(), 1234)].into();
    run.save(&work.join("target/dodbench/results.json"))
        .unwrap();
    for run in 1..=2 {
        // Each CI job starts from a fresh checkout: no history file of its own.
        let _ = std::fs::remove_file(work.join("history.jsonl"));
        let out = Command::new("bash")
            .arg(repo(SCRIPT))
            .arg("history")
            .current_dir(&work)
            .env("DODBENCH", env!("CARGO_BIN_EXE_dodbench"))
            .env("DODBENCH_HISTORY_BRANCH", "dodbench-history")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "run {run}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let history = git(&origin, &["show", "dodbench-history:history.jsonl"]);
    assert_eq!(history.lines().count(), 2, "{history}");
    let commits = git(&origin, &["rev-list", "--count", "dodbench-history"]);
    assert_eq!(commits.trim(), "2");
    let files = git(&origin, &["ls-tree", "--name-only", "dodbench-history"]);
    assert_eq!(
        files.trim(),
        "history.jsonl",
        "the branch holds the history alone"
    );

    // A shard job deals by the cell times of the named commit's line on the branch, and by the
    // budget when the branch has no line of that commit. (`cargo`, the passes and valgrind are
    // stand-ins: only the deal's input is checked here.)
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stand_ins = [
        (
            "cargo",
            "#!/bin/sh\n{ echo \"shard $DODBENCH_SHARD\"; echo \"times ${DODBENCH_SHARD_TIMES:-none}\"; \
             if [ -n \"$DODBENCH_SHARD_TIMES\" ]; then cat \"$DODBENCH_SHARD_TIMES\"; fi; } \
             >cargo-saw.txt\n",
        ),
        ("valgrind", "#!/bin/sh\n"),
        ("passes", "#!/bin/sh\n"),
    ];
    for (name, script) in stand_ins {
        let path = bin.join(name);
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = std::env::join_paths(std::iter::once(bin.clone()).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    for (commit, expected) in [
        (run.commit.as_str(), "times shard-times.jsonl"),
        ("0000", "times none"),
    ] {
        let out = Command::new("bash")
            .arg(repo(SCRIPT))
            .args(["shard", "2", "3"])
            .current_dir(&work)
            .env("PATH", &path)
            .env("DODBENCH", bin.join("passes"))
            .env("DODBENCH_TIMES_BRANCH", "dodbench-history")
            .env("DODBENCH_TIMES_COMMIT", commit)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let saw = std::fs::read_to_string(work.join("cargo-saw.txt")).unwrap();
        assert!(
            saw.starts_with(&format!("shard 2/3\n{expected}\n")),
            "{commit}: {saw}"
        );
        if expected != "times none" {
            assert_eq!(saw.lines().count(), 3, "one history line: {saw}");
            assert!(saw.contains("\"id_table/churn/1000\":1234"), "{saw}");
        }
        assert!(work.join("shard-2.json").is_file());
    }
}
