//! What a component manager measures beyond time, and how the report shows it: memory,
//! allocator traffic and garbage left by the GC, from an untimed replay with the design's own
//! accounting (`impls::components::ComponentStore`).

use results::{MetricChart, MetricSection, MetricSpec, Unit};
use serde::Serialize;

/// A component manager's metrics on one trace; field names are the specs' names.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ComponentMetrics {
    /// Live entities after the setup.
    pub entities_after_setup: u64,
    /// Instances (point masses) after the setup.
    pub instances_after_setup: u64,
    /// Heap bytes after the setup per live entity; `None` with no entity.
    pub bytes_per_entity: Option<f64>,
    /// Heap bytes after the setup per instance; `None` with no instance.
    pub bytes_per_instance: Option<f64>,
    /// Heap bytes held after the body.
    pub memory_bytes_after_body: u64,
    /// Allocator calls during the setup.
    pub setup_alloc_calls: u64,
    /// Allocator calls during the body, per work unit.
    pub alloc_calls_per_op: f64,
    /// Destruction steps (frames) in the body; `None` without one.
    pub frames: Option<u64>,
    /// Garbage after the 10th destruction step; `None` with fewer steps.
    pub garbage_after_10_frames: Option<u64>,
    /// Garbage after the last destruction step; `None` without one.
    pub garbage_after_last_frame: Option<u64>,
    /// Most garbage after any destruction step; `None` without one.
    pub garbage_peak: Option<u64>,
    /// Garbage after each destruction step, in order (empty without one).
    pub garbage_per_frame: Vec<u64>,
}

/// The component-manager section: ranked by bytes per entity, with the garbage per frame
/// drawn as one line per design.
pub fn section() -> MetricSection {
    MetricSection {
        title: "Component-manager memory, allocator traffic and garbage".into(),
        rank_by: "bytes_per_entity".into(),
        specs: vec![
            MetricSpec::trace(
                "entities_after_setup",
                "entities after the setup",
                Unit::Count,
            )
            .describe("live entities after the setup (the trace fixes it)."),
            MetricSpec::trace(
                "instances_after_setup",
                "instances after the setup",
                Unit::Count,
            )
            .describe("point masses after the setup."),
            MetricSpec::trace("frames", "destruction steps", Unit::Count)
                .describe("destruction steps (frames) of the body."),
            MetricSpec::per_design("bytes_per_entity", "B / entity", Unit::Number).describe(
                "heap bytes the design holds after the setup (its own accounting: entity \
                 manager, map and instance data; peers: an estimate) per live entity.",
            ),
            MetricSpec::per_design("bytes_per_instance", "B / instance", Unit::Number)
                .describe("the same bytes per point mass."),
            MetricSpec::per_design("memory_bytes_after_body", "after body", Unit::Bytes)
                .describe("heap bytes after the body."),
            MetricSpec::per_design("setup_alloc_calls", "setup calls", Unit::Count).describe(
                "allocator calls during the setup (every capacity change of a buffer counts \
                 one; peers: not observable, 0).",
            ),
            MetricSpec::per_design("alloc_calls_per_op", "body calls / unit", Unit::Number)
                .describe("allocator calls during the body, per work unit."),
            MetricSpec::per_design("garbage_after_10_frames", "garbage after 10", Unit::Count)
                .describe(
                    "instances of killed entities not yet destroyed after the 10th destruction \
                     step (frame).",
                ),
            MetricSpec::per_design("garbage_after_last_frame", "garbage at end", Unit::Count)
                .describe("the same after the last destruction step."),
            MetricSpec::per_design("garbage_peak", "garbage peak", Unit::Count)
                .describe("the most garbage after any destruction step."),
            MetricSpec::per_design("garbage_per_frame", "garbage per frame", Unit::Count)
                .describe("garbage after each destruction step, in order.")
                .chart(MetricChart::Lines),
        ],
    }
}
