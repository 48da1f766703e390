//! What a DataComponent store measures beyond time, and how the report shows it: space and
//! allocator traffic (the article's "many → 3 → 1"), from an untimed replay with the design's
//! own accounting (`impls::data_component::DataStore::memory_bytes` and `allocator_calls`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A DataComponent store's metrics on one trace.
    pub struct DataComponentMetrics;
    /// The DataComponent section: ranked by allocator calls per entity, with charts of it and of
    /// bytes per entity.
    section("DataComponent memory and allocator traffic", ranked by alloc_calls_per_entity);

    /// Live entities after the body.
    entities_after_body: u64 => trace("entities after the body", Count)
        .describe("live entities after the body (the trace fixes it).");

    /// Keys held after the body.
    keys_after_body: u64 => trace("keys after the body", Count)
        .describe("keys held after the body.");

    /// Allocator calls over setup and body per entity spawned; `None` without entities.
    alloc_calls_per_entity: Option<f64> => per_design("calls / entity", Number)
        .describe(
            "allocator calls the design made over the setup and the body, per entity \
             spawned (its own accounting; B-tree nodes estimated): the article's \
             \"many → 3 → 1\".",
        )
        .chart(MetricChart::Bars);

    /// Heap bytes after the body per key held; `None` with no keys.
    bytes_per_key: Option<f64> => per_design("B / key", Number)
        .describe(
            "heap bytes the design holds after the body divided by the keys it then holds.",
        );

    /// Heap bytes after the body per live entity; `None` with no entities.
    bytes_per_entity: Option<f64> => per_design("B / entity", Number)
        .describe("the same bytes per live entity.")
        .chart(MetricChart::Bars);

    /// Allocator calls during the body per work unit.
    body_alloc_calls_per_op: f64 => per_design("body calls / unit", Number)
        .describe("allocator calls during the body, per work unit.");
}
