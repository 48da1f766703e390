//! One figure per design as horizontal bars, lowest at the top: the shape of every "space or
//! traffic per unit" chart (bytes per tag, bytes per entity, allocator calls per entity).

use super::draw::{Best, HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, render_svg};
use crate::format;

/// What a per-unit chart says besides its bars.
#[derive(Debug, Clone, Copy)]
pub struct PerUnit<'a> {
    /// Heading.
    pub title: &'a str,
    /// The x axis, with its unit and "(lower is better)".
    pub x_desc: &'a str,
    /// Each bar's value label.
    pub value_label: fn(f64) -> String,
}

/// A value label of three significant digits and `B`.
pub fn bytes_label(b: f64) -> String {
    format!("{} B", format::significant(b, 3))
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
                    best: Best::Lowest,
                    value_label: spec.value_label,
                    fixed_max: None,
                },
            )
        },
    )
}
