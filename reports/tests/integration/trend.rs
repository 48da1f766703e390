//! The trend charts across commits, from a small history (`tests/fixtures/history.jsonl`:
//! three entries and, as line 3, a partial line like a crash leaves) beside the small results
//! file of `render.rs`.

use std::path::{Path, PathBuf};

use reports::palette::design_colour;
use results::Results;
use results::history::{self, HistoryEntry};

use crate::support::read;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn results() -> Results {
    Results::load(&fixtures().join("small_results.json")).unwrap()
}

fn render(history: Option<PathBuf>) -> (tempfile::TempDir, reports::RenderSummary) {
    let dir = tempfile::tempdir().unwrap();
    let opts = reports::RenderOptions {
        history,
        ..Default::default()
    };
    let summary = reports::render(&results(), dir.path(), &opts).unwrap();
    (dir, summary)
}

#[test]
fn fixture_lines_are_history_entries_as_serialised() {
    // Every good line must be exactly what `HistoryEntry` serialises to: no misspelt or
    // missing key (serde would silently drop the one and fail on the other).
    let text = read(&fixtures().join("history.jsonl"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for (i, line) in lines.iter().enumerate().filter(|(i, _)| *i != 2) {
        let entry: HistoryEntry = serde_json::from_str(line).unwrap_or_else(|e| panic!("{i}: {e}"));
        let again = serde_json::to_value(&entry).unwrap();
        let raw: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(again, raw, "line {}", i + 1);
    }
    let (entries, corrupt) = history::load(&fixtures().join("history.jsonl")).unwrap();
    assert_eq!(entries.len(), 3);
    assert_eq!(corrupt.len(), 1);
    assert_eq!(corrupt[0].line, 3);
}

#[test]
fn trend_chart_has_one_series_per_design_and_the_page_lists_the_corrupt_line() {
    let (dir, s) = render(Some(fixtures().join("history.jsonl")));
    let chart = |name: &str| {
        assert!(
            s.charts.iter().any(|p| p.ends_with(name)),
            "{name} not written: {:?}",
            s.charts
        );
        read(&dir.path().join("charts").join(name))
    };
    let colour = |i: usize| design_colour(i).hex().to_uppercase();
    // Lookup: `ir` is in the history at N = 1000, so that is what is drawn.
    let lookup = chart("id_table-lookup-trend.svg");
    let drawn: Vec<usize> = (0..8).filter(|&i| lookup.contains(&colour(i))).collect();
    // holey, packed, slotmap as in every chart; `retired` (only in the history) after the
    // five designs of the results.
    assert_eq!(drawn, [0, 1, 2, 5]);
    for name in ["holey", "packed", "slotmap", "retired"] {
        assert!(
            lookup.contains(&format!("\n{name}\n")),
            "legend names {name}"
        );
    }
    assert!(lookup.matches("<polyline").count() >= 4);
    assert!(lookup.contains("simulated instructions per work unit"));
    assert!(lookup.contains("1111111 2024-03-01"));
    assert!(lookup.contains("3333333-dirty 2024-03-04"));
    assert!(
        !lookup.contains("ref-vec"),
        "reference loops are not designs"
    );
    // Churn has no `ir`: normalised time.
    let churn = chart("id_table-churn-trend.svg");
    assert!(churn.contains("ns per work unit ÷ holey"));
    let page = read(&dir.path().join("id_table.html"));
    // lookup, churn, and iterate-full (only swept, in no history entry: says so).
    assert_eq!(page.matches("<h3>Trend across commits</h3>").count(), 3);
    assert!(page.contains("No entry of the history has iterate-full"));
    assert!(
        !s.charts
            .iter()
            .any(|p| p.to_string_lossy().contains("iterate-full-trend"))
    );
    assert!(page.contains("From 3 history entries in"));
    assert!(page.contains("Skipped 1 corrupt line:"));
    assert!(page.contains("line 3 ("));
    assert!(page.contains("at N = 1000"));
}

#[test]
fn without_a_history_or_with_an_empty_one_nothing_changes() {
    let (dir, plain) = render(None);
    let page = read(&dir.path().join("id_table.html"));
    let empty = tempfile::NamedTempFile::new().unwrap();
    let (dir2, with_empty) = render(Some(empty.path().to_path_buf()));
    assert_eq!(plain.charts.len(), with_empty.charts.len());
    assert!(
        !plain
            .charts
            .iter()
            .any(|p| p.to_string_lossy().contains("trend"))
    );
    assert!(!page.contains("Trend across commits"));
    assert_eq!(page, read(&dir2.path().join("id_table.html")));
}

#[test]
fn a_history_of_two_machines_draws_one_line_per_design_and_machine() {
    // The fixture's last entry measured on another machine: each design's line splits.
    let text = read(&fixtures().join("history.jsonl"));
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[3] = lines[3].replace("\"machine\":\"ci-runner\"", "\"machine\":\"laptop\"");
    let history = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(history.path(), lines.join("\n")).unwrap();
    let (dir, _) = render(Some(history.path().to_path_buf()));
    let lookup = read(&dir.path().join("charts/id_table-lookup-trend.svg"));
    for name in ["holey @ ci-runner", "holey @ laptop", "packed @ laptop"] {
        assert!(
            lookup.contains(&format!("\n{name}\n")),
            "legend names {name}"
        );
    }
    let page = read(&dir.path().join("id_table.html"));
    assert!(page.contains("one line per design and machine"));
}

#[test]
fn a_chosen_trend_metric_is_drawn_by_its_history_name() {
    let dir = tempfile::tempdir().unwrap();
    let opts = reports::RenderOptions {
        history: Some(fixtures().join("history.jsonl")),
        trend_metric: Some("ns_per_op".to_string()),
        ..Default::default()
    };
    let s = reports::render(&results(), dir.path(), &opts).unwrap();
    let lookup = s
        .charts
        .iter()
        .find(|p| p.ends_with("id_table-lookup-trend.svg"))
        .expect("the lookup trend is drawn");
    let svg = read(lookup);
    assert!(
        svg.contains("ns_per_op, as the history records it"),
        "{svg}"
    );
    assert!(!svg.contains("simulated instructions"));
    let page = read(&dir.path().join("id_table.html"));
    // ns_per_op is recorded up to N = 65536 for lookup, where `ir` stopped at 1000.
    assert!(
        page.contains("y: ns_per_op, as the history records it, at N = 65536"),
        "{page}"
    );
}
