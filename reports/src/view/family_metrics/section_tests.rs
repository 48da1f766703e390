//! The generic section on a made-up family declaration: a per-design metric ranked higher
//! first and drawn as bars, a series drawn as lines, a figure the trace fixes that the designs
//! disagree on, and a declared metric no design has.

use results::{
    Family, FamilyMetrics, MetricChart, MetricSection, MetricSpec, MetricValue, Results, Unit,
};

use super::*;
use crate::view::machines::Machines;
use crate::view::test_runs::criterion_timed;

fn section() -> MetricSection {
    MetricSection {
        title: "Made-up metrics".into(),
        rank_by: "hits".into(),
        specs: vec![
            MetricSpec::trace("frames", "frames", Unit::Count).describe("frames of the body."),
            MetricSpec::per_design("hits", "hits / query", Unit::Number)
                .higher()
                .describe("hits per query.")
                .chart(MetricChart::Bars),
            MetricSpec::per_design("bytes", "after body", Unit::Bytes).describe("heap bytes."),
            MetricSpec::per_design("never", "never", Unit::Number).describe("no design has it."),
            MetricSpec::per_design("garbage", "garbage", Unit::Count)
                .describe("garbage after each frame.")
                .chart(MetricChart::Lines),
        ],
    }
}

/// Designs `a` (fastest), `b` and `c`, each with `(frames, hits, bytes, garbage)`; `c` has no
/// metrics.
fn run() -> Results {
    let mut results = criterion_timed(&[("a", 10.0), ("b", 20.0), ("c", 30.0)]);
    let values = [
        (3.0, 2.0, 2048.0, vec![0.0, 0.0, 0.0]),
        (4.0, 5.0, 100.0, vec![1.0, 3.0, 2.0, 0.0]),
    ];
    for (b, (frames, hits, bytes, garbage)) in results.benchmarks.iter_mut().zip(values) {
        b.metrics = Some(FamilyMetrics {
            family: Family::IdTable,
            values: [
                ("frames", MetricValue::Number(frames)),
                ("hits", MetricValue::Number(hits)),
                ("bytes", MetricValue::Number(bytes)),
                ("garbage", MetricValue::Series(garbage)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        });
    }
    results
}

/// The section of the run's one cell, with `declared` as its family's declaration.
fn section_of_run(declared: Option<MetricSection>) -> (FamilyMetricsView, Vec<Chart>) {
    let mut results = run();
    results
        .families
        .iter_mut()
        .find(|f| f.family == Family::IdTable)
        .expect("a built-in record")
        .metrics = declared;
    let runs = [results];
    let machines = Machines::new(&runs);
    let ordered: Vec<&Benchmark> = runs[0].benchmarks.iter().collect();
    let block = Block {
        machines: &machines,
        family: Family::IdTable,
        file_stem: [Family::IdTable.as_str(), "churn", "n1000"],
        title: "churn, N = 1000",
        ordered: &ordered,
        references: &[],
    };
    let mut charts = Vec::new();
    let view = build(&block, &mut Names::default(), &mut charts)
        .unwrap()
        .expect("designs with metrics");
    (view, charts)
}

#[test]
fn the_declaration_gives_columns_ranking_trace_lines_legend_and_charts() {
    let (view, charts) = section_of_run(Some(section()));
    assert_eq!(view.title, "Made-up metrics");
    assert_eq!(
        view.caption,
        "churn, N = 1000: made-up metrics, highest hits / query first"
    );
    // Numbers some row has; not the series, not the metric nobody has.
    assert_eq!(view.columns, ["hits / query", "after body"]);
    assert_eq!(view.trace, ["frames: 3–4"]);
    let order: Vec<&str> = view.rows.iter().map(|r| r.design.as_str()).collect();
    assert_eq!(
        order,
        ["b", "a", "c"],
        "highest hits first, unmeasured last"
    );
    assert_eq!(view.rows[0].cells, ["5.00", "100 B"]);
    assert_eq!(view.rows[1].cells, ["2.00", "2 KiB"]);
    assert!(!view.rows[2].measured && view.rows[2].cells.is_empty());
    assert_eq!(view.rows[2].note, "time only");
    assert_eq!(view.rows[1].ns, "10.00");
    let terms: Vec<&str> = view.legend.iter().map(|e| e.term.as_str()).collect();
    assert_eq!(
        terms,
        ["frames", "hits / query", "after body", "garbage", TIME_TERM]
    );
    // Bars with the better end marked, and a line per design that left any garbage.
    let files: Vec<&str> = charts.iter().map(|c| c.file.as_str()).collect();
    assert_eq!(
        files,
        [
            "id_table-churn-n1000-hits.svg",
            "id_table-churn-n1000-garbage.svg"
        ]
    );
    assert_eq!(view.charts.len(), 2);
    assert!(charts[0].svg.contains("hits / query (higher is better)"));
    assert!(charts[0].description.contains("largest at the top"));
    assert!(charts[1].title.ends_with(": garbage"));
    assert!(
        charts[1].description.ends_with("all zero, not drawn: a."),
        "{}",
        charts[1].description
    );
}

#[test]
fn without_a_declaration_every_number_is_a_column_by_name() {
    let (view, charts) = section_of_run(None);
    assert_eq!(view.title, UNDECLARED_TITLE);
    assert_eq!(view.columns, ["bytes", "frames", "hits"]);
    assert!(view.trace.is_empty() && charts.is_empty() && view.charts.is_empty());
    let order: Vec<&str> = view.rows.iter().map(|r| r.design.as_str()).collect();
    assert_eq!(order, ["a", "b", "c"], "the main table's order");
    assert_eq!(
        view.rows[0].cells,
        ["2048", "3.00", "2.00"],
        "every value a Number"
    );
    let terms: Vec<&str> = view.legend.iter().map(|e| e.term.as_str()).collect();
    assert_eq!(terms, [TIME_TERM]);
}

#[test]
fn a_direction_missing_from_the_declaration_ranks_smallest_first() {
    let mut s = section();
    s.specs[1].better = None;
    s.specs[1].chart = None;
    let (view, _) = section_of_run(Some(s));
    let order: Vec<&str> = view.rows.iter().map(|r| r.design.as_str()).collect();
    assert_eq!(order, ["a", "b", "c"]);
    assert!(view.caption.ends_with("smallest hits / query first"));
}
