//! Every generated block of `README.md` and `docs/` is what `dodbench::docs::blocks` computes
//! from the committed reference run (`docs/reference/results.json`) and a second run of its
//! commit (`docs/reference/results-again.json`), `.ci/run`'s step times
//! (`docs/reference/ci-step-times.tsv`) and a fresh clone's first commands
//! (`docs/reference/fresh-clone-times.tsv`) now: a figure edited by hand, or left behind when
//! one of them changes, fails this test. To refresh:
//! `DODBENCH_BLESS=1 cargo test -p dodbench --test integration docs_blocks`.

use std::path::Path;

use dodbench::docs::{
    CI_STEP_TIMES, FRESH_CLONE_TIMES, REFERENCE_RUN, REFERENCE_RUN_AGAIN, StepTables, blocks, fill,
};
use results::Results;

#[test]
fn generated_blocks_match_the_reference_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let run =
        Results::load(&root.join(REFERENCE_RUN)).unwrap_or_else(|e| panic!("{REFERENCE_RUN}: {e}"));
    let again = Results::load(&root.join(REFERENCE_RUN_AGAIN))
        .unwrap_or_else(|e| panic!("{REFERENCE_RUN_AGAIN}: {e}"));
    let bless = std::env::var_os("DODBENCH_BLESS").is_some();
    let mut stale = Vec::new();
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (ci, fresh_clone) = (read(CI_STEP_TIMES), read(FRESH_CLONE_TIMES));
    let tables = StepTables {
        ci: &ci,
        fresh_clone: &fresh_clone,
    };
    for block in blocks(&run, &again, tables).unwrap_or_else(|e| panic!("{e}")) {
        let path = root.join(block.page);
        let page = std::fs::read_to_string(&path).unwrap();
        let now =
            fill(&page, block.name, &block.text).unwrap_or_else(|e| panic!("{}: {e}", block.page));
        if now != page {
            if bless {
                std::fs::write(&path, now).unwrap();
            } else {
                stale.push(format!("{} ({})", block.page, block.name));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "generated blocks differ from the reference run: {}; run DODBENCH_BLESS=1 cargo test -p \
         dodbench --test integration docs_blocks",
        stale.join(", ")
    );
}

#[test]
fn the_reference_run_reads_as_any_results_file() {
    // What the README promises: the claims and the report of the committed run, with nothing
    // run first.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = Results::load(&root.join(REFERENCE_RUN)).unwrap();
    assert!(
        run.benchmarks
            .iter()
            .any(|b| b.verified && b.ns_per_op.is_some())
    );
    assert!(
        run.benchmarks.iter().any(|b| b.sim.is_some()),
        "the cache pass is in it"
    );
    let judgements = results::verdict::judge_run(&run);
    assert!(!judgements.is_empty());
    let out = tempfile::tempdir().unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_dodbench"))
        .arg("report")
        .arg("--results")
        .arg(root.join(REFERENCE_RUN))
        .arg("--out")
        .arg(out.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert!(out.path().join("claims.html").is_file());
}
