//! Simulated cache misses per work unit for one workload at one N (callgrind's deterministic
//! cache model, the same on every machine): two panels of horizontal bars, L1 data misses and
//! last-level misses, fewest at the top.

use super::draw::{Best, HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, SeriesStyle, render_svg};
use crate::format;

/// One design's simulated misses per work unit.
#[derive(Debug, Clone, PartialEq)]
pub struct MissRow {
    /// The design.
    pub style: SeriesStyle,
    /// L1 data-cache misses (reads + writes) per work unit.
    pub d1_per_op: f64,
    /// Last-level misses (reads + writes) per work unit.
    pub ll_per_op: f64,
}

/// Builds the chart; `config` names the simulated hierarchy (e.g. `D1 32768,8,64 LL ...`).
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, config: &str, rows: &[MissRow]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: simulated L1 data misses (left) and last-level misses (right) per work unit \
         for each design, fewest at the top; simulated hierarchy {config}."
    );
    let bars = |f: fn(&MissRow) -> f64| -> Vec<Bar> {
        rows.iter()
            .map(|r| Bar {
                style: r.style.clone(),
                value: Some(f(r)),
                note: None,
            })
            .collect()
    };
    let (d1, ll) = (bars(|r| r.d1_per_op), bars(|r| r.ll_per_op));
    render_svg(
        file,
        title,
        description,
        (1180, bar_chart_height(rows.len())),
        |area| {
            let (left, right) = area.split_horizontally(590);
            let label = |v: f64| format::significant(v, 3);
            draw_hbars(
                &left,
                &HBars {
                    caption: "D1 misses per work unit",
                    x_desc: "simulated L1d misses per work unit (lower is better)",
                    bars: &d1,
                    references: &[],
                    best: Best::Lowest,
                    value_label: label,
                    fixed_max: None,
                },
            )?;
            draw_hbars(
                &right,
                &HBars {
                    caption: "LL misses per work unit",
                    x_desc: "simulated last-level misses per work unit (lower is better)",
                    bars: &ll,
                    references: &[],
                    best: Best::Lowest,
                    value_label: label,
                    fixed_max: None,
                },
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{style, uses};

    #[test]
    fn both_panels_show_every_design() {
        let rows = vec![
            MissRow {
                style: style(0, "holey"),
                d1_per_op: 0.25,
                ll_per_op: 0.01,
            },
            MissRow {
                style: style(1, "map-hash"),
                d1_per_op: 1.5,
                ll_per_op: 0.4,
            },
        ];
        let chart = build("c.svg", "lookup", "D1 32768,8,64", &rows).unwrap();
        assert!(uses(&chart.svg, &rows[0].style) >= 2, "a bar in each panel");
        assert!(uses(&chart.svg, &rows[1].style) >= 2);
        assert!(chart.svg.contains("0.250") && chart.svg.contains("0.400"));
        assert!(chart.description.contains("D1 32768,8,64"));
    }
}
