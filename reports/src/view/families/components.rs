//! Family `components`: the component-manager section of a block: heap bytes per entity and
//! per instance, allocator traffic, and the garbage left by the destruction strategy (the
//! article's GC claim: "the components will be quickly destroyed"): a table, and a chart of
//! the garbage left after each frame.

use results::Benchmark;
use results::family::{ComponentMetrics, FamilyMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::{Chart, ChartError, Line, garbage};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The component-manager numbers of one (workload, N): a table.
#[derive(Debug, Serialize)]
pub struct ComponentsView {
    /// Designs with metrics by bytes per entity, smallest first; then the others in the
    /// order of the main table; then reference loops.
    pub rows: Vec<ComponentRow>,
    /// Whether the body has destruction steps (so the garbage columns mean something).
    pub has_frames: bool,
    /// Garbage after each frame, one line per shown design that left any; `None` without
    /// frames.
    pub garbage_chart: Option<Chart>,
}

/// One design's component-manager numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct ComponentRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `components` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured.
    pub note: String,
    /// Heap bytes per live entity after the setup.
    pub bytes_per_entity: String,
    /// Heap bytes per instance after the setup.
    pub bytes_per_instance: String,
    /// Heap bytes after the body.
    pub memory_after_body: String,
    /// Allocator calls of the setup.
    pub setup_calls: String,
    /// Allocator calls of the body per work unit.
    pub body_calls_per_op: String,
    /// Garbage after the 10th destruction step.
    pub garbage_after_10: String,
    /// Garbage after the last destruction step.
    pub garbage_after_last: String,
    /// Most garbage after any step.
    pub garbage_peak: String,
    /// Median ns per work unit (as in the main table).
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's component metrics: the one read of the components variant of `metrics`.
pub(super) fn metrics(b: &Benchmark) -> Option<&ComponentMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Components(c)) => Some(c),
        _ => None,
    }
}

fn count(x: Option<u64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

/// The garbage-per-frame chart of the shown designs that left garbage, pushed onto `charts`.
///
/// # Errors
/// The chart could not be drawn.
fn garbage_chart(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Chart, ChartError> {
    let lines: Vec<Line> = block
        .shown()
        .iter()
        .filter_map(|b| {
            let series = &metrics(b)?.garbage_per_frame;
            series.iter().any(|&g| g > 0).then(|| Line {
                style: block.style(b),
                points: (1..)
                    .zip(series)
                    .map(|(frame, &g)| (f64::from(frame), g as f64))
                    .collect(),
            })
        })
        .collect();
    let file = block.chart_file(names, "garbage-per-frame");
    let chart = garbage::build(&file, &format!("{}: garbage left", block.title), &lines)?;
    charts.push(chart.clone());
    Ok(chart)
}

/// The component-manager section of a block, when some design of it carries its metrics.
///
/// # Errors
/// The garbage chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<ComponentsView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|c| c.bytes_per_entity),
        true,
    );
    let has_frames = block
        .ordered
        .iter()
        .any(|b| metrics(b).is_some_and(|c| c.frames > 0));
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = median(b);
            let c = metrics(b);
            ComponentRow {
                design,
                kind,
                colour,
                measured: c.is_some(),
                note: if c.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                bytes_per_entity: sig3(c.and_then(|c| c.bytes_per_entity)),
                bytes_per_instance: sig3(c.and_then(|c| c.bytes_per_instance)),
                memory_after_body: c
                    .map(|c| format::bytes(c.memory_bytes_after_body as f64))
                    .unwrap_or_default(),
                setup_calls: count(c.map(|c| c.setup_alloc_calls)),
                body_calls_per_op: sig3(c.map(|c| c.alloc_calls_per_op)),
                garbage_after_10: count(c.and_then(|c| c.garbage_after_10_frames)),
                garbage_after_last: count(c.and_then(|c| c.garbage_after_last_frame)),
                garbage_peak: count(c.filter(|c| c.frames > 0).map(|c| c.garbage_peak)),
                ns: m.map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let garbage_chart = if has_frames {
        Some(garbage_chart(block, names, charts)?)
    } else {
        None
    };
    Ok(Some(ComponentsView {
        rows,
        has_frames,
        garbage_chart,
    }))
}
