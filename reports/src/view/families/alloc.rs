//! Family `alloc`: the block-allocator section of a block, arena use and fragmentation, with a
//! chart of the three utilization fractions.

use results::Benchmark;
use results::family::{AllocMetrics, FamilyMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::alloc_utilization::UtilizationRow;
use crate::charts::{Chart, ChartError, alloc_utilization};
use crate::format;
use crate::view::names::Names;
use crate::view::status::unmeasured_note;
use crate::view::text::sig3;

/// The block-allocator numbers of one (workload, N) (family `alloc`): a table and a chart of
/// the three utilization fractions.
#[derive(Debug, Serialize)]
pub struct AllocView {
    /// Designs with metrics by utilization at peak, highest first; then the others (e.g. the
    /// `system` row, timed but not measured) in the order of the main table; then reference
    /// loops.
    pub rows: Vec<AllocRow>,
    /// Why some cells read `unknown`, naming the designs; empty when none does.
    pub unknown_note: String,
    /// Utilization at peak, mean utilization and live fraction at first failure.
    pub chart: Chart,
}

/// One design's allocator numbers, formatted; fractions in 0..1.
#[derive(Debug, Serialize)]
pub struct AllocRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `alloc` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: `time only`, or the status and reason.
    pub note: String,
    /// Arena size of the replay.
    pub arena: String,
    /// Requested over reserved bytes at peak.
    pub utilization_at_peak: String,
    /// Mean of requested over reserved bytes.
    pub utilization_mean: String,
    /// `(reserved - requested) / reserved` at peak.
    pub internal_fragmentation: String,
    /// `1 - largest free / free bytes` at peak, or `unknown`.
    pub external_fragmentation: String,
    /// Largest free block over the arena at peak, or `unknown`.
    pub largest_free_over_arena: String,
    /// Metadata bits per live block at peak.
    pub metadata_bits_per_block: String,
    /// Live bytes over the arena at the first failed allocation; empty when not measured.
    pub live_fraction_at_first_failure: String,
}

/// A benchmark's block-allocator metrics: the one read of the alloc variant of `metrics`.
pub(super) fn metrics(b: &Benchmark) -> Option<&AllocMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Alloc(a)) => Some(a),
        _ => None,
    }
}

/// The block-allocator section of a block, when some design of it carries `alloc` metrics.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<AllocView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).map(|a| a.utilization_at_peak),
        false,
    );
    let known = |v: Option<f64>| {
        if v.is_some() {
            sig3(v)
        } else {
            "unknown".to_string()
        }
    };
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            match metrics(b) {
                Some(a) => AllocRow {
                    design,
                    kind,
                    colour,
                    measured: true,
                    note: String::new(),
                    arena: format::bytes(a.arena_bytes as f64),
                    utilization_at_peak: sig3(Some(a.utilization_at_peak)),
                    utilization_mean: sig3(Some(a.utilization_mean)),
                    internal_fragmentation: sig3(Some(a.internal_fragmentation_at_peak)),
                    external_fragmentation: known(a.external_fragmentation_at_peak),
                    largest_free_over_arena: known(a.largest_free_over_arena_at_peak),
                    metadata_bits_per_block: sig3(Some(a.metadata_bits_per_block)),
                    live_fraction_at_first_failure: sig3(a.live_fraction_at_first_failure),
                },
                None => AllocRow {
                    design,
                    kind,
                    colour,
                    measured: false,
                    note: unmeasured_note(b),
                    arena: String::new(),
                    utilization_at_peak: String::new(),
                    utilization_mean: String::new(),
                    internal_fragmentation: String::new(),
                    external_fragmentation: String::new(),
                    largest_free_over_arena: String::new(),
                    metadata_bits_per_block: String::new(),
                    live_fraction_at_first_failure: String::new(),
                },
            }
        })
        .collect();
    let unknown: Vec<&str> = ordered
        .iter()
        .filter(|b| {
            metrics(b).is_some_and(|a| {
                a.external_fragmentation_at_peak.is_none()
                    || a.largest_free_over_arena_at_peak.is_none()
            })
        })
        .map(|b| b.design.as_str())
        .collect();
    let unknown_note = match unknown.as_slice() {
        [] => String::new(),
        [one] => format!(
            "unknown: {one} cannot tell its largest free block, so its external fragmentation \
             and largest free block are not measured."
        ),
        many => format!(
            "unknown: {} cannot tell their largest free block, so their external fragmentation \
             and largest free block are not measured.",
            many.join(", ")
        ),
    };
    let utilization: Vec<UtilizationRow> = ordered
        .iter()
        .filter_map(|b| {
            let a = metrics(b)?;
            Some(UtilizationRow {
                style: block.style(b),
                at_peak: a.utilization_at_peak,
                mean: a.utilization_mean,
                live_at_first_failure: a.live_fraction_at_first_failure,
            })
        })
        .collect();
    let file = block.chart_file(names, "utilization");
    let chart =
        alloc_utilization::build(&file, &format!("{}: arena use", block.title), &utilization)?;
    charts.push(chart.clone());
    Ok(Some(AllocView {
        rows,
        unknown_note,
        chart,
    }))
}
