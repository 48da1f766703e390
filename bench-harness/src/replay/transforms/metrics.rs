//! What a transform hierarchy measures beyond time, and how the report shows it: world
//! products (O(L²) against O(L) on a moving chain) and bytes per node, from an untimed replay
//! with the design's own accounting (`impls::transforms::TransformStore::world_updates` and
//! `memory_bytes`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A transform hierarchy's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TransformMetrics {
    /// Live nodes after the setup.
    pub nodes_after_setup: u64,
    /// World products per `EndFrame` of the body; `None` for a body without frames.
    pub products_per_frame: Option<f64>,
    /// The same products per `SetLocal` (and batch entry) of the body; `None` without any.
    pub products_per_set_local: Option<f64>,
    /// Heap bytes per node after the setup; `None` with no nodes.
    pub bytes_per_node: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
}

/// The transform section: ranked by world products per frame, with a chart of it.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Transform-hierarchy work and memory".into(),
        rank_by: "products_per_frame".into(),
        specs: vec![
            MetricSpec::trace("nodes_after_setup", "nodes after the setup", Unit::Count)
                .describe("live nodes after the setup (the trace fixes it)."),
            MetricSpec::per_design("products_per_frame", "products / frame", Unit::Number)
                .describe(
                    "world products (local × parent world) the design computed during the \
                     body, per EndFrame: an immediate design redoes a subtree per SetLocal \
                     (O(L²) per frame on a moving chain of L), a deferred one each dirty node \
                     once (O(L)); the flag scan and the dirty list differ in what they visit, \
                     not in products.",
                )
                .chart(MetricChart::Bars),
            MetricSpec::per_design(
                "products_per_set_local",
                "products / set_local",
                Unit::Number,
            )
            .describe("the same products per SetLocal (or batch entry) of the body."),
            MetricSpec::per_design("bytes_per_node", "B / node", Unit::Number).describe(
                "heap bytes the design holds after the setup (its own accounting) divided by \
                 its nodes.",
            ),
            MetricSpec::per_design("memory_bytes_after_body", "after body", Unit::Bytes)
                .describe("heap bytes the design holds after the body."),
        ],
    }
}
