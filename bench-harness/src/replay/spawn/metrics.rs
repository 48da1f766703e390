//! What a spawn design measures beyond time, and how the report shows it: the article's blob
//! sizes per format, from an untimed compile and spawn with the design's own accounting
//! (`impls::spawn::Spawner::blob_bytes`, `SpawnWorld::memory_bytes`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A spawn design's metrics on one trace.
    pub struct SpawnMetrics;
    /// The entity-resource section: ranked by resource bytes per entity, with a chart of it.
    section("Entity resources", ranked by blob_bytes_per_entity);

    /// Entities of the level (one spawn).
    level_entities: u64 => trace("level entities", Count)
        .describe("entities of the level, spawned once (the trace fixes it).");

    /// Bytes of the compiled resource per level entity; `None` for an empty level.
    blob_bytes_per_entity: Option<f64> => per_design("B / entity (resource)", Number)
        .describe(
            "bytes of the compiled resource divided by the level's entities: the \
             nested format's per-component headers, the offset tables, the grouped \
             format's entity indices; peers their owned records.",
        )
        .chart(MetricChart::Bars);

    /// Heap bytes of the world after one spawn per spawned entity (peers: an estimate); `None`
    /// for an empty level.
    world_bytes_per_entity: Option<f64> => per_design("B / entity (world)", Number)
        .describe(
            "heap bytes of the world after one spawn, per entity (its stores' own \
             accounting; peers an estimate). The article designs share one world, so \
             theirs agree.",
        );
}
