//! What a DataComponent store measures beyond time, and how the report shows it: space and
//! allocator traffic (the article's "many → 3 → 1"), from an untimed replay with the design's
//! own accounting (`impls::data_component::DataStore::memory_bytes` and `allocator_calls`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A DataComponent store's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DataComponentMetrics {
    /// Live entities after the body.
    pub entities_after_body: u64,
    /// Keys held after the body.
    pub keys_after_body: u64,
    /// Allocator calls over setup and body per entity spawned; `None` without entities.
    pub alloc_calls_per_entity: Option<f64>,
    /// Heap bytes after the body per key held; `None` with no keys.
    pub bytes_per_key: Option<f64>,
    /// Heap bytes after the body per live entity; `None` with no entities.
    pub bytes_per_entity: Option<f64>,
    /// Allocator calls during the body per work unit.
    pub body_alloc_calls_per_op: f64,
}

/// The DataComponent section: ranked by allocator calls per entity, with charts of it and of
/// bytes per entity.
pub fn section() -> MetricSection {
    MetricSection {
        title: "DataComponent memory and allocator traffic".into(),
        rank_by: "alloc_calls_per_entity".into(),
        specs: vec![
            MetricSpec::trace(
                "entities_after_body",
                "entities after the body",
                Unit::Count,
            )
            .describe("live entities after the body (the trace fixes it)."),
            MetricSpec::trace("keys_after_body", "keys after the body", Unit::Count)
                .describe("keys held after the body."),
            MetricSpec::per_design("alloc_calls_per_entity", "calls / entity", Unit::Number)
                .describe(
                    "allocator calls the design made over the setup and the body, per entity \
                     spawned (its own accounting; B-tree nodes estimated): the article's \
                     \"many → 3 → 1\".",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("bytes_per_key", "B / key", Unit::Number).describe(
                "heap bytes the design holds after the body divided by the keys it then holds.",
            ),
            MetricSpec::per_design("bytes_per_entity", "B / entity", Unit::Number)
                .describe("the same bytes per live entity.")
                .chart(MetricChart::Bars),
            MetricSpec::per_design("body_alloc_calls_per_op", "body calls / unit", Unit::Number)
                .describe("allocator calls during the body, per work unit."),
        ],
    }
}
