//! The verdicts of the claims a run declares ([`crate::claim`], in each
//! [`FamilyRecord`](crate::FamilyRecord)), computed from the run's own numbers: at every N the
//! run measured, the claim's quantity and whether its rule holds there; over the sizes, one
//! verdict (confirmed, refuted, mixed by size, undecided, not measured with the reason).
//!
//! A count is exact, so its rule holds or not. A time ratio of two designs timed in one cell is
//! the median of their per-round ratios with its 95% interval ([`crate::ranking::paired`]): it
//! confirms only when the whole interval satisfies the rule, refutes only when none of it does,
//! and is undecided otherwise, and when its instances answer both ways (one instance's own
//! interval on each side of a bound: unstable on this machine,
//! [`crate::stats::PairedRatio::unstable_about`]). Times never paired (different cells or
//! sessions) are compared by their medians, and the point says so.

use std::fmt;

use serde::Serialize;

use crate::claim::{Claim, Metric, Operand, Quantity, Untested};
use crate::family::Family;
use crate::metric_spec::MetricSection;
use crate::ranking::paired;
use crate::schema::{Results, Status};

mod crossover;
mod exponent;
mod readers;
mod render;

pub use crossover::{Crossover, Meeting};

pub use exponent::fit_exponent;
use exponent::{across_at, exponent};
use readers::{holds, lookup, sizes, value_of};
pub use render::{
    format_value, render_markdown, render_text, render_untested_markdown, render_untested_text,
    shorten, tally_line,
};

/// Whether a claim's rule holds at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The rule holds (for a paired time: over the whole interval).
    Confirmed,
    /// The rule fails (for a paired time: over the whole interval).
    Refuted,
    /// The interval holds values on both sides of the rule's bound.
    Undecided,
}

impl Outcome {
    /// The word a point shows: `confirmed`, `refuted`, `undecided`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Confirmed => "confirmed",
            Outcome::Refuted => "refuted",
            Outcome::Undecided => "undecided",
        }
    }
}

/// A claim's verdict over every point the run measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Confirmed at every point.
    Confirmed,
    /// Confirmed at every point by a design built to satisfy the rule
    /// ([`Claim::by_construction`]): the build does what it says; the article is not tested.
    HoldsByConstruction,
    /// Refuted at every point.
    Refuted,
    /// The outcome differs between sizes (confirmed at one, refuted or undecided at another).
    Mixed,
    /// Read across a parameter, the outcome changes along it (confirmed below some value,
    /// refuted or undecided above it, or the other way round; [`Judgement::crossovers`] says
    /// where).
    Crossover,
    /// No point could be told either way (time intervals holding the bound at every size).
    Undecided,
    /// No point: the run has no numbers for the claim (the reason says which are missing).
    NotMeasured,
}

impl Verdict {
    /// Every verdict, in the order a summary lists them.
    pub const ALL: [Verdict; 7] = [
        Verdict::Confirmed,
        Verdict::HoldsByConstruction,
        Verdict::Refuted,
        Verdict::Mixed,
        Verdict::Crossover,
        Verdict::Undecided,
        Verdict::NotMeasured,
    ];

    /// The word a page shows: `confirmed`, `holds by construction`, `refuted`, `mixed by size`,
    /// `crossover`, `undecided`, `not measured`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::HoldsByConstruction => "holds by construction",
            Verdict::Refuted => "refuted",
            Verdict::Mixed => "mixed by size",
            Verdict::Crossover => "crossover",
            Verdict::Undecided => "undecided",
            Verdict::NotMeasured => "not measured",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The claim's quantity at one N (or fitted over several).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The live size; `None` for a fitted exponent.
    pub n: Option<u64>,
    /// The parameter value, for a claim read across a parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    /// The quantity.
    pub value: f64,
    /// Its 95% interval, for a time ratio paired round by round.
    pub interval: Option<(f64, f64)>,
    /// Whether the rule holds.
    pub outcome: Outcome,
    /// How the value was obtained, e.g. `paired over 15 rounds`, `fitted over N = 1000 to
    /// 65536 (4 sizes)`, `counts`.
    pub how: String,
}

/// One claim judged on one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement<'a> {
    /// The family that declared it.
    pub family: Family,
    /// The claim.
    pub claim: &'a Claim,
    /// Its points, by N.
    pub points: Vec<Point>,
    /// The verdict over the points.
    pub verdict: Verdict,
    /// What is missing, for sizes or operands without a number (every reason, once).
    pub missing: Vec<String>,
    /// Sizes the run measured that lie outside the claim's [`Claim::sizes`]: shown, not judged.
    pub outside: Vec<u64>,
    /// For a claim read across a parameter, where its outcome changes along it.
    pub crossovers: Vec<Crossover>,
}

/// Every claim of every family of `results`, judged, in the order the families list them.
pub fn judge_run(results: &Results) -> Vec<Judgement<'_>> {
    results
        .families
        .iter()
        .flat_map(|f| f.claims.iter().map(move |c| judge(c, f.family, results)))
        .collect()
}

/// The catalogue's statements the families of `results` record as untested, each with its
/// family, in the order the families list them.
pub fn untested(results: &Results) -> Vec<(Family, &Untested)> {
    results
        .families
        .iter()
        .flat_map(|f| f.untested.iter().map(move |u| (f.family, u)))
        .collect()
}

/// How many judgements have each verdict, in [`Verdict::ALL`] order.
pub fn tally(judgements: &[Judgement<'_>]) -> Vec<(Verdict, usize)> {
    Verdict::ALL
        .into_iter()
        .map(|v| (v, judgements.iter().filter(|j| j.verdict == v).count()))
        .collect()
}

/// Checks a claim's family metrics against the metrics its family declares (`section`, `None`
/// for a family without any): a name that is not one is a declaration error (a typo would
/// otherwise read as "not measured" forever).
///
/// # Errors
/// The first unknown field, with the valid names.
pub fn check_metric_names(claim: &Claim, section: Option<&MetricSection>) -> Result<(), String> {
    for op in claim.quantity.operands() {
        if let Metric::Family(field) = &op.metric {
            let fields = section.map(MetricSection::names).unwrap_or_default();
            if !fields.iter().any(|f| f == field) {
                return Err(format!(
                    "claim {}: its family has no metric {field:?}; its metrics are: {}",
                    claim.id,
                    fields.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// `claim` (declared by `family`) judged on `results`.
pub fn judge<'a>(claim: &'a Claim, family: Family, results: &Results) -> Judgement<'a> {
    let mut missing = Vec::new();
    let mut outside = Vec::new();
    let mut sizes = |op: &Operand| -> Vec<u64> {
        let (judged, not): (Vec<u64>, Vec<u64>) = sizes(results, family, op)
            .into_iter()
            .partition(|&n| claim.sizes.contains(n));
        outside.extend(not);
        judged
    };
    let points: Vec<Point> = match &claim.quantity {
        Quantity::Value { of } if of.metric == Metric::Verified => sizes(of)
            .into_iter()
            .filter_map(|n| verified_at(claim, family, results, of, n, &mut missing))
            .collect(),
        Quantity::Value { of } => sizes(of)
            .into_iter()
            .filter_map(|n| {
                let b = lookup(results, family, of, n, &mut missing)?;
                let value = value_of(&of.metric, b, &mut missing)?;
                Some(point(claim, n, value, None, how_single(&of.metric)))
            })
            .collect(),
        Quantity::Ratio { num, den } => sizes(num)
            .into_iter()
            .filter_map(|n| ratio_at(claim, family, results, num, den, n, &mut missing))
            .collect(),
        Quantity::Exponent { of, total } => exponent(
            claim,
            family,
            results,
            of,
            *total,
            &mut missing,
            &mut outside,
        )
        .into_iter()
        .collect(),
        Quantity::RatioAcross { points, .. } => {
            crossover::ratio_points(claim, family, results, points, &mut sizes, &mut missing)
        }
        Quantity::ExponentAcross { points } => match points.first() {
            Some(first) => sizes(&first.of)
                .into_iter()
                .filter_map(|n| across_at(claim, family, results, points, n, &mut missing))
                .collect(),
            None => Vec::new(),
        },
    };
    if points.is_empty() && missing.is_empty() {
        missing.push(format!(
            "no benchmark of {} on {} in this run",
            claim.quantity.operands()[0].design,
            claim.quantity.operands()[0].workload
        ));
    }
    dedup(&mut missing);
    outside.sort_unstable();
    outside.dedup();
    let crossovers = match &claim.quantity {
        Quantity::RatioAcross { points: across, .. } => {
            crossover::crossovers(claim, family, results, across, &points)
        }
        _ => Vec::new(),
    };
    let verdict = match verdict_of(&points) {
        Verdict::Confirmed if claim.by_construction => Verdict::HoldsByConstruction,
        Verdict::Mixed if !crossovers.is_empty() => Verdict::Crossover,
        v => v,
    };
    Judgement {
        family,
        claim,
        verdict,
        points,
        missing,
        outside,
        crossovers,
    }
}

fn dedup(v: &mut Vec<String>) {
    let mut seen = Vec::new();
    v.retain(|s| {
        let new = !seen.contains(s);
        if new {
            seen.push(s.clone());
        }
        new
    });
}

/// One outcome at every point gives that verdict; outcomes that differ between sizes give
/// [`Verdict::Mixed`] (a refutation at one size and an undecided point at another must not read
/// as merely undecided), and the points say which size is which.
fn verdict_of(points: &[Point]) -> Verdict {
    let Some(first) = points.first() else {
        return Verdict::NotMeasured;
    };
    if points.iter().any(|p| p.outcome != first.outcome) {
        return Verdict::Mixed;
    }
    match first.outcome {
        Outcome::Confirmed => Verdict::Confirmed,
        Outcome::Refuted => Verdict::Refuted,
        Outcome::Undecided => Verdict::Undecided,
    }
}

fn how_single(metric: &Metric) -> String {
    if metric.is_deterministic() {
        "count".to_string()
    } else {
        "median".to_string()
    }
}

fn point(claim: &Claim, n: u64, value: f64, interval: Option<(f64, f64)>, how: String) -> Point {
    Point {
        n: Some(n),
        x: None,
        value,
        interval,
        outcome: outcome(claim, value, interval),
        how,
    }
}

fn outcome(claim: &Claim, value: f64, interval: Option<(f64, f64)>) -> Outcome {
    let Some((lower, upper)) = interval else {
        return if claim.rule.holds(value) {
            Outcome::Confirmed
        } else {
            Outcome::Refuted
        };
    };
    let (low, high) = claim.rule.bounds();
    if lower >= low && upper <= high {
        Outcome::Confirmed
    } else if upper < low || lower > high {
        Outcome::Refuted
    } else {
        Outcome::Undecided
    }
}

/// Whether `op`'s design verified at `n` (1) or failed, or ran past its documented limits (0,
/// the reason in the point). A trace its limits refused before any replay (capacity) gave no
/// answer to judge, and an entry no replay reached has none either: both are missing.
fn verified_at(
    claim: &Claim,
    family: Family,
    results: &Results,
    op: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<Point> {
    let b = results
        .benchmarks
        .iter()
        .find(|b| holds(b, family, op) && b.n == n && b.status != Status::Unmeasured);
    let Some(b) = b else {
        missing.push(format!(
            "no verdict of {} on {} at N = {n}",
            op.design, op.workload
        ));
        return None;
    };
    if b.refused {
        missing.push(format!(
            "{} on {} at N = {n}: refused before the replay by its documented limits{}; no \
             answer to judge",
            op.design,
            op.workload,
            b.reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ));
        return None;
    }
    let value = if b.status == Status::Verified {
        1.0
    } else {
        0.0
    };
    let how = match &b.reason {
        Some(r) if b.status != Status::Verified => format!("{}: {r}", b.status),
        _ => b.status.to_string(),
    };
    Some(point(claim, n, value, None, how))
}

pub(super) fn ratio_at(
    claim: &Claim,
    family: Family,
    results: &Results,
    num: &Operand,
    den: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<Point> {
    let a = lookup(results, family, num, n, missing);
    let b = lookup(results, family, den, n, missing);
    let (a, b) = (a?, b?);
    let (va, vb) = (
        value_of(&num.metric, a, missing),
        value_of(&den.metric, b, missing),
    );
    let (va, vb) = (va?, vb?);
    if num.metric == Metric::Time && den.metric == Metric::Time {
        if let Some(p) = paired(a, b) {
            let interval = Some((p.ratio.lower, p.ratio.upper));
            let (low, high) = claim.rule.bounds();
            if p.unstable_about(low) || p.unstable_about(high) {
                let how = format!(
                    "unstable on this machine: paired over {}, {}",
                    p.rounds_in_words(),
                    p.apart_in_words()
                );
                let mut unstable = point(claim, n, p.ratio.median, interval, how);
                unstable.outcome = Outcome::Undecided;
                return Some(unstable);
            }
            let how = format!("paired over {}", p.rounds_in_words());
            return Some(point(claim, n, p.ratio.median, interval, how));
        }
    }
    if vb == 0.0 {
        missing.push(format!("{den} at N = {n} is 0: no ratio"));
        return None;
    }
    let how = if num.metric.is_deterministic() && den.metric.is_deterministic() {
        "counts".to_string()
    } else {
        "ratio of medians (not timed in the same rounds)".to_string()
    };
    Some(point(claim, n, va / vb, None, how))
}

#[cfg(test)]
mod tests;
