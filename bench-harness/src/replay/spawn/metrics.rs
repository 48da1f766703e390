//! What a spawn design measures beyond time, and how the report shows it: the article's blob
//! sizes per format, from an untimed compile and spawn with the design's own accounting
//! (`impls::spawn::Spawner::blob_bytes`, `SpawnWorld::memory_bytes`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A spawn design's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SpawnMetrics {
    /// Entities of the level (one spawn).
    pub level_entities: u64,
    /// Bytes of the compiled resource per level entity; `None` for an empty level.
    pub blob_bytes_per_entity: Option<f64>,
    /// Heap bytes of the world after one spawn per spawned entity (peers: an estimate); `None`
    /// for an empty level.
    pub world_bytes_per_entity: Option<f64>,
}

/// The entity-resource section: ranked by resource bytes per entity, with a chart of it.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Entity resources".into(),
        rank_by: "blob_bytes_per_entity".into(),
        specs: vec![
            MetricSpec::trace("level_entities", "level entities", Unit::Count)
                .describe("entities of the level, spawned once (the trace fixes it)."),
            MetricSpec::per_design(
                "blob_bytes_per_entity",
                "B / entity (resource)",
                Unit::Number,
            )
            .describe(
                "bytes of the compiled resource divided by the level's entities: the \
                     nested format's per-component headers, the offset tables, the grouped \
                     format's entity indices; peers their owned records.",
            )
            .chart(MetricChart::Bars),
            MetricSpec::per_design("world_bytes_per_entity", "B / entity (world)", Unit::Number)
                .describe(
                    "heap bytes of the world after one spawn, per entity (its stores' own \
                     accounting; peers an estimate). The article designs share one world, so \
                     theirs agree.",
                ),
        ],
    }
}
