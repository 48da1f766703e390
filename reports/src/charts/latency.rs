//! The spread of criterion's samples per design for one workload at one N, as box plots:
//! box = quartiles, bar in the box = median, whiskers = the furthest samples within 1.5 IQR,
//! hollow circles = samples beyond (the hitches an average hides). Each sample is the mean
//! ns per work unit over one batch of timed replays.

use plotters::coord::ranged1d::{AsRangedCoord, SegmentValue, ValueFormatter};
use plotters::prelude::*;

use super::draw::{Area, draw_empty, err, row_label_width, row_names, rows_chart, rows_mesh};
use super::{Chart, ChartError, SeriesStyle, render_svg};
use crate::format;

/// One design's samples.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// The design.
    pub style: SeriesStyle,
    /// ns per work unit, one per sample.
    pub samples: Vec<f64>,
}

/// Five-number summary with Tukey whiskers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxStats {
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Smallest sample ≥ q1 − 1.5 IQR.
    pub low_whisker: f64,
    /// Largest sample ≤ q3 + 1.5 IQR.
    pub high_whisker: f64,
}

/// Quantile `p` of sorted `xs` by linear interpolation.
fn quantile(xs: &[f64], p: f64) -> f64 {
    let pos = p * (xs.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    if i + 1 < xs.len() {
        xs[i] + (xs[i + 1] - xs[i]) * frac
    } else {
        xs[i]
    }
}

impl BoxStats {
    /// Summary of the finite values of `samples`; `None` when there are none.
    pub fn of(samples: &[f64]) -> Option<Self> {
        let mut xs: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
        if xs.is_empty() {
            return None;
        }
        xs.sort_by(f64::total_cmp);
        let (q1, median, q3) = (quantile(&xs, 0.25), quantile(&xs, 0.5), quantile(&xs, 0.75));
        let iqr = q3 - q1;
        let low_whisker = xs
            .iter()
            .copied()
            .find(|&v| v >= q1 - 1.5 * iqr)
            .unwrap_or(q1);
        let high_whisker = xs
            .iter()
            .rev()
            .copied()
            .find(|&v| v <= q3 + 1.5 * iqr)
            .unwrap_or(q3);
        Some(Self {
            q1,
            median,
            q3,
            low_whisker,
            high_whisker,
        })
    }
}

/// Builds the chart: designs with samples, fastest median at the top. A logarithmic axis is
/// used when the medians differ by more than 5×.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, rows: &[Distribution]) -> Result<Chart, ChartError> {
    let mut rows: Vec<(&Distribution, BoxStats)> = rows
        .iter()
        .filter_map(|d| BoxStats::of(&d.samples).map(|s| (d, s)))
        .collect();
    rows.sort_by(|a, b| a.1.median.total_cmp(&b.1.median));
    let description = format!(
        "{title}: spread of criterion's samples per design (box: quartiles, line: median, \
         whiskers: 1.5 IQR, circles: samples beyond); each sample is the mean ns per work unit \
         of one batch of replays. Fastest at the top."
    );
    let height = super::throughput::bar_chart_height(rows.len());
    render_svg(file, title, description, (620, height), |area| {
        let values = || rows.iter().flat_map(|(d, _)| d.samples.iter().copied());
        let lo = values()
            .filter(|v| v.is_finite())
            .fold(f64::INFINITY, f64::min);
        let hi = values().filter(|v| v.is_finite()).fold(0.0f64, f64::max);
        if rows.is_empty() || hi <= 0.0 {
            return draw_empty(area, title, "no samples recorded");
        }
        let medians = rows.iter().map(|r| r.1.median);
        let spread = medians.clone().fold(0.0f64, f64::max)
            / medians.fold(f64::INFINITY, f64::min).max(f64::MIN_POSITIVE);
        if hi * 1.3 > super::draw::AXIS_MAX {
            return draw_empty(area, title, "samples out of range");
        }
        if spread > 5.0 && lo > 0.0 {
            draw_boxes(area, title, &rows, (lo / 1.3..hi * 1.3).log_scale(), true)
        } else {
            draw_boxes(area, title, &rows, 0.0..hi * 1.1, false)
        }
    })
}

fn draw_boxes<XR>(
    area: &Area<'_>,
    title: &str,
    rows: &[(&Distribution, BoxStats)],
    x: XR,
    log: bool,
) -> Result<(), String>
where
    XR: AsRangedCoord<Value = f64>,
    XR::CoordDescType: ValueFormatter<f64>,
{
    let k = rows.len() as i32;
    let label_width = row_label_width(rows.iter().map(|(d, _)| d.style.name.as_str()));
    let name_at = row_names(k, |i| rows.get(i).map(|(d, _)| d.style.name.clone()));
    let mut chart = rows_chart(area, title, label_width, x, k)?;
    rows_mesh(&mut chart, k, &name_at)
        .x_labels(6)
        .x_label_formatter(&|v| format::significant(*v, 2))
        .x_desc(if log {
            "ns per work unit (log scale, lower is better)"
        } else {
            "ns per work unit (lower is better)"
        })
        .draw()
        .map_err(err)?;
    for (i, (d, s)) in rows.iter().enumerate() {
        let j = k - 1 - i as i32;
        let colour = d.style.colour.rgb();
        let mut body = Rectangle::new(
            [
                (s.q1, SegmentValue::Exact(j)),
                (s.q3, SegmentValue::Exact(j + 1)),
            ],
            colour.mix(0.35).filled(),
        );
        body.set_margin(4, 4, 0, 0);
        let mut outline = Rectangle::new(
            [
                (s.q1, SegmentValue::Exact(j)),
                (s.q3, SegmentValue::Exact(j + 1)),
            ],
            colour.stroke_width(1),
        );
        outline.set_margin(4, 4, 0, 0);
        chart.draw_series([body, outline]).map_err(err)?;
        let centre = SegmentValue::CenterOf(j);
        chart
            .draw_series([
                PathElement::new(
                    vec![(s.low_whisker, centre.clone()), (s.q1, centre.clone())],
                    colour.stroke_width(1),
                ),
                PathElement::new(
                    vec![(s.q3, centre.clone()), (s.high_whisker, centre.clone())],
                    colour.stroke_width(1),
                ),
                PathElement::new(
                    vec![
                        (s.median, SegmentValue::Exact(j)),
                        (s.median, SegmentValue::Exact(j + 1)),
                    ],
                    colour.stroke_width(3),
                ),
            ])
            .map_err(err)?;
        chart
            .draw_series(
                d.samples
                    .iter()
                    .filter(|&&v| v < s.low_whisker || v > s.high_whisker)
                    .map(|&v| Circle::new((v, centre.clone()), 3, colour.stroke_width(1))),
            )
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, style, uses};

    #[test]
    fn box_stats_use_tukey_whiskers() {
        let s = BoxStats::of(&[1.0, 2.0, 3.0, 4.0, 5.0, 100.0]).unwrap();
        assert_eq!(s.median, 3.5);
        assert_eq!(s.q1, 2.25);
        assert_eq!(s.q3, 4.75);
        assert_eq!(s.low_whisker, 1.0);
        assert_eq!(s.high_whisker, 5.0, "100 is an outlier");
        assert_eq!(BoxStats::of(&[]), None);
        assert_eq!(BoxStats::of(&[f64::NAN]), None);
    }

    #[test]
    fn one_box_per_design_with_samples() {
        let rows = vec![
            Distribution {
                style: style(0, "holey"),
                samples: vec![2.0, 2.1, 2.2, 2.1, 6.0],
            },
            Distribution {
                style: style(1, "packed"),
                samples: vec![3.0, 3.1, 3.3],
            },
            Distribution {
                style: style(2, "unsupported"),
                samples: vec![],
            },
        ];
        let chart = build("l.svg", "latency", &rows).unwrap();
        assert!(
            uses(&chart.svg, &rows[0].style) >= 5,
            "box, whiskers, median, outlier"
        );
        assert!(uses(&chart.svg, &rows[1].style) >= 4);
        assert_eq!(uses(&chart.svg, &rows[2].style), 0);
        assert!(has_text(&chart.svg, "holey") && !has_text(&chart.svg, "unsupported"));
    }
}
