//! What a spatial index measures beyond time, and how the report shows it: the article's
//! "2^n cells", "~16 objects" and XOR collision figures, from an untimed replay with the
//! design's own accounting (`impls::spatial::SpatialIndex::query_cost`, `longest_chain` and
//! `memory_bytes`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A spatial index's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SpatialMetrics {
    /// Live points after the setup.
    pub points_after_setup: u64,
    /// Points found per query of the body (the same for every design); `None` without queries.
    pub found_per_query: Option<f64>,
    /// Grid cells (hash lookups, dense cells) looked at per query; `None` for designs that
    /// cannot tell (peers) or have no cells, and without queries.
    pub cells_per_query: Option<f64>,
    /// Points tested (distance computed, or walked past in a colliding bucket) per query;
    /// `None` for designs that cannot tell (peers) and without queries.
    pub tested_per_query: Option<f64>,
    /// The most points one bucket held after the setup; `None` for designs without buckets.
    pub longest_chain: Option<u64>,
    /// Heap bytes per live point after the setup; `None` with no points.
    pub bytes_per_point: Option<f64>,
}

/// The query-work section: ranked by points tested per query, with charts of it and of the
/// longest chain.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Spatial-index query work".into(),
        rank_by: "tested_per_query".into(),
        specs: vec![
            MetricSpec::trace("points_after_setup", "points after the setup", Unit::Count)
                .describe("live points after the setup (the trace fixes it)."),
            MetricSpec::trace("found_per_query", "found per query", Unit::Number)
                .describe("points each query found (the same for every design)."),
            MetricSpec::per_design("cells_per_query", "cells / query", Unit::Number).describe(
                "grid cells (hash lookups, dense cells) the design looked at per query, by its \
                 own structure: the article's 2^n (4 in 2D, 8 in 3D) at the design radius, \
                 \"10² = 100\" at 10×. Empty for designs without cells and for peers (they \
                 cannot tell).",
            ),
            MetricSpec::per_design("tested_per_query", "tested / query", Unit::Number)
                .describe(
                    "points whose distance the design computed, or walked past in a colliding \
                     bucket, per query: the article's \"~16\", and \"~1600 … regardless of the \
                     cell size\" at 10×. Empty for peers (they cannot tell).",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("longest_chain", "longest chain", Unit::Count)
                .describe(
                    "the most points one bucket (a hash key's list, a dense cell) held after \
                     the setup: XOR keys put every diagonal cell in one bucket.",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("bytes_per_point", "B / point", Unit::Number).describe(
                "heap bytes the design holds after the setup (its own accounting; peers an \
                 estimate) divided by its points.",
            ),
        ],
    }
}
