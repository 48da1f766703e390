//! What a relation index measures beyond time, and how the report shows it: heap bytes per
//! record and the indices it keeps, from an untimed replay with the design's own accounting
//! (`impls::relations::RelationIndex::memory_bytes`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A relation index's metrics on one trace.
    pub struct RelationMetrics;
    /// The index-memory section: ranked by bytes per record, with a chart of it.
    section("Index memory", ranked by bytes_per_record);

    /// Live records after the setup.
    records_after_setup: u64 => trace("records after the setup", Count)
        .describe("live records after the setup (the trace fixes it).");

    /// Indices the design keeps (1: on `a` only; 2: on `a` and `b`; 0: none, it scans).
    indices: u8 => per_design("indices", Count)
        .neutral()
        .describe(
            "indices the design keeps: 0 (every query scans), 1 (on a; the b side \
             scans and b-side traces are unsupported) or 2 (on a and b).",
        );

    /// Heap bytes per live record after the setup; `None` with no records.
    bytes_per_record: Option<f64> => per_design("B / record", Number)
        .describe(
            "heap bytes the design holds after the setup (its own accounting: records, \
             links, hash tables, free list) divided by the records it then holds. The \
             article: \"+2 u32 per item per index\".",
        )
        .chart(MetricChart::Bars);

    /// Heap bytes held after the body.
    memory_bytes_after_body: u64 => per_design("after body", Bytes)
        .describe("heap bytes the design holds after the body.");
}
