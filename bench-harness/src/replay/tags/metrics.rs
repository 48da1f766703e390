//! What a tag store measures beyond time, and how the report shows it: heap bytes per tag and
//! allocator traffic, from an untimed replay with the design's own accounting
//! (`impls::tags::TagStore::memory_bytes` and `allocator_calls`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A tag store's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TagMetrics {
    /// Tags held after the setup.
    pub tags_after_setup: u64,
    /// Heap bytes per tag held after the setup; `None` with no tags.
    pub bytes_per_tag: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Allocator calls during the setup per tag held after it; `None` with no tags.
    pub setup_alloc_calls_per_tag: Option<f64>,
    /// Allocator calls during the body per work unit.
    pub alloc_calls_per_op: f64,
}

/// The tag-store section: ranked by bytes per tag, with a chart of it.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Tag-store memory and allocator traffic".into(),
        rank_by: "bytes_per_tag".into(),
        specs: vec![
            MetricSpec::trace("tags_after_setup", "tags after the setup", Unit::Count)
                .describe("tags held after the setup (the trace fixes it)."),
            MetricSpec::per_design("bytes_per_tag", "B / tag", Unit::Number)
                .describe(
                    "heap bytes the design holds after the setup (its own accounting) divided \
                     by the tags it then holds.",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("memory_bytes_after_body", "after body", Unit::Bytes)
                .describe("heap bytes the design holds after the body."),
            MetricSpec::per_design(
                "setup_alloc_calls_per_tag",
                "setup calls / tag",
                Unit::Number,
            )
            .describe(
                "allocator calls the design made during the setup, per tag held after it: \
                     the heap traffic of building the store.",
            ),
            MetricSpec::per_design("alloc_calls_per_op", "body calls / unit", Unit::Number)
                .describe("allocator calls the design made during the body, per work unit."),
        ],
    }
}
