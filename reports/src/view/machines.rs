//! The machines of a report: one results file per machine, shown side by side. A report of one
//! results file is the one-machine case of the same views: a design's benchmarks are grouped
//! per machine everywhere, and with one machine every group has one member and no label.
//!
//! Two kinds of numbers, two rules:
//! * time-derived numbers (ns/op, throughput, ratios, latency, sweeps, hardware counters) are
//!   shown per machine, labelled `design @ machine` in charts and with a machine column in
//!   tables, each ratio taken on the row's own machine;
//! * deterministic numbers (simulated counts, bytes, allocator calls, family metrics) are the
//!   same on every machine for the same traces and simulated caches: they are shown once, and
//!   again for a later machine only where it disagrees (a finding, not noise). See
//!   [`Machines::first_with`].

use results::{Benchmark, Family, Results};

use super::ratio::fastest;
use super::status::median;
use super::style::style_of;
use crate::charts::SeriesStyle;

/// What marks a deterministic value that equals an earlier machine's on the same row of
/// designs: `″` ("as above").
pub(super) const SAME_AS_ABOVE: &str = "″";

/// The runs of a report, one per machine, in the order given (the first one's designs, families
/// and workloads describe the report).
#[derive(Clone, Copy)]
pub(crate) struct Machines<'a> {
    runs: &'a [Results],
}

impl<'a> Machines<'a> {
    /// # Panics
    /// When `runs` is empty (the caller renders at least one results file).
    pub(crate) fn new(runs: &'a [Results]) -> Self {
        assert!(!runs.is_empty(), "a report needs at least one results file");
        Self { runs }
    }

    /// The first run: its designs fix colours, its families and workloads the pages.
    pub(crate) fn primary(&self) -> &'a Results {
        &self.runs[0]
    }

    /// Every run, in order.
    pub(crate) fn runs(&self) -> &'a [Results] {
        self.runs
    }

    /// Whether the report shows more than one machine (then labels and machine columns appear).
    pub(crate) fn many(&self) -> bool {
        self.runs.len() > 1
    }

    /// Every benchmark of every run, machine by machine.
    pub(crate) fn benchmarks(&self) -> impl Iterator<Item = &'a Benchmark> + 'a {
        self.runs.iter().flat_map(|r| &r.benchmarks)
    }

    /// The index of the run `b` belongs to. Benchmarks are only ever borrowed from the runs,
    /// so the run is the one whose benchmark slice holds `b`'s address.
    pub(crate) fn index_of(&self, b: &Benchmark) -> usize {
        let address: *const Benchmark = b;
        self.runs
            .iter()
            .position(|r| r.benchmarks.as_ptr_range().contains(&address))
            .unwrap_or(0)
    }

    /// The name of machine `index`.
    pub(crate) fn name(&self, index: usize) -> &'a str {
        &self.runs[index].machine.name
    }

    /// The machine column of a row of `b`: its machine's name, empty with one machine.
    pub(crate) fn column(&self, b: &Benchmark) -> String {
        if self.many() {
            self.name(self.index_of(b)).to_string()
        } else {
            String::new()
        }
    }

    /// How a time-derived series of `b` is named: the design, `design @ machine` with several
    /// machines.
    pub(crate) fn label(&self, b: &Benchmark) -> String {
        if self.many() {
            format!("{} @ {}", b.design, self.name(self.index_of(b)))
        } else {
            b.design.clone()
        }
    }

    /// The style of `b`'s series: its design's colour and marker, named by [`Self::label`].
    pub(crate) fn style(&self, family: Family, b: &Benchmark) -> SeriesStyle {
        SeriesStyle {
            name: self.label(b),
            ..style_of(self.primary(), family, &b.design)
        }
    }

    /// `benchmarks` grouped by design (in order of first appearance), each design's in machine
    /// order: the order of rows and bars. With one machine, `benchmarks` unchanged.
    pub(crate) fn by_design(&self, benchmarks: &[&'a Benchmark]) -> Vec<&'a Benchmark> {
        let mut designs: Vec<(Family, &str)> = Vec::new();
        for b in benchmarks {
            if !designs.contains(&(b.family, b.design.as_str())) {
                designs.push((b.family, &b.design));
            }
        }
        let mut out = Vec::with_capacity(benchmarks.len());
        for (family, design) in designs {
            let mut group: Vec<&'a Benchmark> = benchmarks
                .iter()
                .copied()
                .filter(|b| b.family == family && b.design == design)
                .collect();
            group.sort_by_key(|b| self.index_of(b));
            out.extend(group);
        }
        out
    }

    /// The fastest of `benchmarks` (by median) on `b`'s machine.
    pub(crate) fn best_on_machine_of<'b>(
        &self,
        b: &Benchmark,
        benchmarks: &[&'b Benchmark],
    ) -> Option<&'b Benchmark> {
        let machine = self.index_of(b);
        let on: Vec<&'b Benchmark> = benchmarks
            .iter()
            .copied()
            .filter(|x| self.index_of(x) == machine)
            .collect();
        fastest(&on)
    }

    /// `family`'s reference design (its `reference_design` in the families of `b`'s run)
    /// among `benchmarks`, on `b`'s machine, when it has a time.
    pub(crate) fn reference_on_machine_of<'b>(
        &self,
        family: Family,
        b: &Benchmark,
        benchmarks: &[&'b Benchmark],
    ) -> Option<&'b Benchmark> {
        let machine = self.index_of(b);
        let reference = self.runs[machine]
            .families
            .iter()
            .find(|f| f.family == family)?;
        benchmarks.iter().copied().find(|x| {
            self.index_of(x) == machine
                && x.design == reference.reference_design
                && median(x).is_some()
        })
    }

    /// Whether `b` is the first of `benchmarks` with its design and `value`: a deterministic
    /// number is shown on that benchmark and not again on a later machine with the same value.
    /// `false` when `b` has no value.
    pub(crate) fn first_with<T: PartialEq>(
        &self,
        b: &Benchmark,
        benchmarks: &[&Benchmark],
        value: impl Fn(&Benchmark) -> Option<T>,
    ) -> bool {
        let Some(mine) = value(b) else {
            return false;
        };
        let machine = self.index_of(b);
        !benchmarks.iter().any(|x| {
            x.family == b.family
                && x.design == b.design
                && self.index_of(x) < machine
                && value(x).as_ref() == Some(&mine)
        })
    }

    /// The benchmarks of `benchmarks` that show a deterministic `value` (see
    /// [`Self::first_with`]), each with its series name: the design, or `design @ machine`
    /// where the machines disagree and the design appears more than once.
    pub(crate) fn once<T: PartialEq>(
        &self,
        benchmarks: &[&'a Benchmark],
        value: impl Fn(&Benchmark) -> Option<T>,
    ) -> Vec<(&'a Benchmark, String)> {
        let shown: Vec<&'a Benchmark> = benchmarks
            .iter()
            .copied()
            .filter(|b| self.first_with(b, benchmarks, &value))
            .collect();
        shown
            .iter()
            .map(|b| {
                let repeated = shown
                    .iter()
                    .filter(|x| x.family == b.family && x.design == b.design)
                    .count()
                    > 1;
                let name = if repeated {
                    self.label(b)
                } else {
                    b.design.clone()
                };
                (*b, name)
            })
            .collect()
    }

    /// A deterministic cell of `b`'s row: `cell` of its value where [`Self::first_with`]
    /// shows it, [`SAME_AS_ABOVE`] where an earlier machine's row of the design already has
    /// this value, empty where `b` has none.
    pub(crate) fn deterministic_cell<T: PartialEq>(
        &self,
        b: &Benchmark,
        benchmarks: &[&Benchmark],
        value: impl Fn(&Benchmark) -> Option<T>,
        cell: impl Fn(T) -> String,
    ) -> String {
        if self.first_with(b, benchmarks, &value) {
            value(b).map(cell).unwrap_or_default()
        } else if value(b).is_some() {
            SAME_AS_ABOVE.to_string()
        } else {
            String::new()
        }
    }
}
