//! Several machines in one report (`view::build` of two runs): time per machine with ratios
//! on the row's own machine, deterministic numbers once, and again where machines disagree.
//! The fixtures: `small_results.json` (machine `ci-runner`) and `small_results_laptop.json`
//! (the same run with another machine name and every time doubled).

use std::path::{Path, PathBuf};

use reports::view::{self, DetailRow, ReportView, SizeView};
use results::Results;

fn fixture(name: &str) -> Results {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    Results::load(&path).unwrap()
}

fn two() -> Vec<Results> {
    vec![
        fixture("small_results.json"),
        fixture("small_results_laptop.json"),
    ]
}

fn build(runs: &[Results]) -> (ReportView, Vec<reports::charts::Chart>) {
    view::build(runs, "t", None, None).unwrap()
}

fn size<'a>(report: &'a ReportView, workload: &str, n: u64) -> &'a SizeView {
    report.families[0]
        .workloads
        .iter()
        .find(|w| w.name == workload)
        .and_then(|w| w.sizes.iter().find(|s| s.n == n))
        .unwrap()
}

/// The lookup at 1000 of the report of `runs`: holey's rows of the details table (one per
/// machine) and the SVG of the simulated-misses chart.
fn holey_details(runs: &[Results]) -> (Vec<DetailRow>, String) {
    let (report, charts) = build(runs);
    let s = size(&report, "lookup", 1000);
    let holey = s
        .details
        .rows
        .iter()
        .filter(|r| r.design == "holey")
        .cloned()
        .collect();
    let sim = charts
        .into_iter()
        .find(|c| Some(&c.file) == s.charts.sim.as_ref().map(|c| &c.file))
        .unwrap();
    (holey, sim.svg)
}

#[test]
fn every_timed_design_has_a_row_per_machine_with_ratios_on_its_own_machine() {
    let (report, charts) = build(&two());
    assert!(report.many_machines);
    let names: Vec<&str> = report.machines.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["ci-runner", "laptop"]);
    assert_eq!(report.machines[1].cpu, "Other CPU @ 1.5GHz");
    assert_eq!(
        report.machines[1].caches[2].1,
        "16 MiB (as the OS reports it; may be a whole host's)"
    );
    let s = size(&report, "lookup", 1000);
    let row = |design: &str, machine: &str| {
        s.rows
            .iter()
            .find(|r| r.design == design && r.machine == machine)
            .unwrap_or_else(|| panic!("no row {design} @ {machine}"))
    };
    for design in ["holey", "packed"] {
        let (ci, laptop) = (row(design, "ci-runner"), row(design, "laptop"));
        assert_ne!(ci.ns, laptop.ns, "{design}: times are per machine");
        // The laptop is twice as slow everywhere: ratios on each machine's own best and
        // reference design are the same.
        assert_eq!(ci.ratio, laptop.ratio, "{design}");
        assert_eq!(ci.ratio_ref, laptop.ratio_ref, "{design}");
    }
    assert_eq!(
        row("holey", "laptop").ratio_ref,
        "1.00×",
        "holey is id_table's reference"
    );
    // Each design's machines are adjacent rows.
    let at = |d: &str, m: &str| s.rows.iter().position(|r| r.design == d && r.machine == m);
    assert_eq!(
        at("holey", "laptop"),
        at("holey", "ci-runner").map(|i| i + 1)
    );
    // One verdict per machine; the index's summary has both.
    assert_eq!(s.summaries.len(), 2);
    assert!(report.summary.iter().any(|v| v.machine == "laptop"));
    // Throughput bars per design and machine.
    let throughput = charts.iter().find(|c| c.file == s.throughput.file).unwrap();
    assert!(throughput.svg.contains("holey @ laptop"));
    assert!(throughput.svg.contains("holey @ ci-runner"));
    assert!(!s.machines_note.is_empty());
}

#[test]
fn deterministic_numbers_are_shown_once_and_a_disagreement_on_both_machines() {
    let (holey, sim) = holey_details(&two());
    assert_eq!(holey.len(), 2, "hardware counters are per machine");
    assert!(!holey[0].ir.is_empty() && holey[0].ir != "″");
    assert_eq!(holey[1].ir, "″", "the same simulated count is shown once");
    assert_ne!(
        holey[0].hw_cycles, holey[1].hw_cycles,
        "cycles are per machine"
    );
    assert!(
        !sim.contains("@ laptop"),
        "one bar per design when machines agree"
    );

    let mut runs = two();
    let b = runs[1]
        .benchmarks
        .iter_mut()
        .find(|b| b.design == "holey" && b.n == 1000 && b.sim.is_some())
        .unwrap();
    b.sim.as_mut().unwrap().ir += 1.0;
    b.sim.as_mut().unwrap().d1_miss += 1.0;
    let (holey, sim) = holey_details(&runs);
    assert_ne!(holey[1].ir, "″");
    assert_ne!(
        holey[1].ir, holey[0].ir,
        "a disagreement is shown, not hidden"
    );
    assert!(sim.contains("holey @ laptop") && sim.contains("holey @ ci-runner"));
}

#[test]
fn one_machine_is_the_report_without_machine_columns() {
    let (report, _) = build(&two()[..1]);
    assert!(!report.many_machines);
    assert_eq!(report.machines.len(), 1);
    let s = size(&report, "lookup", 1000);
    assert!(s.rows.iter().all(|r| r.machine.is_empty()));
    assert!(
        s.details
            .rows
            .iter()
            .all(|r| r.machine.is_empty() && r.ir != "″")
    );
    assert_eq!(s.summaries.len(), 1);
    assert!(s.machines_note.is_empty());
}
