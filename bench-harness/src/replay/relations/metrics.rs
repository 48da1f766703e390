//! What a relation index measures beyond time, and how the report shows it: heap bytes per
//! record and the indices it keeps, from an untimed replay with the design's own accounting
//! (`impls::relations::RelationIndex::memory_bytes`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A relation index's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RelationMetrics {
    /// Live records after the setup.
    pub records_after_setup: u64,
    /// Indices the design keeps (1: on `a` only; 2: on `a` and `b`; 0: none, it scans).
    pub indices: u8,
    /// Heap bytes per live record after the setup; `None` with no records.
    pub bytes_per_record: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
}

/// The index-memory section: ranked by bytes per record, with a chart of it.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Index memory".into(),
        rank_by: "bytes_per_record".into(),
        specs: vec![
            MetricSpec::trace(
                "records_after_setup",
                "records after the setup",
                Unit::Count,
            )
            .describe("live records after the setup (the trace fixes it)."),
            MetricSpec::per_design("indices", "indices", Unit::Count)
                .neutral()
                .describe(
                    "indices the design keeps: 0 (every query scans), 1 (on a; the b side \
                     scans and b-side traces are unsupported) or 2 (on a and b).",
                ),
            MetricSpec::per_design("bytes_per_record", "B / record", Unit::Number)
                .describe(
                    "heap bytes the design holds after the setup (its own accounting: records, \
                     links, hash tables, free list) divided by the records it then holds. The \
                     article: \"+2 u32 per item per index\".",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design("memory_bytes_after_body", "after body", Unit::Bytes)
                .describe("heap bytes the design holds after the body."),
        ],
    }
}
