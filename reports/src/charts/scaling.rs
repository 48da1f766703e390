//! ns per work unit against the live size N for one workload, on log-log axes: one line per
//! design, reference loops dashed. A flat line scales perfectly; a step shows where the
//! design's data stopped fitting a cache level.

use plotters::prelude::IntoLogRange;

use super::draw::{Lines, draw_empty, draw_lines, log_bounds};
use super::{Chart, ChartError, Line, render_svg};
use crate::format;

/// Builds the chart; lines with fewer than one point are skipped.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, lines: &[Line]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: nanoseconds per work unit against the number of live objects N, both axes \
         logarithmic; one line per design (dashed: reference loops). Lower is better."
    );
    let x = LogX {
        desc: "live objects N (log scale)",
        label: format::si,
        verticals: &[],
        pad: 1.3,
    };
    time_per_unit(file, title, description, lines, &x, "no timed benchmark")
}

/// The x axis of a chart of time per work unit: what it shows, its labels, the dashed
/// vertical lines on it, and how far past the data and the verticals its range reaches.
pub(crate) struct LogX<'a> {
    /// The axis' description.
    pub desc: &'a str,
    /// A tick's label.
    pub label: fn(f64) -> String,
    /// Dashed vertical lines: where, and their labels.
    pub verticals: &'a [(f64, String)],
    /// The factor the range reaches past the smallest and the largest value.
    pub pad: f64,
}

/// Builds a chart of ns per work unit against `x`, both axes logarithmic, one line per design
/// (the time-per-size charts: against N here, against the working set in
/// [`super::working_set`]); `empty` says why a chart without points is empty.
pub(crate) fn time_per_unit(
    file: &str,
    title: &str,
    description: String,
    lines: &[Line],
    x: &LogX<'_>,
    empty: &str,
) -> Result<Chart, ChartError> {
    let height = (120 + 18 * lines.len() as u32).max(420);
    render_svg(file, title, description, (1180, height), |area| {
        let points = || lines.iter().flat_map(|l| l.points.iter());
        let verticals = x.verticals.iter().map(|v| v.0);
        let xs = log_bounds(points().map(|p| p.0).chain(verticals), x.pad);
        let ys = log_bounds(points().map(|p| p.1), 1.3);
        let (Some((x0, x1)), Some((y0, y1))) = (xs, ys) else {
            return draw_empty(area, title, empty);
        };
        draw_lines(
            area,
            &Lines {
                caption: title,
                x_desc: x.desc,
                y_desc: "ns per work unit (log scale, lower is better)",
                lines,
                verticals: x.verticals,
                x_label: x.label,
                y_label: |v| format::significant(v, 2),
            },
            (x0..x1).log_scale(),
            (y0..y1).log_scale(),
            (y0, y1),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, line, uses};

    #[test]
    fn one_line_per_design_with_legend() {
        let lines = vec![
            line(0, "holey", &[(1e3, 2.0), (65536.0, 2.5), (1e6, 9.0)]),
            line(3, "slotmap", &[(1e3, 3.0), (65536.0, 3.1), (1e6, 12.0)]),
        ];
        let chart = build("s.svg", "lookup", &lines).unwrap();
        for l in &lines {
            assert!(uses(&chart.svg, &l.style) >= 4, "line + 3 markers + legend");
            assert!(has_text(&chart.svg, &l.style.name), "legend names");
        }
        assert!(chart.svg.matches("<polyline").count() >= 2);
    }

    #[test]
    fn empty_input_says_so() {
        let chart = build("s.svg", "lookup", &[]).unwrap();
        assert!(chart.svg.contains("no timed benchmark"));
    }
}
