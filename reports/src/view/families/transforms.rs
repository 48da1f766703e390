//! Family `transforms`: the transform-hierarchy section of a block, the world products each
//! design computed per frame (the article's O(L²) against O(L)) and its heap bytes per node.

use results::Benchmark;
use results::family::{FamilyMetrics, TransformMetrics};
use serde::Serialize;

use super::Block;
use crate::format;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The transform numbers of one (workload, N) (family `transforms`): a table.
#[derive(Debug, Serialize)]
pub struct TransformsView {
    /// Nodes after the setup: one number, or the range when the designs disagree.
    pub nodes_after_setup: String,
    /// Designs with metrics by world products per frame, fewest first; then the others in the
    /// order of the main table.
    pub rows: Vec<TransformRow>,
}

/// One design's transform numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct TransformRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `transforms` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: the status and reason.
    pub note: String,
    /// World products per body frame.
    pub products_per_frame: String,
    /// World products per `SetLocal` of the body.
    pub products_per_set_local: String,
    /// Heap bytes per node after the setup.
    pub bytes_per_node: String,
    /// Heap bytes after the body.
    pub memory_after_body: String,
    /// Median ns per work unit (as in the main table).
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's transform metrics: the one read of the transforms variant of `metrics`.
pub(super) fn metrics(b: &Benchmark) -> Option<&TransformMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Transforms(t)) => Some(t),
        _ => None,
    }
}

/// The transform section of a block, when some design of it carries `transforms` metrics.
pub(super) fn build(block: &Block<'_>) -> Option<TransformsView> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return None;
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|t| t.products_per_frame),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = median(b);
            let t = metrics(b);
            TransformRow {
                design,
                kind,
                colour,
                measured: t.is_some(),
                note: if t.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                products_per_frame: sig3(t.and_then(|t| t.products_per_frame)),
                products_per_set_local: sig3(t.and_then(|t| t.products_per_set_local)),
                bytes_per_node: sig3(t.and_then(|t| t.bytes_per_node)),
                memory_after_body: t
                    .map(|t| format::bytes(t.memory_bytes_after_body as f64))
                    .unwrap_or_default(),
                ns: m.map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|t| t.nodes_after_setup))
        .collect();
    let (lo, hi) = (
        counts.iter().min().copied().unwrap_or(0),
        counts.iter().max().copied().unwrap_or(0),
    );
    Some(TransformsView {
        nodes_after_setup: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        },
        rows,
    })
}
