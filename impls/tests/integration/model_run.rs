//! The model tests' runner ([`support::ModelRun`]) checked on a planted bug, so its promises
//! cannot hold vacuously: every failing design is reported (not just the first) with its seed
//! and its minimal input, the printed seed replays the same failure, different designs get
//! different fixed seeds, and a saved failure is replayed first by a later run.

use crate::support;

use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;
use support::{ModelRun, SeedChoice, fixed_seed, parse_seed};

/// Lists of bytes; the planted bug is the byte 77 (about one list in twenty-five holds it, so
/// a run of 256 cases finds it and a single replayed case is unlikely to by chance).
fn lists() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..10)
}

fn no_planted_byte(list: Vec<u8>) -> TestCaseResult {
    prop_assert!(!list.contains(&77), "planted byte in {:?}", list);
    Ok(())
}

fn always_passes(_: Vec<u8>) -> TestCaseResult {
    Ok(())
}

/// A run like the model tests', without touching the committed regressions.
fn run(seeds: SeedChoice, cases: u32) -> ModelRun {
    ModelRun::new("model_run", "planted", cases)
        .with_seeds(seeds)
        .with_regressions(None)
}

#[test]
fn every_failing_design_is_reported_with_a_seed_that_replays_it() {
    let mut all = run(SeedChoice::Fixed, 256);
    all.check("alpha", lists(), no_planted_byte);
    all.check("passing", lists(), always_passes);
    all.check("beta", lists(), no_planted_byte);
    let failures = all.failures().to_vec();

    let designs: Vec<&str> = failures.iter().map(|f| f.design.as_str()).collect();
    assert_eq!(designs, ["alpha", "beta"], "{failures:#?}");
    assert_ne!(failures[0].seed, failures[1].seed, "designs share a seed");
    for f in &failures {
        assert_eq!(f.seed, fixed_seed("model_run", "planted", &f.design));
        // Shrinking leaves the one planted byte.
        assert!(
            f.report.contains("minimal failing input: [\n    77,\n]"),
            "{}",
            f.report
        );
        assert!(
            f.replay
                .ends_with("cargo test -p impls --test integration -- --exact model_run::planted")
        );

        // The seed as printed in the replay command, run again, fails the same way.
        let printed = f
            .replay
            .strip_prefix("DODBENCH_TEST_SEED=")
            .and_then(|rest| rest.split(' ').next())
            .and_then(parse_seed);
        assert_eq!(printed, Some(f.seed), "{}", f.replay);
        let mut again = run(SeedChoice::Given(f.seed), 256);
        again.check(&f.design, lists(), no_planted_byte);
        assert_eq!(again.failures(), std::slice::from_ref(f));
    }
}

#[test]
fn a_passing_run_reports_nothing_and_finishes_quietly() {
    let mut all = run(SeedChoice::Random, 64);
    all.check("passing", lists(), always_passes);
    assert!(all.failures().is_empty());
    all.finish();
}

#[test]
#[should_panic(expected = "2 design(s) disagree with the model in model_run::planted")]
fn finish_panics_once_listing_every_failing_design() {
    let mut all = run(SeedChoice::Fixed, 256);
    all.check("alpha", lists(), no_planted_byte);
    all.check("beta", lists(), no_planted_byte);
    all.finish();
}

#[test]
fn a_saved_failure_is_replayed_first_by_a_later_run() {
    let path = std::env::temp_dir().join(format!(
        "dodbench-model-run-{}-{:?}.txt",
        std::process::id(),
        std::time::SystemTime::now()
    ));
    let path: &'static str = String::leak(path.to_string_lossy().into_owned());
    // With no cases of its own a run checks only saved ones: none yet.
    let mut before = run(SeedChoice::Fixed, 0).with_regressions(Some(path));
    before.check("alpha", lists(), no_planted_byte);
    assert!(before.failures().is_empty());

    let mut finding = run(SeedChoice::Fixed, 256).with_regressions(Some(path));
    finding.check("alpha", lists(), no_planted_byte);
    assert_eq!(finding.failures().len(), 1);
    let saved = std::fs::read_to_string(path).expect("proptest saved the failing case");
    assert!(saved.lines().any(|l| l.starts_with("cc ")), "{saved}");

    // Another design, no cases of its own: the saved case alone makes it fail.
    let mut later = run(SeedChoice::Fixed, 0).with_regressions(Some(path));
    later.check("beta", lists(), no_planted_byte);
    assert_eq!(later.failures().len(), 1, "the saved case was not replayed");
    assert!(later.failures()[0].report.contains("77"));
    std::fs::remove_file(path).ok();
}
