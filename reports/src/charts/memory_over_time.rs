//! Heap bytes held against operations replayed, one line per design: shows growth steps
//! (a `Vec` doubling), memory never returned after removals, and the final footprint, next to
//! the throughput the design bought with it. Fed by `memory.series` of `dodbench memory`
//! (`fill` and `churn`). Half a page wide, to sit beside the bytes-per-object chart.

use plotters::prelude::IntoLogRange;

use super::draw::{Lines, draw_empty, draw_lines, log_bounds};
use super::{Chart, ChartError, Line, render_svg};
use crate::format;

/// Largest ratio of the biggest to the smallest positive value still drawn on a linear axis;
/// beyond it (one design allocating its whole fixed capacity up front, say) the bytes axis is
/// logarithmic so the small designs' growth steps stay visible.
const LINEAR_SPAN: f64 = 20.0;

/// Builds the chart from lines of `(ops replayed, bytes held)`.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, lines: &[Line]) -> Result<Chart, ChartError> {
    let points = || lines.iter().flat_map(|l| l.points.iter().copied());
    let x1 = points().map(|p| p.0).fold(0.0f64, f64::max);
    let y_range = log_bounds(points().map(|p| p.1), 1.0);
    let log_y = y_range.is_some_and(|(lo, hi)| hi / lo > LINEAR_SPAN);
    let description = format!(
        "{title}: heap bytes each design holds (its own accounting) against the body operations \
         replayed so far; one line per design{}.",
        if log_y {
            "; bytes on a logarithmic axis (points holding 0 bytes are left out)"
        } else {
            ""
        }
    );
    let height = (120 + 18 * lines.len() as u32).max(340);
    render_svg(file, title, description, (620, height), |area| {
        let Some((y0, y1)) = y_range.filter(|_| x1 > 0.0) else {
            return draw_empty(area, title, "no memory series");
        };
        let spec = |lines| Lines {
            caption: title,
            x_desc: "operations replayed",
            y_desc: if log_y {
                "heap bytes held (log scale)"
            } else {
                "heap bytes held"
            },
            lines,
            verticals: &[],
            x_label: format::si,
            y_label: format::bytes,
        };
        if log_y {
            let positive: Vec<Line> = lines
                .iter()
                .map(|l| Line {
                    style: l.style.clone(),
                    points: l.points.iter().copied().filter(|p| p.1 > 0.0).collect(),
                })
                .collect();
            let (lo, hi) = (y0 / 1.3, y1 * 1.3);
            draw_lines(
                area,
                &spec(&positive),
                0.0..x1 * 1.02,
                (lo..hi).log_scale(),
                (lo, hi),
            )
        } else {
            draw_lines(
                area,
                &spec(lines),
                0.0..x1 * 1.02,
                0.0..y1 * 1.1,
                (0.0, y1 * 1.1),
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{line, uses};

    #[test]
    fn draws_each_series() {
        let lines = vec![
            line(
                0,
                "holey",
                &[(0.0, 0.0), (1000.0, 4096.0), (2000.0, 8192.0)],
            ),
            line(
                1,
                "packed",
                &[(0.0, 0.0), (1000.0, 6000.0), (2000.0, 6000.0)],
            ),
        ];
        let chart = build("mem.svg", "churn, N = 1000", &lines).unwrap();
        assert!(uses(&chart.svg, &lines[0].style) >= 4);
        assert!(uses(&chart.svg, &lines[1].style) >= 4);
        assert!(
            build("e.svg", "e", &[])
                .unwrap()
                .svg
                .contains("no memory series")
        );
    }

    #[test]
    fn a_wide_range_switches_to_a_log_axis() {
        let lines = vec![
            line(
                0,
                "holey",
                &[(0.0, 0.0), (500.0, 20_000.0), (1000.0, 40_000.0)],
            ),
            line(5, "packed_fixed", &[(0.0, 2.75e6), (1000.0, 2.75e6)]),
        ];
        let chart = build("mem.svg", "fill", &lines).unwrap();
        assert!(chart.description.contains("logarithmic"));
        assert!(chart.svg.contains("heap bytes held (log scale)"));
        assert!(
            uses(&chart.svg, &lines[0].style) >= 3,
            "two positive points + legend"
        );
    }
}
