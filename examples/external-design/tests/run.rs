//! Runs the example's suite (the binary twin of `benches/suite.rs`) in quick mode on two
//! ID-table workloads at N = 1000, and checks that its design is in the results and the report
//! beside the built-in ones, and that the deliberately broken copy is reported `failed`.
//! (The user-facing `DODBENCH_QUICK=1 cargo bench` runs the whole quick matrix; the test keeps
//! to a few benchmarks so it takes seconds.)

use std::path::Path;
use std::process::Command;

use dodbench::results::stats::MIN_ROUNDS;
use dodbench::results::{Results, Status};

/// Runs the example binary in quick mode with its outputs under `target`.
fn run_suite(target: &Path, broken: bool) -> Results {
    run_filtered(target, broken, "^id_table/lookup-(uniform|stale)/").0
}

/// The example binary in quick mode at N = 1000 on the benchmarks `filter` selects, with its
/// outputs under `target`.
fn quick_bench(target: &Path, filter: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_external-design"));
    command
        .args(["--bench", filter])
        .env("DODBENCH_QUICK", "1")
        .env("DODBENCH_SIZES", "1000")
        .env("CARGO_TARGET_DIR", target)
        .env_remove("DODBENCH_TIMER")
        .env_remove("DODBENCH_SHARD");
    command
}

/// Runs the example binary in quick mode on the benchmarks `filter` selects; the results and
/// what the run printed.
fn run_filtered(target: &Path, broken: bool, filter: &str) -> (Results, String) {
    let mut command = quick_bench(target, filter);
    if broken {
        command.env("EXTERNAL_DESIGN_BROKEN", "1");
    } else {
        command.env_remove("EXTERNAL_DESIGN_BROKEN");
    }
    let output = command.output().expect("the example binary runs");
    assert!(
        output.status.success(),
        "the suite failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results =
        Results::load(&target.join("dodbench").join("results.json")).expect("results written");
    (
        results,
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn the_example_design_runs_beside_the_built_in_ones_and_a_broken_copy_fails() {
    let dir = tempfile::tempdir().unwrap();
    let results = run_suite(dir.path(), false);
    let record = results
        .designs
        .iter()
        .find(|d| d.name == "vecgen")
        .expect("the example design is recorded");
    assert_eq!(record.kind, "external");
    assert!(results.designs.iter().any(|d| d.name == "holey"));
    let ours: Vec<_> = results
        .benchmarks
        .iter()
        .filter(|b| b.design == "vecgen")
        .collect();
    assert_eq!(ours.len(), 2, "lookup-uniform and lookup-stale at N=1000");
    assert!(
        ours.iter()
            .all(|b| b.verified && b.ns_per_op.is_some_and(|e| e.median > 0.0)),
        "{ours:?}"
    );
    let page = std::fs::read_to_string(dir.path().join("dodbench/report/id_table.html"))
        .expect("the family page is written");
    assert!(page.contains("vecgen") && page.contains("external"));

    let broken_dir = tempfile::tempdir().unwrap();
    let results = run_suite(broken_dir.path(), true);
    let stale = results
        .benchmarks
        .iter()
        .find(|b| b.design == "vecgen-broken" && b.workload == "lookup-stale")
        .expect("the broken copy ran lookup-stale");
    assert_eq!(stale.status, Status::Failed, "{stale:?}");
    assert!(stale.ns_per_op.is_none());
    assert!(stale.reason.as_deref().is_some_and(|r| !r.is_empty()));
    // dodbench does not know the user's design by name: the failure names the library call.
    let shrink = stale.shrink.as_deref().unwrap_or_default();
    assert!(
        shrink.starts_with("dodbench::external::shrink::<Family, YourDesign>(ShrinkSource::Workload { name: \"lookup-stale\", n: 1000, seed: "),
        "{shrink}"
    );
}

#[test]
fn the_broken_copys_failure_shrinks_through_the_library() {
    use dodbench::external::ShrinkSource;
    use dodbench::external::replay::IdTableFamily;
    use dodbench::workloads::Payload;
    use external_design::BrokenVecGen;

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shrunk");
    let source = ShrinkSource::Workload {
        name: "lookup-stale",
        n: 1000,
        seed: 1,
    };
    dodbench::external::shrink::<IdTableFamily, BrokenVecGen<Payload>>(
        source,
        &out,
        std::time::Duration::from_secs(60),
    )
    .expect("the broken copy fails lookup-stale and shrinks");
    let trace = dodbench::workloads::format::load_any_from_path(out.join("shrunk.trace"))
        .expect("the shrunk trace is written");
    let (setup, body) = trace.op_counts();
    assert!(setup + body <= 50, "{setup} setup and {body} body ops");
    let account = std::fs::read_to_string(out.join("failure.txt")).unwrap();
    assert!(
        account.starts_with("vecgen-broken (id_table family) fails"),
        "{account}"
    );
    assert!(
        !out.join("repro").exists(),
        "no standalone program for an external design"
    );
}

#[test]
fn a_cell_is_timed_in_interleaved_rounds_and_criterion_remains_a_choice() {
    let dir = tempfile::tempdir().unwrap();
    let (results, said) = run_filtered(dir.path(), false, "^id_table/lookup-uniform/");
    let timed: Vec<_> = results.benchmarks.iter().filter(|b| b.verified).collect();
    assert!(
        timed.len() > 20,
        "every design and loop of the cell: {}",
        timed.len()
    );
    let first = timed[0].rounds.as_ref().expect("timed in rounds");
    // Every contestant ran the cell's rounds, at least 10 in a quick cell, but one that spent
    // its budget with its comparisons settled, which left after the rounds whose intervals
    // are read; those of comparisons left open ran more.
    let lengths = timed.iter().map(|b| b.samples_ns_per_op.len());
    let (rounds, most) = (lengths.clone().min().unwrap(), lengths.max().unwrap());
    assert!(
        rounds >= MIN_ROUNDS as usize && most >= 10,
        "a quick cell has at least 10 rounds, and a contestant at least {MIN_ROUNDS}: \
         {rounds}-{most}"
    );
    for b in &timed {
        let r = b
            .rounds
            .as_ref()
            .expect("every benchmark of the cell has its rounds");
        assert_eq!(
            r.session, first.session,
            "{}: one session per cell",
            b.design
        );
        let own = b.samples_ns_per_op.len();
        assert!(
            (rounds..=60).contains(&own),
            "{}: one sample per round it ran, {own}",
            b.design
        );
        assert!(r.iters >= 1);
        let best = r.to_best.as_ref().expect("a ratio to the cell's best");
        let best_design = timed
            .iter()
            .find(|o| o.design == best.against && !o.family.is_reference())
            .expect("the best design is in the cell");
        assert_eq!(
            best.rounds as usize,
            own.min(best_design.samples_ns_per_op.len()),
            "{}: paired over the rounds both ran",
            b.design
        );
        assert!(best.ratio.lower <= best.ratio.median && best.ratio.median <= best.ratio.upper);
        if b.design == "holey" || b.family.is_reference() {
            assert!(r.to_reference.is_none(), "{}", b.design);
        } else {
            let to_ref = r.to_reference.as_ref().expect("a ratio to holey");
            assert_eq!(to_ref.against, "holey");
        }
    }
    let overhead = results
        .benchmarks
        .iter()
        .find(|b| b.design == "ref-direct-holey")
        .and_then(|b| b.overhead)
        .expect("the hand-written loop's overhead, paired");
    assert!(overhead > 0.0);
    assert!(said.contains("benchmarks verified and timed"), "{said}");

    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_external-design"))
        .args(["--bench", "^id_table/lookup-uniform/(holey|vecgen)/"])
        .env("DODBENCH_QUICK", "1")
        .env("DODBENCH_SIZES", "1000")
        .env("DODBENCH_TIMER", "criterion")
        .env("CARGO_TARGET_DIR", dir.path())
        .env_remove("EXTERNAL_DESIGN_BROKEN")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = Results::load(&dir.path().join("dodbench/results.json")).unwrap();
    assert_eq!(results.benchmarks.len(), 2);
    for b in &results.benchmarks {
        assert!(b.verified && b.ns_per_op.is_some(), "{b:?}");
        assert!(b.rounds.is_none(), "criterion times each benchmark alone");
    }
    assert!(
        dir.path().join("criterion").is_dir(),
        "criterion's own output"
    );
}

#[test]
fn a_filtered_run_keeps_the_other_benchmarks_of_the_same_run() {
    let dir = tempfile::tempdir().unwrap();
    let (full, _) = run_filtered(dir.path(), false, "^id_table/lookup-(uniform|stale)/");
    let ids = |r: &Results| {
        let mut ids: Vec<String> = r.benchmarks.iter().map(|b| b.id()).collect();
        ids.sort();
        ids
    };
    let (rerun, said) = run_filtered(dir.path(), false, "^id_table/lookup-uniform/vecgen/");
    assert_eq!(
        ids(&rerun),
        ids(&full),
        "every benchmark of the first run is kept"
    );
    assert!(
        said.contains("this run replaced 1 and added 0"),
        "the closing line says what happened: {said}"
    );
    let bench = rerun.steps.iter().filter(|s| s.step == "bench").count();
    assert_eq!(bench, 1, "one bench step, merged");
    for id in ids(&full) {
        assert!(
            !rerun.steps.iter().any(|s| s.excludes(&id)),
            "{id} was measured by one of the runs, so no step excludes it"
        );
    }
    let page = std::fs::read_to_string(dir.path().join("dodbench/report/id_table.html"))
        .expect("the family page is written");
    assert!(
        page.contains("lookup-stale"),
        "the report shows the kept benchmarks"
    );

    // A run of another mode starts a new file and keeps the old one beside it.
    let mut command = Command::new(env!("CARGO_BIN_EXE_external-design"));
    let output = command
        .args(["--bench", "^id_table/lookup-uniform/vecgen/"])
        .env("DODBENCH_FRESH", "1")
        .env("DODBENCH_QUICK", "1")
        .env("DODBENCH_SIZES", "1000")
        .env("CARGO_TARGET_DIR", dir.path())
        .env_remove("EXTERNAL_DESIGN_BROKEN")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("a new file: DODBENCH_FRESH=1"), "{said}");
    let fresh = Results::load(&dir.path().join("dodbench/results.json")).unwrap();
    assert_eq!(fresh.benchmarks.len(), 1);
    let prev = Results::load(&dir.path().join("dodbench/results.prev.json")).unwrap();
    assert_eq!(ids(&prev), ids(&full));
}

#[test]
fn results_land_in_the_target_directory_of_a_binary_run_by_hand() {
    // A user's bench binary run by hand (no cargo around it): it sits in its own
    // `target/<profile>/deps`, and dodbench finds that directory at run time.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("user-crate").join("target");
    let deps = target.join("release").join("deps");
    std::fs::create_dir_all(&deps).unwrap();
    std::fs::write(
        target.join("CACHEDIR.TAG"),
        "Signature: 8a477f597d28d172789f06886806bc55\n",
    )
    .unwrap();
    let exe = deps.join("suite-0123456789abcdef");
    std::fs::copy(env!("CARGO_BIN_EXE_external-design"), &exe).unwrap();
    let output = Command::new(&exe)
        .args(["--bench", "^id_table/lookup-uniform/vecgen/"])
        .current_dir(dir.path().join("user-crate"))
        .env("DODBENCH_QUICK", "1")
        .env("DODBENCH_SIZES", "1000")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO")
        .env_remove("EXTERNAL_DESIGN_BROKEN")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{said}");
    let results = Results::load(&target.join("dodbench").join("results.json"))
        .expect("results under the user's own target/");
    assert_eq!(results.benchmarks.len(), 1);
    assert!(target.join("dodbench/report/index.html").is_file());
    assert!(said.contains(&target.display().to_string()), "{said}");
}

/// The user crate's dev profiles: the workspace's `[profile.dev...]` sections, so the crates
/// from the registry (`"*"`) are built as `cargo test` built them and are reused; and
/// `opt-level = 0` for this workspace's own crates (in place of their workspace sections),
/// which outside the workspace are not members and would fall under `"*"` too, so they
/// compile again whatever their settings, and at `opt-level = 0` several times faster than
/// optimised (this test times nothing).
fn user_dev_profiles(root: &Path) -> String {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .lines()
        .find_map(|l| l.strip_prefix("members = ["))
        .expect("the workspace lists its members on one line");
    let names: Vec<String> = members
        .trim_end_matches(']')
        .split(',')
        .map(|member| {
            let dir = root.join(member.trim().trim_matches('"'));
            let member_manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            member_manifest
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .expect("a member names its package")
                .to_owned()
        })
        .collect();
    // A member's own section, its name bare or quoted.
    let member_section = |line: &str| {
        let line = line.replace('"', "");
        names
            .iter()
            .any(|name| line == format!("[profile.dev.package.{name}]"))
    };
    let mut profiles = String::new();
    let mut keep = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            keep = (line.starts_with("[profile.dev]") || line.starts_with("[profile.dev."))
                && !member_section(line);
        }
        if keep && !line.starts_with('#') {
            profiles.push_str(line);
            profiles.push('\n');
        }
    }
    assert!(
        profiles.contains("[profile.dev]"),
        "the workspace has a dev profile"
    );
    for name in &names {
        profiles.push_str(&format!("\n[profile.dev.package.{name}]\nopt-level = 0\n"));
    }
    profiles
}

/// The user's `Cargo.toml` (`{cli}`, `{example}`: paths in this repository; `{profiles}`:
/// [`user_dev_profiles`]): the README's step 1.
const USER_MANIFEST: &str = r#"[package]
name = "user-crate"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
dodbench = { path = "{cli}" }
external-design = { path = "{example}" }

[[bench]]
name = "suite"
harness = false

{profiles}
[workspace]
"#;

/// The user's `benches/suite.rs`: the README's step 3, with the example's design.
const USER_BENCH: &str = "fn main() {
    dodbench::external::main::<
        dodbench::external::replay::IdTableFamily,
        external_design::VecGen<dodbench::workloads::Payload>,
    >();
}
";

#[test]
fn a_crate_that_depends_on_dodbench_writes_under_its_own_target() {
    // A real crate outside the workspace, as the README's "Benchmark your own design" has the
    // user write it: depends on dodbench by path, a harness-less bench, `cargo bench`. Its
    // target directory is its own; its build directory (`CARGO_BUILD_BUILD_DIR`, where cargo
    // keeps the dependencies and runs bench binaries from) is this workspace's, so the
    // registry crates `cargo test` already built are reused (see `user_dev_profiles`) and the
    // bench runs from outside the crate's target directory: dodbench must ask cargo where
    // that is.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let build_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is target/tmp")
        .to_path_buf();
    let dir = tempfile::tempdir().unwrap();
    let krate = dir.path().join("user-crate");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::create_dir_all(krate.join("benches")).unwrap();
    let manifest = USER_MANIFEST
        .replace("{cli}", &root.join("cli").display().to_string())
        .replace(
            "{example}",
            &root.join("examples/external-design").display().to_string(),
        )
        .replace("{profiles}", &user_dev_profiles(&root));
    std::fs::write(krate.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(krate.join("src/lib.rs"), "//! A user's crate.\n").unwrap();
    std::fs::write(krate.join("benches/suite.rs"), USER_BENCH).unwrap();
    std::fs::copy(root.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();

    let output = Command::new(env!("CARGO"))
        .args([
            "bench",
            "--profile",
            "dev",
            "--offline",
            "--bench",
            "suite",
            "--",
        ])
        .arg("^id_table/lookup-uniform/vecgen/")
        .current_dir(&krate)
        .env("CARGO_BUILD_BUILD_DIR", &build_dir)
        .env("DODBENCH_QUICK", "1")
        .env("DODBENCH_SIZES", "1000")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("EXTERNAL_DESIGN_BROKEN")
        .env_remove("DODBENCH_TIMER")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    let cargo_said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}\n{cargo_said}");
    assert!(
        cargo_said.contains(&build_dir.join("debug").join("deps").display().to_string()),
        "cargo runs the bench from the build directory, not the crate's target: {cargo_said}"
    );
    let target = krate.join("target");
    let results = Results::load(&target.join("dodbench").join("results.json"))
        .expect("results under the crate's own target/");
    assert!(
        results
            .benchmarks
            .iter()
            .any(|b| b.design == "vecgen" && b.verified),
        "{:?}",
        results.benchmarks
    );
    assert!(target.join("dodbench/report/index.html").is_file());
    assert!(said.contains(&target.display().to_string()), "{said}");
}

/// The bench split into three shards (`DODBENCH_SHARD`), each in a target directory of its
/// own as on three machines, and the shards merged: exactly the benchmarks of the same
/// selection run whole, with the same verdicts and deterministic numbers.
#[test]
fn three_shards_merge_into_the_benchmarks_of_the_whole_run() {
    const FILTER: &str = "^id_table/(lookup-uniform|lookup-stale|churn)/";
    let whole_dir = tempfile::tempdir().unwrap();
    let times = whole_dir.path().join("dodbench").join("results.json");
    let run = |target: &Path, shard: Option<&str>| {
        let mut command = quick_bench(target, FILTER);
        command.env_remove("EXTERNAL_DESIGN_BROKEN");
        if let Some(k) = shard {
            // Dealt by the whole run's cell times, as a CI matrix deals by an earlier run's.
            command
                .env("DODBENCH_SHARD", k)
                .env("DODBENCH_SHARD_TIMES", &times);
        }
        let output = command.output().expect("the example binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        let results =
            Results::load(&target.join("dodbench").join("results.json")).expect("results written");
        (results, stderr)
    };
    // What a benchmark's entry holds that does not depend on the run's timing.
    let deterministic = |r: &Results| {
        let mut rows: Vec<_> = r
            .benchmarks
            .iter()
            .map(|b| (b.id(), b.status, b.ops, b.memory_bytes, b.reason.clone()))
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    };
    let (whole, _) = run(whole_dir.path(), None);
    let mut shards = Vec::new();
    let mut dirs = Vec::new();
    for k in ["1/3", "2/3", "3/3"] {
        let dir = tempfile::tempdir().unwrap();
        let (shard, said) = run(dir.path(), Some(k));
        assert!(
            said.contains(&format!(
                "dodbench: shard {k}: 1 of the selection's 3 cells"
            )),
            "{said}"
        );
        assert!(said.contains("by the cell times of "), "{said}");
        assert!(!shard.benchmarks.is_empty(), "shard {k} ran nothing");
        shards.push(shard);
        dirs.push(dir);
    }
    let merged = dodbench::results::shards::merge_shards(shards).expect("the shards merge");
    assert_eq!(deterministic(&merged), deterministic(&whole));
    assert_eq!(merged.shard, None);
    let bench = merged.steps.iter().find(|s| s.step == "bench").unwrap();
    let whole_bench = whole.steps.iter().find(|s| s.step == "bench").unwrap();
    assert_eq!(bench.excluded, whole_bench.excluded);
    assert_eq!(bench.selection, whole_bench.selection);

    // A times file that cannot be read stops the run before it measures anything.
    let dir = tempfile::tempdir().unwrap();
    let output = quick_bench(dir.path(), FILTER)
        .env("DODBENCH_SHARD", "1/3")
        .env("DODBENCH_SHARD_TIMES", dir.path().join("missing.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("DODBENCH_SHARD_TIMES: "), "{stderr}");
    assert!(!dir.path().join("dodbench").join("results.json").exists());
}
