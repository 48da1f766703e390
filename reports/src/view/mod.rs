//! The report's view model: `Results` grouped into families, workloads and sizes, with every
//! number already formatted, ratios to the best computed, and the charts built. Templates only
//! lay this out; they compute nothing.
//!
//! One module per level of the page, top down: [`build`] here (the whole report), `page`
//! (one family's page), `workload` (one workload's section: scaling, working set, trend,
//! reproduction), `size` (one (workload, N) block: the timing table and the generic charts),
//! `details` (the numbers beyond time), `family_metrics` (the section of a family's own
//! metrics: one generic section built from the specs the run records for the family, the
//! same for every family), `trend` (across commits) and `sweep` (working-set lines).
//! `heatmap` builds the overview's designs × workloads maps on top of the family pages.
//! Leaf helpers shared by several of them: `names` (file names and slugs), `text` (short
//! formatting), `status` (the one place that reads a benchmark's status), `ratio` (the one rule
//! for a design's time over the best's or the reference's: paired over interleaved rounds when
//! the run has them, else medians), `reference` (the reference loops) and `style` (a design's
//! colour, marker and kind).

mod claims;
mod details;
mod family_metrics;
mod heatmap;
mod machines;
mod names;
mod page;
mod ratio;
mod reference;
mod size;
mod status;
mod style;
mod sweep;
#[cfg(test)]
mod test_runs;
mod text;
mod trend;
mod workload;

use results::{Family, Results};
use serde::Serialize;

use self::machines::Machines;
use self::names::{Names, push_unique};
use crate::charts::{Chart, ChartError};
use crate::format;

pub use claims::{ClaimRow, ClaimsView, TallyView};
pub use details::{DetailRow, DetailsView};
pub use family_metrics::{FamilyMetricsView, LegendEntry, MetricRow};
pub use heatmap::{FamilyHeatmaps, HeatCell, HeatColumn, HeatRow, HeatmapView};
pub use names::slug;
pub use page::{DesignView, FamilyView};
pub use reference::REFERENCE_FAMILY;
pub use size::{GenericCharts, RowView, SizeView};
pub use text::utc;
pub use trend::{CorruptView, HistoryInput, TrendView};
pub use workload::{ReproView, WorkloadView, reproduce};

/// The whole report.
#[derive(Debug, Serialize)]
pub struct ReportView {
    /// Page title.
    pub title: String,
    /// Commit, toolchain, mode, date.
    pub run: RunView,
    /// Where the numbers were measured: one machine per results file, in the order given.
    pub machines: Vec<MachineView>,
    /// Whether there is more than one machine (tables then have a machine column).
    pub many_machines: bool,
    /// The simulated cache hierarchy, when `dodbench cache` ran (the same for every machine).
    pub cache_sim: Option<String>,
    /// One page each.
    pub families: Vec<FamilyView>,
    /// The overview: per family, designs × workloads at each N, coloured by ratio to the best.
    pub heatmaps: Vec<FamilyHeatmaps>,
    /// Winner and runner-up of every (family, workload, N).
    pub summary: Vec<SummaryView>,
    /// Filter choices for the summary table.
    pub filters: Filters,
    /// The articles' claims judged on the (first) run: `claims.html`.
    pub claims: ClaimsView,
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

/// One machine of the machine section, with its run.
#[derive(Debug, Serialize)]
pub struct MachineView {
    /// `machine.name` of its results file (`DODBENCH_MACHINE` or the host name).
    pub name: String,
    /// The commit its run measured.
    pub commit: String,
    /// When its run finished, UTC.
    pub created: String,
    /// Its run's `rustc --version`.
    pub toolchain: String,
    /// Its run's mode.
    pub mode: String,
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
    /// The machine; empty in a one-machine report.
    pub machine: String,
    /// Family page.
    pub page: String,
    /// Anchor of the block.
    pub anchor: String,
    /// Fastest verified design; when the runner-up cannot be told apart from it ([`Self::tied`]),
    /// every leading design that cannot be, `a ≈ b`.
    pub winner: String,
    /// The fastest design's median ns per work unit.
    pub winner_ns: String,
    /// Second fastest, if any.
    pub runner_up: String,
    /// Runner-up ÷ winner: the median of their per-round ratios when they were timed in the
    /// same interleaved rounds, else the ratio of their medians.
    pub ratio: String,
    /// How sure the order of winner and runner-up is, from `results::rank` when the two share
    /// rounds (`1.12× [1.08, 1.15], winner faster in 97% of 30 rounds`, or `cannot be told
    /// apart: …`); empty without paired rounds (criterion-timed runs) or a runner-up.
    pub confidence: String,
    /// Whether the runner-up cannot be told apart from the winner at 95% (`Gap::decided` is
    /// `Some(false)`): no single winner is named.
    pub tied: bool,
    /// Designs not timed (failed or unsupported).
    pub untimed: usize,
    /// The fastest design of each kind timed here (article, tuned, peer, external), in that
    /// order, with its time over the winner's ([`KindBest::ratio`]): the best article design
    /// against the best tuned one shows what an implementation gains over the article's idea,
    /// against the best peer what the crates gain. The peer is the fastest with the same
    /// contract as the best of our designs (no gap of its own, `DesignRecord::contract_gaps`);
    /// a faster peer with a weaker contract follows it, marked ([`KindBest::weaker`]).
    pub best_by_kind: Vec<KindBest>,
    /// The same cell ranked by the reference loops that call each design directly (a peer's
    /// crate with no adapter, our designs with no replay driver), when every timed peer has
    /// one (`results::rank_called_directly`; ours without one through the replay): its winner
    /// (`a ≈ b` when tied), runner-up and confidence; empty otherwise.
    pub called_directly: String,
    /// Whether that ranking's leaders and [`Self::winner`]'s have no design in common.
    pub called_directly_differs: bool,
    /// Where the cell is not ranked called directly: the timed peers without a reference loop
    /// that calls their crate directly (`results::peers_without_loop`), `, `-separated; empty
    /// otherwise.
    pub peers_without_loop: String,
    /// Beside [`Self::peers_without_loop`]: why the family's peers have no loop there
    /// (`results::FamilyRecord::no_loops`); empty when the family does not say.
    pub no_loops: String,
    /// What the winner does not guarantee that the fastest of our designs (article or
    /// tuned) does, `; `-separated: a win on a weaker contract; empty otherwise.
    pub winner_weaker: String,
    /// Our fastest design against the fastest peer that guarantees as much
    /// ([`results::standing`]), in words, with what the counts say where ours is behind; empty
    /// when the cell times no design of ours or no such peer.
    pub standing: String,
    /// Its side: `ahead`, `level` or `behind` ([`results::standing::Side`]); empty with it.
    pub standing_side: String,
}

/// The fastest design of one kind at one (family, workload, N).
#[derive(Debug, Clone, Serialize)]
pub struct KindBest {
    /// `article`, `tuned`, `peer` or `external`.
    pub kind: String,
    /// The design.
    pub design: String,
    /// Its time over the winner's, paired when they share rounds (`1.00×` for the winner's
    /// own kind, `1.02× ≈` when it cannot be told apart from the winner).
    pub ratio: String,
    /// For a peer faster than every peer with the same contract as the best of our designs:
    /// what it does not guarantee that ours does (`detects no stale ID`); empty otherwise.
    pub weaker: String,
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
    /// Verdicts of the claims page.
    pub verdict: Vec<String>,
}

/// Builds the view and every chart from one results file per machine (`runs[0]`'s designs,
/// families and workloads describe the report; one file is the one-machine report).
///
/// # Errors
/// A chart could not be drawn.
///
/// # Panics
/// When `runs` is empty.
pub fn build(
    runs: &[Results],
    title: &str,
    source: Option<String>,
    history: Option<&HistoryInput>,
) -> Result<(ReportView, Vec<Chart>), ChartError> {
    let machines = Machines::new(runs);
    let results = machines.primary();
    let history = history.filter(|h| !h.entries.is_empty());
    let mut names = Names::default();
    let mut charts = Vec::new();
    let mut family_names: Vec<Family> = Vec::new();
    for d in &results.designs {
        if !family_names.contains(&d.family) {
            family_names.push(d.family);
        }
    }
    for b in machines.benchmarks() {
        if !reference::is_reference(b) && !family_names.contains(&b.family) {
            family_names.push(b.family);
        }
    }
    let mut page_names = Names::default();
    let mut families = Vec::new();
    let mut heatmaps = Vec::new();
    let mut summary = Vec::new();
    let mut all_filters = Filters::default();
    for &family in &family_names {
        let page = page_names.unique(&[family.as_str()], "html");
        let view = page::build_family(&machines, family, &page, history, &mut names, &mut charts)?;
        for w in &view.workloads {
            summary.extend(w.sizes.iter().flat_map(|s| s.summaries.iter().cloned()));
        }
        push_unique(&mut all_filters.family, family.as_str());
        for w in &view.filters.workload {
            push_unique(&mut all_filters.workload, w);
        }
        for n in &view.filters.n {
            push_unique(&mut all_filters.n, n);
        }
        heatmaps.push(heatmap::build_heatmaps(&machines, family, &view));
        families.push(view);
    }
    let claims_page = page_names.unique(&["claims"], "html");
    let claims = claims::build_claims(results, &claims_page, &families);
    let view = ReportView {
        title: title.to_string(),
        run: RunView {
            commit: results.commit.clone(),
            toolchain: results.toolchain.clone(),
            mode: results.mode.clone(),
            created: utc(results.created_unix),
            schema_version: results.schema_version,
            source,
            benchmarks: machines.benchmarks().count(),
        },
        machines: runs.iter().map(machine_view).collect(),
        many_machines: machines.many(),
        cache_sim: machines
            .benchmarks()
            .find_map(|b| b.sim.as_ref())
            .map(|sim| {
                let c = &sim.config;
                format!(
                    "callgrind ({}): I1 {}, D1 {}, LL {} (size, associativity, line bytes); {}",
                    c.valgrind, c.i1, c.d1, c.ll, c.start_state
                )
            }),
        families,
        heatmaps,
        summary,
        filters: all_filters,
        claims,
    };
    Ok((view, charts))
}

/// The machine section of one run.
fn machine_view(run: &Results) -> MachineView {
    let m = &run.machine;
    let cache = |name: &str, size: Option<u64>, note: &str| {
        (
            name.to_string(),
            size.map_or_else(
                || "unknown".to_string(),
                |b| format!("{}{note}", format::bytes(b as f64)),
            ),
        )
    };
    MachineView {
        name: m.name.clone(),
        commit: run.commit.clone(),
        created: utc(run.created_unix),
        toolchain: run.toolchain.clone(),
        mode: run.mode.clone(),
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
    }
}
