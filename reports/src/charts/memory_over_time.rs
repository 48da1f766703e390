//! Heap bytes held against operations replayed, one line per design: shows growth steps
//! (a `Vec` doubling), memory never returned after removals, and the final footprint, next to
//! the throughput the design bought with it. Fed by `memory.series` of `dodbench memory`
//! (`fill` and `churn`). Half a page wide, to sit beside the bytes-per-object chart.

use super::draw::{Lines, draw_empty, draw_lines};
use super::{Chart, ChartError, Line, render_svg};
use crate::format;

/// Builds the chart from lines of `(ops replayed, bytes held)`.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, lines: &[Line]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: heap bytes each design holds (its own accounting) against the body operations \
         replayed so far; one line per design."
    );
    let height = (120 + 18 * lines.len() as u32).max(340);
    render_svg(file, title, description, (620, height), |area| {
        let points = || lines.iter().flat_map(|l| l.points.iter().copied());
        let x1 = points().map(|p| p.0).fold(0.0f64, f64::max);
        let y1 = points().map(|p| p.1).fold(0.0f64, f64::max);
        if x1 <= 0.0 || y1 <= 0.0 {
            return draw_empty(area, title, "no memory series");
        }
        draw_lines(
            area,
            &Lines {
                caption: title,
                x_desc: "operations replayed",
                y_desc: "heap bytes held",
                lines,
                verticals: &[],
                x_label: format::si,
                y_label: format::bytes,
            },
            0.0..x1 * 1.02,
            0.0..y1 * 1.1,
            (0.0, y1 * 1.1),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{style, uses};

    #[test]
    fn draws_each_series() {
        let lines = vec![
            Line {
                style: style(0, "holey"),
                points: vec![(0.0, 0.0), (1000.0, 4096.0), (2000.0, 8192.0)],
            },
            Line {
                style: style(1, "packed"),
                points: vec![(0.0, 0.0), (1000.0, 6000.0), (2000.0, 6000.0)],
            },
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
}
