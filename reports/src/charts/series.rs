//! A family metric that is a series per design (the garbage left after each frame): one line
//! per design over the series' positions 1, 2, …. Designs whose series is all zero are left
//! out by the caller and named in the description, so a flat line at zero never hides a
//! design's line.

use super::draw::{Lines, draw_empty, draw_lines};
use super::{Chart, ChartError, Line, render_svg};
use crate::format;

/// What a series chart says besides its lines.
#[derive(Debug, Clone, Copy)]
pub struct SeriesChart<'a> {
    /// Heading.
    pub title: &'a str,
    /// The x axis: [`X_DESC`] for a series over its positions, or the label of the series it
    /// is drawn against.
    pub x_desc: &'a str,
    /// The y axis: the metric, with which direction is better.
    pub y_desc: &'a str,
    /// Drawn instead of the axes when no line has a positive value.
    pub empty: &'a str,
}

/// The x axis: a value's position in its series.
pub const X_DESC: &str = "position in the series (1 = first)";

/// Builds the chart from lines of `(position, value)`; `description` is the text alternative.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    spec: SeriesChart<'_>,
    description: String,
    lines: &[Line],
) -> Result<Chart, ChartError> {
    let points = || lines.iter().flat_map(|l| l.points.iter().copied());
    let x1 = points().map(|p| p.0).fold(0.0f64, f64::max);
    let y1 = points().map(|p| p.1).fold(0.0f64, f64::max);
    let height = (120 + 18 * lines.len() as u32).max(300);
    render_svg(file, spec.title, description, (620, height), |area| {
        if x1 <= 0.0 || y1 <= 0.0 {
            return draw_empty(area, spec.title, spec.empty);
        }
        let chart = Lines {
            caption: spec.title,
            x_desc: spec.x_desc,
            y_desc: spec.y_desc,
            lines,
            verticals: &[],
            x_label: whole,
            y_label: format::si,
        };
        draw_lines(area, &chart, 0.0..x1 * 1.02, 0.0..y1 * 1.1, (0.0, y1 * 1.1))
    })
}

/// An x tick's label: positions and thread counts are whole numbers, so a tick between two of
/// them (plotters' 0.5) gets none instead of `0.5000`.
fn whole(x: f64) -> String {
    if x.is_finite() && (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round() as i64)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{line, uses};

    #[test]
    fn x_ticks_are_labelled_only_at_whole_numbers() {
        assert_eq!(whole(2.0), "2");
        assert_eq!(whole(0.0), "0");
        assert_eq!(whole(0.5), "");
        assert_eq!(whole(f64::NAN), "");
    }

    #[test]
    fn draws_each_series_or_says_none_has_a_value() {
        let lines = vec![
            line(0, "buffer_hash", &[(1.0, 40.0), (2.0, 60.0), (3.0, 55.0)]),
            line(1, "buffer_vecmap", &[(1.0, 30.0), (2.0, 45.0), (3.0, 50.0)]),
        ];
        let spec = SeriesChart {
            title: "comp-gc, N = 1000: garbage per frame",
            x_desc: X_DESC,
            y_desc: "garbage per frame (lower is better)",
            empty: "no design has a value other than zero",
        };
        let chart = build("gc.svg", spec, "d".to_string(), &lines).unwrap();
        assert!(uses(&chart.svg, &lines[0].style) >= 2);
        assert!(uses(&chart.svg, &lines[1].style) >= 2);
        assert!(chart.svg.contains("garbage per frame (lower is better)"));
        let empty = build("e.svg", spec, "d".to_string(), &[]).unwrap();
        assert!(empty.svg.contains("no design has a value other than zero"));
    }
}
