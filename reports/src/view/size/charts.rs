//! The generic charts of a (workload, N) block after its throughput chart: sample spread,
//! bytes per live object, latency percentiles, memory over time, allocator calls and simulated
//! misses, each drawn when some design of the block carries its field, whatever its family.

use results::Benchmark;
use serde::Serialize;

use super::Cell;
use crate::charts::latency::Distribution;
use crate::charts::percentiles::PercentileRow;
use crate::charts::sim_misses::MissRow;
use crate::charts::{
    Bar, Chart, ChartError, Line, allocator, latency, memory, memory_over_time, percentiles,
    sim_misses,
};
use crate::view::details::latency_method;
use crate::view::names::Names;
use crate::view::status::median;

/// A block's generic charts beyond throughput, each present when some design carries its
/// field (the template reads them as fields of the block, [`SizeView`]).
#[derive(Debug, Serialize)]
pub struct GenericCharts {
    /// Sample spread, if samples were recorded.
    pub latency: Option<Chart>,
    /// Per-op latency percentiles, if `dodbench latency` covered this trace.
    pub percentiles: Option<Chart>,
    /// Bytes per live object, if any design reported memory.
    pub memory: Option<Chart>,
    /// Memory held against ops replayed, if `dodbench memory` recorded a series (`fill`,
    /// `churn`).
    pub memory_over_time: Option<Chart>,
    /// Allocator calls per work unit, if `dodbench memory` covered this trace.
    pub allocator: Option<Chart>,
    /// Simulated misses, if a cache simulation covered this trace.
    pub sim: Option<Chart>,
}

/// Every generic chart of the block after throughput (sample spread, bytes per live object,
/// latency percentiles, memory over time, allocator calls, simulated misses, in that order of
/// file names), each also pushed onto `charts`.
pub(super) fn generic_charts(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<GenericCharts, ChartError> {
    let latency = sample_spread_chart(cell, names, charts)?;
    let memory = memory_chart(cell, names, charts)?;
    let percentiles = percentiles_chart(cell, names, charts)?;
    let memory_over_time = memory_over_time_chart(cell, names, charts)?;
    let allocator = allocator_chart(cell, names, charts)?;
    let sim = sim_chart(cell, names, charts)?;
    Ok(GenericCharts {
        latency,
        percentiles,
        memory,
        memory_over_time,
        allocator,
        sim,
    })
}

/// The sample spread of each timed design with samples (pushed onto `charts`); `None` when no
/// design has any.
fn sample_spread_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let distributions: Vec<Distribution> = cell
        .designs
        .iter()
        .filter(|b| median(b).is_some() && !b.samples_ns_per_op.is_empty())
        .map(|b| Distribution {
            style: cell.machines.style(cell.family, b),
            samples: b.samples_ns_per_op.clone(),
        })
        .collect();
    if distributions.is_empty() {
        return Ok(None);
    }
    let file = cell.file(names, "samples");
    let title = cell.title;
    let chart = latency::build(&file, &format!("{title}: sample spread"), &distributions)?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// Bytes per live object, a bar per design shown once across machines (pushed onto
/// `charts`); `None` when no design reported a positive size.
fn memory_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let bars = once_bars(cell, |b| {
        b.bytes_per_object.filter(|v| v.is_finite() && *v > 0.0)
    });
    bar_chart(
        cell,
        names,
        charts,
        bars,
        ("memory", "bytes per live object"),
        memory::build,
    )
}

/// A bar per design shown once across machines, valued by `value` where it is `Some`.
fn once_bars(cell: &Cell<'_>, value: impl Fn(&Benchmark) -> Option<f64>) -> Vec<Bar> {
    cell.machines
        .once(cell.designs, &value)
        .into_iter()
        .map(|(b, name)| Bar {
            style: cell.once_style(b, name),
            value: value(b),
            note: None,
        })
        .collect()
}

/// The chart `build` draws of `bars` (pushed onto `charts`), in the cell's file `stem` and
/// titled the cell's title then `what`; `None` when there are no bars.
fn bar_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
    bars: Vec<Bar>,
    (stem, what): (&str, &str),
    build: fn(&str, &str, &[Bar]) -> Result<Chart, ChartError>,
) -> Result<Option<Chart>, ChartError> {
    if bars.is_empty() {
        return Ok(None);
    }
    let file = cell.file(names, stem);
    let chart = build(&file, &format!("{}: {what}", cell.title), &bars)?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// Per-op latency percentiles of each design `dodbench latency` measured (pushed onto
/// `charts`); `None` when it measured none.
fn percentiles_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let latencies: Vec<(&Benchmark, &results::Latency)> = cell
        .designs
        .iter()
        .filter_map(|b| b.latency.as_ref().map(|l| (*b, l)))
        .collect();
    if latencies.is_empty() {
        return Ok(None);
    }
    let rows: Vec<PercentileRow> = latencies
        .iter()
        .map(|(b, l)| PercentileRow {
            style: cell.machines.style(cell.family, b),
            p50: l.p50,
            p99: l.p99,
            p999: l.p999,
            max: l.max,
        })
        .collect();
    let method = latency_method(&latencies.iter().map(|l| l.1).collect::<Vec<_>>());
    let file = cell.file(names, "percentiles");
    let title = cell.title;
    let chart = percentiles::build(
        &file,
        &format!("{title}: per-op latency percentiles"),
        &method,
        &rows,
    )?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// Memory held against ops replayed, a line per design whose `dodbench memory` series is
/// shown once across machines (pushed onto `charts`); `None` when no design has a series.
fn memory_over_time_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let series: Vec<Line> = cell
        .machines
        .once(cell.designs, |b| {
            b.memory
                .as_ref()
                .filter(|m| !m.series.is_empty())
                .map(|m| m.series.clone())
        })
        .into_iter()
        .filter_map(|(b, name)| {
            let m = b.memory.as_ref()?;
            Some(Line {
                style: cell.once_style(b, name),
                points: m
                    .series
                    .iter()
                    .map(|p| (p.ops as f64, p.design_bytes as f64))
                    .collect(),
            })
        })
        .collect();
    if series.is_empty() {
        return Ok(None);
    }
    let file = cell.file(names, "memory-time");
    let title = cell.title;
    let chart = memory_over_time::build(&file, &format!("{title}: memory held"), &series)?;
    charts.push(chart.clone());
    Ok(Some(chart))
}

/// Allocator calls per work unit, a bar per design shown once across machines (pushed onto
/// `charts`); `None` when `dodbench memory` counted no design's calls.
fn allocator_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let bars = once_bars(cell, |b| b.alloc_calls_per_op.filter(|v| v.is_finite()));
    let what = ("alloc-calls", "allocator calls per work unit");
    bar_chart(cell, names, charts, bars, what, allocator::build)
}

/// Simulated D1 and LL misses per work unit, a row per design shown once across machines,
/// under the first one's cache configuration (pushed onto `charts`); `None` when no cache
/// simulation covered the block.
fn sim_chart(
    cell: &Cell<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<Chart>, ChartError> {
    let sims: Vec<(&Benchmark, String)> = cell.machines.once(cell.designs, |b| b.sim.clone());
    let Some(first) = sims.first().and_then(|(b, _)| b.sim.as_ref()) else {
        return Ok(None);
    };
    let rows: Vec<MissRow> = sims
        .iter()
        .filter_map(|(b, name)| {
            let sim = b.sim.as_ref()?;
            Some(MissRow {
                style: cell.once_style(b, name.clone()),
                d1_per_op: sim.d1_miss,
                ll_per_op: sim.ll_miss,
            })
        })
        .collect();
    let file = cell.file(names, "sim");
    let config = format!("D1 {}, LL {}", first.config.d1, first.config.ll);
    let title = cell.title;
    let chart = sim_misses::build(
        &file,
        &format!("{title}: simulated cache misses"),
        &config,
        &rows,
    )?;
    charts.push(chart.clone());
    Ok(Some(chart))
}
