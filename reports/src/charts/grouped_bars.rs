//! Several figures of a family drawn together per design (the allocator's arena use at peak,
//! on average and at the first failure): one panel per figure, stacked, one bar per design in
//! each, the best at the top of each. When every value is a fraction (0 to 1) the panels share
//! a 0..1 axis, so a bar's length reads the same in all of them; otherwise each panel is
//! scaled to its largest value.

use results::Direction;

use super::draw::{HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, render_svg};

/// One panel: a figure's bars with its caption and axis.
#[derive(Debug, Clone)]
pub struct Panel {
    /// Caption of the panel, e.g. `alloc-random-mix, N = 64: use at peak`.
    pub caption: String,
    /// The x axis, with which direction is better.
    pub x_desc: String,
    /// Which end is drawn at the top.
    pub better: Direction,
    /// Each bar's value label.
    pub value_label: fn(f64) -> String,
    /// One bar per design; a design without the figure has no value and a note instead.
    pub bars: Vec<Bar>,
}

/// Builds the chart; `description` is the text alternative.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    title: &str,
    mut description: String,
    panels: &[Panel],
) -> Result<Chart, ChartError> {
    let rows = panels.iter().map(|p| p.bars.len()).max().unwrap_or(0);
    let panel_height = bar_chart_height(rows);
    let fractions = panels
        .iter()
        .flat_map(|p| p.bars.iter().filter_map(|b| b.value))
        .all(|v| (0.0..=1.0).contains(&v));
    if fractions {
        description.push_str(" Every panel's axis runs from 0 to 1.");
    }
    let height = panel_height * panels.len().max(1) as u32;
    render_svg(file, title, description, (620, height), |area| {
        for (region, panel) in area
            .split_evenly((panels.len().max(1), 1))
            .iter()
            .zip(panels)
        {
            draw_hbars(
                region,
                &HBars {
                    caption: &panel.caption,
                    x_desc: &panel.x_desc,
                    bars: &panel.bars,
                    references: &[],
                    best: panel.better.into(),
                    value_label: panel.value_label,
                    fixed_max: fractions.then_some(1.0),
                },
            )?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::per_unit::plain_label;
    use crate::charts::test_support::{has_text, style, uses};

    fn panel(caption: &str, values: [Option<f64>; 2]) -> Panel {
        Panel {
            caption: format!("alloc-random-mix, N = 64: {caption}"),
            x_desc: format!("{caption} (higher is better)"),
            better: Direction::Higher,
            value_label: plain_label,
            bars: ["buddy", "rlsf"]
                .iter()
                .zip(values)
                .enumerate()
                .map(|(i, (name, value))| Bar {
                    style: style(i, name),
                    value,
                    note: Some("not measured".to_string()),
                })
                .collect(),
        }
    }

    #[test]
    fn one_panel_per_figure_on_a_unit_axis_for_fractions() {
        let panels = vec![
            panel("use at peak", [Some(0.75), Some(0.96)]),
            panel("mean use", [Some(0.625), Some(0.9)]),
            panel("live at first failure", [Some(0.5), None]),
        ];
        let chart = build("u.svg", "arena use", "d".to_string(), &panels).unwrap();
        for p in &panels {
            assert!(chart.svg.contains(&p.caption), "{}", p.caption);
        }
        for label in ["0.750", "0.625", "0.500", "0.960", "0.900"] {
            assert!(has_text(&chart.svg, label), "{label}");
        }
        assert!(has_text(&chart.svg, "not measured"), "rlsf's missing value");
        // Every panel's axis ends at 1 and has no tick beyond it.
        assert_eq!(chart.svg.matches("\n1.00\n").count(), 3, "{}", chart.svg);
        assert!(!has_text(&chart.svg, "1.20"));
        assert!(uses(&chart.svg, &panels[0].bars[0].style) >= 3);
        assert!(uses(&chart.svg, &panels[0].bars[1].style) >= 2);
        // Values beyond 1 scale each panel to its own largest value.
        let wide = build(
            "w.svg",
            "t",
            "d".to_string(),
            &[panel("bits", [Some(2.0), Some(96.0)])],
        )
        .unwrap();
        assert!(has_text(&wide.svg, "96.0") && !has_text(&wide.svg, "1.00"));
    }
}
