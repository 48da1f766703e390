//! Garbage left after each frame, one line per design: the component-manager family's test of
//! the article's GC claim ("the components will be quickly destroyed"). Fed by the
//! `garbage_per_frame` of `components` metrics (`comp-gc`, `comp-frame`, `comp-multi`);
//! designs that never leave garbage (destroy callback, full sweep, peers) are not drawn.

use super::draw::{Lines, draw_empty, draw_lines};
use super::{Chart, ChartError, Line, render_svg};
use crate::format;

/// Builds the chart from lines of `(frame, garbage after it)`.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, lines: &[Line]) -> Result<Chart, ChartError> {
    let points = || lines.iter().flat_map(|l| l.points.iter().copied());
    let x1 = points().map(|p| p.0).fold(0.0f64, f64::max);
    let y1 = points().map(|p| p.1).fold(0.0f64, f64::max);
    let description = format!(
        "{title}: instances of killed entities not yet destroyed, after each frame's \
         destruction step; one line per design that left any (the others left none)."
    );
    let height = (120 + 18 * lines.len() as u32).max(300);
    render_svg(file, title, description, (620, height), |area| {
        if x1 <= 0.0 || y1 <= 0.0 {
            return draw_empty(area, title, "no design left garbage");
        }
        let spec = Lines {
            caption: title,
            x_desc: "frame",
            y_desc: "garbage instances",
            lines,
            verticals: &[],
            x_label: format::si,
            y_label: format::si,
        };
        draw_lines(area, &spec, 0.0..x1 * 1.02, 0.0..y1 * 1.1, (0.0, y1 * 1.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{style, uses};

    #[test]
    fn draws_each_series_or_says_none_left_any() {
        let lines = vec![
            Line {
                style: style(0, "buffer_hash"),
                points: vec![(1.0, 40.0), (2.0, 60.0), (3.0, 55.0)],
            },
            Line {
                style: style(1, "buffer_vecmap"),
                points: vec![(1.0, 30.0), (2.0, 45.0), (3.0, 50.0)],
            },
        ];
        let chart = build("gc.svg", "comp-gc, N = 1000", &lines).unwrap();
        assert!(uses(&chart.svg, &lines[0].style) >= 2);
        assert!(uses(&chart.svg, &lines[1].style) >= 2);
        assert!(
            build("e.svg", "e", &[])
                .unwrap()
                .svg
                .contains("no design left garbage")
        );
    }
}
