//! The working-set lines of a workload from `dodbench sweep`, for every family.

use results::Family;
use results::{Results, SweepPoint, Sweeps};

use super::status::{is_verified, status_name};
use super::style::style_of;
use crate::charts::Line;

/// The working-set lines of one workload from the sweep (one per design, verified points
/// only), and a sentence stating the sweep's range, its cap and the points not drawn.
pub(super) fn sweep_lines(
    results: &Results,
    family: Family,
    sweeps: &Sweeps,
    points: &[&SweepPoint],
) -> (Vec<Line>, String) {
    let mut lines: Vec<Line> = Vec::new();
    let mut undrawn: Vec<(String, String, usize)> = Vec::new();
    for p in points {
        let point = match (p.ns_per_op, p.working_set_bytes) {
            (Some(ns), Some(bytes))
                if is_verified(p.status) && ns.is_finite() && ns > 0.0 && bytes > 0 =>
            {
                (bytes as f64, ns)
            }
            _ => {
                match undrawn
                    .iter_mut()
                    .find(|u| u.0 == p.design && u.1 == status_name(p.status))
                {
                    Some(u) => u.2 += 1,
                    None => undrawn.push((p.design.clone(), status_name(p.status), 1)),
                }
                continue;
            }
        };
        let style = style_of(results, family, &p.design);
        match lines.iter_mut().find(|l| l.style == style) {
            Some(line) => line.points.push(point),
            None => lines.push(Line {
                style,
                points: vec![point],
            }),
        }
    }
    for line in &mut lines {
        line.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let design_index = |name: &str| {
        results
            .designs
            .iter()
            .position(|d| d.family == family && d.name == name)
            .unwrap_or(usize::MAX)
    };
    lines.sort_by_key(|l| design_index(&l.style.name));
    let min_n = points.iter().map(|p| p.n).min().unwrap_or(0);
    let max_n = points.iter().map(|p| p.n).max().unwrap_or(0);
    let mut source = format!(
        "From dodbench sweep ({} mode): N = {min_n} to {max_n} on this workload; the sweep's cap \
         is N = {} ({}).",
        sweeps.mode, sweeps.max_n, sweeps.cap
    );
    if !undrawn.is_empty() {
        let list: Vec<String> = undrawn
            .iter()
            .map(|(design, status, count)| {
                format!(
                    "{design} ({status} at {count} size{})",
                    if *count == 1 { "" } else { "s" }
                )
            })
            .collect();
        source.push_str(&format!(" Not drawn: {}.", list.join(", ")));
    }
    (lines, source)
}
