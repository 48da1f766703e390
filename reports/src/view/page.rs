//! One family's page: its designs table and one section per workload.

use results::Family;
use results::{Benchmark, SweepPoint};
use serde::Serialize;

use super::Filters;
use super::machines::Machines;
use super::names::{Names, push_unique};
use super::style::style_of;
use super::trend::HistoryInput;
use super::workload::{FamilyScope, WorkloadView, build_workload};
use crate::charts::working_set::CacheLevel;
use crate::charts::{Chart, ChartError};

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
    /// For peers: how the crate is used, as its documentation shows; empty otherwise.
    pub idiom: String,
    /// For peers: the documentation page the idiom follows.
    pub docs: String,
    /// The range of the design's replay ÷ its direct loop over every cell that has both (for a
    /// peer: what our adapter and the replay driver add to the crate called directly), with
    /// the cell count; empty where no loop mirrors it.
    pub adapter_cost: String,
    /// For peers: what the adapter does per op beyond the idiom, and why; empty otherwise.
    pub adapter: String,
    /// For peers: the replay driver's own share, the same range over the family's own designs
    /// that have a direct loop (their replay ÷ their own methods called directly: no adapter
    /// in between), so a peer's cost above it is its adapter's; empty where none has a loop.
    pub driver_cost: String,
}

/// The page of `family`: its designs table and one section per workload that a benchmark, a
/// workload record or a sweep point of the family names.
pub(super) fn build_family(
    machines: &Machines<'_>,
    family: Family,
    page: &str,
    history: Option<&HistoryInput>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<FamilyView, ChartError> {
    let results = machines.primary();
    let designs = design_views(results, family);
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
    for b in machines.benchmarks().filter(ours) {
        push_unique(&mut workload_names, &b.workload);
    }
    let sweep_points: Vec<&SweepPoint> = machines
        .runs()
        .iter()
        .flat_map(|r| &r.sweeps)
        .flat_map(|s| &s.points)
        .filter(|p| p.family == family)
        .collect();
    for p in &sweep_points {
        push_unique(&mut workload_names, &p.workload);
    }
    let caches = cache_levels(machines);
    let scope = FamilyScope {
        machines,
        family,
        page,
        sweep_points: &sweep_points,
        caches: &caches,
        history,
    };
    let mut workloads = Vec::new();
    for workload in &workload_names {
        push_unique(&mut filters.workload, workload);
        if let Some(view) = build_workload(&scope, workload, &mut filters, names, charts)? {
            workloads.push(view);
        }
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

/// One row of the designs table per design of `family`.
fn design_views(results: &results::Results, family: Family) -> Vec<DesignView> {
    let own_designs: Vec<&str> = results
        .designs
        .iter()
        .filter(|d| d.family == family && d.idiom.is_none())
        .map(|d| d.name.as_str())
        .collect();
    // The same for every peer of the family: the replay driver's share over our designs' loops.
    let driver_cost = loop_cost(results, family, &own_designs);
    results
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
            idiom: d.idiom.clone().unwrap_or_default(),
            // Only a web page becomes a link: a results file is data, not a place for
            // `javascript:` URLs.
            docs: d
                .docs
                .clone()
                .filter(|u| u.starts_with("https://"))
                .unwrap_or_default(),
            adapter_cost: loop_cost(results, family, &[d.name.as_str()]),
            adapter: d.adapter.clone().unwrap_or_default(),
            driver_cost: if d.idiom.is_some() {
                driver_cost.clone()
            } else {
                String::new()
            },
        })
        .collect()
}

/// Every machine's cache sizes, named after their machine when there are several.
fn cache_levels(machines: &Machines<'_>) -> Vec<CacheLevel> {
    machines
        .runs()
        .iter()
        .flat_map(|r| {
            let m = &r.machine;
            [
                ("L1d", m.caches.l1d),
                ("L2", m.caches.l2),
                ("L3", m.caches.l3),
            ]
            .into_iter()
            .filter_map(move |(level, b)| {
                b.map(|bytes| CacheLevel {
                    name: if machines.many() {
                        format!("{level} @ {}", m.name)
                    } else {
                        level.to_string()
                    },
                    bytes,
                })
            })
        })
        .collect()
}

/// The replay ÷ the direct loop of any of `designs` over the cells of `results` that have both
/// (on `family`'s workloads: loops are stored under the reference family and name the design
/// alone), as "0.98×-1.07× over 6 cells (ref-direct-hecs)"; empty where no loop mirrors one.
fn loop_cost(results: &results::Results, family: Family, designs: &[&str]) -> String {
    let (mut lo, mut hi, mut cells) = (f64::INFINITY, f64::NEG_INFINITY, 0usize);
    let mut loops: Vec<&str> = Vec::new();
    let of_family = |workload: &str| {
        results
            .workloads
            .iter()
            .any(|w| w.family == family && w.workload == workload)
    };
    let mirrored = designs
        .iter()
        .flat_map(|design| super::reference::loops_mirroring(results, design));
    for (b, o) in mirrored {
        if !of_family(&b.workload) {
            continue;
        }
        (lo, hi, cells) = (lo.min(o), hi.max(o), cells + 1);
        if !loops.contains(&b.design.as_str()) {
            loops.push(&b.design);
        }
    }
    match cells {
        0 => String::new(),
        1 => format!(
            "{} in 1 cell ({})",
            crate::format::ratio(lo),
            loops.join(", ")
        ),
        _ => format!(
            "{}-{} over {cells} cells ({})",
            crate::format::ratio(lo),
            crate::format::ratio(hi),
            loops.join(", ")
        ),
    }
}
