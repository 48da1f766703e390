//! The overview's heat maps: per family and live size N, one table of designs × workloads whose
//! cell is the design's time per work unit over the best verified design's on the same
//! (workload, N), the number written in the cell and its background running from green (the
//! best, `1.00`) through yellow to red ([`RED_AT`]× or slower). The ratio follows the report's
//! one rule (`ratio`): the median of the per-round ratios to the best (`rounds.to_best`) when
//! the cell's designs were timed in interleaved rounds, with its 95% interval on hover, else
//! the ratio of medians (criterion-timed runs). A design that cannot be told apart from the best
//! (its interval holds 1) carries [`TIED`] after its number (`1.03≈`), explained under the
//! map. A cell without a time says why in its text (`unsupported`, `failed`), with the reason
//! on hover and in the list below the map; `–` marks a design that was not run there.
//! Reference loops are not designs and are left out.
//!
//! Columns are the family page's (workload, N) blocks, in page order, and link to them. A size
//! shared by at least two workloads gets its own map; sizes of one workload each (a recorded
//! trace's live count, say 18,869) are gathered into one "other sizes" map, so the overview
//! does not open on a column of one-cell maps. With several machines the maps show the first
//! machine's run (the tables below show every machine).

use results::{Benchmark, Family};
use serde::Serialize;

use super::machines::Machines;
use super::page::FamilyView;
use super::ratio::{self, TIED, fastest};
use super::reference::is_reference;
use super::status::{median, note, status_name};
use super::style::style_of;
use crate::format;

/// The ratio to the best at which a cell is fully red: a design 16× slower than the best is
/// as bad as the map can say.
const RED_AT: f64 = 16.0;

/// One family's heat maps.
#[derive(Debug, Serialize)]
pub struct FamilyHeatmaps {
    /// Family name.
    pub family: String,
    /// Its page.
    pub page: String,
    /// One map per shared size, then the "other sizes" map if any.
    pub maps: Vec<HeatmapView>,
}

/// One map: designs × workloads.
#[derive(Debug, Serialize)]
pub struct HeatmapView {
    /// `N = 1,000` or `other sizes`.
    pub title: String,
    /// Machine whose run the map shows, empty with one machine.
    pub machine: String,
    /// Column headers.
    pub columns: Vec<HeatColumn>,
    /// One row per design.
    pub rows: Vec<HeatRow>,
    /// `design on workload (N): status: reason` for every cell without a time.
    pub untimed: Vec<String>,
    /// What [`TIED`] means, when some cell carries it; empty otherwise.
    pub tied_note: String,
}

/// A column: one (workload, N) block of the family page.
#[derive(Debug, Serialize)]
pub struct HeatColumn {
    /// Workload, with `N = …` in the "other sizes" map.
    pub label: String,
    /// `page#anchor` of the block.
    pub href: String,
}

/// A row: one design.
#[derive(Debug, Serialize)]
pub struct HeatRow {
    /// Registry name.
    pub design: String,
    /// `article`, `tuned`, `peer`, ...
    pub kind: String,
    /// The design's colour in every chart (`#rrggbb`).
    pub colour: String,
    /// One per column.
    pub cells: Vec<HeatCell>,
}

/// A cell.
#[derive(Debug, Serialize)]
pub struct HeatCell {
    /// What the cell shows: the ratio (`1.00`, `3.42`, `1.03≈` when the design cannot be told
    /// apart from the best), `unsupported`, `failed` or `–`.
    pub text: String,
    /// Hover text: the median and the ratio (with its interval and rounds when paired), or the
    /// status and reason.
    pub title: String,
    /// Whether the design cannot be told apart from the best (the [`TIED`] of the text).
    pub tied: bool,
    /// `background` colour for timed cells (an `hsl(...)`), empty otherwise.
    pub background: String,
    /// `timed`, `unsupported`, `failed` or `absent` (the stylesheet's cell classes).
    pub class: String,
}

/// The heat maps of `family`, built on the (workload, N) blocks of its page `view`.
pub(super) fn build_heatmaps(
    machines: &Machines<'_>,
    family: Family,
    view: &FamilyView,
) -> FamilyHeatmaps {
    let results = machines.primary();
    // Every (workload, N, anchor) block of the page, in page order.
    let blocks: Vec<(&str, u64, &str)> = view
        .workloads
        .iter()
        .flat_map(|w| {
            w.sizes
                .iter()
                .map(move |s| (w.name.as_str(), s.n, s.anchor.as_str()))
        })
        .collect();
    let mut shared: Vec<u64> = Vec::new();
    for &(_, n, _) in &blocks {
        if !shared.contains(&n) && blocks.iter().filter(|b| b.1 == n).count() >= 2 {
            shared.push(n);
        }
    }
    shared.sort_unstable();
    let ours: Vec<&Benchmark> = results
        .benchmarks
        .iter()
        .filter(|b| b.family == family && !is_reference(b))
        .collect();
    let machine = if machines.many() {
        machines.name(0).to_string()
    } else {
        String::new()
    };
    let map = |title: String, columns: Vec<(&str, u64, &str)>, with_n: bool| {
        build_map(results, family, &view.page, &ours, title, &columns, with_n)
    };
    let mut maps: Vec<HeatmapView> = shared
        .iter()
        .map(|&n| {
            let columns = blocks.iter().copied().filter(|b| b.1 == n).collect();
            map(format!("N = {}", format::count(n)), columns, false)
        })
        .collect();
    let others: Vec<(&str, u64, &str)> = blocks
        .iter()
        .copied()
        .filter(|b| !shared.contains(&b.1))
        .collect();
    if !others.is_empty() {
        maps.push(map("other sizes".to_string(), others, true));
    }
    maps.retain(|m| !m.rows.is_empty());
    for m in &mut maps {
        m.machine.clone_from(&machine);
    }
    FamilyHeatmaps {
        family: view.name.clone(),
        page: view.page.clone(),
        maps,
    }
}

/// One map over `columns`; rows in registry order, then any design only the benchmarks name.
fn build_map(
    results: &results::Results,
    family: Family,
    page: &str,
    ours: &[&Benchmark],
    title: String,
    columns: &[(&str, u64, &str)],
    with_n: bool,
) -> HeatmapView {
    let here = |workload: &str, n: u64| -> Vec<&Benchmark> {
        ours.iter()
            .copied()
            .filter(|b| b.workload == workload && b.n == n)
            .collect()
    };
    let mut designs: Vec<&str> = Vec::new();
    let named = results
        .designs
        .iter()
        .filter(|d| d.family == family)
        .map(|d| d.name.as_str());
    let run = columns
        .iter()
        .flat_map(|&(w, n, _)| here(w, n))
        .map(|b| b.design.as_str());
    for name in named.chain(run) {
        let present = columns
            .iter()
            .any(|&(w, n, _)| here(w, n).iter().any(|b| b.design == name));
        if present && !designs.contains(&name) {
            designs.push(name);
        }
    }
    // Each column's benchmarks and its winner, ranked once for every row.
    let blocks: Vec<(Vec<&Benchmark>, Option<&Benchmark>)> = columns
        .iter()
        .map(|&(workload, n, _)| {
            let block = here(workload, n);
            let best = fastest(&block);
            (block, best)
        })
        .collect();
    let mut untimed = Vec::new();
    let rows = designs
        .iter()
        .map(|&design| {
            let style = style_of(results, family, design);
            let kind = results
                .designs
                .iter()
                .find(|d| d.family == family && d.name == design)
                .map_or_else(String::new, |d| d.kind.clone());
            let cells = columns
                .iter()
                .zip(&blocks)
                .map(|(&(workload, n, _), (block, best))| {
                    heat_cell(design, workload, n, block, *best, &mut untimed)
                })
                .collect();
            HeatRow {
                design: design.to_string(),
                kind,
                colour: style.colour.hex(),
                cells,
            }
        })
        .collect::<Vec<HeatRow>>();
    let tied_note = if rows.iter().flat_map(|r| &r.cells).any(|c| c.tied) {
        ratio::tied_note()
    } else {
        String::new()
    };
    HeatmapView {
        title,
        machine: String::new(),
        columns: columns
            .iter()
            .map(|&(workload, n, anchor)| HeatColumn {
                label: if with_n {
                    format!("{workload} (N = {})", format::count(n))
                } else {
                    workload.to_string()
                },
                href: format!("{page}#{anchor}"),
            })
            .collect(),
        rows,
        untimed,
        tied_note,
    }
}

/// The cell of `design` in the column of `workload` at `n`: its ratio to the column's `best`,
/// or why it has none (an untimed run is also listed in `untimed`).
fn heat_cell(
    design: &str,
    workload: &str,
    n: u64,
    block: &[&Benchmark],
    best: Option<&Benchmark>,
    untimed: &mut Vec<String>,
) -> HeatCell {
    let Some(b) = block.iter().copied().find(|b| b.design == design) else {
        return HeatCell {
            text: "–".to_string(),
            title: format!("{design} was not run on {workload} at N = {n}"),
            tied: false,
            background: String::new(),
            class: "absent".to_string(),
        };
    };
    let to_best = best.and_then(|best| ratio::to_best(b, best));
    match (median(b), to_best) {
        (Some(m), Some(r)) => HeatCell {
            text: format!("{:.2}{}", r.value(), if r.tied() { TIED } else { "" }),
            title: format!(
                "{design}, {workload}, N = {n}: {} ns per work unit, {}",
                format::ns(m),
                r.describe("the best")
            ),
            tied: r.tied(),
            background: colour(r.value()),
            class: "timed".to_string(),
        },
        _ => {
            let reason = note(b);
            untimed.push(format!("{design} on {workload} (N = {n}): {reason}"));
            HeatCell {
                text: status_name(b.status),
                title: reason,
                tied: false,
                background: String::new(),
                class: if b.status.is_verified() {
                    "absent".to_string()
                } else {
                    status_name(b.status)
                },
            }
        }
    }
}

/// The background of a cell whose design is `ratio`× the best: hue 120 (green) at 1, 60
/// (yellow) at √[`RED_AT`], 0 (red) at [`RED_AT`] and beyond, on a log scale, light enough for
/// black text.
fn colour(ratio: f64) -> String {
    let t = if ratio.is_finite() && ratio > 1.0 {
        (ratio.ln() / RED_AT.ln()).min(1.0)
    } else {
        0.0
    };
    format!("hsl({:.0}, 70%, 78%)", 120.0 * (1.0 - t))
}

#[cfg(test)]
mod tests {
    use super::{HeatCell, HeatmapView, colour};
    use crate::view::test_runs::{ROUNDS, SLOWER, TIE, criterion_timed, interleaved};

    /// The one map of `run`'s one cell.
    fn map(run: results::Results) -> HeatmapView {
        let (mut view, _) = crate::view::build(&[run], "t", None, None).unwrap();
        view.heatmaps.remove(0).maps.remove(0)
    }

    fn cell<'a>(map: &'a HeatmapView, design: &str) -> &'a HeatCell {
        &map.rows.iter().find(|r| r.design == design).unwrap().cells[0]
    }

    #[test]
    fn a_design_that_cannot_be_told_apart_from_the_best_is_marked_and_explained() {
        let m = map(interleaved(&[("a", &ROUNDS), ("b", &TIE)], 1));
        assert_eq!(
            (cell(&m, "a").text.as_str(), cell(&m, "a").tied),
            ("1.00", false)
        );
        let b = cell(&m, "b");
        assert_eq!((b.text.as_str(), b.tied), ("1.00≈", true));
        assert!(
            b.title.ends_with(
                "10.20 ns per work unit, 1.00× [0.98, 1.02] the best over 10 rounds, \
                 faster than the best in 50% of rounds"
            ),
            "{}",
            b.title
        );
        assert_eq!(
            m.tied_note,
            "≈: within the 95% interval of the best; not ranked apart (paired ratio over \
             interleaved rounds)."
        );
    }

    #[test]
    fn a_design_decidedly_behind_the_best_shows_its_paired_ratio_unmarked() {
        let m = map(interleaved(&[("a", &ROUNDS), ("b", &SLOWER)], 1));
        let b = cell(&m, "b");
        assert_eq!((b.text.as_str(), b.tied), ("1.20", false));
        assert!(
            b.title
                .contains("1.20× [1.20, 1.20] the best over 10 rounds, faster than the best in 0%"),
            "{}",
            b.title
        );
        assert_eq!(m.tied_note, "");
    }

    #[test]
    fn a_criterion_timed_cell_is_the_ratio_of_medians_as_before() {
        let m = map(criterion_timed(&[("a", 2.0), ("b", 2.5)]));
        let (a, b) = (cell(&m, "a"), cell(&m, "b"));
        assert_eq!((a.text.as_str(), b.text.as_str()), ("1.00", "1.25"));
        assert_eq!(
            a.title,
            "a, churn, N = 1000: 2.000 ns per work unit, 1.00× the best"
        );
        assert_eq!(
            b.title,
            "b, churn, N = 1000: 2.500 ns per work unit, 1.25× the best"
        );
        assert_eq!(b.background, colour(1.25));
        assert!(!a.tied && !b.tied && m.tied_note.is_empty());
    }

    #[test]
    fn colour_runs_from_green_to_red_on_a_log_scale() {
        assert_eq!(colour(1.0), "hsl(120, 70%, 78%)");
        assert_eq!(colour(4.0), "hsl(60, 70%, 78%)");
        assert_eq!(colour(16.0), "hsl(0, 70%, 78%)");
        assert_eq!(colour(1e9), "hsl(0, 70%, 78%)");
        assert_eq!(colour(f64::NAN), "hsl(120, 70%, 78%)");
    }
}
