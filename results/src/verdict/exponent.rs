//! Fitted exponents: how a claim's quantity grows with N (per work unit or over the whole
//! body, with the sweep pass's points) or across a swept parameter, by least squares on
//! log-log.

use super::readers::{lookup, sizes, value_of};
use super::{Point, outcome, point};
use crate::claim::{Across, Claim, Metric, Operand};
use crate::family::Family;
use crate::schema::{Results, Status};

/// The least-squares exponent of `op` over every size the run has (time: with the sweep's
/// points), from three sizes up.
pub(super) fn exponent(
    claim: &Claim,
    family: Family,
    results: &Results,
    op: &Operand,
    total: bool,
    missing: &mut Vec<String>,
    outside: &mut Vec<u64>,
) -> Option<Point> {
    let mut xy: Vec<(u64, f64)> = Vec::new();
    for n in sizes(results, family, op) {
        let Some(b) = lookup(results, family, op, n, missing) else {
            continue;
        };
        if let Some(v) = value_of(&op.metric, b, missing) {
            let scale = if total { b.ops as f64 } else { 1.0 };
            xy.push((n, v * scale));
        }
    }
    if op.metric == Metric::Time {
        let sweep = results.sweeps.iter().flat_map(|s| &s.points).filter(|p| {
            p.family == family
                && p.design == op.design
                && p.workload == op.workload
                && p.status == Status::Verified
        });
        for p in sweep {
            if xy.iter().any(|&(n, _)| n == p.n) {
                continue;
            }
            let ops = p.ops.or_else(|| {
                results
                    .workloads
                    .iter()
                    .find(|w| w.family == family && w.workload == op.workload && w.n == p.n)
                    .map(|w| w.ops)
            });
            match (p.ns_per_op, total, ops) {
                (Some(t), false, _) => xy.push((p.n, t)),
                (Some(t), true, Some(ops)) => xy.push((p.n, t * ops as f64)),
                _ => {}
            }
        }
    }
    xy.retain(|&(n, v)| n > 0 && v > 0.0);
    xy.retain(|&(n, _)| {
        claim.sizes.contains(n) || {
            outside.push(n);
            false
        }
    });
    xy.sort_by_key(|&(n, _)| n);
    if xy.len() < 3 {
        missing.push(format!(
            "{op}: {} size(s) with a positive value, a fitted exponent needs 3",
            xy.len()
        ));
        return None;
    }
    let pts: Vec<(f64, f64)> = xy.iter().map(|&(n, v)| (n as f64, v)).collect();
    let k = log_log_slope(&pts);
    let how = format!(
        "fitted over N = {} to {} ({} sizes)",
        xy[0].0,
        xy[xy.len() - 1].0,
        xy.len()
    );
    Some(Point {
        n: None,
        x: None,
        value: k,
        interval: None,
        outcome: outcome(claim, k, None),
        how,
    })
}

/// The exponent across `points` at `n`: every operand must have a positive value there.
pub(super) fn across_at(
    claim: &Claim,
    family: Family,
    results: &Results,
    points: &[Across],
    n: u64,
    missing: &mut Vec<String>,
) -> Option<Point> {
    let mut xy = Vec::new();
    for p in points {
        let b = lookup(results, family, &p.of, n, missing)?;
        let v = value_of(&p.of.metric, b, missing)?;
        if v <= 0.0 || p.x <= 0.0 {
            missing.push(format!("{} at N = {n} is {v}: no logarithm", p.of));
            return None;
        }
        xy.push((p.x, v));
    }
    if xy.len() < 3 {
        missing.push("an exponent across a parameter needs 3 operands".to_string());
        return None;
    }
    let k = log_log_slope(&xy);
    let how = format!("fitted over x = {} to {}", xy[0].0, xy[xy.len() - 1].0);
    Some(point(claim, n, k, None, how))
}

/// The exponent `k` of `y ≈ c·x^k` fitted by least squares on log-log over `xy` (every `x` and
/// `y` positive); `None` with fewer than three points or non-positive values.
///
/// ```
/// let k = results::verdict::fit_exponent(&[(10.0, 300.0), (100.0, 30_000.0), (1000.0, 3e6)]);
/// assert!((k.unwrap() - 2.0).abs() < 1e-9);
/// assert!(results::verdict::fit_exponent(&[(1.0, 1.0), (2.0, 2.0)]).is_none());
/// ```
pub fn fit_exponent(xy: &[(f64, f64)]) -> Option<f64> {
    if xy.len() < 3 || xy.iter().any(|&(x, y)| x <= 0.0 || y <= 0.0) {
        return None;
    }
    Some(log_log_slope(xy))
}

/// The slope of `ln y` over `ln x`, by least squares.
fn log_log_slope<X: Copy + Into<f64>>(xy: &[(X, f64)]) -> f64 {
    let pts: Vec<(f64, f64)> = xy.iter().map(|&(x, y)| (x.into().ln(), y.ln())).collect();
    let m = pts.len() as f64;
    let (mx, my) = (
        pts.iter().map(|p| p.0).sum::<f64>() / m,
        pts.iter().map(|p| p.1).sum::<f64>() / m,
    );
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    if sxx == 0.0 { 0.0 } else { sxy / sxx }
}
