//! What a component manager measures beyond time, and how the report shows it: memory,
//! allocator traffic and garbage left by the GC, from an untimed replay with the design's own
//! accounting (`impls::components::ComponentStore`).

use crate::replay::metric_fields::metric_fields;
use results::MetricChart;

metric_fields! {
    /// A component manager's metrics on one trace.
    pub struct ComponentMetrics;
    /// The component-manager section: ranked by bytes per entity, with the garbage per frame
    /// drawn as one line per design.
    section("Component-manager memory, allocator traffic and garbage", ranked by bytes_per_entity);

    /// Live entities after the setup.
    entities_after_setup: u64 => trace("entities after the setup", Count)
        .describe("live entities after the setup (the trace fixes it).");

    /// Instances (point masses) after the setup.
    instances_after_setup: u64 => trace("instances after the setup", Count)
        .describe("point masses after the setup.");

    /// Destruction steps (frames) in the body; `None` without one.
    frames: Option<u64> => trace("destruction steps", Count)
        .describe("destruction steps (frames) of the body.");

    /// Heap bytes after the setup per live entity; `None` with no entity.
    bytes_per_entity: Option<f64> => per_design("B / entity", Number)
        .describe(
            "heap bytes the design holds after the setup (its own accounting: entity \
             manager, map and instance data; peers: an estimate) per live entity.",
        );

    /// Heap bytes after the setup per instance; `None` with no instance.
    bytes_per_instance: Option<f64> => per_design("B / instance", Number)
        .describe("the same bytes per point mass.");

    /// Heap bytes held after the body.
    memory_bytes_after_body: u64 => per_design("after body", Bytes)
        .describe("heap bytes after the body.");

    /// Allocator calls during the setup.
    setup_alloc_calls: u64 => per_design("setup calls", Count)
        .describe(
            "allocator calls during the setup (every capacity change of a buffer counts \
             one; peers: not observable, 0).",
        );

    /// Allocator calls during the body, per work unit.
    alloc_calls_per_op: f64 => per_design("body calls / unit", Number)
        .describe("allocator calls during the body, per work unit.");

    /// Garbage after the 10th destruction step; `None` with fewer steps.
    garbage_after_10_frames: Option<u64> => per_design("garbage after 10", Count)
        .describe(
            "instances of killed entities not yet destroyed after the 10th destruction \
             step (frame).",
        );

    /// Garbage after the last destruction step; `None` without one.
    garbage_after_last_frame: Option<u64> => per_design("garbage at end", Count)
        .describe("the same after the last destruction step.");

    /// Most garbage after any destruction step; `None` without one.
    garbage_peak: Option<u64> => per_design("garbage peak", Count)
        .describe("the most garbage after any destruction step.");

    /// Garbage after each destruction step, in order (empty without one).
    garbage_per_frame: Vec<u64> => per_design("garbage per frame", Count)
        .describe("garbage after each destruction step, in order.")
        .chart(MetricChart::Lines);
}
