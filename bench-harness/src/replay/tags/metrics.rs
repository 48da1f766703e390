//! What a tag store measures beyond time, and how the report shows it: heap bytes per tag and
//! allocator traffic, from an untimed replay with the design's own accounting
//! (`impls::tags::TagStore::memory_bytes` and `allocator_calls`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A tag store's metrics on one trace.
    pub struct TagMetrics;
    /// The tag-store section: ranked by bytes per tag, with a chart of it.
    section("Tag-store memory and allocator traffic", ranked by bytes_per_tag);

    /// Tags held after the setup.
    tags_after_setup: u64 => trace("tags after the setup", Count)
        .describe("tags held after the setup (the trace fixes it).");

    /// Heap bytes per tag held after the setup; `None` with no tags.
    bytes_per_tag: Option<f64> => per_design("B / tag", Number)
        .describe(
            "heap bytes the design holds after the setup (its own accounting) divided \
             by the tags it then holds.",
        )
        .chart(MetricChart::Bars);

    /// Heap bytes held after the body.
    memory_bytes_after_body: u64 => per_design("after body", Bytes)
        .describe("heap bytes the design holds after the body.");

    /// Allocator calls during the setup per tag held after it; `None` with no tags.
    setup_alloc_calls_per_tag: Option<f64> => per_design("setup calls / tag", Number)
        .describe(
            "allocator calls the design made during the setup, per tag held after it: \
             the heap traffic of building the store.",
        );

    /// Allocator calls during the body per work unit.
    alloc_calls_per_op: f64 => per_design("body calls / unit", Number)
        .describe("allocator calls the design made during the body, per work unit.");
}
