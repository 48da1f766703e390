//! Claims read across a parameter ([`Quantity::RatioAcross`](crate::claim::Quantity)): the
//! ratio at each parameter value `x` and N, and the crossovers, where the outcome changes
//! along `x`.
//!
//! At each N the points, `x` ascending, fall into runs of one outcome (confirmed, refuted,
//! undecided); a crossover lies between every two runs, from the last `x` of one to the first
//! of the next (so an undecided run between a confirmed and a refuted one makes two). Within
//! the two runs, the `x` where the ratio's median meets the rule's bound is interpolated on
//! `ln(ratio)` linearly in `x` between the two neighbouring points whose medians straddle it,
//! and the denominator's own value there (a time per job of the reference design, say) the
//! same way, so the answer can be read in the units a user has ("where one job takes about
//! 500 ns on one thread").

use serde::Serialize;

use crate::claim::{Claim, RatioAcross};
use crate::family::Family;
use crate::schema::Results;

use super::readers::{lookup, value_of};
use super::{Outcome, Point, ratio_at};

/// Where a claim read across a parameter changes its outcome, at one N: between two runs of
/// points with one outcome each (the parameter ascending).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Crossover {
    /// The live size.
    pub n: u64,
    /// The last `x` of the lower run and the first `x` of the upper one.
    pub between: (f64, f64),
    /// The outcome up to the crossover.
    pub below: Outcome,
    /// The outcome from it on.
    pub above: Outcome,
    /// Where the ratio's median meets the rule's bound within the two runs, if it does.
    pub meets: Option<Meeting>,
}

/// Where the medians of a claim read across a parameter meet the rule's bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Meeting {
    /// The bound.
    pub bound: f64,
    /// The `x` where the median meets it, interpolated on `ln(ratio)` linearly in `x` between
    /// the two neighbouring points that straddle it.
    pub at: f64,
    /// The denominator's value interpolated at `at` (its design and metric are the claim's),
    /// when both neighbouring points have it.
    pub den_at: Option<f64>,
}

/// The points of `points` at every N of the claim's sizes (`judged` gives an operand's): the
/// ratio at each `x` and N the run has its numerator at, `x` set on each point. A parameter
/// value the run has at no size is named in `missing` (a quick run times the base workload
/// only, not the points of its sweep).
pub(super) fn ratio_points(
    claim: &Claim,
    family: Family,
    results: &Results,
    points: &[RatioAcross],
    judged: &mut dyn FnMut(&crate::claim::Operand) -> Vec<u64>,
    missing: &mut Vec<String>,
) -> Vec<Point> {
    let at: Vec<Vec<u64>> = points.iter().map(|p| judged(&p.num)).collect();
    for (p, ns) in points.iter().zip(&at) {
        if ns.is_empty() {
            missing.push(format!(
                "no benchmark of {} on {} in this run",
                p.num.design, p.num.workload
            ));
        }
    }
    let mut ns: Vec<u64> = at.iter().flatten().copied().collect();
    ns.sort_unstable();
    ns.dedup();
    let mut out = Vec::new();
    for n in ns {
        for (p, _) in points.iter().zip(&at).filter(|(_, ns)| ns.contains(&n)) {
            if let Some(mut point) = ratio_at(claim, family, results, &p.num, &p.den, n, missing) {
                point.x = Some(p.x);
                out.push(point);
            }
        }
    }
    out
}

/// The crossovers of `points` (as [`ratio_points`] made them, grouped by N, `x` ascending
/// within each): at each N, the points cut into runs of one outcome, and one crossover
/// between every two runs (an undecided run between a confirmed and a refuted one makes two).
pub(super) fn crossovers(
    claim: &Claim,
    family: Family,
    results: &Results,
    across: &[RatioAcross],
    points: &[Point],
) -> Vec<Crossover> {
    let mut out = Vec::new();
    let mut ns: Vec<u64> = points.iter().filter_map(|p| p.n).collect();
    ns.dedup();
    for n in ns {
        let at_n: Vec<&Point> = points
            .iter()
            .filter(|p| p.n == Some(n) && p.x.is_some())
            .collect();
        let runs: Vec<&[&Point]> = at_n.chunk_by(|a, b| a.outcome == b.outcome).collect();
        for pair in runs.windows(2) {
            let (lower, upper) = (pair[0], pair[1]);
            let (first, last) = (lower[0], lower[lower.len() - 1]);
            let (next, end) = (upper[0], upper[upper.len() - 1]);
            let (Some(x_first), Some(x_last), Some(x_next), Some(x_end)) =
                (first.x, last.x, next.x, end.x)
            else {
                continue;
            };
            let meets = meeting(claim, &at_n, x_first, x_end).map(|(bound, at, step)| Meeting {
                bound,
                at,
                den_at: den_between(family, results, across, n, step, at),
            });
            out.push(Crossover {
                n,
                between: (x_last, x_next),
                below: last.outcome,
                above: next.outcome,
                meets,
            });
        }
    }
    out
}

/// The bound the medians cross between `x_lo` and `x_hi`, the interpolated `x` where they
/// meet it, and the two neighbouring `x` that straddle it.
fn meeting(claim: &Claim, at_n: &[&Point], x_lo: f64, x_hi: f64) -> Option<(f64, f64, (f64, f64))> {
    let (low, high) = claim.rule.bounds();
    let span: Vec<(f64, f64)> = at_n
        .iter()
        .filter_map(|p| Some((p.x?, p.value)))
        .filter(|&(x, _)| x >= x_lo && x <= x_hi)
        .collect();
    for bound in [low, high]
        .into_iter()
        .filter(|b| b.is_finite() && *b > 0.0)
    {
        for w in span.windows(2) {
            let ((xa, ra), (xb, rb)) = (w[0], w[1]);
            if ra <= 0.0 || rb <= 0.0 || (ra - bound) * (rb - bound) > 0.0 || ra == rb {
                continue;
            }
            let t = (bound.ln() - ra.ln()) / (rb.ln() - ra.ln());
            return Some((bound, xa + t * (xb - xa), (xa, xb)));
        }
    }
    None
}

/// The denominator's value at `at`, interpolated linearly between its values at the two `x`
/// of `step`.
fn den_between(
    family: Family,
    results: &Results,
    across: &[RatioAcross],
    n: u64,
    (xa, xb): (f64, f64),
    at: f64,
) -> Option<f64> {
    let value = |x: f64| {
        let p = across.iter().find(|p| p.x == x)?;
        let mut ignored = Vec::new();
        let b = lookup(results, family, &p.den, n, &mut ignored)?;
        value_of(&p.den.metric, b, &mut ignored)
    };
    let (va, vb) = (value(xa)?, value(xb)?);
    Some(if xb == xa {
        va
    } else {
        va + (vb - va) * (at - xa) / (xb - xa)
    })
}
