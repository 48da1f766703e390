//! Family `spawn`: the entity-resource section of a block, bytes of the compiled resource per
//! entity (a table and a bytes-per-entity chart of the blob) and bytes of the spawned world per
//! entity.

use results::Benchmark;
use results::family::{FamilyMetrics, SpawnMetrics};
use serde::Serialize;

use super::Block;
use crate::charts::{Chart, ChartError};
use crate::format;
use crate::view::names::Names;
use crate::view::status::{median, unmeasured_note};
use crate::view::text::sig3;

/// The entity-resource numbers of one (workload, N): a table, smallest resource per entity
/// first, and a chart of the resource bytes per entity.
#[derive(Debug, Serialize)]
pub struct SpawnView {
    /// Entities of the level: one number, or the range when designs disagree.
    pub level_entities: String,
    /// Designs with metrics by blob bytes per entity, then the others, then reference loops.
    pub rows: Vec<SpawnRow>,
    /// Resource bytes per level entity, when some design reported it.
    pub chart: Option<Chart>,
}

/// One design's entity-resource numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct SpawnRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `spawn` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured.
    pub note: String,
    /// Resource bytes per level entity.
    pub blob_bytes_per_entity: String,
    /// World heap bytes per spawned entity.
    pub world_bytes_per_entity: String,
    /// Median ns per work unit (per spawned entity).
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// A benchmark's spawn metrics: the one read of the variant.
fn metrics(b: &Benchmark) -> Option<&SpawnMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Spawn(m)) => Some(m),
        _ => None,
    }
}

/// The entity-resource section of a block, when some design of it carries its metrics.
///
/// # Errors
/// The chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<SpawnView>, ChartError> {
    if !block.ordered.iter().any(|b| metrics(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| metrics(b).is_some(),
        |b| metrics(b).and_then(|m| m.blob_bytes_per_entity),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = metrics(b);
            SpawnRow {
                design,
                kind,
                colour,
                measured: m.is_some(),
                note: if m.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                blob_bytes_per_entity: sig3(m.and_then(|m| m.blob_bytes_per_entity)),
                world_bytes_per_entity: sig3(m.and_then(|m| m.world_bytes_per_entity)),
                ns: median(b).map(format::ns).unwrap_or_default(),
                ratio: block.ratio_to_best(b),
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| metrics(b).map(|m| m.level_entities))
        .collect();
    let lo = counts.iter().min().copied().unwrap_or(0);
    let hi = counts.iter().max().copied().unwrap_or(0);
    let chart = block.bytes_per_item_chart(names, charts, "level-entity", |b| {
        metrics(b).and_then(|m| m.blob_bytes_per_entity)
    })?;
    Ok(Some(SpawnView {
        level_entities: if lo == hi {
            lo.to_string()
        } else {
            format!("{lo}–{hi}")
        },
        rows,
        chart,
    }))
}
