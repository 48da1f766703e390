//! The report's view model: `Results` grouped into families, workloads and sizes, with every
//! number already formatted, ratios to the best computed, and the charts built. Templates only
//! lay this out; they compute nothing.

use std::collections::HashSet;

use results::family::{AllocMetrics, TagMetrics};
use results::history::{CorruptLine, HistoryEntry, HistoryPoint};
use results::{Benchmark, Family, FamilyMetrics, Results, Status, SweepPoint};
use serde::Serialize;

use crate::charts::alloc_utilization::UtilizationRow;
use crate::charts::latency::Distribution;
use crate::charts::percentiles::PercentileRow;
use crate::charts::sim_misses::MissRow;
use crate::charts::working_set::CacheLevel;
use crate::charts::{
    Bar, Chart, ChartError, Line, ReferenceLine, SeriesStyle, alloc_utilization, allocator,
    bytes_per_tag, latency, memory, memory_over_time, percentiles, scaling, sim_misses, throughput,
    trend, working_set,
};
use crate::format;
use crate::palette::{self, design_colour, design_marker};

/// Family name of the baseline loops (`ref-vec`, `ref-holey-direct`) in results: shown as
/// reference rows and lines beside the designs of the same workload, never ranked.
pub const REFERENCE_FAMILY: Family = Family::Reference;

/// The whole report.
#[derive(Debug, Serialize)]
pub struct ReportView {
    /// Page title.
    pub title: String,
    /// Commit, toolchain, mode, date.
    pub run: RunView,
    /// Where the numbers were measured.
    pub machine: MachineView,
    /// One page each.
    pub families: Vec<FamilyView>,
    /// Winner and runner-up of every (family, workload, N).
    pub summary: Vec<SummaryView>,
    /// Filter choices for the summary table.
    pub filters: Filters,
}

/// Run metadata.
#[derive(Debug, Serialize)]
pub struct RunView {
    /// `git rev-parse HEAD` of the measured tree.
    pub commit: String,
    /// `rustc --version`.
    pub toolchain: String,
    /// `quick` or `full`.
    pub mode: String,
    /// When the run finished, UTC.
    pub created: String,
    /// Results schema version.
    pub schema_version: u32,
    /// The results file the report was built from, if known.
    pub source: Option<String>,
    /// Number of benchmarks in the file.
    pub benchmarks: usize,
}

/// The machine section.
#[derive(Debug, Serialize)]
pub struct MachineView {
    /// CPU model.
    pub cpu: String,
    /// Logical cores.
    pub cores: usize,
    /// `os / arch`.
    pub platform: String,
    /// `(level, size)` with `unknown` where sysfs said nothing.
    pub caches: Vec<(String, String)>,
    /// Whether hardware counters were measured.
    pub counters: String,
    /// The simulated cache hierarchy, when `dodbench cache` ran.
    pub cache_sim: Option<String>,
}

/// One family page.
#[derive(Debug, Serialize)]
pub struct FamilyView {
    /// Family name, e.g. `id_table`.
    pub name: String,
    /// File name of its page.
    pub page: String,
    /// Its designs in results order (which fixes their colours).
    pub designs: Vec<DesignView>,
    /// Whether the designs state limits in their family's terms: the designs table then shows
    /// them instead of the ID-table columns (ID bytes, stale detection, capacity).
    pub designs_have_limits: bool,
    /// One section per workload.
    pub workloads: Vec<WorkloadView>,
    /// Filter choices.
    pub filters: Filters,
}

/// A design as the report shows it.
#[derive(Debug, Serialize)]
pub struct DesignView {
    /// Registry name.
    pub name: String,
    /// `article`, `tuned`, `peer`.
    pub kind: String,
    /// `#rrggbb` used in every chart.
    pub colour: String,
    /// One line.
    pub description: String,
    /// ID size in bytes.
    pub id_bytes: usize,
    /// `yes` / `no`.
    pub detects_stale: String,
    /// Fixed capacity or `-`.
    pub capacity: String,
    /// Crate and version for peers.
    pub crate_version: String,
    /// The design's limits in its family's terms (tag stores, allocators), empty if none.
    pub limits: String,
}

/// A workload section of a family page.
#[derive(Debug, Serialize)]
pub struct WorkloadView {
    /// Generator name.
    pub name: String,
    /// HTML id.
    pub anchor: String,
    /// One block per N.
    pub sizes: Vec<SizeView>,
    /// ns/op vs N, when more than one N was run.
    pub scaling: Option<Chart>,
    /// ns/op vs working-set bytes with cache sizes.
    pub working_set: Option<Chart>,
    /// Trend across commits, when a history with at least one entry was given.
    pub trend: Option<TrendView>,
    /// How to regenerate and replay each trace.
    pub reproduce: Vec<ReproView>,
}

/// One (workload, N) block: chart, table and summary.
#[derive(Debug, Serialize)]
pub struct SizeView {
    /// Live size.
    pub n: u64,
    /// Work units per replay.
    pub ops: u64,
    /// HTML id.
    pub anchor: String,
    /// Winner and runner-up.
    pub summary: Option<SummaryView>,
    /// Rows: timed designs fastest first, then untimed designs, then reference loops.
    pub rows: Vec<RowView>,
    /// Throughput chart.
    pub throughput: Chart,
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
    /// The numbers beyond time, per design.
    pub details: DetailsView,
    /// Tag-store space and allocator traffic, when some design here carries `tags` metrics.
    pub tags: Option<TagsView>,
    /// Block-allocator space use, when some design here carries `alloc` metrics.
    pub alloc: Option<AllocView>,
}

/// The tag-store numbers of one (workload, N) (family `tags`): a table and a bytes-per-tag
/// chart.
#[derive(Debug, Serialize)]
pub struct TagsView {
    /// Tags held after the setup: one number (the trace fixes it), or the range when the
    /// designs disagree.
    pub tags_after_setup: String,
    /// Designs with metrics by bytes per tag, smallest first; then the others in the order of
    /// the main table; then reference loops.
    pub rows: Vec<TagRow>,
    /// Bytes per tag, when some design has the figure.
    pub chart: Option<Chart>,
}

/// One design's tag-store numbers, formatted; empty where not measured.
#[derive(Debug, Serialize)]
pub struct TagRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `tags` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: `time only`, or the status and reason.
    pub note: String,
    /// Heap bytes per tag after the setup.
    pub bytes_per_tag: String,
    /// Heap bytes held after the body.
    pub memory_after_body: String,
    /// Allocator calls during the setup per tag held after it.
    pub setup_calls_per_tag: String,
    /// Allocator calls during the body per work unit.
    pub body_calls_per_op: String,
    /// Median ns per work unit (as in the main table).
    pub ns: String,
    /// Its ratio to the fastest design.
    pub ratio: String,
}

/// The block-allocator numbers of one (workload, N) (family `alloc`): a table and a chart of
/// the three utilization fractions.
#[derive(Debug, Serialize)]
pub struct AllocView {
    /// Designs with metrics by utilization at peak, highest first; then the others (e.g. the
    /// `system` row, timed but not measured) in the order of the main table; then reference
    /// loops.
    pub rows: Vec<AllocRow>,
    /// Why some cells read `unknown`, naming the designs; empty when none does.
    pub unknown_note: String,
    /// Utilization at peak, mean utilization and live fraction at first failure.
    pub chart: Chart,
}

/// One design's allocator numbers, formatted; fractions in 0..1.
#[derive(Debug, Serialize)]
pub struct AllocRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Whether the design has `alloc` metrics.
    pub measured: bool,
    /// Shown across the metric cells when not measured: `time only`, or the status and reason.
    pub note: String,
    /// Arena size of the replay.
    pub arena: String,
    /// Requested over reserved bytes at peak.
    pub utilization_at_peak: String,
    /// Mean of requested over reserved bytes.
    pub utilization_mean: String,
    /// `(reserved - requested) / reserved` at peak.
    pub internal_fragmentation: String,
    /// `1 - largest free / free bytes` at peak, or `unknown`.
    pub external_fragmentation: String,
    /// Largest free block over the arena at peak, or `unknown`.
    pub largest_free_over_arena: String,
    /// Metadata bits per live block at peak.
    pub metadata_bits_per_block: String,
    /// Live bytes over the arena at the first failed allocation; empty when not measured.
    pub live_fraction_at_first_failure: String,
}

/// The per-design numbers beyond time for one (workload, N): latency percentiles, memory and
/// allocator figures, simulated and hardware counters. A column group without any data in this
/// block is left out (its `has_*` is false).
#[derive(Debug, Default, Serialize)]
pub struct DetailsView {
    /// Some design has `latency`.
    pub has_latency: bool,
    /// Some design has `memory` or `alloc_calls_per_op`.
    pub has_memory: bool,
    /// Some design has `sim`.
    pub has_sim: bool,
    /// Some design has `hw`.
    pub has_hw: bool,
    /// How the latency was measured (batch size, batches, clock overhead), from the data.
    pub latency_method: String,
    /// Why no design has hardware counters here, when none has.
    pub hw_note: String,
    /// Designs in the order of the main table, those with any of these numbers.
    pub rows: Vec<DetailRow>,
}

/// One design's numbers beyond time, formatted; empty where not measured.
#[derive(Debug, Default, Serialize)]
pub struct DetailRow {
    /// Design name.
    pub design: String,
    /// `article`, `tuned`, `peer`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// Median ns per work unit of a timed batch.
    pub p50: String,
    /// 99th percentile.
    pub p99: String,
    /// 99.9th percentile.
    pub p999: String,
    /// Slowest batch.
    pub max: String,
    /// The design's own bytes per live object (`bytes_per_object`).
    pub bytes_per_object: String,
    /// The counting allocator's bytes per live object.
    pub allocator_bytes_per_object: String,
    /// Peak allocator bytes during the body above the level before it.
    pub peak_body: String,
    /// Allocator calls per work unit.
    pub alloc_calls_per_op: String,
    /// Simulated instructions per work unit.
    pub ir: String,
    /// Simulated data reads per work unit.
    pub data_reads: String,
    /// Simulated data writes per work unit.
    pub data_writes: String,
    /// Simulated D1 misses per work unit.
    pub d1_miss: String,
    /// Simulated LL misses per work unit.
    pub ll_miss: String,
    /// Bytes brought into the simulated L1 per work unit.
    pub bytes_streamed: String,
    /// Hardware: instructions per work unit.
    pub hw_instructions: String,
    /// Hardware: cycles per work unit.
    pub hw_cycles: String,
    /// Hardware: L1d read misses per work unit.
    pub hw_l1d_read_miss: String,
    /// Hardware: last-level misses per work unit.
    pub hw_llc_miss: String,
    /// Hardware: dTLB misses per work unit.
    pub hw_dtlb_miss: String,
}

/// One table row.
#[derive(Debug, Serialize)]
pub struct RowView {
    /// Design or reference name.
    pub design: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// `verified`, `failed`, `unsupported`.
    pub status: String,
    /// Why it was not timed.
    pub reason: String,
    /// Whether it has a time.
    pub timed: bool,
    /// Median ns per work unit.
    pub ns: String,
    /// Confidence interval `[lower, upper]`.
    pub ci: String,
    /// Work units per second.
    pub ops_per_s: String,
    /// Median divided by the best design's median, `1.00×` for the winner.
    pub ratio: String,
    /// Bytes per live object.
    pub bytes_per_object: String,
    /// Number of criterion samples.
    pub samples: usize,
}

/// The "which design" answer for one (family, workload, N).
#[derive(Debug, Clone, Serialize)]
pub struct SummaryView {
    /// Family.
    pub family: String,
    /// Workload.
    pub workload: String,
    /// Live size.
    pub n: u64,
    /// Family page.
    pub page: String,
    /// Anchor of the block.
    pub anchor: String,
    /// Fastest verified design.
    pub winner: String,
    /// Its median ns per work unit.
    pub winner_ns: String,
    /// Second fastest, if any.
    pub runner_up: String,
    /// Runner-up median / winner median.
    pub ratio: String,
    /// Designs not timed (failed or unsupported).
    pub untimed: usize,
}

/// Reproduction commands for one trace.
#[derive(Debug, Serialize)]
pub struct ReproView {
    /// Workload.
    pub workload: String,
    /// Live size.
    pub n: u64,
    /// Seed.
    pub seed: u64,
    /// Parameters as JSON.
    pub params: String,
    /// `dodbench gen ...`.
    pub gen_cmd: String,
    /// `dodbench replay ...`.
    pub replay_cmd: String,
}

/// A history file as `results::history::load` read it, for the trend charts.
#[derive(Debug, Clone)]
pub struct HistoryInput {
    /// The file, as named on the page.
    pub path: String,
    /// Its entries, in file order (= run order).
    pub entries: Vec<HistoryEntry>,
    /// Lines that were skipped.
    pub corrupt: Vec<CorruptLine>,
}

/// The "Trend across commits" section of one workload.
#[derive(Debug, Serialize)]
pub struct TrendView {
    /// The history file.
    pub source: String,
    /// How many entries it has.
    pub entries: usize,
    /// Lines skipped as corrupt.
    pub corrupt: Vec<CorruptView>,
    /// What the y axis shows, e.g. `simulated instructions per work unit`.
    pub metric: String,
    /// The size charted, when any entry has this workload.
    pub n: Option<u64>,
    /// The chart; `None` when no entry has this workload with a chartable metric.
    pub chart: Option<Chart>,
}

/// One skipped line of the history.
#[derive(Debug, Clone, Serialize)]
pub struct CorruptView {
    /// 1-based line number.
    pub line: usize,
    /// Why it was skipped.
    pub reason: String,
}

/// Values offered by the filter controls.
#[derive(Debug, Default, Serialize)]
pub struct Filters {
    /// Families.
    pub family: Vec<String>,
    /// Workloads.
    pub workload: Vec<String>,
    /// Sizes.
    pub n: Vec<String>,
    /// Design kinds.
    pub kind: Vec<String>,
}

/// Gives every chart a unique file name made of `[a-z0-9_-]`.
#[derive(Default)]
pub(crate) struct Names {
    used: HashSet<String>,
}

impl Names {
    pub(crate) fn unique(&mut self, parts: &[&str], ext: &str) -> String {
        let base = parts.iter().map(|p| slug(p)).collect::<Vec<_>>().join("-");
        let mut name = format!("{base}.{ext}");
        let mut i = 2;
        while !self.used.insert(name.clone()) {
            name = format!("{base}-{i}.{ext}");
            i += 1;
        }
        name
    }
}

/// Lower-case ASCII letters, digits, `_` and `-`; anything else becomes `_`.
pub fn slug(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect();
    if s.is_empty() { "_".to_string() } else { s }
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

/// Style of the design `name` in `family`: its index in `results.designs` fixes colour and
/// marker; designs missing from that list come after it in order of first appearance.
fn style_of(results: &Results, family: Family, name: &str) -> SeriesStyle {
    let index = design_index(results, family, name);
    SeriesStyle {
        name: name.to_string(),
        colour: design_colour(index),
        marker: design_marker(index),
        reference: false,
    }
}

/// The palette index behind [`style_of`].
fn design_index(results: &Results, family: Family, name: &str) -> usize {
    results
        .designs
        .iter()
        .position(|d| d.family == family && d.name == name)
        .unwrap_or_else(|| {
            let mut extra: Vec<&str> = Vec::new();
            for b in &results.benchmarks {
                let known = results
                    .designs
                    .iter()
                    .any(|d| d.family == b.family && d.name == b.design);
                if !known && b.family != REFERENCE_FAMILY && !extra.contains(&b.design.as_str()) {
                    extra.push(&b.design);
                }
            }
            results.designs.len() + extra.iter().position(|&d| d == name).unwrap_or(0)
        })
}

fn reference_style(name: &str) -> SeriesStyle {
    SeriesStyle {
        name: name.to_string(),
        colour: palette::REFERENCE,
        marker: palette::Marker::Cross,
        reference: true,
    }
}

fn kind_of(results: &Results, b: &Benchmark) -> String {
    if b.family == REFERENCE_FAMILY {
        return "reference".to_string();
    }
    results
        .designs
        .iter()
        .find(|d| d.family == b.family && d.name == b.design)
        .map_or_else(|| "unknown".to_string(), |d| d.kind.clone())
}

fn median(b: &Benchmark) -> Option<f64> {
    b.ns_per_op
        .map(|e| e.median)
        .filter(|m| b.verified && m.is_finite() && *m > 0.0)
}

fn note(b: &Benchmark) -> String {
    match &b.reason {
        Some(r) => format!("{}: {r}", b.status),
        None => b.status.to_string(),
    }
}

/// Shortens `s` to `max` characters with an ellipsis (chart labels; tables keep the whole).
fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max - 1).collect::<String>())
    }
}

/// `dodbench gen` + `dodbench replay` for one trace.
pub fn reproduce(workload: &str, n: u64, seed: u64, params: &serde_json::Value) -> ReproView {
    let params_json = serde_json::to_string(params).unwrap_or_else(|_| "{}".to_string());
    let file = format!("{}-{n}.trace", slug(workload));
    let has_params = params.as_object().is_some_and(|o| !o.is_empty());
    let gen_cmd = format!(
        "dodbench gen {} --n {n} --seed {seed}{} -o {file}",
        shell_quote(workload),
        if has_params {
            format!(" --params {}", shell_quote(&params_json))
        } else {
            String::new()
        }
    );
    ReproView {
        workload: workload.to_string(),
        n,
        seed,
        params: params_json,
        gen_cmd,
        replay_cmd: format!("dodbench replay {file}"),
    }
}

/// Single-quotes `s` for a POSIX shell when it is not a plain word.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/:=".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `YYYY-MM-DD HH:MM UTC` of a Unix time.
pub fn utc(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        secs / 3600,
        secs % 3600 / 60
    )
}

/// Builds the view and every chart.
///
/// # Errors
/// A chart could not be drawn.
pub fn build(
    results: &Results,
    title: &str,
    source: Option<String>,
    history: Option<&HistoryInput>,
) -> Result<(ReportView, Vec<Chart>), ChartError> {
    let history = history.filter(|h| !h.entries.is_empty());
    let mut names = Names::default();
    let mut charts = Vec::new();
    let mut family_names: Vec<Family> = Vec::new();
    for d in &results.designs {
        if !family_names.contains(&d.family) {
            family_names.push(d.family);
        }
    }
    for b in &results.benchmarks {
        if b.family != REFERENCE_FAMILY && !family_names.contains(&b.family) {
            family_names.push(b.family);
        }
    }
    let mut page_names = Names::default();
    let mut families = Vec::new();
    let mut summary = Vec::new();
    let mut all_filters = Filters::default();
    for family in &family_names {
        let page = page_names.unique(&[family.as_str()], "html");
        let view = build_family(results, *family, &page, history, &mut names, &mut charts)?;
        for w in &view.workloads {
            summary.extend(w.sizes.iter().filter_map(|s| s.summary.clone()));
        }
        push_unique(&mut all_filters.family, family.as_str());
        for w in &view.filters.workload {
            push_unique(&mut all_filters.workload, w);
        }
        for n in &view.filters.n {
            push_unique(&mut all_filters.n, n);
        }
        families.push(view);
    }
    let m = &results.machine;
    let cache = |name: &str, size: Option<u64>, note: &str| {
        (
            name.to_string(),
            size.map_or_else(
                || "unknown".to_string(),
                |b| format!("{}{note}", format::bytes(b as f64)),
            ),
        )
    };
    let view = ReportView {
        title: title.to_string(),
        run: RunView {
            commit: results.commit.clone(),
            toolchain: results.toolchain.clone(),
            mode: results.mode.clone(),
            created: utc(results.created_unix),
            schema_version: results.schema_version,
            source,
            benchmarks: results.benchmarks.len(),
        },
        machine: MachineView {
            cpu: m.cpu_model.clone(),
            cores: m.cores,
            platform: format!("{} / {}", m.os, m.arch),
            caches: vec![
                cache("L1 data", m.caches.l1d, ""),
                cache("L2", m.caches.l2, ""),
                cache(
                    "L3",
                    m.caches.l3,
                    " (as the OS reports it; may be a whole host's)",
                ),
            ],
            counters: if m.hw_counters_available {
                "available (perf_event_open); per-op counts in the `hw` fields".to_string()
            } else {
                format!(
                    "not available: {}",
                    m.hw_counters_reason.as_deref().unwrap_or("not probed")
                )
            },
            cache_sim: results
                .benchmarks
                .iter()
                .find_map(|b| b.sim.as_ref())
                .map(|sim| {
                    let c = &sim.config;
                    format!(
                        "callgrind ({}): I1 {}, D1 {}, LL {} (size, associativity, line bytes); {}",
                        c.valgrind, c.i1, c.d1, c.ll, c.start_state
                    )
                }),
        },
        families,
        summary,
        filters: all_filters,
    };
    Ok((view, charts))
}

/// A design's points across sizes: `(N, ns/op)` and `(working-set bytes, ns/op)`.
type DesignSeries = (SeriesStyle, Vec<(f64, f64)>, Vec<(f64, f64)>);

fn build_family(
    results: &Results,
    family: Family,
    page: &str,
    history: Option<&HistoryInput>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<FamilyView, ChartError> {
    let designs: Vec<DesignView> = results
        .designs
        .iter()
        .filter(|d| d.family == family)
        .map(|d| DesignView {
            name: d.name.clone(),
            kind: d.kind.clone(),
            colour: style_of(results, family, &d.name).colour.hex(),
            description: d.description.clone(),
            id_bytes: d.id_bytes,
            detects_stale: if d.detects_stale { "yes" } else { "no" }.to_string(),
            capacity: d
                .capacity
                .map_or_else(|| "-".to_string(), |c| c.to_string()),
            crate_version: d.crate_version.clone().unwrap_or_default(),
            limits: d.limits.clone().unwrap_or_default(),
        })
        .collect();
    let designs_have_limits = !designs.is_empty() && designs.iter().all(|d| !d.limits.is_empty());
    let mut filters = Filters::default();
    for d in &designs {
        push_unique(&mut filters.kind, &d.kind);
    }
    let ours = |b: &&Benchmark| b.family == family;
    let mut workload_names: Vec<String> = Vec::new();
    for w in results.workloads.iter().filter(|w| w.family == family) {
        push_unique(&mut workload_names, &w.workload);
    }
    for b in results.benchmarks.iter().filter(ours) {
        push_unique(&mut workload_names, &b.workload);
    }
    let sweep_points: Vec<&SweepPoint> = results
        .sweeps
        .iter()
        .flat_map(|s| &s.points)
        .filter(|p| p.family == family)
        .collect();
    for p in &sweep_points {
        push_unique(&mut workload_names, &p.workload);
    }
    let caches: Vec<CacheLevel> = [
        ("L1d", results.machine.caches.l1d),
        ("L2", results.machine.caches.l2),
        ("L3", results.machine.caches.l3),
    ]
    .into_iter()
    .filter_map(|(name, b)| {
        b.map(|bytes| CacheLevel {
            name: name.to_string(),
            bytes,
        })
    })
    .collect();
    let mut workloads = Vec::new();
    for workload in &workload_names {
        push_unique(&mut filters.workload, workload);
        let in_workload: Vec<&Benchmark> = results
            .benchmarks
            .iter()
            .filter(|b| {
                (b.family == family || b.family == REFERENCE_FAMILY) && &b.workload == workload
            })
            .collect();
        let swept: Vec<&SweepPoint> = sweep_points
            .iter()
            .copied()
            .filter(|p| &p.workload == workload)
            .collect();
        if !in_workload.iter().any(|b| b.family == family) && swept.is_empty() {
            continue;
        }
        let mut sizes_n: Vec<u64> = in_workload
            .iter()
            .filter(|b| b.family == family)
            .map(|b| b.n)
            .collect();
        sizes_n.sort_unstable();
        sizes_n.dedup();
        let anchor = names
            .unique(&[family.as_str(), workload], "x")
            .trim_end_matches(".x")
            .to_string();
        let mut sizes = Vec::new();
        for &n in &sizes_n {
            push_unique(&mut filters.n, &n.to_string());
            let here: Vec<&Benchmark> = in_workload.iter().copied().filter(|b| b.n == n).collect();
            sizes.push(build_size(
                results, family, page, workload, n, &here, names, charts,
            )?);
        }
        if in_workload.iter().any(|b| b.family == REFERENCE_FAMILY) {
            push_unique(&mut filters.kind, "reference");
        }
        // One line per design (and reference) through its N points.
        let mut series: Vec<DesignSeries> = Vec::new();
        for b in &in_workload {
            let Some(m) = median(b) else { continue };
            let style = if b.family == REFERENCE_FAMILY {
                reference_style(&b.design)
            } else {
                style_of(results, family, &b.design)
            };
            let entry = match series.iter().position(|s| s.0 == style) {
                Some(i) => &mut series[i],
                None => {
                    series.push((style, Vec::new(), Vec::new()));
                    series.last_mut().expect("just pushed")
                }
            };
            entry.1.push((b.n as f64, m));
            if let Some(bytes) = b.memory_bytes.filter(|&x| x > 0) {
                entry.2.push((bytes as f64, m));
            }
        }
        series.sort_by_key(|s| s.0.reference);
        let lines = |pick: fn(&DesignSeries) -> &Vec<(f64, f64)>| {
            series
                .iter()
                .filter(|s| !pick(s).is_empty())
                .map(|s| {
                    let mut points = pick(s).clone();
                    points.sort_by(|a, b| a.0.total_cmp(&b.0));
                    Line {
                        style: s.0.clone(),
                        points,
                    }
                })
                .collect::<Vec<_>>()
        };
        let scaling = if sizes_n.len() > 1 {
            let file = names.unique(&[family.as_str(), workload, "scaling"], "svg");
            let chart = scaling::build(
                &file,
                &format!("{workload}: ns per work unit vs N"),
                &lines(|s| &s.1),
            )?;
            charts.push(chart.clone());
            Some(chart)
        } else {
            None
        };
        let (ws_title, ws_lines, ws_source) = match &results.sweeps {
            Some(sweeps) if !swept.is_empty() => {
                let (lines, source) = sweep_lines(results, family, sweeps, &swept);
                let top = swept.iter().map(|p| p.n).max().unwrap_or(0);
                (
                    format!("{workload}: ns per work unit vs working set (sweep, N up to {top})"),
                    lines,
                    source,
                )
            }
            _ => (
                format!("{workload}: ns per work unit vs working set"),
                lines(|s| &s.2),
                "Each point is one benchmark: x is the design's heap bytes after the setup \
                 (dodbench sweep was not run on this workload)."
                    .to_string(),
            ),
        };
        let working_set = if ws_lines.iter().any(|l| !l.points.is_empty()) {
            let file = names.unique(&[family.as_str(), workload, "working-set"], "svg");
            let chart = working_set::build(&file, &ws_title, &ws_lines, &caches, &ws_source)?;
            charts.push(chart.clone());
            Some(chart)
        } else {
            None
        };
        let reproduce = results
            .workloads
            .iter()
            .filter(|w| w.family == family && &w.workload == workload)
            .map(|w| reproduce(&w.workload, w.n, w.seed, &w.params))
            .collect();
        let trend = match history {
            Some(h) => Some(build_trend(results, family, workload, h, names, charts)?),
            None => None,
        };
        workloads.push(WorkloadView {
            name: workload.clone(),
            anchor,
            sizes,
            scaling,
            working_set,
            trend,
            reproduce,
        });
    }
    Ok(FamilyView {
        name: family.to_string(),
        page: page.to_string(),
        designs,
        designs_have_limits,
        workloads,
        filters,
    })
}

/// The metric a trend chart draws: the deterministic `ir` when any entry has it for this
/// workload (simulated instructions are the same on every machine), else the time normalised
/// by the run's reference design (comparable across machines, unlike raw ns/op).
fn trend_value(metric_is_ir: bool, p: &HistoryPoint) -> Option<f64> {
    let v = if metric_is_ir {
        p.metrics.get("ir").copied()
    } else {
        p.time_vs_reference
    };
    v.filter(|v| v.is_finite() && *v > 0.0 && p.status == Status::Verified)
}

/// The trend section of one workload: one line per design at the largest N that has the
/// chosen metric (see [`trend_value`]), x = the history's entries in file order.
fn build_trend(
    results: &Results,
    family: Family,
    workload: &str,
    history: &HistoryInput,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<TrendView, ChartError> {
    let points: Vec<(usize, &HistoryPoint)> = history
        .entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| {
            e.benchmarks
                .iter()
                .filter(|p| p.family == family && p.workload == workload)
                .map(move |p| (i, p))
        })
        .collect();
    let metric_is_ir = points.iter().any(|(_, p)| trend_value(true, p).is_some());
    let n = points
        .iter()
        .filter(|(_, p)| trend_value(metric_is_ir, p).is_some())
        .map(|(_, p)| p.n)
        .max();
    let metric = if metric_is_ir {
        "simulated instructions per work unit (ir, deterministic)".to_string()
    } else {
        let mut refs: Vec<&str> = points
            .iter()
            .filter(|(_, p)| trend_value(false, p).is_some())
            .filter_map(|(i, p)| history.entries[*i].reference_of(p))
            .collect();
        refs.sort_unstable();
        refs.dedup();
        match refs.as_slice() {
            [r] => format!("ns per work unit ÷ {r}'s in the same run"),
            _ => "ns per work unit ÷ the run's reference design's".to_string(),
        }
    };
    let mut chart = None;
    if let Some(n) = n {
        let mut lines: Vec<(usize, Line)> = Vec::new();
        for (i, p) in points.iter().filter(|(_, p)| p.n == n) {
            let Some(v) = trend_value(metric_is_ir, p) else {
                continue;
            };
            let (index, style) = history_style(results, history, family, &p.design);
            match lines.iter_mut().find(|l| l.1.style.name == p.design) {
                Some(l) => l.1.points.push((*i as f64, v)),
                None => lines.push((
                    index,
                    Line {
                        style,
                        points: vec![(*i as f64, v)],
                    },
                )),
            }
        }
        lines.sort_by_key(|l| l.0);
        let lines: Vec<Line> = lines.into_iter().map(|l| l.1).collect();
        let labels: Vec<String> = history.entries.iter().map(entry_label).collect();
        let file = names.unique(&[family.as_str(), workload, "trend"], "svg");
        let built = trend::build(
            &file,
            &format!("{workload}, N = {n}: across commits"),
            &metric,
            &labels,
            &lines,
        )?;
        charts.push(built.clone());
        chart = Some(built);
    }
    Ok(TrendView {
        source: history.path.clone(),
        entries: history.entries.len(),
        corrupt: history
            .corrupt
            .iter()
            .map(|c| CorruptView {
                line: c.line,
                reason: c.reason.clone(),
            })
            .collect(),
        metric,
        n,
        chart,
    })
}

/// `abc1234 2024-01-02` (`-dirty` kept) for the x axis of trend charts.
fn entry_label(e: &HistoryEntry) -> String {
    let hash: String = e.commit.chars().take(7).collect();
    let dirty = if e.commit.ends_with("-dirty") {
        "-dirty"
    } else {
        ""
    };
    let day: String = e.date.chars().take(10).collect();
    format!("{hash}{dirty} {day}")
}

/// The style (and its palette index) of a design in a trend chart: as everywhere else when
/// the design is in the results; designs only in the history come after every design of the
/// results, in (family, name) order, so their colour is stable for a given results and
/// history and never collides with a design of the results.
fn history_style(
    results: &Results,
    history: &HistoryInput,
    family: Family,
    name: &str,
) -> (usize, SeriesStyle) {
    let in_results = |f: Family, d: &str| {
        results.designs.iter().any(|x| x.family == f && x.name == d)
            || results
                .benchmarks
                .iter()
                .any(|b| b.family == f && b.design == d)
    };
    if in_results(family, name) {
        return (
            design_index(results, family, name),
            style_of(results, family, name),
        );
    }
    let mut extra: Vec<&str> = results
        .benchmarks
        .iter()
        .filter(|b| {
            b.family != REFERENCE_FAMILY
                && !results
                    .designs
                    .iter()
                    .any(|d| d.family == b.family && d.name == b.design)
        })
        .map(|b| b.design.as_str())
        .collect();
    extra.sort_unstable();
    extra.dedup();
    let mut only_history: Vec<(&str, &str)> = history
        .entries
        .iter()
        .flat_map(|e| &e.benchmarks)
        .filter(|p| p.family != REFERENCE_FAMILY && !in_results(p.family, &p.design))
        .map(|p| (p.family.as_str(), p.design.as_str()))
        .collect();
    only_history.sort_unstable();
    only_history.dedup();
    let index = results.designs.len()
        + extra.len()
        + only_history
            .iter()
            .position(|&(f, d)| f == family.as_str() && d == name)
            .unwrap_or(0);
    (
        index,
        SeriesStyle {
            name: name.to_string(),
            colour: design_colour(index),
            marker: design_marker(index),
            reference: false,
        },
    )
}

/// The working-set lines of one workload from the sweep (one per design, verified points
/// only), and a sentence stating the sweep's range, its cap and the points not drawn.
fn sweep_lines(
    results: &Results,
    family: Family,
    sweeps: &results::Sweeps,
    points: &[&SweepPoint],
) -> (Vec<Line>, String) {
    let mut lines: Vec<Line> = Vec::new();
    let mut undrawn: Vec<(String, Status, usize)> = Vec::new();
    for p in points {
        let point = match (p.ns_per_op, p.working_set_bytes) {
            (Some(ns), Some(bytes))
                if p.status == Status::Verified && ns.is_finite() && ns > 0.0 && bytes > 0 =>
            {
                (bytes as f64, ns)
            }
            _ => {
                match undrawn
                    .iter_mut()
                    .find(|u| u.0 == p.design && u.1 == p.status)
                {
                    Some(u) => u.2 += 1,
                    None => undrawn.push((p.design.clone(), p.status, 1)),
                }
                continue;
            }
        };
        let style = style_of(results, family, &p.design);
        match lines.iter_mut().find(|l| l.style == style) {
            Some(line) => line.points.push(point),
            None => lines.push(Line {
                style,
                points: vec![point],
            }),
        }
    }
    for line in &mut lines {
        line.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let design_index = |name: &str| {
        results
            .designs
            .iter()
            .position(|d| d.family == family && d.name == name)
            .unwrap_or(usize::MAX)
    };
    lines.sort_by_key(|l| design_index(&l.style.name));
    let min_n = points.iter().map(|p| p.n).min().unwrap_or(0);
    let max_n = points.iter().map(|p| p.n).max().unwrap_or(0);
    let mut source = format!(
        "From dodbench sweep ({} mode): N = {min_n} to {max_n} on this workload; the sweep's cap \
         is N = {} ({}).",
        sweeps.mode, sweeps.max_n, sweeps.cap
    );
    if !undrawn.is_empty() {
        let list: Vec<String> = undrawn
            .iter()
            .map(|(design, status, count)| {
                format!(
                    "{design} ({status} at {count} size{})",
                    if *count == 1 { "" } else { "s" }
                )
            })
            .collect();
        source.push_str(&format!(" Not drawn: {}.", list.join(", ")));
    }
    (lines, source)
}

/// How `dodbench latency` timed the ops, from the data: batch size, batches, clock overhead.
fn latency_method(latencies: &[&results::Latency]) -> String {
    let Some(first) = latencies.first() else {
        return String::new();
    };
    let range = |lo: String, hi: String| if lo == hi { lo } else { format!("{lo}–{hi}") };
    let (mut batch_lo, mut batch_hi) = (first.batch_ops, first.batch_ops);
    let (mut count_lo, mut count_hi) = (first.batches, first.batches);
    let (mut clock_lo, mut clock_hi) = (first.clock_overhead_ns, first.clock_overhead_ns);
    for l in latencies {
        batch_lo = batch_lo.min(l.batch_ops);
        batch_hi = batch_hi.max(l.batch_ops);
        count_lo = count_lo.min(l.batches);
        count_hi = count_hi.max(l.batches);
        clock_lo = clock_lo.min(l.clock_overhead_ns);
        clock_hi = clock_hi.max(l.clock_overhead_ns);
    }
    format!(
        "Timed by dodbench latency in batches of {} ops ({} batches per design); the clock \
         overhead of {} ns per batch was subtracted and each batch divided by its work units.",
        range(batch_lo.to_string(), batch_hi.to_string()),
        range(count_lo.to_string(), count_hi.to_string()),
        range(
            format::significant(clock_lo, 3),
            format::significant(clock_hi, 3)
        ),
    )
}

/// The numbers beyond time of `ordered` (designs in table order) for one block.
fn details(results: &Results, family: Family, ordered: &[&Benchmark]) -> DetailsView {
    let opt = |v: Option<f64>, f: fn(f64) -> String| {
        v.filter(|x| x.is_finite()).map(f).unwrap_or_default()
    };
    let sig = |v: f64| format::significant(v, 3);
    let rows: Vec<DetailRow> = ordered
        .iter()
        .filter(|b| {
            b.latency.is_some()
                || b.memory.is_some()
                || b.alloc_calls_per_op.is_some()
                || b.sim.is_some()
                || b.hw.is_some()
        })
        .map(|b| {
            let (l, m, sim, hw) = (&b.latency, &b.memory, &b.sim, &b.hw);
            DetailRow {
                design: b.design.clone(),
                kind: kind_of(results, b),
                colour: style_of(results, family, &b.design).colour.hex(),
                p50: opt(l.as_ref().map(|l| l.p50), format::ns),
                p99: opt(l.as_ref().map(|l| l.p99), format::ns),
                p999: opt(l.as_ref().map(|l| l.p999), format::ns),
                max: opt(l.as_ref().map(|l| l.max), format::ns),
                bytes_per_object: opt(b.bytes_per_object, sig),
                allocator_bytes_per_object: opt(
                    m.as_ref().and_then(|m| m.allocator_bytes_per_object),
                    sig,
                ),
                peak_body: opt(m.as_ref().map(|m| m.peak_body_bytes as f64), format::bytes),
                alloc_calls_per_op: opt(b.alloc_calls_per_op, sig),
                ir: opt(sim.as_ref().map(|s| s.ir), sig),
                data_reads: opt(sim.as_ref().map(|s| s.data_reads), sig),
                data_writes: opt(sim.as_ref().map(|s| s.data_writes), sig),
                d1_miss: opt(sim.as_ref().map(|s| s.d1_miss), sig),
                ll_miss: opt(sim.as_ref().map(|s| s.ll_miss), sig),
                bytes_streamed: opt(sim.as_ref().map(|s| s.bytes_streamed), sig),
                hw_instructions: opt(hw.as_ref().map(|h| h.instructions), sig),
                hw_cycles: opt(hw.as_ref().map(|h| h.cycles), sig),
                hw_l1d_read_miss: opt(hw.as_ref().map(|h| h.l1d_read_miss), sig),
                hw_llc_miss: opt(hw.as_ref().map(|h| h.llc_miss), sig),
                hw_dtlb_miss: opt(hw.as_ref().map(|h| h.dtlb_miss), sig),
            }
        })
        .collect();
    let latencies: Vec<_> = ordered.iter().filter_map(|b| b.latency.as_ref()).collect();
    let has_hw = ordered.iter().any(|b| b.hw.is_some());
    let m = &results.machine;
    let hw_note = if has_hw {
        String::new()
    } else {
        let reason = ordered
            .iter()
            .find_map(|b| b.hw_reason.clone())
            .or_else(|| {
                (!m.hw_counters_available).then(|| {
                    m.hw_counters_reason
                        .clone()
                        .unwrap_or_else(|| "not probed".to_string())
                })
            })
            .unwrap_or_else(|| "dodbench latency was not run on this trace".to_string());
        format!("Hardware counters: none for this trace ({reason}).")
    };
    DetailsView {
        has_latency: !latencies.is_empty(),
        has_memory: ordered
            .iter()
            .any(|b| b.memory.is_some() || b.alloc_calls_per_op.is_some()),
        has_sim: ordered.iter().any(|b| b.sim.is_some()),
        has_hw,
        latency_method: latency_method(&latencies),
        hw_note,
        rows,
    }
}

/// What the family-specific sections of one (workload, N) block are built from.
struct Block<'a> {
    results: &'a Results,
    family: Family,
    /// Family, workload and `n<N>`: the start of the block's chart file names.
    file_stem: [&'a str; 3],
    /// `<workload>, N = <n>`.
    title: &'a str,
    /// The family's designs in the order of the main table (timed fastest first, then untimed).
    ordered: &'a [&'a Benchmark],
    /// Reference loops of the block.
    references: &'a [&'a Benchmark],
    /// The fastest design's median ns per work unit.
    best: Option<f64>,
}

impl<'a> Block<'a> {
    /// Name, kind and colour of a row.
    fn identity(&self, b: &Benchmark) -> (String, String, String) {
        let style = if b.family == REFERENCE_FAMILY {
            reference_style(&b.design)
        } else {
            style_of(self.results, self.family, &b.design)
        };
        (
            b.design.clone(),
            kind_of(self.results, b),
            style.colour.hex(),
        )
    }

    /// Rows of a family table: designs with the family's metrics sorted by `key` (smallest
    /// first when `lowest_first`, a missing key last), then the other designs in the order of
    /// the main table, then reference loops.
    fn rows_in_order(
        &self,
        has_metrics: fn(&Benchmark) -> bool,
        key: fn(&Benchmark) -> Option<f64>,
        lowest_first: bool,
    ) -> Vec<&'a Benchmark> {
        let mut measured: Vec<&'a Benchmark> = self
            .ordered
            .iter()
            .copied()
            .filter(|b| has_metrics(b))
            .collect();
        // Stable: equal keys keep the main table's order.
        measured.sort_by(|a, b| {
            match (
                key(a).filter(|v| v.is_finite()),
                key(b).filter(|v| v.is_finite()),
            ) {
                (Some(x), Some(y)) if lowest_first => x.total_cmp(&y),
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
        measured
            .into_iter()
            .chain(self.ordered.iter().copied().filter(|b| !has_metrics(b)))
            .chain(self.references.iter().copied())
            .collect()
    }

    /// A chart file name of the block ending in `what`.
    fn chart_file(&self, names: &mut Names, what: &str) -> String {
        let [family, workload, n] = self.file_stem;
        names.unique(&[family, workload, n, what], "svg")
    }
}

/// What a row without its family's metrics says instead: timed but not measured (`time only`,
/// e.g. the `system` allocator), or why it was neither.
fn unmeasured_note(b: &Benchmark) -> String {
    if median(b).is_some() {
        "time only".to_string()
    } else {
        note(b)
    }
}

/// `x` with three significant digits, empty when missing or not finite.
fn sig3(x: Option<f64>) -> String {
    x.filter(|v| v.is_finite())
        .map(|v| format::significant(v, 3))
        .unwrap_or_default()
}

/// The tag-store metrics of `b`, if it carries them.
fn tags_of(b: &Benchmark) -> Option<&TagMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Tags(t)) => Some(t),
        _ => None,
    }
}

/// The block-allocator metrics of `b`, if it carries them.
fn alloc_of(b: &Benchmark) -> Option<&AllocMetrics> {
    match &b.metrics {
        Some(FamilyMetrics::Alloc(a)) => Some(a),
        _ => None,
    }
}

/// The tag-store section of a block, when some design of it carries `tags` metrics.
fn tags_view(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<TagsView>, ChartError> {
    if !block.ordered.iter().any(|b| tags_of(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| tags_of(b).is_some(),
        |b| tags_of(b).and_then(|t| t.bytes_per_tag),
        true,
    );
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            let m = median(b);
            let t = tags_of(b);
            TagRow {
                design,
                kind,
                colour,
                measured: t.is_some(),
                note: if t.is_some() {
                    String::new()
                } else {
                    unmeasured_note(b)
                },
                bytes_per_tag: sig3(t.and_then(|t| t.bytes_per_tag)),
                memory_after_body: t
                    .map(|t| format::bytes(t.memory_bytes_after_body as f64))
                    .unwrap_or_default(),
                setup_calls_per_tag: sig3(t.and_then(|t| t.setup_alloc_calls_per_tag)),
                body_calls_per_op: sig3(t.map(|t| t.alloc_calls_per_op)),
                ns: m.map(format::ns).unwrap_or_default(),
                ratio: match (m, block.best) {
                    (Some(m), Some(best)) => format::ratio(m / best),
                    _ => String::new(),
                },
            }
        })
        .collect();
    let counts: Vec<u64> = block
        .ordered
        .iter()
        .filter_map(|b| tags_of(b).map(|t| t.tags_after_setup))
        .collect();
    let (lo, hi) = (
        counts.iter().min().copied().unwrap_or(0),
        counts.iter().max().copied().unwrap_or(0),
    );
    let tags_after_setup = if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    };
    let bars: Vec<Bar> = block
        .ordered
        .iter()
        .filter_map(|b| {
            let v = tags_of(b)?.bytes_per_tag?;
            (v.is_finite() && v > 0.0).then(|| Bar {
                style: style_of(block.results, block.family, &b.design),
                value: Some(v),
                note: None,
            })
        })
        .collect();
    let chart = if bars.is_empty() {
        None
    } else {
        let file = block.chart_file(names, "bytes-per-tag");
        let chart = bytes_per_tag::build(&file, &format!("{}: bytes per tag", block.title), &bars)?;
        charts.push(chart.clone());
        Some(chart)
    };
    Ok(Some(TagsView {
        tags_after_setup,
        rows,
        chart,
    }))
}

/// The block-allocator section of a block, when some design of it carries `alloc` metrics.
fn alloc_view(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<AllocView>, ChartError> {
    if !block.ordered.iter().any(|b| alloc_of(b).is_some()) {
        return Ok(None);
    }
    let ordered = block.rows_in_order(
        |b| alloc_of(b).is_some(),
        |b| alloc_of(b).map(|a| a.utilization_at_peak),
        false,
    );
    let known = |v: Option<f64>| {
        if v.is_some() {
            sig3(v)
        } else {
            "unknown".to_string()
        }
    };
    let rows = ordered
        .iter()
        .map(|b| {
            let (design, kind, colour) = block.identity(b);
            match alloc_of(b) {
                Some(a) => AllocRow {
                    design,
                    kind,
                    colour,
                    measured: true,
                    note: String::new(),
                    arena: format::bytes(a.arena_bytes as f64),
                    utilization_at_peak: sig3(Some(a.utilization_at_peak)),
                    utilization_mean: sig3(Some(a.utilization_mean)),
                    internal_fragmentation: sig3(Some(a.internal_fragmentation_at_peak)),
                    external_fragmentation: known(a.external_fragmentation_at_peak),
                    largest_free_over_arena: known(a.largest_free_over_arena_at_peak),
                    metadata_bits_per_block: sig3(Some(a.metadata_bits_per_block)),
                    live_fraction_at_first_failure: sig3(a.live_fraction_at_first_failure),
                },
                None => AllocRow {
                    design,
                    kind,
                    colour,
                    measured: false,
                    note: unmeasured_note(b),
                    arena: String::new(),
                    utilization_at_peak: String::new(),
                    utilization_mean: String::new(),
                    internal_fragmentation: String::new(),
                    external_fragmentation: String::new(),
                    largest_free_over_arena: String::new(),
                    metadata_bits_per_block: String::new(),
                    live_fraction_at_first_failure: String::new(),
                },
            }
        })
        .collect();
    let unknown: Vec<&str> = ordered
        .iter()
        .filter(|b| {
            alloc_of(b).is_some_and(|a| {
                a.external_fragmentation_at_peak.is_none()
                    || a.largest_free_over_arena_at_peak.is_none()
            })
        })
        .map(|b| b.design.as_str())
        .collect();
    let unknown_note = match unknown.as_slice() {
        [] => String::new(),
        [one] => format!(
            "unknown: {one} cannot tell its largest free block, so its external fragmentation \
             and largest free block are not measured."
        ),
        many => format!(
            "unknown: {} cannot tell their largest free block, so their external fragmentation \
             and largest free block are not measured.",
            many.join(", ")
        ),
    };
    let utilization: Vec<UtilizationRow> = ordered
        .iter()
        .filter_map(|b| {
            let a = alloc_of(b)?;
            Some(UtilizationRow {
                style: style_of(block.results, block.family, &b.design),
                at_peak: a.utilization_at_peak,
                mean: a.utilization_mean,
                live_at_first_failure: a.live_fraction_at_first_failure,
            })
        })
        .collect();
    let file = block.chart_file(names, "utilization");
    let chart =
        alloc_utilization::build(&file, &format!("{}: arena use", block.title), &utilization)?;
    charts.push(chart.clone());
    Ok(Some(AllocView {
        rows,
        unknown_note,
        chart,
    }))
}

#[allow(clippy::too_many_arguments)]
fn build_size(
    results: &Results,
    family: Family,
    page: &str,
    workload: &str,
    n: u64,
    here: &[&Benchmark],
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<SizeView, ChartError> {
    let designs: Vec<&Benchmark> = here
        .iter()
        .copied()
        .filter(|b| b.family == family)
        .collect();
    let references: Vec<&Benchmark> = here
        .iter()
        .copied()
        .filter(|b| b.family == REFERENCE_FAMILY)
        .collect();
    let mut timed: Vec<(&Benchmark, f64)> = designs
        .iter()
        .filter_map(|b| median(b).map(|m| (*b, m)))
        .collect();
    timed.sort_by(|a, b| a.1.total_cmp(&b.1));
    let best = timed.first().map(|t| t.1);
    let anchor = names
        .unique(&[workload, &format!("n{n}")], "x")
        .trim_end_matches(".x")
        .to_string();
    let summary = timed.first().map(|&(w, m)| SummaryView {
        family: family.to_string(),
        workload: workload.to_string(),
        n,
        page: page.to_string(),
        anchor: anchor.clone(),
        winner: w.design.clone(),
        winner_ns: format::ns(m),
        runner_up: timed.get(1).map(|r| r.0.design.clone()).unwrap_or_default(),
        ratio: timed
            .get(1)
            .map(|r| format::ratio(r.1 / m))
            .unwrap_or_default(),
        untimed: designs.len() - timed.len(),
    });
    let row = |b: &Benchmark| {
        let m = median(b);
        let style = if b.family == REFERENCE_FAMILY {
            reference_style(&b.design)
        } else {
            style_of(results, family, &b.design)
        };
        RowView {
            design: b.design.clone(),
            kind: kind_of(results, b),
            colour: style.colour.hex(),
            status: b.status.to_string(),
            reason: b.reason.clone().unwrap_or_default(),
            timed: m.is_some(),
            ns: m.map(format::ns).unwrap_or_default(),
            ci: b
                .ns_per_op
                .filter(|_| m.is_some())
                .map(|e| format!("[{}, {}]", format::ns(e.lower), format::ns(e.upper)))
                .unwrap_or_default(),
            ops_per_s: m.map(|m| format::si(1e9 / m)).unwrap_or_default(),
            ratio: match (m, best) {
                (Some(m), Some(best)) => format::ratio(m / best),
                _ => String::new(),
            },
            bytes_per_object: b
                .bytes_per_object
                .filter(|v| v.is_finite())
                .map(|v| format::significant(v, 3))
                .unwrap_or_default(),
            samples: b.samples_ns_per_op.len(),
        }
    };
    // Designs in table order: timed fastest first, then untimed.
    let ordered: Vec<&Benchmark> = timed
        .iter()
        .map(|t| t.0)
        .chain(designs.iter().copied().filter(|b| median(b).is_none()))
        .collect();
    let mut rows: Vec<RowView> = ordered.iter().map(|b| row(b)).collect();
    rows.extend(references.iter().map(|b| row(b)));

    let title = format!("{workload}, N = {n}");
    let bars: Vec<Bar> = designs
        .iter()
        .map(|b| Bar {
            style: style_of(results, family, &b.design),
            value: median(b).map(|m| 1e9 / m),
            note: Some(shorten(&note(b), 64)),
        })
        .collect();
    let reference_lines: Vec<ReferenceLine> = references
        .iter()
        .filter_map(|b| {
            median(b).map(|m| ReferenceLine {
                name: b.design.clone(),
                value: 1e9 / m,
            })
        })
        .collect();
    let file = names.unique(
        &[family.as_str(), workload, &format!("n{n}"), "throughput"],
        "svg",
    );
    let throughput = throughput::build(
        &file,
        &format!("{title}: throughput"),
        &bars,
        &reference_lines,
    )?;
    charts.push(throughput.clone());

    let distributions: Vec<Distribution> = designs
        .iter()
        .filter(|b| median(b).is_some() && !b.samples_ns_per_op.is_empty())
        .map(|b| Distribution {
            style: style_of(results, family, &b.design),
            samples: b.samples_ns_per_op.clone(),
        })
        .collect();
    let latency = if distributions.is_empty() {
        None
    } else {
        let file = names.unique(
            &[family.as_str(), workload, &format!("n{n}"), "samples"],
            "svg",
        );
        let chart = latency::build(&file, &format!("{title}: sample spread"), &distributions)?;
        charts.push(chart.clone());
        Some(chart)
    };

    let memory_bars: Vec<Bar> = designs
        .iter()
        .filter_map(|b| {
            b.bytes_per_object
                .filter(|v| v.is_finite() && *v > 0.0)
                .map(|v| Bar {
                    style: style_of(results, family, &b.design),
                    value: Some(v),
                    note: None,
                })
        })
        .collect();
    let memory = if memory_bars.is_empty() {
        None
    } else {
        let file = names.unique(
            &[family.as_str(), workload, &format!("n{n}"), "memory"],
            "svg",
        );
        let chart = memory::build(
            &file,
            &format!("{title}: bytes per live object"),
            &memory_bars,
        )?;
        charts.push(chart.clone());
        Some(chart)
    };

    let latencies: Vec<(&Benchmark, &results::Latency)> = designs
        .iter()
        .filter_map(|b| b.latency.as_ref().map(|l| (*b, l)))
        .collect();
    let percentiles = if latencies.is_empty() {
        None
    } else {
        let rows: Vec<PercentileRow> = latencies
            .iter()
            .map(|(b, l)| PercentileRow {
                style: style_of(results, family, &b.design),
                p50: l.p50,
                p99: l.p99,
                p999: l.p999,
                max: l.max,
            })
            .collect();
        let method = latency_method(&latencies.iter().map(|l| l.1).collect::<Vec<_>>());
        let file = names.unique(
            &[family.as_str(), workload, &format!("n{n}"), "percentiles"],
            "svg",
        );
        let chart = percentiles::build(
            &file,
            &format!("{title}: per-op latency percentiles"),
            &method,
            &rows,
        )?;
        charts.push(chart.clone());
        Some(chart)
    };

    let series: Vec<Line> = designs
        .iter()
        .filter_map(|b| {
            let m = b.memory.as_ref().filter(|m| !m.series.is_empty())?;
            Some(Line {
                style: style_of(results, family, &b.design),
                points: m
                    .series
                    .iter()
                    .map(|p| (p.ops as f64, p.design_bytes as f64))
                    .collect(),
            })
        })
        .collect();
    let memory_over_time = if series.is_empty() {
        None
    } else {
        let file = names.unique(
            &[family.as_str(), workload, &format!("n{n}"), "memory-time"],
            "svg",
        );
        let chart = memory_over_time::build(&file, &format!("{title}: memory held"), &series)?;
        charts.push(chart.clone());
        Some(chart)
    };

    let alloc_bars: Vec<Bar> = designs
        .iter()
        .filter_map(|b| {
            b.alloc_calls_per_op.filter(|v| v.is_finite()).map(|v| Bar {
                style: style_of(results, family, &b.design),
                value: Some(v),
                note: None,
            })
        })
        .collect();
    let allocator = if alloc_bars.is_empty() {
        None
    } else {
        let file = names.unique(
            &[family.as_str(), workload, &format!("n{n}"), "alloc-calls"],
            "svg",
        );
        let chart = allocator::build(
            &file,
            &format!("{title}: allocator calls per work unit"),
            &alloc_bars,
        )?;
        charts.push(chart.clone());
        Some(chart)
    };

    let sims: Vec<(&Benchmark, &results::SimPerOp)> = results
        .benchmarks
        .iter()
        .filter(|b| b.family == family && b.workload == workload && b.n == n)
        .filter_map(|b| b.sim.as_ref().map(|sim| (b, sim)))
        .collect();
    let sim = match sims.first() {
        Some((_, first)) => {
            let rows: Vec<MissRow> = sims
                .iter()
                .map(|(b, sim)| MissRow {
                    style: style_of(results, family, &b.design),
                    d1_per_op: sim.d1_miss,
                    ll_per_op: sim.ll_miss,
                })
                .collect();
            let file = names.unique(&[family.as_str(), workload, &format!("n{n}"), "sim"], "svg");
            let config = format!("D1 {}, LL {}", first.config.d1, first.config.ll);
            let chart = sim_misses::build(
                &file,
                &format!("{title}: simulated cache misses"),
                &config,
                &rows,
            )?;
            charts.push(chart.clone());
            Some(chart)
        }
        None => None,
    };
    let block = Block {
        results,
        family,
        file_stem: [family.as_str(), workload, &format!("n{n}")],
        title: &title,
        ordered: &ordered,
        references: &references,
        best,
    };
    let tags = tags_view(&block, names, charts)?;
    let alloc = alloc_view(&block, names, charts)?;
    Ok(SizeView {
        n,
        ops: designs.first().map_or(0, |b| b.ops),
        anchor,
        summary,
        rows,
        throughput,
        latency,
        percentiles,
        memory,
        memory_over_time,
        allocator,
        sim,
        details: details(results, family, &ordered),
        tags,
        alloc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduction_commands_quote_json() {
        let r = reproduce("lookup-zipf", 1000, 7, &serde_json::json!({"skew": 1.2}));
        assert_eq!(
            r.gen_cmd,
            r#"dodbench gen lookup-zipf --n 1000 --seed 7 --params '{"skew":1.2}' -o lookup-zipf-1000.trace"#
        );
        assert_eq!(r.replay_cmd, "dodbench replay lookup-zipf-1000.trace");
        let r = reproduce("fill", 10, 1, &serde_json::json!({}));
        assert_eq!(
            r.gen_cmd,
            "dodbench gen fill --n 10 --seed 1 -o fill-10.trace"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13 UTC");
    }

    #[test]
    fn names_are_unique_slugs() {
        let mut names = Names::default();
        assert_eq!(
            names.unique(&["id_table", "<script>"], "svg"),
            "id_table-_script_.svg"
        );
        assert_eq!(
            names.unique(&["id_table", "(script)"], "svg"),
            "id_table-_script_-2.svg"
        );
    }
}
