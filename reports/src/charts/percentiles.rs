//! Per-op latency percentiles per design (p50, p99, p99.9, max) for one workload at one N, on
//! a logarithmic axis: one row per design, a marker per percentile joined by a line, so a
//! design with rare long hitches (a table doubling) shows a long tail. Fed by the `latency`
//! field of `dodbench latency`.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::draw::{draw_empty, err, label_style, log_bounds, row_names, rows_chart, rows_mesh};
use super::{Chart, ChartError, SeriesStyle, render_svg};
use crate::format;

/// One design's percentiles in ns per op.
#[derive(Debug, Clone, PartialEq)]
pub struct PercentileRow {
    /// The design.
    pub style: SeriesStyle,
    /// Median.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Slowest op.
    pub max: f64,
}

/// Builds the chart, rows sorted by p99 (best at the top); `method` (how the ops were timed:
/// batch size, clock overhead) ends the description.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    title: &str,
    method: &str,
    rows: &[PercentileRow],
) -> Result<Chart, ChartError> {
    let mut rows: Vec<&PercentileRow> = rows.iter().collect();
    rows.sort_by(|a, b| a.p99.total_cmp(&b.p99));
    let description = format!(
        "{title}: per-op latency percentiles per design on a logarithmic axis (circle p50, \
         triangle p99, square p99.9, cross max); best p99 at the top. {method}"
    );
    let height = super::throughput::bar_chart_height(rows.len()) + 20;
    render_svg(file, title, description, (620, height), |area| {
        let bounds = log_bounds(rows.iter().flat_map(|r| [r.p50, r.p99, r.p999, r.max]), 1.3);
        let Some((lo, hi)) = bounds else {
            return draw_empty(area, title, "no percentiles recorded");
        };
        // Room right of the slowest marker for its `p99 …` label.
        let hi = hi * 2.5;
        let k = rows.len() as i32;
        let name_at = row_names(k, |i| rows.get(i).map(|r| r.style.name.clone()));
        let mut chart = rows_chart(area, title, 150, (lo..hi).log_scale(), k)?;
        rows_mesh(&mut chart, k, &name_at)
            .x_label_formatter(&|v| format::significant(*v, 2))
            .x_desc("ns per op (log scale, lower is better)")
            .draw()
            .map_err(err)?;
        for (i, r) in rows.iter().enumerate() {
            let y = SegmentValue::CenterOf(k - 1 - i as i32);
            let colour = r.style.colour.rgb();
            let fill = colour.filled();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(r.p50, y.clone()), (r.max, y.clone())],
                    colour.stroke_width(1),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Circle::new((r.p50, y.clone()), 4, fill)))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(TriangleMarker::new(
                    (r.p99, y.clone()),
                    5,
                    fill,
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((r.p999, y.clone()))
                        + Rectangle::new([(-4, -4), (4, 4)], fill),
                ))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Cross::new(
                    (r.max, y.clone()),
                    4,
                    colour.stroke_width(2),
                )))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("p99 {}", format::significant(r.p99, 3)),
                    (r.max, y),
                    label_style().pos(Pos::new(HPos::Left, VPos::Bottom)),
                )))
                .map_err(err)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{style, uses};

    #[test]
    fn four_markers_per_design() {
        let rows = vec![PercentileRow {
            style: style(0, "holey"),
            p50: 2.0,
            p99: 8.0,
            p999: 40.0,
            max: 9000.0,
        }];
        let chart = build("p.svg", "churn", "Batches of 8 ops.", &rows).unwrap();
        assert!(uses(&chart.svg, &rows[0].style) >= 5, "line + 4 markers");
        assert!(chart.svg.contains("p99 8.00"));
        assert!(chart.description.ends_with("Batches of 8 ops."));
        assert!(
            build("e.svg", "e", "", &[])
                .unwrap()
                .svg
                .contains("no percentiles")
        );
    }
}
