//! The (workload, N) block a family-metrics section is built from, and what every part of the
//! section asks of it: a row's name, kind and colour, its time over the best, which designs
//! are shown once per machine, the rows in ranking order and unique chart file names.

use results::{Benchmark, Family};

use crate::charts::SeriesStyle;
use crate::view::machines::Machines;
use crate::view::names::Names;
use crate::view::ratio;
use crate::view::reference::{is_reference, reference_style};
use crate::view::style::{kind_of, style_of};

/// What the family-metrics section of one (workload, N) block is built from.
pub(crate) struct Block<'a> {
    /// The runs, one per machine (the first one's designs fix colours and kinds).
    pub(crate) machines: &'a Machines<'a>,
    /// The page's family.
    pub(crate) family: Family,
    /// Family, workload and `n<N>`: the start of the block's chart file names.
    pub(crate) file_stem: [&'a str; 3],
    /// `<workload>, N = <n>`.
    pub(crate) title: &'a str,
    /// The family's designs in the order of the main table (timed fastest first, then
    /// untimed), each design's machines together.
    pub(crate) ordered: &'a [&'a Benchmark],
    /// Reference loops of the block.
    pub(crate) references: &'a [&'a Benchmark],
}

impl<'a> Block<'a> {
    /// Name, kind and colour of a row.
    pub(crate) fn identity(&self, b: &Benchmark) -> (String, String, String) {
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
    pub(crate) fn style(&self, b: &Benchmark) -> SeriesStyle {
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
    pub(crate) fn ratio_to_best(&self, b: &Benchmark) -> String {
        self.machines
            .best_on_machine_of(b, self.ordered)
            .and_then(|best| ratio::to_best(b, best))
            .map(|r| r.cell())
            .unwrap_or_default()
    }

    /// The designs of the main table whose family metrics are shown: each design's first
    /// machine, and each later machine whose metrics differ from every earlier one's.
    pub(crate) fn shown(&self) -> Vec<&'a Benchmark> {
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
    /// first when `lowest_first`, a missing key last, equal keys in the order of the main
    /// table), then the other designs in the order of the main table, then reference loops. A
    /// design measured on several machines has one row, and one more per machine whose
    /// metrics differ.
    pub(crate) fn rows_in_order(
        &self,
        has_metrics: impl Fn(&Benchmark) -> bool,
        key: impl Fn(&Benchmark) -> Option<f64>,
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
    pub(crate) fn chart_file(&self, names: &mut Names, what: &str) -> String {
        let [family, workload, n] = self.file_stem;
        names.unique(&[family, workload, n, what], "svg")
    }
}
