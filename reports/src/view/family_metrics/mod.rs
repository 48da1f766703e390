//! The family-metrics section of a (workload, N) block: one generic section for every family,
//! built from the [`MetricSection`] the run records for the family (its title, the metric its
//! table is ranked by, and per metric a label, a description, a unit, a better direction, a
//! scope and a chart) and the named values each benchmark carries. Nothing here names a
//! family: a family added later gets its section from its declaration alone.
//!
//! The section has a legend (each shown metric's label and description), one line per metric
//! the trace fixes (`tags after the setup: 4000`, the range when designs disagree), a table
//! with one column per per-design number (ranked by the declared metric, best first; designs
//! without metrics then say why across the metric cells; reference loops last) and the
//! declared charts (`charts`): bars per design, a line per design over a series, or several
//! metrics' bars grouped per design.
//!
//! A results file written before runs recorded their sections has no declaration: the
//! section then shows every number a design carries under its stored name, in the order of
//! the main table, with no chart.

mod block;
mod charts;

use std::collections::BTreeSet;

use results::{Benchmark, Direction, MetricSection, MetricSpec, Scope, Unit};
use serde::Serialize;

pub(crate) use self::block::Block;
use super::names::Names;
use super::status::{median, unmeasured_note};
use super::text::sig3;
use crate::charts::{Chart, ChartError};
use crate::format;

/// What a cell without a value shows.
const MISSING: &str = "–";

/// The legend entry of the time columns every section ends with.
const TIME_TERM: &str = "ns / unit, × best";

/// What the time columns are.
const TIME_DESCRIPTION: &str =
    "the median time from the table above and its ratio to the fastest design, for context.";

/// The heading of a section whose results file does not declare it.
const UNDECLARED_TITLE: &str = "Family metrics";

/// One block's family-metrics section: a legend, the trace's figures, a table and charts.
#[derive(Debug, Serialize)]
pub struct FamilyMetricsView {
    /// The declared title (`Tag-store memory and allocator traffic`), or `Family metrics`
    /// when the results file declares none.
    pub title: String,
    /// The family's name, the table's CSS class beside `numbers`.
    pub family: String,
    /// Each shown metric's label and description, in declaration order, then the time
    /// columns'.
    pub legend: Vec<LegendEntry>,
    /// One line per metric the trace fixes that some design has: `tags after the setup: 4000`,
    /// or `lo–hi` when the designs disagree.
    pub trace: Vec<String>,
    /// The table's caption: block, title and ranking (`smallest B / tag first`).
    pub caption: String,
    /// The metric column heads: every per-design number some row has, in declaration order.
    pub columns: Vec<String>,
    /// Designs with metrics ranked best first, then designs without metrics in the order of
    /// the main table, then reference loops.
    pub rows: Vec<MetricRow>,
    /// The declared charts of the metrics some design has, in declaration order.
    pub charts: Vec<Chart>,
}

/// A metric's label and what it is.
#[derive(Debug, Serialize)]
pub struct LegendEntry {
    /// Column head or line label (`B / tag`).
    pub term: String,
    /// The declared description.
    pub description: String,
}

/// One row of the table, formatted.
#[derive(Debug, Serialize)]
pub struct MetricRow {
    /// Design name (`design @ machine` when machines measured different metrics).
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design carries family metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: `time only`, or the status and reason.
    pub note: String,
    /// One cell per column, `–` where the design has no value; empty when not measured.
    pub cells: Vec<String>,
    /// Median ns per work unit (as in the main table), `–` without a time.
    pub ns: String,
    /// Its ratio to the fastest design, `–` without one.
    pub ratio: String,
}

/// The section of `block`, when some design of it carries family metrics; its charts are
/// pushed onto `charts` too.
///
/// # Errors
/// A chart could not be drawn.
pub(crate) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<FamilyMetricsView>, ChartError> {
    if !block.ordered.iter().any(|b| b.metrics.is_some()) {
        return Ok(None);
    }
    let view = match section_of(block) {
        Some(section) => declared(block, &section, names, charts)?,
        None => undeclared(block),
    };
    Ok(Some(view))
}

/// The family's declared section: the first run's that has one (the runs of one report
/// measure the same code, so they declare the same).
fn section_of(block: &Block<'_>) -> Option<MetricSection> {
    block
        .machines
        .runs()
        .iter()
        .find_map(|run| run.family_record(block.family)?.metrics)
}

/// The number `name` of `b`'s family metrics.
pub(crate) fn number(b: &Benchmark, name: &str) -> Option<f64> {
    b.metrics.as_ref()?.number(name)
}

/// Whether `b` carries family metrics.
fn measured(b: &Benchmark) -> bool {
    b.metrics.is_some()
}

/// The section built from its declaration.
fn declared(
    block: &Block<'_>,
    section: &MetricSection,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<FamilyMetricsView, ChartError> {
    let rank = section
        .spec(&section.rank_by)
        .filter(|s| s.scope == Scope::Design);
    let lowest_first = rank.and_then(|s| s.better) != Some(Direction::Higher);
    let ordered = block.rows_in_order(
        measured,
        |b| rank.and_then(|s| number(b, &s.name)),
        lowest_first,
    );
    let columns: Vec<&MetricSpec> = section
        .specs
        .iter()
        .filter(|s| {
            s.scope == Scope::Design && ordered.iter().any(|b| number(b, &s.name).is_some())
        })
        .collect();
    let trace: Vec<(&MetricSpec, String)> = section
        .specs
        .iter()
        .filter(|s| s.scope == Scope::Trace)
        .filter_map(|s| Some((s, trace_line(block, s)?)))
        .collect();
    let drawn = charts::build(block, section, names)?;
    charts.extend(drawn.iter().map(|(_, chart)| chart.clone()));
    let shown = |s: &MetricSpec| {
        columns.iter().any(|c| c.name == s.name)
            || trace.iter().any(|(t, _)| t.name == s.name)
            || drawn.iter().any(|(of, _)| of.iter().any(|n| *n == s.name))
    };
    let legend = section
        .specs
        .iter()
        .filter(|s| shown(s))
        .map(|s| LegendEntry {
            term: s.label.to_string(),
            description: s.description.to_string(),
        })
        .chain(std::iter::once(time_legend()))
        .collect();
    let ranking = match rank {
        Some(s) if lowest_first => format!("smallest {} first", s.label),
        Some(s) => format!("highest {} first", s.label),
        None => "in the order of the table above".to_string(),
    };
    Ok(FamilyMetricsView {
        title: section.title.to_string(),
        family: block.family.to_string(),
        legend,
        trace: trace.into_iter().map(|(_, line)| line).collect(),
        caption: format!(
            "{}: {}, {ranking}",
            block.title,
            sentence_case(&section.title)
        ),
        columns: columns.iter().map(|s| s.label.to_string()).collect(),
        rows: rows(block, &ordered, |b| {
            columns
                .iter()
                .map(|s| {
                    number(b, &s.name).map_or_else(|| MISSING.to_string(), |v| formatted(s.unit, v))
                })
                .collect()
        }),
        charts: drawn.into_iter().map(|(_, chart)| chart).collect(),
    })
}

/// The section of a results file that does not declare it: every number some design
/// carries, under its stored name, in the order of the main table; no chart.
fn undeclared(block: &Block<'_>) -> FamilyMetricsView {
    let ordered = block.rows_in_order(measured, |_| None, true);
    let columns: Vec<String> = ordered
        .iter()
        .filter_map(|b| b.metrics.as_ref())
        .flat_map(|m| m.values.iter())
        .filter(|(_, v)| v.number().is_some())
        .map(|(name, _)| name.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    FamilyMetricsView {
        title: UNDECLARED_TITLE.to_string(),
        family: block.family.to_string(),
        legend: vec![time_legend()],
        trace: Vec::new(),
        caption: format!(
            "{}: {}, in the order of the table above (this results file does not declare \
             them)",
            block.title,
            sentence_case(UNDECLARED_TITLE)
        ),
        rows: rows(block, &ordered, |b| {
            columns
                .iter()
                .map(|name| sig3_or_missing(number(b, name)))
                .collect()
        }),
        columns,
        charts: Vec::new(),
    }
}

/// The rows of `ordered`, `cells` giving a measured design's metric cells.
fn rows(
    block: &Block<'_>,
    ordered: &[&Benchmark],
    cells: impl Fn(&Benchmark) -> Vec<String>,
) -> Vec<MetricRow> {
    ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let ratio = block.ratio_to_best(b);
            MetricRow {
                design,
                kind,
                colour,
                measured: measured(b),
                note: if measured(b) {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                cells: if measured(b) { cells(b) } else { Vec::new() },
                ns: median(b).map_or_else(|| MISSING.to_string(), format::ns),
                ratio: if ratio.is_empty() {
                    MISSING.to_string()
                } else {
                    ratio
                },
            }
        })
        .collect()
}

/// The legend entry of the time columns.
fn time_legend() -> LegendEntry {
    LegendEntry {
        term: TIME_TERM.to_string(),
        description: TIME_DESCRIPTION.to_string(),
    }
}

/// `label: value` of a metric the trace fixes, over the block's designs (`lo–hi` when they
/// disagree); `None` when no design has it.
fn trace_line(block: &Block<'_>, spec: &MetricSpec) -> Option<String> {
    let values: Vec<f64> = block
        .ordered
        .iter()
        .filter_map(|b| number(b, &spec.name))
        .collect();
    let lo = values.iter().copied().reduce(f64::min)?;
    let hi = values.iter().copied().reduce(f64::max)?;
    let value = if lo == hi {
        formatted(spec.unit, lo)
    } else {
        format!("{}–{}", formatted(spec.unit, lo), formatted(spec.unit, hi))
    };
    Some(format!("{}: {value}", spec.label))
}

/// A value as its unit is written: bytes with a binary prefix, counts whole, other numbers to
/// three significant digits.
pub(crate) fn formatted(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Bytes => format::bytes(v),
        Unit::Count => format!("{}", v.round()),
        Unit::Number => sig3(Some(v)),
    }
}

/// `v` to three significant digits, or `–`.
fn sig3_or_missing(v: Option<f64>) -> String {
    v.map_or_else(|| MISSING.to_string(), |v| sig3(Some(v)))
}

/// A title inside a sentence: its first word in lower case, unless the word is a name or an
/// acronym (a capital after its first letter: `DataComponent`, `ID`).
fn sentence_case(title: &str) -> String {
    let first = title.split_whitespace().next().unwrap_or_default();
    if first.chars().skip(1).any(char::is_uppercase) {
        return title.to_string();
    }
    let mut chars = title.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod section_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_read_inside_a_sentence() {
        assert_eq!(
            sentence_case("Tag-store memory and allocator traffic"),
            "tag-store memory and allocator traffic"
        );
        assert_eq!(
            sentence_case("DataComponent memory"),
            "DataComponent memory"
        );
        assert_eq!(sentence_case("ID tables"), "ID tables");
        assert_eq!(sentence_case(""), "");
    }

    #[test]
    fn values_are_written_by_their_unit() {
        assert_eq!(formatted(Unit::Bytes, 110_592.0), "108 KiB");
        assert_eq!(formatted(Unit::Count, 4000.0), "4000");
        assert_eq!(formatted(Unit::Count, 0.0), "0");
        assert_eq!(formatted(Unit::Number, 0.0005), "0.000500");
        assert_eq!(sig3_or_missing(None), "–");
    }
}
