//! Family `tags`: the tag-store section of a block, heap bytes per tag and allocator traffic,
//! with a bytes-per-tag chart.

use results::Benchmark;
use results::family::{FamilyMetrics, TagMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::{Chart, ChartError};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The tag-store numbers of one (workload, N) (family `tags`): a table and a bytes-per-tag
/// chart.
#[derive(Debug, Serialize)]
pub struct TagsView {
    /// Tags held after the setup: one number (the trace fixes it), or the range when the
    /// designs disagree.
    pub tags_after_setup: String,
    /// Designs with metrics by bytes per tag, smallest first; then the others in the order of
    /// the main table; then reference loops.
    pub rows: Vec<TagRow>,
    /// Bytes per tag, when some design has the figure.
    pub chart: Option<Chart>,
}

/// One design's tag-store numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct TagRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `tags` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: `time only`, or the status and reason.
    pub note: String,
    /// Heap bytes per tag after the setup.
    pub bytes_per_tag: String,
    /// Heap bytes held after the body.
    pub memory_after_body: String,
    /// Allocator calls during the setup per tag held after it.
    pub setup_calls_per_tag: String,
    /// Allocator calls during the body per work unit.
    pub body_calls_per_op: String,
    /// Median ns per work unit (as in the main table).
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's tag-store metrics: the one read of the tags variant of `metrics`.
pub(super) fn metrics(b: &Benchmark) -> Option<&TagMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Tags(t)) => Some(t),
        _ => None,
    }
}

/// The tag-store section of a block, when some design of it carries `tags` metrics.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<TagsView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|t| t.bytes_per_tag),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = median(b);
            let t = metrics(b);
            TagRow {
                design,
                kind,
                colour,
                measured: t.is_some(),
                note: if t.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                bytes_per_tag: sig3(t.and_then(|t| t.bytes_per_tag)),
                memory_after_body: t
                    .map(|t| format::bytes(t.memory_bytes_after_body as f64))
                    .unwrap_or_default(),
                setup_calls_per_tag: sig3(t.and_then(|t| t.setup_alloc_calls_per_tag)),
                body_calls_per_op: sig3(t.map(|t| t.alloc_calls_per_op)),
                ns: m.map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|t| t.tags_after_setup))
        .collect();
    let (lo, hi) = (
        counts.iter().min().copied().unwrap_or(0),
        counts.iter().max().copied().unwrap_or(0),
    );
    let tags_after_setup = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    };
    let chart = block.bytes_per_item_chart(names, charts, "tag", |b| {
        metrics(b).and_then(|t| t.bytes_per_tag)
    })?;
    Ok(Some(TagsView {
        tags_after_setup,
        rows,
        chart,
    }))
}
