//! The sections of a block built from one family's own metrics (`tags`: tag-store space and
//! allocator traffic; `alloc`: arena use and fragmentation; `components`: memory per entity and
//! garbage left; `transforms`: world products per frame and bytes per node; `relations`: bytes
//! per record; `spawn`: resource bytes per entity), one file per family. This module and those files are the only places of the report that name a specific family or read its
//! metrics: everything else is the same for every family.

pub(super) mod alloc;
pub(super) mod components;
pub(super) mod data_component;
pub(super) mod relations;
pub(super) mod spatial;
pub(super) mod spawn;
pub(super) mod tags;
pub(super) mod transforms;

use results::Benchmark;
use results::Family;
use serde::Serialize;

use super::machines::Machines;
use super::names::Names;
use super::ratio;
use super::reference::{is_reference, reference_style};
use super::style::{kind_of, style_of};
use crate::charts::{Bar, Chart, ChartError, SeriesStyle, bytes_per_item};

/// The sections of one block from its family's own metrics: at most one is present (a block
/// holds one family's designs). Flattened into [`SizeView`](super::SizeView), so the template
/// reads `s.tags` and `s.alloc`. A family with metrics adds a field here, a line in `build`
/// and its file.
#[derive(Debug, Default, Serialize)]
pub struct FamilyMetricsView {
    /// Tag-store space and allocator traffic, when some design here carries `tags` metrics.
    pub tags: Option<tags::TagsView>,
    /// Block-allocator space use, when some design here carries `alloc` metrics.
    pub alloc: Option<alloc::AllocView>,
    /// Component-manager memory and garbage, when some design here carries `components`
    /// metrics.
    pub components: Option<components::ComponentsView>,
    /// DataComponent bytes and allocator calls, when some design here carries its metrics.
    pub data_component: Option<data_component::DataComponentView>,
    /// Transform-hierarchy work and space, when some design here carries `transforms` metrics.
    pub transforms: Option<transforms::TransformsView>,
    /// Relation-index bytes per record, when some design here carries `relations` metrics.
    pub relations: Option<relations::RelationsView>,
    /// Spatial-index query work and memory, when some design here carries `spatial` metrics.
    pub spatial: Option<spatial::SpatialView>,
    /// Entity-resource bytes per entity, when some design here carries `spawn` metrics.
    pub spawn: Option<spawn::SpawnView>,
}

/// The family sections of `block`, each from the designs of the block that carry its metrics.
///
/// # Errors
/// A chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<FamilyMetricsView, ChartError> {
    Ok(FamilyMetricsView {
        tags: tags::build(block, names, charts)?,
        alloc: alloc::build(block, names, charts)?,
        components: components::build(block, names, charts)?,
        data_component: data_component::build(block, names, charts)?,
        transforms: transforms::build(block),
        relations: relations::build(block, names, charts)?,
        spatial: spatial::build(block, names, charts)?,
        spawn: spawn::build(block, names, charts)?,
    })
}

/// What the family-specific sections of one (workload, N) block are built from.
pub(super) struct Block<'a> {
    /// The runs, one per machine (the first one's designs fix colours and kinds).
    pub(super) machines: &'a Machines<'a>,
    /// The page's family.
    pub(super) family: Family,
    /// Family, workload and `n<N>`: the start of the block's chart file names.
    pub(super) file_stem: [&'a str; 3],
    /// `<workload>, N = <n>`.
    pub(super) title: &'a str,
    /// The family's designs in the order of the main table (timed fastest first, then
    /// untimed), each design's machines together.
    pub(super) ordered: &'a [&'a Benchmark],
    /// Reference loops of the block.
    pub(super) references: &'a [&'a Benchmark],
}

impl<'a> Block<'a> {
    /// Name, kind and colour of a row.
    pub(super) fn identity(&self, b: &Benchmark) -> (String, String, String) {
        let style = self.style(b);
        (
            style.name,
            kind_of(self.machines.primary(), b),
            style.colour.hex(),
        )
    }

    /// How `b`'s row and bar are named and drawn: its design, or `design @ machine` when
    /// another machine measured different family metrics for the design (family metrics are
    /// deterministic, so they are shown once unless the machines disagree).
    pub(super) fn style(&self, b: &Benchmark) -> SeriesStyle {
        if is_reference(b) {
            return SeriesStyle {
                name: self.machines.label(b),
                ..reference_style(&b.design)
            };
        }
        let disagrees = self
            .ordered
            .iter()
            .any(|x| x.design == b.design && x.metrics != b.metrics);
        SeriesStyle {
            name: if disagrees {
                self.machines.label(b)
            } else {
                b.design.clone()
            },
            ..style_of(self.machines.primary(), self.family, &b.design)
        }
    }

    /// `b`'s time over the fastest design's on its machine, for context beside the family
    /// metrics: the same cell as the main table's "× best" (paired when they share rounds).
    pub(super) fn ratio_to_best(&self, b: &Benchmark) -> String {
        self.machines
            .best_on_machine_of(b, self.ordered)
            .and_then(|best| ratio::to_best(b, best))
            .map(|r| r.cell())
            .unwrap_or_default()
    }

    /// The designs of the main table whose family metrics are shown: each design's first
    /// machine, and each later machine whose metrics differ from every earlier one's.
    pub(super) fn shown(&self) -> Vec<&'a Benchmark> {
        self.ordered
            .iter()
            .copied()
            .filter(|b| {
                self.machines
                    .first_with(b, self.ordered, |b| Some(b.metrics.clone()))
            })
            .collect()
    }

    /// Rows of a family table: designs with the family's metrics sorted by `key` (smallest
    /// first when `lowest_first`, a missing key last), then the other designs in the order of
    /// the main table, then reference loops. A design measured on several machines has one
    /// row, and one more per machine whose metrics differ.
    pub(super) fn rows_in_order(
        &self,
        has_metrics: fn(&Benchmark) -> bool,
        key: fn(&Benchmark) -> Option<f64>,
        lowest_first: bool,
    ) -> Vec<&'a Benchmark> {
        let once = self.shown();
        let mut measured: Vec<&'a Benchmark> =
            once.iter().copied().filter(|b| has_metrics(b)).collect();
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
            .chain(once.iter().copied().filter(|b| !has_metrics(b)))
            .chain(
                self.references
                    .iter()
                    .copied()
                    .filter(|b| self.machines.index_of(b) == 0),
            )
            .collect()
    }

    /// A chart file name of the block ending in `what`.
    pub(super) fn chart_file(&self, names: &mut Names, what: &str) -> String {
        let [family, workload, n] = self.file_stem;
        names.unique(&[family, workload, n, what], "svg")
    }

    /// The bytes-per-`item` chart of the shown designs (`bytes` their figure, `None` or not
    /// positive for none), pushed onto `charts`; `None` when no design has a figure.
    ///
    /// # Errors
    /// The chart could not be drawn.
    pub(super) fn bytes_per_item_chart(
        &self,
        names: &mut Names,
        charts: &mut Vec<Chart>,
        item: &str,
        bytes: impl Fn(&Benchmark) -> Option<f64>,
    ) -> Result<Option<Chart>, ChartError> {
        let bars: Vec<Bar> = self
            .shown()
            .iter()
            .filter_map(|b| {
                let v = bytes(b)?;
                (v.is_finite() && v > 0.0).then(|| Bar {
                    style: self.style(b),
                    value: Some(v),
                    note: None,
                })
            })
            .collect();
        if bars.is_empty() {
            return Ok(None);
        }
        let file = self.chart_file(names, &format!("bytes-per-{item}"));
        let title = format!("{}: bytes per {item}", self.title);
        let chart = bytes_per_item::build(&file, &title, item, &bars)?;
        charts.push(chart.clone());
        Ok(Some(chart))
    }
}
