//! `dodbench advise TRACE`: a recorded application trace (ID tables, where the designs without
//! stale-ID detection cannot run it) and a converted allocation trace are ranked, the report
//! is written, and bad input is one clear line. The verified designs are timed together in
//! interleaved rounds, and the summary says how sure its winner is.

use std::path::Path;

use bench_harness::replay::id_table::recording::Recording;
use impls::id_table::IdTable;
use impls::id_table::holey::Holey;
use results::{Results, Status};
use workloads::Payload;

use crate::support::{assert_user_error, dodbench, text};

/// Runs `advise` on `trace` with the report in `out` and the options `extra`, checks that it
/// succeeds, and returns its stdout, its stderr and the results it wrote.
fn advise_with(trace: &Path, out: &Path, extra: &[&str]) -> (String, String, Results) {
    let mut args = vec![
        "advise",
        trace.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let output = dodbench(&args);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{stdout}{stderr}");
    let results = Results::load(&out.join("results.json")).unwrap();
    (stdout, stderr, results)
}

/// Runs `advise` on `trace` with the report in `out`, two samples a design; checks that it
/// ranks and writes the report, and returns its stdout and the results.
fn advise(trace: &Path, out: &Path) -> (String, Results) {
    let (stdout, _, results) = advise_with(trace, out, &["--samples", "2"]);
    for place in ["  1. ", "  2. ", "  3. "] {
        assert!(stdout.contains(place), "{stdout}");
    }
    assert!(
        stdout.contains("faster than")
            || stdout.contains("slower than")
            || stdout.contains("cannot be told apart"),
        "{stdout}"
    );
    assert!(out.join("index.html").exists(), "{stdout}");
    (stdout, results)
}

/// The application of `bench-harness/tests/integration/replay_matches_model.rs`, recorded to a file.
fn recorded_application(path: &Path) {
    let mut app = Recording::new(Holey::<Payload>::new());
    let mut ids = Vec::new();
    for h in 0..200u32 {
        ids.push(app.insert(Payload::for_handle(h)).unwrap());
    }
    app.start_body();
    for round in 0..50usize {
        let victim = ids.remove((round * 7) % ids.len());
        assert!(app.remove(victim).is_some());
        assert!(app.get(victim).is_none());
        ids.push(app.insert(Payload::for_handle(200 + round as u32)).unwrap());
        let _ = app.get(ids[round % ids.len()]);
        if let Some(p) = app.get_mut(ids[(round * 3) % ids.len()]) {
            p.mutate();
        }
        if round % 10 == 0 {
            let _total = app.iter().fold(0u64, |s, p| s.wrapping_add(p.value));
        }
    }
    let trace = app.into_trace(0);
    std::fs::write(path, workloads::format::to_bytes(&trace).unwrap()).unwrap();
}

#[test]
fn advise_ranks_a_recorded_application_trace_and_lists_the_unsupported() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("app.dodtrace");
    recorded_application(&trace);
    let (stdout, results) = advise(&trace, &dir.path().join("report"));
    let designs = impls::id_table::designs();
    let (loops, timed): (Vec<_>, Vec<_>) = results
        .benchmarks
        .iter()
        .partition(|b| b.family.is_reference());
    assert_eq!(timed.len(), designs.len());
    // Every peer whose replay runs the trace is called directly too (its `ref-direct-` loop
    // runs any body); `slab`, which detects no stale ID, has none on its stale lookups.
    let mut mirrored: Vec<_> = loops.iter().filter_map(|b| b.mirrors.as_deref()).collect();
    mirrored.sort_unstable();
    assert_eq!(
        mirrored,
        [
            "generational-arena",
            "slotmap",
            "slotmap-dense",
            "slotmap-hop",
            "thunderdome"
        ],
        "{stdout}"
    );
    // The map designs have no generation: they cannot run a trace with stale lookups.
    let unsupported: Vec<_> = results
        .benchmarks
        .iter()
        .filter(|b| b.status == Status::Unsupported)
        .collect();
    assert!(!unsupported.is_empty(), "{stdout}");
    for b in unsupported {
        let reason = b.reason.as_deref().unwrap();
        assert!(
            stdout.contains(&format!("unsupported {}: {reason}", b.design)),
            "{stdout}"
        );
    }
    assert!(
        results
            .benchmarks
            .iter()
            .all(|b| b.status != Status::Failed)
    );
    // Memory is measured (the binary's counting allocator): bytes per object on the ranked.
    let first = &results.benchmarks[0];
    assert!(first.verified && first.memory.is_some(), "{first:?}");
    let page = std::fs::read_to_string(dir.path().join("report/id_table.html")).unwrap();
    assert!(page.contains(&first.design));
}

#[test]
fn advise_reports_progress_per_design_and_bounds_or_skips_the_cache_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("app.dodtrace");
    recorded_application(&trace);
    let out = dir.path().join("report");
    let run = |extra: &[&str]| advise_with(&trace, &out, &[&["--samples", "1"], extra].concat());
    let designs = impls::id_table::designs().len();
    let (stdout, stderr, results) = run(&["--no-cache-sim"]);
    // One line before the first design is verified, then one per design, then the rounds.
    let first = stderr.lines().next().unwrap_or("");
    assert!(first.starts_with("advise: id_table trace"), "{stderr}");
    assert!(
        stderr.contains(&format!("advise: [{designs}/{designs}] ")),
        "{stderr}"
    );
    assert!(stderr.contains("interleaved rounds"), "{stderr}");
    assert!(
        stdout.contains("simulated cache misses skipped: --no-cache-sim"),
        "{stdout}"
    );
    assert!(results.benchmarks.iter().all(|b| b.sim.is_none()));
    assert!(stdout.contains("advise: report at"), "{stdout}");

    let bad = dodbench(&["advise", trace.to_str().unwrap(), "--cache-sim-top", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("not a positive count or `all`"));
}

/// With valgrind, `--cache-sim-top 2` simulates the two fastest verified designs only.
#[test]
#[cfg_attr(
    dodbench_no_valgrind,
    ignore = "valgrind not found when this test was built (apt-get install valgrind)"
)]
fn advise_simulates_the_fastest_designs_only() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("app.dodtrace");
    recorded_application(&trace);
    let out = dir.path().join("report");
    let (stdout, stderr, results) =
        advise_with(&trace, &out, &["--samples", "1", "--cache-sim-top", "2"]);
    let simulated: Vec<_> = results
        .benchmarks
        .iter()
        .filter(|b| b.sim.is_some())
        .collect();
    assert_eq!(simulated.len(), 2, "{stdout}");
    assert!(stdout.contains("the fastest 2 of"), "{stdout}");
    assert!(stderr.contains("advise: cache [2/2] "));
}

/// Every verified design is timed in the same rounds, one sample per round, and the summary
/// states how sure its ranking is: the winner's lead with its interval, or a tie.
#[test]
fn advise_times_the_designs_in_interleaved_rounds_and_states_the_confidence() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("app.dodtrace");
    recorded_application(&trace);
    let out = dir.path().join("report");
    let rounds = 7;
    let (stdout, stderr, results) = advise_with(
        &trace,
        &out,
        &["--samples", &rounds.to_string(), "--no-cache-sim"],
    );
    let verified: Vec<_> = results.benchmarks.iter().filter(|b| b.verified).collect();
    assert!(verified.len() >= 2, "{stdout}");
    // The peers' reference loops (their crates called directly) are timed in the same rounds.
    let loops = verified.iter().filter(|b| b.family.is_reference()).count();
    assert!(loops > 0, "{stderr}");
    let designs = verified.len() - loops;
    assert!(
        stderr.contains(&format!(
            "advise: timing {designs} designs and {loops} reference loops in {rounds} \
             interleaved rounds"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "advise: timed {designs} designs and {loops} reference loops in {rounds} rounds"
        )),
        "{stderr}"
    );
    let session = verified[0].rounds.as_ref().unwrap().session;
    for b in &verified {
        let r = b
            .rounds
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no rounds", b.design));
        assert_eq!(r.session, session, "{}", b.design);
        assert!(r.iters >= 1);
        assert_eq!(b.samples_ns_per_op.len(), rounds, "{}", b.design);
        // Paired with the session's fastest design, round by round.
        assert_eq!(
            r.to_best.as_ref().map(|p| p.rounds),
            Some(rounds as u32),
            "{}",
            b.design
        );
    }
    let (winner, runner_up) = (&verified[0].design, &verified[1].design);
    let decided = stdout.lines().any(|l| {
        l.starts_with(&format!("  1. {winner} "))
            && l.contains(&format!("faster than {runner_up}: "))
            && l.contains(&format!(" of {rounds} rounds"))
    });
    let tie = stdout.contains(&format!(
        "  {winner} and {runner_up} cannot be told apart on this trace: "
    ));
    assert!(decided != tie, "{stdout}");
}

#[test]
fn advise_ranks_a_converted_allocation_trace() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("find.dodtrace");
    let wee = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../workloads/traces/wee_alloc/find.trace"
    );
    let out = dodbench(&["convert-wee-alloc", wee, "-o", trace.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (stdout, results) = advise(&trace, &dir.path().join("report"));
    assert!(stdout.starts_with("advise: alloc trace"), "{stdout}");
    assert!(results.benchmarks.iter().filter(|b| b.verified).count() >= 3);
    // Every allocator has a reference loop calling it directly, timed in the same rounds:
    // each has its overhead, and the designs are ranked called directly too.
    let loops: Vec<_> = results
        .benchmarks
        .iter()
        .filter(|b| b.family.is_reference() && b.mirrors.is_some())
        .collect();
    assert!(loops.len() >= 3, "{stdout}");
    assert!(
        loops.iter().all(|b| b.verified && b.overhead.is_some()),
        "{stdout}"
    );
    assert!(
        stdout.contains("called directly (each design's reference loop): "),
        "{stdout}"
    );
    let counted = format!(
        "{} designs,",
        results
            .benchmarks
            .iter()
            .filter(|b| !b.family.is_reference())
            .count()
    );
    assert!(
        stdout.lines().next().unwrap().contains(&counted),
        "{stdout}"
    );
}

#[test]
fn advise_on_bad_input_prints_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.dodtrace");
    std::fs::write(&bad, "not a trace").unwrap();
    let missing = dir.path().join("missing.dodtrace");
    for (path, cause) in [
        (&bad, "not a dodbench trace file"),
        (&missing, "No such file"),
    ] {
        assert_user_error(&dodbench(&["advise", path.to_str().unwrap()]), cause);
    }
}
