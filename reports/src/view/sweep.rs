//! The working-set lines of a workload from `dodbench sweep`, for every family, and the
//! machine's memory limits the same sweep measured, drawn beside them.

use results::{Family, MemoryBound, MemoryLimits};
use results::{Results, SweepPoint, Sweeps};

use super::status::{is_verified, status_name};
use super::style::style_of;
use crate::charts::{Line, SeriesStyle};
use crate::palette::{self, Marker};

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

/// The machine's memory limits as dashed lines in the sweep chart's units (ns against the
/// working set in bytes) over the x range of `lines` (a factor of four either side): one
/// dependent load, one independent load, and, for a body that streams `bytes_per_unit` per
/// work unit, reading them sequentially. `suffix` ends each name (the machine, with several).
pub(super) fn limit_lines(
    limits: &MemoryLimits,
    bound: Option<MemoryBound>,
    lines: &[Line],
    suffix: &str,
) -> Vec<Line> {
    let xs = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
    let (lo, hi) = xs.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if !(lo.is_finite() && hi > 0.0) {
        return Vec::new();
    }
    let in_range: Vec<_> = limits
        .points
        .iter()
        .filter(|p| (lo / 4.0..=hi * 4.0).contains(&(p.bytes as f64)))
        .collect();
    let line = |name: String, marker: Marker, y: &dyn Fn(&results::MemoryLimit) -> f64| Line {
        style: SeriesStyle {
            name: format!("{name}{suffix}"),
            colour: palette::REFERENCE,
            marker,
            reference: true,
        },
        points: in_range.iter().map(|p| (p.bytes as f64, y(p))).collect(),
    };
    let mut out = vec![
        line("limit: one dependent load".into(), Marker::Triangle, &|p| {
            p.dependent_load_ns
        }),
        line("limit: one independent load".into(), Marker::Circle, &|p| {
            p.independent_load_ns
        }),
    ];
    if let Some(MemoryBound::Stream { bytes_per_unit }) = bound {
        out.push(line(
            format!("limit: reading {bytes_per_unit} B"),
            Marker::Square,
            &|p| bytes_per_unit as f64 / p.read_bytes_per_ns,
        ));
    }
    out.retain(|l| l.points.len() > 1);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use results::MemoryLimit;

    #[test]
    fn limits_become_dashed_lines_over_the_designs_range() {
        let point = |bytes: u64| MemoryLimit {
            bytes,
            read_bytes_per_ns: 16.0,
            independent_load_ns: 2.0,
            dependent_load_ns: 5.0,
        };
        let limits = MemoryLimits {
            method: String::new(),
            points: [1u64 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 30]
                .into_iter()
                .map(point)
                .collect(),
        };
        let designs = vec![Line {
            style: crate::charts::test_support::style(0, "packed"),
            points: vec![(70e3, 3.0), (1.1e6, 4.0)],
        }];
        let stream = Some(MemoryBound::Stream { bytes_per_unit: 32 });
        let lines = limit_lines(&limits, stream, &designs, "");
        let names: Vec<&str> = lines.iter().map(|l| l.style.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "limit: one dependent load",
                "limit: one independent load",
                "limit: reading 32 B"
            ]
        );
        assert!(lines.iter().all(|l| l.style.reference));
        // 16 KiB is more than four times below 70 kB, 1 GiB far above 1.1 MB.
        assert_eq!(
            lines[2].points,
            vec![(65536.0, 2.0), (262144.0, 2.0), (1048576.0, 2.0)]
        );
        assert_eq!(limit_lines(&limits, None, &designs, " @ b").len(), 2);
        assert!(limit_lines(&limits, None, &[], "").is_empty());
    }
}
