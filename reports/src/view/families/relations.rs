//! Family `relations`: the one-to-many index section of a block, heap bytes per record (a table
//! and a bytes-per-record chart) and the number of indices each design keeps (the article's
//! "+2 u32 per item per index").

use results::Benchmark;
use results::family::{FamilyMetrics, RelationMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::{Chart, ChartError};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The relation-index numbers of one (workload, N): a table, smallest bytes per record first,
/// and a bytes-per-record chart.
#[derive(Debug, Serialize)]
pub struct RelationsView {
    /// Records held after the setup: one number, or the range when designs disagree.
    pub records_after_setup: String,
    /// Designs with metrics by bytes per record, then the others, then reference loops.
    pub rows: Vec<RelationRow>,
    /// Heap bytes per record after the setup, when some design reported it.
    pub chart: Option<Chart>,
}

/// One design's relation-index numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct RelationRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `relations` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured.
    pub note: String,
    /// Indices the design keeps (0, 1 or 2).
    pub indices: String,
    /// Heap bytes per record after the setup.
    pub bytes_per_record: String,
    /// Heap bytes held after the body.
    pub memory_after_body: String,
    /// Median ns per work unit.
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's relation-index metrics: the one read of the variant.
fn metrics(b: &Benchmark) -> Option<&RelationMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Relations(m)) => Some(m),
        _ => None,
    }
}

/// The relation-index section of a block, when some design of it carries its metrics.
///
/// # Errors
/// The chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<RelationsView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|m| m.bytes_per_record),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let t = median(b);
            let m = metrics(b);
            RelationRow {
                design,
                kind,
                colour,
                measured: m.is_some(),
                note: if m.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                indices: m.map(|m| m.indices.to_string()).unwrap_or_default(),
                bytes_per_record: sig3(m.and_then(|m| m.bytes_per_record)),
                memory_after_body: m
                    .map(|m| format::bytes(m.memory_bytes_after_body as f64))
                    .unwrap_or_default(),
                ns: t.map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|m| m.records_after_setup))
        .collect();
    let lo = counts.iter().min().copied().unwrap_or(0);
    let hi = counts.iter().max().copied().unwrap_or(0);
    let chart = block.bytes_per_item_chart(names, charts, "record", |b| {
        metrics(b).and_then(|m| m.bytes_per_record)
    })?;
    Ok(Some(RelationsView {
        records_after_setup: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        },
        rows,
        chart,
    }))
}
