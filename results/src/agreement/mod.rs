//! How far two runs of the same commit agree (an A/A check): what the measurement can resolve
//! on this machine, computed from the two results files, never typed.
//!
//! * **Resolution**: per benchmark timed in both runs, the ratio to its family's reference
//!   design on the same (workload, N) — the paired ratio of the rounds when the run has it,
//!   else the ratio of medians — and the distance `|ln(a / b)|` between the two runs' ratios.
//!   The 95th percentile of that distance, as a ratio difference (`exp(d) − 1`), is the
//!   smallest difference between two designs that two runs of the same code reproduce 19 times
//!   in 20: a change below it is noise.
//! * **Same winner**: per cell (family, workload, N) whose top two designs differ by more than
//!   [`DECISIVE_GAP`] in run A, whether run B names the same winner.
//! * **Overheads**: in each run, the range of the reference loops' `overhead` (the replay over
//!   its hand-written loop), apart for the loops of our own designs (the replay driver's and
//!   the trait's share, 1.0 where the loop calls the replay's own function) with how many lie
//!   within [`OVERHEAD_BAND`], and for the peers' loops (the crate called directly: the
//!   adapter's cost).
//!
//! Per family ([`FamilyCounts`]), what two runs of one commit must agree on when their
//! intervals are honest:
//!
//! * **Disjoint intervals**: of the benchmarks with a 95% interval of the ratio to the
//!   reference design in both runs (`rounds.to_reference`, else paired in the cell), how many
//!   intervals do not overlap. Honest intervals leave few apart; many say the intervals are
//!   narrower than the spread between runs.
//! * **Rankings**: of the cells ranked in both runs ([`rank`]), those whose winner is decided
//!   ([`Gap::decided`](crate::ranking::Gap::decided)) in each run, decided in both with the
//!   same winner, and flips: decided in both with different winners. Consistent: of the cells
//!   decided in either run, those whose winner is the other run's winner too.
//! * **Claims**: of the claims judged in both runs ([`crate::verdict`]), those decided
//!   (confirmed or refuted) in both, those whose decided verdicts differ (flips), and those
//!   decided in one run only.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::family::Family;
use crate::ranking::{cells, paired, rank};
use crate::schema::{Benchmark, Results};
use crate::stats::{Estimate, PairedRatio};
use crate::verdict::{Crossover, Verdict, judge_run};

/// A cell's top two designs differ by more than this (runner-up ÷ winner) for its winner to
/// count in the same-winner rate.
pub const DECISIVE_GAP: f64 = 1.10;

/// The band a replay driver's overhead is held to: its loop and its replay within 5%.
pub const OVERHEAD_BAND: (f64, f64) = (0.95, 1.05);

/// The reference loops' overheads of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overheads {
    /// Range over the loops of our own designs (their design has no crate idiom).
    pub own: Option<(f64, f64)>,
    /// Of those loops, how many lie within [`OVERHEAD_BAND`], and how many there are.
    pub own_within: (usize, usize),
    /// Range over the loops of peers (the crate called directly).
    pub peers: Option<(f64, f64)>,
}

/// What two runs agree on.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// Benchmarks with a ratio to their reference in both runs.
    pub compared: usize,
    /// Median of `|ln(ratio_a / ratio_b)|` as a ratio difference (`0.03` = 3%).
    pub median_difference: f64,
    /// 95th percentile of the same: the smallest difference the runs resolve.
    pub resolution: f64,
    /// Of them, how many ratios came from paired rounds in both runs.
    pub paired: usize,
    /// Cells whose top two differ by more than [`DECISIVE_GAP`] in run A and are ranked in B.
    pub decisive_cells: usize,
    /// Of those, cells where run B names the same winner.
    pub same_winner: usize,
    /// The decisive cells where the winners differ: `family/workload/N: a vs b`.
    pub disagreements: Vec<String>,
    /// The reference loops' overheads in run A and run B.
    pub overheads: [Overheads; 2],
    /// Per family with a cell or a claim in both runs, in [`Family`] order: what the runs
    /// must agree on.
    pub families: Vec<(Family, FamilyCounts)>,
    /// Cells decided in both runs whose winners differ: `family/workload/N: a vs b`.
    pub ranking_flips: Vec<String>,
    /// Claims decided in both runs with different verdicts: `id (family): confirmed (values)
    /// vs refuted (values)`.
    pub claim_flips: Vec<String>,
    /// Claims read across a parameter with a crossover in either run, the two runs' side by
    /// side: `id (family) at N = n: A ...; B ...`.
    pub crossovers: Vec<String>,
}

/// Declares a struct of counts (`usize` fields) with `plus`, their field-wise sum: a run's
/// totals are its families' counts added.
macro_rules! counts {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $($(#[$field_attr:meta])* pub $field:ident: usize,)*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            $($(#[$field_attr])* pub $field: usize,)*
        }

        impl $name {
            /// The counts of `self` and `other` added.
            pub fn plus(self, other: Self) -> Self {
                Self {
                    $($field: self.$field + other.$field,)*
                }
            }
        }
    };
}

counts! {
    /// Of the benchmarks of one family, the ratio-to-reference intervals of two runs.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct IntervalCounts {
        /// Benchmarks with a 95% interval of their ratio to the reference design in both runs.
        pub both: usize,
        /// Of those, how many intervals do not overlap (`a.upper < b.lower` or `b.upper <
        /// a.lower`).
        pub disjoint: usize,
        /// Of the disjoint ones, how many either run flags unstable on its machine (two of its
        /// instances put the ratio on opposite sides of 1, `PairedRatio::unstable_about`): a
        /// difference the run itself did not claim to know.
        pub disjoint_unstable: usize,
    }
}

counts! {
    /// Of the cells of one family, the rankings of two runs.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct RankingCounts {
        /// Cells ranked in both runs.
        pub ranked: usize,
        /// Of those, cells whose winner is decided in run A.
        pub decided_a: usize,
        /// Of those, cells whose winner is decided in run B.
        pub decided_b: usize,
        /// Cells decided in both runs with the same winner.
        pub same_winner: usize,
        /// Cells decided in both runs with different winners.
        pub flips: usize,
        /// Cells decided in at least one run.
        pub decided_either: usize,
        /// Of those, cells whose winner is the same in both runs (decided or not in the other).
        pub consistent: usize,
    }
}

counts! {
    /// Of the claims of one family judged in both runs, how their verdicts compare.
    #[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
    pub struct ClaimCounts {
        /// Claims decided (confirmed or refuted) in both runs.
        pub decided_both: usize,
        /// Of those, claims whose verdicts differ.
        pub flips: usize,
        /// Claims decided in one run and not in the other.
        pub one_sided: usize,
    }
}

/// What two runs agree on within one family.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FamilyCounts {
    /// Ratio-to-reference intervals.
    pub intervals: IntervalCounts,
    /// Rankings of its cells.
    pub rankings: RankingCounts,
    /// Verdicts of its claims.
    pub claims: ClaimCounts,
}

impl FamilyCounts {
    /// The counts of `self` and `other` added.
    pub fn plus(self, other: Self) -> Self {
        Self {
            intervals: self.intervals.plus(other.intervals),
            rankings: self.rankings.plus(other.rankings),
            claims: self.claims.plus(other.claims),
        }
    }
}

/// One claim's verdict in one run, what [`compare_claims`] compares.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimVerdict {
    /// The family that declares it.
    pub family: Family,
    /// The claim's ID.
    pub id: String,
    /// Its verdict in the run.
    pub verdict: Verdict,
    /// Its value at each N, in short ([`Judgement::values_in_short`]).
    ///
    /// [`Judgement::values_in_short`]: crate::verdict::Judgement::values_in_short
    pub values: String,
    /// Where a claim read across a parameter changes its outcome ([`Verdict::Crossover`]).
    pub crossovers: Vec<Crossover>,
}

impl ClaimVerdict {
    /// Every claim of `run`, judged on its numbers ([`judge_run`]).
    pub fn of_run(run: &Results) -> Vec<Self> {
        judge_run(run)
            .iter()
            .map(|j| Self {
                family: j.family,
                id: j.claim.id.clone(),
                verdict: j.verdict,
                values: j.values_in_short(),
                crossovers: j.crossovers.clone(),
            })
            .collect()
    }

    /// Confirmed or refuted (not mixed by size, undecided or not measured).
    pub fn decided(&self) -> bool {
        matches!(self.verdict, Verdict::Confirmed | Verdict::Refuted)
    }
}

/// The claims judged in both runs (matched by family and ID; a claim of one run only is left
/// out), counted per family; the flips: `id (family): confirmed (values) vs refuted (values)`;
/// and the crossovers of a claim read across a parameter, the two runs' side by side, at each
/// N either run has one: `id (family) at N = n: A ...; B ...` ([`Crossover::in_short`]).
pub fn compare_claims(a: &[ClaimVerdict], b: &[ClaimVerdict]) -> ComparedClaims {
    let mut compared = ComparedClaims::default();
    for ca in a {
        let Some(cb) = b.iter().find(|c| c.family == ca.family && c.id == ca.id) else {
            continue;
        };
        let count = compared.counts.entry(ca.family).or_default();
        match (ca.decided(), cb.decided()) {
            (true, true) => {
                count.decided_both += 1;
                if ca.verdict != cb.verdict {
                    count.flips += 1;
                    compared.flips.push(format!(
                        "{} ({}): {} ({}) vs {} ({})",
                        ca.id, ca.family, ca.verdict, ca.values, cb.verdict, cb.values
                    ));
                }
            }
            (true, false) | (false, true) => count.one_sided += 1,
            (false, false) => {}
        }
        let sizes: std::collections::BTreeSet<u64> = ca
            .crossovers
            .iter()
            .chain(&cb.crossovers)
            .map(|c| c.n)
            .collect();
        for n in sizes {
            let at = |v: &ClaimVerdict| {
                let here: Vec<String> = v
                    .crossovers
                    .iter()
                    .filter(|c| c.n == n)
                    .map(Crossover::in_short)
                    .collect();
                match here.is_empty() {
                    true => format!("none ({})", v.verdict),
                    false => here.join(" and "),
                }
            };
            compared.crossovers.push(format!(
                "{} ({}) at N = {n}: A {}; B {}",
                ca.id,
                ca.family,
                at(ca),
                at(cb)
            ));
        }
    }
    compared
}

/// What [`compare_claims`] finds.
#[derive(Debug, Default)]
pub struct ComparedClaims {
    /// Per family.
    pub counts: BTreeMap<Family, ClaimCounts>,
    /// Claims decided in both runs with different verdicts.
    pub flips: Vec<String>,
    /// Crossovers, the two runs' side by side.
    pub crossovers: Vec<String>,
}

/// The verified design of `cell` that `b`'s family names its reference, unless `b` is it.
fn reference_of<'a>(run: &Results, cell: &[&'a Benchmark], b: &Benchmark) -> Option<&'a Benchmark> {
    let reference = run.family_record(b.family)?.reference_design;
    if b.design == reference {
        return None;
    }
    cell.iter()
        .copied()
        .find(|o| o.design == reference && o.verified)
}

/// The 95% interval of `b`'s time over its family's reference design, and whether it is
/// unstable about 1: the one `b`'s rounds carry, else paired in `cell` of `run`.
fn interval_to_reference(
    run: &Results,
    cell: &[&Benchmark],
    b: &Benchmark,
) -> Option<(Estimate, bool)> {
    if !b.verified {
        return None;
    }
    let read = |p: &PairedRatio| (p.ratio, p.unstable_about(1.0));
    if let Some(p) = b.rounds.as_ref().and_then(|r| r.to_reference.as_ref()) {
        return Some(read(p));
    }
    paired(b, reference_of(run, cell, b)?).map(|p| read(&p))
}

/// `b`'s time over its family's reference design in the same cell of `run`, and whether it
/// is a paired ratio.
fn to_reference(run: &Results, cell: &[&Benchmark], b: &Benchmark) -> Option<(f64, bool)> {
    let r = reference_of(run, cell, b)?;
    if let Some(p) = paired(b, r) {
        return Some((p.ratio.median, true));
    }
    let (tb, tr) = (b.ns_per_op?.median, r.ns_per_op?.median);
    (b.verified && tb > 0.0 && tr > 0.0).then_some((tb / tr, false))
}

/// The 95th percentile of `values` (nearest rank; sorts in place); 0 for none.
fn p95(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[((values.len() as f64 * 0.95).ceil() as usize).clamp(1, values.len()) - 1]
}

fn range(values: &[f64]) -> Option<(f64, f64)> {
    let lo = values.iter().copied().reduce(f64::min)?;
    let hi = values.iter().copied().reduce(f64::max)?;
    Some((lo, hi))
}

/// `run`'s loop overheads, split by whether the mirrored design is a peer (its record names a
/// crate idiom) or ours (a loop whose design is not in the run counts as ours).
fn overheads(run: &Results) -> Overheads {
    let is_peer = |l: &Benchmark| {
        let mirrored = l.mirrors.as_deref();
        run.benchmarks
            .iter()
            .find(|b| {
                !b.family.is_reference()
                    && Some(b.design.as_str()) == mirrored
                    && b.workload == l.workload
                    && b.n == l.n
            })
            .and_then(|b| {
                run.designs
                    .iter()
                    .find(|d| d.family == b.family && d.name == b.design)
            })
            .is_some_and(|d| d.idiom.is_some())
    };
    let (mut own, mut peers) = (Vec::new(), Vec::new());
    for l in &run.benchmarks {
        if let Some(o) = l.overhead {
            if is_peer(l) { &mut peers } else { &mut own }.push(o);
        }
    }
    let (lo, hi) = OVERHEAD_BAND;
    Overheads {
        own: range(&own),
        own_within: (
            own.iter().filter(|&&o| (lo..=hi).contains(&o)).count(),
            own.len(),
        ),
        peers: range(&peers),
    }
}

/// How far runs `a` and `b` (of the same commit) agree.
pub fn agreement(a: &Results, b: &Results) -> Agreement {
    let (cells_a, cells_b) = (cells(a), cells(b));
    let mut distances = Vec::new();
    let mut paired_count = 0;
    let mut decisive_cells = 0;
    let mut same_winner = 0;
    let mut disagreements = Vec::new();
    let mut families: BTreeMap<Family, FamilyCounts> = BTreeMap::new();
    let mut ranking_flips = Vec::new();
    for (key, cell_a) in &cells_a {
        let Some(cell_b) = cells_b.get(key) else {
            continue;
        };
        let counts = families.entry(key.0).or_default();
        for da in cell_a {
            let Some(db) = cell_b.iter().find(|o| o.design == da.design) else {
                continue;
            };
            if let (Some((ra, pa)), Some((rb, pb))) =
                (to_reference(a, cell_a, da), to_reference(b, cell_b, db))
            {
                distances.push((ra / rb).ln().abs());
                paired_count += usize::from(pa && pb);
            }
            if let (Some((ia, unstable_a)), Some((ib, unstable_b))) = (
                interval_to_reference(a, cell_a, da),
                interval_to_reference(b, cell_b, db),
            ) {
                let disjoint = ia.upper < ib.lower || ib.upper < ia.lower;
                counts.intervals.both += 1;
                counts.intervals.disjoint += usize::from(disjoint);
                counts.intervals.disjoint_unstable +=
                    usize::from(disjoint && (unstable_a || unstable_b));
            }
        }
        let (Some(rank_a), Some(rank_b)) = (rank(cell_a), rank(cell_b)) else {
            continue;
        };
        let (wa, wb) = (&rank_a.winner().design, &rank_b.winner().design);
        let cell_name = || format!("{}/{}/{}: {wa} vs {wb}", key.0, key.1, key.2);
        if rank_a.gap.as_ref().is_some_and(|g| g.ratio > DECISIVE_GAP) {
            decisive_cells += 1;
            if wa == wb {
                same_winner += 1;
            } else {
                disagreements.push(cell_name());
            }
        }
        let decided = |r: &crate::ranking::Ranking<'_>| {
            r.gap.as_ref().and_then(|g| g.decided()) == Some(true)
        };
        let (in_a, in_b) = (decided(&rank_a), decided(&rank_b));
        let r = &mut counts.rankings;
        r.ranked += 1;
        r.decided_a += usize::from(in_a);
        r.decided_b += usize::from(in_b);
        if in_a || in_b {
            r.decided_either += 1;
            r.consistent += usize::from(wa == wb);
        }
        if in_a && in_b {
            if wa == wb {
                r.same_winner += 1;
            } else {
                r.flips += 1;
                ranking_flips.push(cell_name());
            }
        }
    }
    let ComparedClaims {
        counts: claims,
        flips: claim_flips,
        crossovers,
    } = compare_claims(&ClaimVerdict::of_run(a), &ClaimVerdict::of_run(b));
    for (family, c) in claims {
        families.entry(family).or_default().claims = c;
    }
    let mut median_of = distances.clone();
    median_of.sort_by(f64::total_cmp);
    let median = median_of.get(median_of.len() / 2).copied().unwrap_or(0.0);
    Agreement {
        compared: distances.len(),
        median_difference: median.exp() - 1.0,
        resolution: p95(&mut distances).exp() - 1.0,
        paired: paired_count,
        decisive_cells,
        same_winner,
        disagreements,
        overheads: [overheads(a), overheads(b)],
        families: families.into_iter().collect(),
        ranking_flips,
        claim_flips,
        crossovers,
    }
}

/// The columns of [`Agreement::render`]'s per-family table, in words.
const LEGEND: [(&str, &str); 4] = [
    (
        "intervals",
        "benchmarks with a 95% interval of the ratio to the reference design in both runs; \
         disjoint: of those, intervals that do not overlap; unstable: of the disjoint, those \
         either run flags unstable on its machine (two of its instances on opposite sides of 1)",
    ),
    (
        "cells",
        "cells ranked in both runs; decided A / B: the winner decided in that run; same / \
         flips: decided in both with the same / another winner",
    ),
    (
        "consistent",
        "of the cells decided in either run, those whose winner is the other run's winner too",
    ),
    (
        "claims",
        "decided (confirmed or refuted) in both runs; claim flips: decided in both with \
         different verdicts; one run only: decided in one run, not the other",
    ),
];

/// The columns of the per-family table, text and Markdown alike.
const HEADER: [&str; 13] = [
    "family",
    "intervals",
    "disjoint",
    "unstable",
    "cells",
    "decided A",
    "decided B",
    "same",
    "flips",
    "consistent",
    "claims",
    "claim flips",
    "one run only",
];

/// `part` of `whole` in percent, ` (7.5%)`, or ` (-)` of none.
fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        " (-)".to_string()
    } else {
        format!(" ({:.1}%)", part as f64 / whole as f64 * 100.0)
    }
}

/// Rows as plain-text columns: the first left-aligned, the rest right-aligned, two spaces
/// apart.
fn columns(rows: &[Vec<String>]) -> String {
    let width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len)).map(width).collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, &w))| {
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

impl FamilyCounts {
    /// The family's row of [`Agreement::render`]'s table, after its name.
    fn row(&self, name: String) -> Vec<String> {
        let (i, r, c) = (self.intervals, self.rankings, self.claims);
        vec![
            name,
            i.both.to_string(),
            format!("{}{}", i.disjoint, percent(i.disjoint, i.both)),
            i.disjoint_unstable.to_string(),
            r.ranked.to_string(),
            r.decided_a.to_string(),
            r.decided_b.to_string(),
            r.same_winner.to_string(),
            r.flips.to_string(),
            format!(
                "{}/{}{}",
                r.consistent,
                r.decided_either,
                percent(r.consistent, r.decided_either)
            ),
            c.decided_both.to_string(),
            c.flips.to_string(),
            c.one_sided.to_string(),
        ]
    }
}

impl Agreement {
    /// The agreement as text, one finding per line.
    pub fn render(&self, label_a: &str, label_b: &str) -> String {
        let mut out = format!("A = {label_a}, B = {label_b}\n");
        let _ = writeln!(
            out,
            "ratios to the family's reference design: {} benchmarks in both runs ({} paired \
             in both); they differ by {:.1}% at the median and by at most {:.1}% in 95% of \
             them: the smallest difference these runs resolve",
            self.compared,
            self.paired,
            self.median_difference * 100.0,
            self.resolution * 100.0
        );
        let share = if self.decisive_cells == 0 {
            0.0
        } else {
            self.same_winner as f64 / self.decisive_cells as f64 * 100.0
        };
        let _ = writeln!(
            out,
            "same winner in {} of {} cells whose top two differ by more than {:.0}% in A \
             ({share:.1}%)",
            self.same_winner,
            self.decisive_cells,
            (DECISIVE_GAP - 1.0) * 100.0
        );
        for d in &self.disagreements {
            let _ = writeln!(out, "  winner differs: {d}");
        }
        let (band_lo, band_hi) = OVERHEAD_BAND;
        for (label, o) in [label_a, label_b].iter().zip(&self.overheads) {
            let _ = match o.own {
                Some((lo, hi)) => writeln!(
                    out,
                    "replay overheads in {label}, loops of our own designs: {lo:.3} to {hi:.3}, \
                     {} of {} within {band_lo:.2}-{band_hi:.2}",
                    o.own_within.0, o.own_within.1
                ),
                None => writeln!(
                    out,
                    "replay overheads in {label}, loops of our own designs: none measured"
                ),
            };
            if let Some((lo, hi)) = o.peers {
                let _ = writeln!(
                    out,
                    "replay overheads in {label}, peers' loops (the adapter's cost): {lo:.3} to \
                     {hi:.3}"
                );
            }
        }
        out.push_str(&self.render_families());
        out
    }

    /// Every family's counts added up.
    pub fn total(&self) -> FamilyCounts {
        self.families
            .iter()
            .fold(FamilyCounts::default(), |total, (_, counts)| {
                total.plus(*counts)
            })
    }

    /// One row per family (named by `name`), then their totals, in the columns of [`HEADER`].
    fn family_rows(&self, name: impl Fn(&Family) -> String) -> Vec<Vec<String>> {
        let mut rows: Vec<Vec<String>> = self
            .families
            .iter()
            .map(|(family, counts)| counts.row(name(family)))
            .collect();
        rows.push(self.total().row("total".to_string()));
        rows
    }

    /// The lines listed below the per-family table, each with what it is: the winner flips,
    /// the claim flips, then the crossovers (the text and the Markdown list the same lines).
    fn listed(&self) -> impl Iterator<Item = (&'static str, &str)> {
        fn labelled<'a>(
            label: &'static str,
            lines: &'a [String],
        ) -> impl Iterator<Item = (&'static str, &'a str)> {
            lines.iter().map(move |line| (label, line.as_str()))
        }
        labelled("winner flips (decided in both runs)", &self.ranking_flips)
            .chain(labelled("claim flips", &self.claim_flips))
            .chain(labelled("crossover", &self.crossovers))
    }

    /// The per-family table as Markdown (the columns of the text's table, the legend's
    /// meanings below it), then the flips as a list: a page's generated block.
    pub fn render_markdown(&self) -> String {
        let mut out = format!("| {} |\n", HEADER.join(" | "));
        let _ = writeln!(out, "| --- |{}", " ---: |".repeat(HEADER.len() - 1));
        for row in self.family_rows(|family| format!("`{family}`")) {
            let _ = writeln!(out, "| {} |", row.join(" | "));
        }
        out.push('\n');
        for (columns, meaning) in LEGEND {
            let _ = writeln!(out, "- {columns}: {meaning}.");
        }
        for (label, line) in self.listed() {
            let _ = writeln!(
                out,
                "- {}{}: {line}.",
                label[..1].to_uppercase(),
                &label[1..]
            );
        }
        out
    }

    /// The per-family table with its totals, then the flips.
    fn render_families(&self) -> String {
        let mut out = String::from("\nper family:\n");
        for (columns, meaning) in LEGEND {
            let _ = writeln!(out, "  {columns:<10}  {meaning}");
        }
        let mut rows = vec![HEADER.map(String::from).to_vec()];
        rows.extend(self.family_rows(Family::to_string));
        out.push_str(&columns(&rows));
        for (label, line) in self.listed() {
            let _ = writeln!(out, "  {label}: {line}");
        }
        out
    }
}

#[cfg(test)]
mod tests;
