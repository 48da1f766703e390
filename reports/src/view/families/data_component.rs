//! Family `data_component`: the DataComponent section of a block, heap bytes per key and per
//! entity and allocator calls per entity (the article's "many → 3 → 1"), with a chart of
//! each per-entity figure.

use results::Benchmark;
use results::family::{DataComponentMetrics, FamilyMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::per_unit::{self, PerUnit};
use crate::charts::{Bar, Chart, ChartError};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The DataComponent numbers of one (workload, N): a table.
#[derive(Debug, Serialize)]
pub struct DataComponentView {
    /// Keys held after the body: one number, or the range when the designs disagree.
    pub keys_after_body: String,
    /// Designs with metrics by allocator calls per entity, fewest first; then the others in
    /// the order of the main table; then reference loops.
    pub rows: Vec<DataComponentRow>,
    /// Allocator calls per entity, when some design has the figure.
    pub calls_chart: Option<Chart>,
    /// Heap bytes per entity, when some design has the figure.
    pub bytes_chart: Option<Chart>,
}

/// One design's numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct DataComponentRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `data_component` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured.
    pub note: String,
    /// Allocator calls over setup and body per entity spawned.
    pub calls_per_entity: String,
    /// Heap bytes per key after the body.
    pub bytes_per_key: String,
    /// Heap bytes per entity after the body.
    pub bytes_per_entity: String,
    /// Allocator calls during the body per work unit.
    pub body_calls_per_op: String,
    /// Median ns per work unit.
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's DataComponent metrics: the one read of this variant of `metrics`.
pub(super) fn metrics(b: &Benchmark) -> Option<&DataComponentMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::DataComponent(m)) => Some(m),
        _ => None,
    }
}

/// The bars of one per-entity figure over the shown designs that have it (zero included:
/// a design may make no allocator call per entity).
fn bars(block: &Block<'_>, figure: impl Fn(&DataComponentMetrics) -> Option<f64>) -> Vec<Bar> {
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

/// A per-entity chart of `bars`, registered in `charts`; `None` without bars.
fn chart(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
    (what, spec): (&str, PerUnit<'_>),
    description: String,
    bars: &[Bar],
) -> Result<Option<Chart>, ChartError> {
    if bars.is_empty() || bars.iter().all(|b| b.value == Some(0.0)) {
        return Ok(None);
    }
    let file = block.chart_file(names, what);
    let chart = per_unit::build(&file, spec, description, bars)?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// The DataComponent section of a block, when some design of it carries its metrics.
///
/// # Errors
/// A chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<DataComponentView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|m| m.alloc_calls_per_entity),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let med = median(b);
            let m = metrics(b);
            DataComponentRow {
                design,
                kind,
                colour,
                measured: m.is_some(),
                note: if m.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                calls_per_entity: sig3(m.and_then(|m| m.alloc_calls_per_entity)),
                bytes_per_key: sig3(m.and_then(|m| m.bytes_per_key)),
                bytes_per_entity: sig3(m.and_then(|m| m.bytes_per_entity)),
                body_calls_per_op: sig3(m.map(|m| m.body_alloc_calls_per_op)),
                ns: med.map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|m| m.keys_after_body))
        .collect();
    let (lo, hi) = (
        counts.iter().min().copied().unwrap_or(0),
        counts.iter().max().copied().unwrap_or(0),
    );
    let calls_title = format!("{}: allocator calls per entity", block.title);
    let calls_chart = chart(
        block,
        names,
        charts,
        (
            "calls-per-entity",
            PerUnit {
                title: &calls_title,
                x_desc: "allocator calls per entity spawned, setup and body (lower is better)",
                value_label: per_unit::plain_label,
            },
        ),
        format!(
            "{calls_title}: calls each DataComponent store made to the global allocator over \
             the setup and the body, per entity spawned (its own accounting), fewest at the top."
        ),
        &bars(block, |m| m.alloc_calls_per_entity),
    )?;
    let bytes_title = format!("{}: heap bytes per entity", block.title);
    let bytes_chart = chart(
        block,
        names,
        charts,
        (
            "bytes-per-entity",
            PerUnit {
                title: &bytes_title,
                x_desc: "heap bytes per live entity after the body (lower is better)",
                value_label: per_unit::bytes_label,
            },
        ),
        format!(
            "{bytes_title}: heap bytes each DataComponent store holds after the body (its own \
             accounting, spare capacity and shared arenas included) per live entity, smallest \
             at the top."
        ),
        &bars(block, |m| m.bytes_per_entity),
    )?;
    Ok(Some(DataComponentView {
        keys_after_body: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        },
        rows,
        calls_chart,
        bytes_chart,
    }))
}
