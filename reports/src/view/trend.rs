//! The "Trend across commits" section of a workload, from a history file.

use results::Family;
use results::Results;
use results::history::{CorruptLine, HistoryEntry, HistoryPoint};
use serde::Serialize;

use super::names::Names;
use super::reference::is_reference_family;
use super::status::is_verified;
use super::style::{design_index, style_of};
use crate::charts::{Chart, ChartError, Line, SeriesStyle, trend};
use crate::palette::{design_colour, design_marker};

/// A history file as `results::history::load` read it, for the trend charts.
#[derive(Debug, Clone)]
pub struct HistoryInput {
    /// The file, as named on the page.
    pub path: String,
    /// Its entries, in file order (= run order).
    pub entries: Vec<HistoryEntry>,
    /// Lines that were skipped.
    pub corrupt: Vec<CorruptLine>,
    /// The metric to chart by its history name (e.g. `metrics.bytes_per_tag`); `None`: see
    /// [`Charted`].
    pub metric: Option<String>,
}

/// What a trend chart draws.
#[derive(Debug, Clone, Copy)]
enum Charted<'a> {
    /// The metric of this name, as the history stores it.
    Named(&'a str),
    /// Time over the run's reference design.
    TimeVsReference,
}

/// The "Trend across commits" section of one workload.
#[derive(Debug, Serialize)]
pub struct TrendView {
    /// The history file.
    pub source: String,
    /// How many entries it has.
    pub entries: usize,
    /// Lines skipped as corrupt.
    pub corrupt: Vec<CorruptView>,
    /// What the y axis shows, e.g. `simulated instructions per work unit`.
    pub metric: String,
    /// The size charted, when any entry has this workload.
    pub n: Option<u64>,
    /// How many machines the history names (one line per design and machine when several).
    pub machines: usize,
    /// The chart; `None` when no entry has this workload with a chartable metric.
    pub chart: Option<Chart>,
}

/// One skipped line of the history.
#[derive(Debug, Clone, Serialize)]
pub struct CorruptView {
    /// 1-based line number.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// The value a trend chart draws for `p`: the chosen metric, or the time normalised by the
/// run's reference design (comparable across machines, unlike raw ns/op).
fn trend_value(charted: Charted<'_>, p: &HistoryPoint) -> Option<f64> {
    let v = match charted {
        Charted::Named(name) => p.metrics.get(name).copied(),
        Charted::TimeVsReference => p.time_vs_reference,
    };
    // Zero is a value (no garbage left, no allocator call); only a missing or non-finite one
    // is not drawn.
    v.filter(|v| v.is_finite() && *v >= 0.0 && is_verified(p.status))
}

/// The trend section of one workload: one line per design (per design and machine when the
/// history has several machines) at the largest N that has the
/// chosen metric (see [`Charted`]), x = the history's entries in file order.
pub(super) fn build_trend(
    results: &Results,
    family: Family,
    workload: &str,
    history: &HistoryInput,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<TrendView, ChartError> {
    let points: Vec<(usize, &HistoryPoint)> = history
        .entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| {
            e.benchmarks
                .iter()
                .filter(|p| p.family == family && p.workload == workload)
                .map(move |p| (i, p))
        })
        .collect();
    // The chosen metric; by default the deterministic `ir` when any entry has it for this
    // workload (simulated instructions are the same on every machine), else the time.
    let charted = match history.metric.as_deref() {
        Some(name) => Charted::Named(name),
        None if points
            .iter()
            .any(|(_, p)| trend_value(Charted::Named("ir"), p).is_some()) =>
        {
            Charted::Named("ir")
        }
        None => Charted::TimeVsReference,
    };
    let n = points
        .iter()
        .filter(|(_, p)| trend_value(charted, p).is_some())
        .map(|(_, p)| p.n)
        .max();
    let metric = metric_description(charted, &points, history);
    let mut machines: Vec<&str> = history.entries.iter().map(|e| e.machine.as_str()).collect();
    machines.sort_unstable();
    machines.dedup();
    let mut chart = None;
    if let Some(n) = n {
        let lines = trend_lines(
            results,
            family,
            history,
            &points,
            charted,
            n,
            machines.len(),
        );
        let labels: Vec<String> = history.entries.iter().map(entry_label).collect();
        let file = names.unique(&[family.as_str(), workload, "trend"], "svg");
        let built = trend::build(
            &file,
            &format!("{workload}, N = {n}: across commits"),
            &metric,
            &labels,
            &lines,
        )?;
        charts.push(built.clone());
        chart = Some(built);
    }
    Ok(TrendView {
        source: history.path.clone(),
        entries: history.entries.len(),
        corrupt: history
            .corrupt
            .iter()
            .map(|c| CorruptView {
                line: c.line,
                reason: c.reason.clone(),
            })
            .collect(),
        metric,
        n,
        machines: machines.len(),
        chart,
    })
}

/// The axis description of the `charted` metric; for the time, which reference design the
/// `points` are normalised by when they share one.
fn metric_description(
    charted: Charted<'_>,
    points: &[(usize, &HistoryPoint)],
    history: &HistoryInput,
) -> String {
    if let Charted::Named(name) = charted {
        match name {
            "ir" => "simulated instructions per work unit (ir, deterministic; lower is better)"
                .to_string(),
            other => format!("{other}, as the history records it"),
        }
    } else {
        let mut refs: Vec<&str> = points
            .iter()
            .filter(|(_, p)| trend_value(Charted::TimeVsReference, p).is_some())
            .filter_map(|(i, p)| history.entries[*i].reference_of(p))
            .collect();
        refs.sort_unstable();
        refs.dedup();
        match refs.as_slice() {
            [r] => format!("ns per work unit ÷ {r}'s in the same run (lower is better)"),
            _ => "ns per work unit ÷ the run's reference design's (lower is better)".to_string(),
        }
    }
}

/// The trend lines at `n`, x = the entry index, in registry order then by machine.
fn trend_lines(
    results: &Results,
    family: Family,
    history: &HistoryInput,
    points: &[(usize, &HistoryPoint)],
    charted: Charted<'_>,
    n: u64,
    machine_count: usize,
) -> Vec<Line> {
    // One line per design and machine: trends are per machine. With one machine in the
    // history a line is named by its design alone.
    let mut lines: Vec<((usize, &str), Line)> = Vec::new();
    for (i, p) in points.iter().filter(|(_, p)| p.n == n) {
        let Some(v) = trend_value(charted, p) else {
            continue;
        };
        let machine = history.entries[*i].machine.as_str();
        let (index, mut style) = history_style(results, history, family, &p.design);
        if machine_count > 1 {
            style.name = format!("{} @ {machine}", p.design);
        }
        match lines.iter_mut().find(|l| l.1.style.name == style.name) {
            Some(l) => l.1.points.push((*i as f64, v)),
            None => lines.push((
                (index, machine),
                Line {
                    style,
                    points: vec![(*i as f64, v)],
                },
            )),
        }
    }
    lines.sort_by_key(|l| l.0);
    lines.into_iter().map(|l| l.1).collect()
}

/// `abc1234 YYYY-MM-DD` (`-dirty` kept) for the x axis of trend charts.
fn entry_label(e: &HistoryEntry) -> String {
    let hash: String = e.commit.chars().take(7).collect();
    let dirty = if e.commit.ends_with("-dirty") {
        "-dirty"
    } else {
        ""
    };
    let day: String = e.date.chars().take(10).collect();
    format!("{hash}{dirty} {day}")
}

/// The style (and its palette index) of a design in a trend chart: as everywhere else when
/// the design is in the results; designs only in the history come after every design of the
/// results, in (family, name) order, so their colour is stable for a given results and
/// history and never collides with a design of the results.
fn history_style(
    results: &Results,
    history: &HistoryInput,
    family: Family,
    name: &str,
) -> (usize, SeriesStyle) {
    let in_results = |f: Family, d: &str| {
        results.designs.iter().any(|x| x.family == f && x.name == d)
            || results
                .benchmarks
                .iter()
                .any(|b| b.family == f && b.design == d)
    };
    if in_results(family, name) {
        return (
            design_index(results, family, name),
            style_of(results, family, name),
        );
    }
    let mut extra: Vec<&str> = results
        .benchmarks
        .iter()
        .filter(|b| {
            !is_reference_family(b.family)
                && !results
                    .designs
                    .iter()
                    .any(|d| d.family == b.family && d.name == b.design)
        })
        .map(|b| b.design.as_str())
        .collect();
    extra.sort_unstable();
    extra.dedup();
    let mut only_history: Vec<(Family, &str)> = history
        .entries
        .iter()
        .flat_map(|e| &e.benchmarks)
        .filter(|p| !is_reference_family(p.family) && !in_results(p.family, &p.design))
        .map(|p| (p.family, p.design.as_str()))
        .collect();
    only_history.sort_unstable();
    only_history.dedup();
    let index = results.designs.len()
        + extra.len()
        + only_history
            .iter()
            .position(|&(f, d)| f == family && d == name)
            .unwrap_or(0);
    (
        index,
        SeriesStyle {
            name: name.to_string(),
            colour: design_colour(index),
            marker: design_marker(index),
            reference: false,
        },
    )
}
