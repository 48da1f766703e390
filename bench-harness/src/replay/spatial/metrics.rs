//! What a spatial index measures beyond time, and how the report shows it: the article's
//! "2^n cells", "~16 objects" and XOR collision figures, from an untimed replay with the
//! design's own accounting (`impls::spatial::SpatialIndex::query_cost`, `longest_chain` and
//! `memory_bytes`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A spatial index's metrics on one trace.
    pub struct SpatialMetrics;
    /// The query-work section: ranked by points tested per query, with charts of it and of the
    /// longest chain.
    section("Spatial-index query work", ranked by tested_per_query);

    /// Live points after the setup.
    points_after_setup: u64 => trace("points after the setup", Count)
        .describe("live points after the setup (the trace fixes it).");

    /// Points found per query of the body (the same for every design); `None` without queries.
    found_per_query: Option<f64> => trace("found per query", Number)
        .describe("points each query found (the same for every design).");

    /// Grid cells (hash lookups, dense cells) looked at per query; `None` for designs that
    /// cannot tell (peers) or have no cells, and without queries.
    cells_per_query: Option<f64> => per_design("cells / query", Number)
        .describe(
            "grid cells (hash lookups, dense cells) the design looked at per query, by its \
             own structure: the article's 2^n (4 in 2D, 8 in 3D) at the design radius, \
             \"10² = 100\" at 10×. Empty for designs without cells and for peers (they \
             cannot tell).",
        );

    /// Points tested (distance computed, or walked past in a colliding bucket) per query;
    /// `None` for designs that cannot tell (peers) and without queries.
    tested_per_query: Option<f64> => per_design("tested / query", Number)
        .describe(
            "points whose distance the design computed, or walked past in a colliding \
             bucket, per query: the article's \"~16\", and \"~1600 … regardless of the \
             cell size\" at 10×. Empty for peers (they cannot tell).",
        )
        .chart(MetricChart::Bars);

    /// The most points one bucket held after the setup; `None` for designs without buckets.
    longest_chain: Option<u64> => per_design("longest chain", Count)
        .describe(
            "the most points one bucket (a hash key's list, a dense cell) held after \
             the setup: XOR keys put every diagonal cell in one bucket.",
        )
        .chart(MetricChart::Bars);

    /// Heap bytes per live point after the setup; `None` with no points.
    bytes_per_point: Option<f64> => per_design("B / point", Number)
        .describe(
            "heap bytes the design holds after the setup (its own accounting; peers an \
             estimate) divided by its points.",
        );
}
