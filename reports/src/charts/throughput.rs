//! Throughput per design for one workload at one N: horizontal bars of work units per second,
//! fastest at the top. Designs that were not timed (failed verification, unsupported) get a row
//! with the reason instead of a bar, so a wrong or inapplicable design can never look fast.
//! Reference loops are dashed vertical lines.

use super::draw::{Best, HBars, draw_hbars};
use super::{Bar, Chart, ChartError, ReferenceLine, render_svg};
use crate::format;

/// Pixel height of a bar chart with `rows` rows (shared by the bar charts of a page so they
/// line up).
pub fn bar_chart_height(rows: usize) -> u32 {
    90 + 24 * rows.max(1) as u32
}

/// Builds the chart.
///
/// # Errors
/// plotters failed to draw (a bug; the message names the chart).
pub fn build(
    file: &str,
    title: &str,
    bars: &[Bar],
    references: &[ReferenceLine],
) -> Result<Chart, ChartError> {
    let rows = bars.len() + usize::from(!references.is_empty());
    let description = format!(
        "{title}: work units per second of each design, fastest at the top; designs that were \
         not timed show the reason instead of a bar{}.",
        if references.is_empty() {
            ""
        } else {
            "; dashed lines are reference loops, and for a memory-bound body the machine's \
             limit (each named on its line)"
        }
    );
    render_svg(
        file,
        title,
        description,
        (620, bar_chart_height(rows)),
        |area| {
            draw_hbars(
                area,
                &HBars {
                    caption: title,
                    x_desc: "work units per second (higher is better)",
                    bars,
                    references,
                    best: Best::Highest,
                    value_label: format::si,
                    fixed_max: None,
                },
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{bar, style, uses};

    #[test]
    fn draws_a_bar_per_timed_design_and_the_reason_for_the_others() {
        let bars = vec![
            bar(0, "slow", Some(1e6)),
            bar(1, "fast", Some(4e8)),
            Bar {
                style: style(2, "broken <b>"),
                value: None,
                note: Some("failed: digest differs".into()),
            },
        ];
        let refs = vec![ReferenceLine {
            name: "ref-vec".into(),
            value: 5e8,
        }];
        let chart = build("t.svg", "churn, N = 1000", &bars, &refs).unwrap();
        assert!(chart.svg.starts_with("<svg"), "{}", &chart.svg[..80]);
        assert!(uses(&chart.svg, &bars[0].style) >= 1);
        assert!(uses(&chart.svg, &bars[1].style) >= 1);
        assert_eq!(uses(&chart.svg, &bars[2].style), 0, "untimed: no bar");
        assert!(chart.svg.contains("failed: digest differs"));
        assert!(chart.svg.contains("broken &lt;b&gt;"), "names are escaped");
        assert!(chart.svg.contains("400.0 M"), "value labels");
        assert!(chart.svg.contains("ref-vec 500.0 M"));
        let order: Vec<&str> =
            crate::charts::draw::sorted_bars(&bars, crate::charts::draw::Best::Highest)
                .iter()
                .map(|b| b.style.name.as_str())
                .collect();
        assert_eq!(order, ["fast", "slow", "broken <b>"]);
        assert!(chart.description.contains("reference loops"));
    }

    #[test]
    fn survives_nothing_measured() {
        let bars = vec![Bar {
            style: style(0, "only"),
            value: None,
            note: Some("unsupported: capacity".into()),
        }];
        let chart = build("t.svg", "t", &bars, &[]).unwrap();
        assert!(chart.svg.contains("unsupported: capacity"));
    }
}
