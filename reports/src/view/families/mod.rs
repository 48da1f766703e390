//! The sections of a block built from one family's own metrics (`tags`: tag-store space and
//! allocator traffic; `alloc`: arena use and fragmentation; `components`: memory per entity and
//! garbage left), one file per family. This module
//! and those files are the only places of the report that name a specific family or read its
//! metrics: everything else is the same for every family.

pub(super) mod alloc;
pub(super) mod components;
pub(super) mod tags;

use results::Family;
use results::{Benchmark, Results};
use serde::Serialize;

use super::names::Names;
use super::reference::{is_reference, reference_style};
use super::style::{kind_of, style_of};
use crate::charts::{Chart, ChartError};

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
        components: components::build(block),
    })
}

/// What the family-specific sections of one (workload, N) block are built from.
pub(super) struct Block<'a> {
    /// The whole results file (designs' colours and kinds).
    pub(super) results: &'a Results,
    /// The page's family.
    pub(super) family: Family,
    /// Family, workload and `n<N>`: the start of the block's chart file names.
    pub(super) file_stem: [&'a str; 3],
    /// `<workload>, N = <n>`.
    pub(super) title: &'a str,
    /// The family's designs in the order of the main table (timed fastest first, then untimed).
    pub(super) ordered: &'a [&'a Benchmark],
    /// Reference loops of the block.
    pub(super) references: &'a [&'a Benchmark],
    /// The fastest design's median ns per work unit.
    pub(super) best: Option<f64>,
}

impl<'a> Block<'a> {
    /// Name, kind and colour of a row.
    pub(super) fn identity(&self, b: &Benchmark) -> (String, String, String) {
        let style = if is_reference(b) {
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
    pub(super) fn rows_in_order(
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
    pub(super) fn chart_file(&self, names: &mut Names, what: &str) -> String {
        let [family, workload, n] = self.file_stem;
        names.unique(&[family, workload, n, what], "svg")
    }
}
