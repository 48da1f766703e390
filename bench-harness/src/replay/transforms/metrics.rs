//! What a transform hierarchy measures beyond time, and how the report shows it: world
//! products (O(L²) against O(L) on a moving chain) and bytes per node, from an untimed replay
//! with the design's own accounting (`impls::transforms::TransformStore::world_updates` and
//! `memory_bytes`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A transform hierarchy's metrics on one trace.
    pub struct TransformMetrics;
    /// The transform section: ranked by world products per frame, with a chart of it.
    section("Transform-hierarchy work and memory", ranked by products_per_frame);

    /// Live nodes after the setup.
    nodes_after_setup: u64 => trace("nodes after the setup", Count)
        .describe("live nodes after the setup (the trace fixes it).");

    /// World products per `EndFrame` of the body; `None` for a body without frames.
    products_per_frame: Option<f64> => per_design("products / frame", Number)
        .describe(
            "world products (local × parent world) the design computed during the \
             body, per EndFrame: an immediate design redoes a subtree per SetLocal \
             (O(L²) per frame on a moving chain of L), a deferred one each dirty node \
             once (O(L)); the flag scan and the dirty list differ in what they visit, \
             not in products.",
        )
        .chart(MetricChart::Bars);

    /// The same products per `SetLocal` (and batch entry) of the body; `None` without any.
    products_per_set_local: Option<f64> => per_design("products / set_local", Number)
        .describe("the same products per SetLocal (or batch entry) of the body.");

    /// Heap bytes per node after the setup; `None` with no nodes.
    bytes_per_node: Option<f64> => per_design("B / node", Number)
        .describe(
            "heap bytes the design holds after the setup (its own accounting) divided by \
             its nodes.",
        );

    /// Heap bytes held after the body.
    memory_bytes_after_body: u64 => per_design("after body", Bytes)
        .describe("heap bytes the design holds after the body.");
}
