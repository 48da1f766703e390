//! How much of its arena a block allocator puts to use on one workload at one N: three small
//! multiples on the same 0..1 axis, one bar per design in each, highest at the top:
//! utilization at the moment of peak requested bytes, mean utilization over the trace, and the
//! live fraction when a seeded allocation stream from the trace's size mix first failed.

use super::draw::{Best, HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, SeriesStyle, render_svg};
use crate::format;

/// One design's space fractions, each in 0..1.
#[derive(Debug, Clone, PartialEq)]
pub struct UtilizationRow {
    /// The design.
    pub style: SeriesStyle,
    /// Requested live bytes over reserved bytes at the peak of requested bytes.
    pub at_peak: f64,
    /// Mean over ops of requested live bytes over reserved bytes.
    pub mean: f64,
    /// Requested live bytes over the arena at the first failed allocation; `None` when not
    /// measured.
    pub live_at_first_failure: Option<f64>,
}

/// The panels: caption and which number of a row each draws.
type Panel = (&'static str, fn(&UtilizationRow) -> Option<f64>);

const PANELS: [Panel; 3] = [
    ("utilization at peak", |r| Some(r.at_peak)),
    ("mean utilization", |r| Some(r.mean)),
    ("live fraction at first failure", |r| {
        r.live_at_first_failure
    }),
];

/// Builds the chart.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, rows: &[UtilizationRow]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: three panels on the same 0 to 1 scale, highest at the top in each: \
         requested bytes over reserved bytes at the peak of requested bytes, the same ratio \
         averaged over the trace's ops, and the requested bytes live over the arena when an \
         allocation stream from the trace's size mix first failed (1 = the whole arena used)."
    );
    let panel_height = bar_chart_height(rows.len());
    render_svg(file, title, description, (620, 3 * panel_height), |area| {
        for (panel, (caption, value)) in area
            .split_evenly((PANELS.len(), 1))
            .iter()
            .zip(PANELS.iter())
        {
            let bars: Vec<Bar> = rows
                .iter()
                .map(|r| Bar {
                    style: r.style.clone(),
                    value: value(r),
                    note: Some("not measured".to_string()),
                })
                .collect();
            let caption = format!("{title}: {caption}");
            draw_hbars(
                panel,
                &HBars {
                    caption: &caption,
                    x_desc: "fraction (higher is better)",
                    bars: &bars,
                    references: &[],
                    best: Best::Highest,
                    value_label: |v| format::significant(v, 3),
                    fixed_max: Some(1.0),
                },
            )?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, style, uses};

    #[test]
    fn three_panels_on_a_unit_axis_with_every_design() {
        let rows = vec![
            UtilizationRow {
                style: style(0, "buddy"),
                at_peak: 0.75,
                mean: 0.625,
                live_at_first_failure: Some(0.5),
            },
            UtilizationRow {
                style: style(1, "rlsf"),
                at_peak: 0.96,
                mean: 0.9,
                live_at_first_failure: None,
            },
        ];
        let chart = build("u.svg", "alloc-random-mix, N = 64", &rows).unwrap();
        for caption in [
            "utilization at peak",
            "mean utilization",
            "live fraction at first failure",
        ] {
            assert!(
                chart
                    .svg
                    .contains(&format!("alloc-random-mix, N = 64: {caption}")),
                "{caption}"
            );
        }
        for label in ["0.750", "0.625", "0.500", "0.960", "0.900"] {
            assert!(has_text(&chart.svg, label), "{label}");
        }
        assert!(has_text(&chart.svg, "not measured"), "rlsf's missing value");
        // Every panel's axis ends at 1 and has no tick beyond it.
        assert_eq!(chart.svg.matches("\n1.00\n").count(), 3, "{}", chart.svg);
        assert!(!has_text(&chart.svg, "1.20"));
        assert!(uses(&chart.svg, &rows[0].style) >= 3, "a bar in each panel");
        assert!(uses(&chart.svg, &rows[1].style) >= 2);
    }
}
