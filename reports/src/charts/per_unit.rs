//! One figure per design as horizontal bars, the best at the top: the shape of every "space,
//! traffic or work per unit" chart of a family's own metrics (bytes per tag, allocator calls
//! per entity, points tested per query), whichever direction is better.

use results::Direction;

use super::draw::{HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, render_svg};
use crate::format;

/// What a per-unit chart says besides its bars.
#[derive(Debug, Clone, Copy)]
pub struct PerUnit<'a> {
    /// Heading.
    pub title: &'a str,
    /// The x axis, with its unit and which direction is better.
    pub x_desc: &'a str,
    /// Which end is drawn at the top: the smallest value for [`Direction::Lower`], the largest
    /// for [`Direction::Higher`].
    pub better: Direction,
    /// Each bar's value label.
    pub value_label: fn(f64) -> String,
}

/// A value label of three significant digits.
pub fn plain_label(v: f64) -> String {
    format::significant(v, 3)
}

/// Builds the chart; `description` is the text alternative.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    spec: PerUnit<'_>,
    description: String,
    bars: &[Bar],
) -> Result<Chart, ChartError> {
    render_svg(
        file,
        spec.title,
        description,
        (620, bar_chart_height(bars.len())),
        |area| {
            draw_hbars(
                area,
                &HBars {
                    caption: spec.title,
                    x_desc: spec.x_desc,
                    bars,
                    references: &[],
                    best: spec.better.into(),
                    value_label: spec.value_label,
                    fixed_max: None,
                },
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, style};

    fn bar(i: usize, name: &str, value: f64) -> Bar {
        Bar {
            style: style(i, name),
            value: Some(value),
            note: None,
        }
    }

    /// The vertical position of the text `label` in `svg` (plotters writes `y="…"` before it).
    fn y_of(svg: &str, label: &str) -> f64 {
        let at = svg.find(&format!("\n{label}\n")).expect(label);
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let y = &tag[tag.find(" y=\"").unwrap() + 4..];
        y[..y.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn the_better_end_is_at_the_top_in_either_direction() {
        let bars = [bar(0, "small", 2.0), bar(1, "large", 8.0)];
        for (better, top) in [(Direction::Lower, "small"), (Direction::Higher, "large")] {
            let chart = build(
                "u.svg",
                PerUnit {
                    title: "t",
                    x_desc: "x",
                    better,
                    value_label: plain_label,
                },
                "d".to_string(),
                &bars,
            )
            .unwrap();
            assert!(has_text(&chart.svg, "2.00") && has_text(&chart.svg, "8.00"));
            let other = if top == "small" { "large" } else { "small" };
            assert!(
                y_of(&chart.svg, top) < y_of(&chart.svg, other),
                "{better:?}: {top} first"
            );
        }
    }
}
