//! Chart builders, one per module. Each takes plain rows (design style + numbers) rather than
//! `Results`, so it can be tested on hand-made data, and returns a [`Chart`]: the SVG text plus
//! the file name, title and a text description for the page.
//!
//! Every chart draws with plotters' SVG backend (text needs no fonts at build time), names
//! each design on an axis or in a legend (colour is never the only encoding), and labels both
//! axes with units.

pub mod allocator;
pub mod grouped_bars;
pub mod latency;
pub mod memory;
pub mod memory_over_time;
pub mod per_unit;
pub mod percentiles;
pub mod scaling;
pub mod series;
pub mod sim_misses;
pub mod throughput;
pub mod trend;
pub mod working_set;

mod draw;

use serde::Serialize;

use crate::palette::{Colour, Marker};

/// One rendered chart.
#[derive(Debug, Clone, Serialize)]
pub struct Chart {
    /// File name under `charts/` (only `[a-z0-9_.-]`).
    pub file: String,
    /// Heading shown above the chart.
    pub title: String,
    /// What the chart shows, as text (the image's `alt` and the caption).
    pub description: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The SVG document.
    #[serde(skip)]
    pub svg: String,
}

/// How a design (or a reference loop) is drawn: its name, colour and marker.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesStyle {
    /// Name shown on axes and in legends.
    pub name: String,
    /// Fill and line colour.
    pub colour: Colour,
    /// Marker for points.
    pub marker: Marker,
    /// Reference loops are drawn dashed and never ranked.
    pub reference: bool,
}

/// A horizontal bar per design: a value, or the reason it has none.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The design.
    pub style: SeriesStyle,
    /// The value; `None` when the design was not measured.
    pub value: Option<f64>,
    /// Shown instead of a bar when `value` is `None`, e.g. `unsupported: fixed capacity`.
    pub note: Option<String>,
}

/// A reference value drawn as a dashed vertical line across a bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceLine {
    /// Label, e.g. `ref-vec`.
    pub name: String,
    /// Position on the value axis.
    pub value: f64,
}

/// A polyline of one design through `(x, y)` points.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The design.
    pub style: SeriesStyle,
    /// Points in x order.
    pub points: Vec<(f64, f64)>,
}

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("chart {file}: {message}")]
pub struct ChartError {
    /// The chart's file name.
    pub file: String,
    /// plotters' message.
    pub message: String,
}

/// Draws into an SVG string of the given size and wraps it as a [`Chart`].
pub(crate) fn render_svg(
    file: &str,
    title: &str,
    description: String,
    (width, height): (u32, u32),
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<plotters::backend::SVGBackend<'_>, plotters::coord::Shift>,
    ) -> Result<(), String>,
) -> Result<Chart, ChartError> {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let result = root
            .fill(&WHITE)
            .map_err(|e| e.to_string())
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(|e| e.to_string()));
        result.map_err(|message| ChartError {
            file: file.to_string(),
            message,
        })?;
    }
    Ok(Chart {
        file: file.to_string(),
        title: title.to_string(),
        description,
        width,
        height,
        svg,
    })
}

#[cfg(test)]
pub(crate) mod test_support {
    use super::{Bar, Line, SeriesStyle};
    use crate::palette::{design_colour, design_marker};

    /// The style of design `i` named `name`.
    pub fn style(i: usize, name: &str) -> SeriesStyle {
        SeriesStyle {
            name: name.to_string(),
            colour: design_colour(i),
            marker: design_marker(i),
            reference: false,
        }
    }

    /// The bar of design `i` named `name` at `value`, without a note.
    pub fn bar(i: usize, name: &str, value: Option<f64>) -> Bar {
        Bar {
            style: style(i, name),
            value,
            note: None,
        }
    }

    /// The line of design `i` named `name` through `points`.
    pub fn line(i: usize, name: &str, points: &[(f64, f64)]) -> Line {
        Line {
            style: style(i, name),
            points: points.to_vec(),
        }
    }

    /// Whether `svg` has a text element reading exactly `text` (plotters writes text on its
    /// own line).
    pub fn has_text(svg: &str, text: &str) -> bool {
        svg.contains(&format!("\n{text}\n"))
    }

    /// How many times `colour` fills or strokes something in `svg`.
    pub fn uses(svg: &str, colour: &SeriesStyle) -> usize {
        svg.matches(&colour.colour.hex().to_uppercase()).count()
    }
}
