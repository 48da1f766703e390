//! Family `spatial`: the spatial-index section of a block, the article's figures per design
//! (cells looked at and points tested per query, points found, the longest bucket chain, heap
//! bytes per point) in a table, with a chart of points tested per query (the article's "~16",
//! "~1600") and one of the longest chain (XOR's diagonal collisions).

use results::Benchmark;
use results::family::{FamilyMetrics, SpatialMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::per_unit::{self, PerUnit};
use crate::charts::{Bar, Chart, ChartError};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The spatial-index numbers of one (workload, N): a table and two charts.
#[derive(Debug, Serialize)]
pub struct SpatialView {
    /// Points held after the setup: one number, or the range when designs disagree.
    pub points_after_setup: String,
    /// Points found per query (the same for every verified design).
    pub found_per_query: String,
    /// Designs with metrics by points tested per query, fewest first (those that cannot tell
    /// after them), then the others, then reference loops.
    pub rows: Vec<SpatialRow>,
    /// Points tested per query, when some design reported it.
    pub tested_chart: Option<Chart>,
    /// Longest bucket chain, when some design has buckets.
    pub chain_chart: Option<Chart>,
}

/// One design's spatial-index numbers, formatted; empty where not measured or not known.
#[derive(Debug, Serialize)]
pub struct SpatialRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `spatial` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured.
    pub note: String,
    /// Cells looked at per query.
    pub cells_per_query: String,
    /// Points tested per query.
    pub tested_per_query: String,
    /// The longest bucket chain after the setup.
    pub longest_chain: String,
    /// Heap bytes per point after the setup.
    pub bytes_per_point: String,
    /// Median ns per work unit.
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's spatial metrics: the one read of the variant.
fn metrics(b: &Benchmark) -> Option<&SpatialMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Spatial(m)) => Some(m),
        _ => None,
    }
}

/// The bars of one figure over the shown designs that have it.
fn bars(block: &Block<'_>, figure: impl Fn(&SpatialMetrics) -> Option<f64>) -> Vec<Bar> {
    block
        .shown()
        .iter()
        .filter_map(|b| {
            let v = figure(metrics(b)?)?;
            (v.is_finite() && v >= 0.0).then(|| Bar {
                style: block.style(b),
                value: Some(v),
                note: None,
            })
        })
        .collect()
}

/// A per-unit chart of `bars`, registered in `charts`; `None` without a positive bar.
fn chart(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
    (what, spec): (&str, PerUnit<'_>),
    description: String,
    bars: &[Bar],
) -> Result<Option<Chart>, ChartError> {
    if bars.iter().all(|b| b.value.is_none_or(|v| v <= 0.0)) {
        return Ok(None);
    }
    let file = block.chart_file(names, what);
    let chart = per_unit::build(&file, spec, description, bars)?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// The spatial-index section of a block, when some design of it carries its metrics.
///
/// # Errors
/// A chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<SpatialView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|m| m.tested_per_query),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = metrics(b);
            SpatialRow {
                design,
                kind,
                colour,
                measured: m.is_some(),
                note: if m.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                cells_per_query: sig3(m.and_then(|m| m.cells_per_query)),
                tested_per_query: sig3(m.and_then(|m| m.tested_per_query)),
                longest_chain: m
                    .and_then(|m| m.longest_chain)
                    .map(|c| c.to_string())
                    .unwrap_or_default(),
                bytes_per_point: sig3(m.and_then(|m| m.bytes_per_point)),
                ns: median(b).map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|m| m.points_after_setup))
        .collect();
    let (lo, hi) = (
        counts.iter().min().copied().unwrap_or(0),
        counts.iter().max().copied().unwrap_or(0),
    );
    let found = block
        .ordered
        .iter()
        .find_map(|b| metrics(b).and_then(|m| m.found_per_query));
    let tested_title = format!("{}: points tested per query", block.title);
    let tested_chart = chart(
        block,
        names,
        charts,
        (
            "tested-per-query",
            PerUnit {
                title: &tested_title,
                x_desc: "points tested per query (lower is better)",
                value_label: per_unit::plain_label,
            },
        ),
        format!(
            "{tested_title}: points whose distance each design computed (or walked past in a \
             colliding bucket) per query, by its own structure, fewest at the top; the article \
             expects ~16 at the design radius. Peers cannot tell and are not shown."
        ),
        &bars(block, |m| m.tested_per_query),
    )?;
    let chain_title = format!("{}: longest bucket chain", block.title);
    let chain_chart = chart(
        block,
        names,
        charts,
        (
            "longest-chain",
            PerUnit {
                title: &chain_title,
                x_desc: "most points in one bucket after the setup (lower is better)",
                value_label: per_unit::plain_label,
            },
        ),
        format!(
            "{chain_title}: the most points one hash key's list (or dense cell) held after the \
             setup, shortest at the top; XOR keys put every diagonal cell in one bucket."
        ),
        &bars(block, |m| m.longest_chain.map(|c| c as f64)),
    )?;
    Ok(Some(SpatialView {
        points_after_setup: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        },
        found_per_query: sig3(found),
        rows,
        tested_chart,
        chain_chart,
    }))
}
