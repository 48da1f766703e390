//! One workload across commits, from the history file (`dodbench history append`,
//! `dodbench compare --history FILE`): x is the run order (one tick per history entry,
//! labelled with its short commit hash and date), y is one metric per design at one size N,
//! one line per design. The view picks the metric (a deterministic count such as simulated
//! instructions per op when the history has it, else ns/op normalised by the reference design)
//! and the size (the largest N with that metric) and names both in the title and axis.

use plotters::prelude::*;

use super::draw::{MESH, caption_style, draw_empty, draw_legend, draw_markers, err, label_style};
use super::{Chart, ChartError, Line, SeriesStyle, render_svg};
use crate::format;

/// Builds the chart. `labels[i]` names history entry `i` (x = `i`); each line's points are
/// `(entry index, value)`. Lines without points are left out of the plot and the legend.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    title: &str,
    y_desc: &str,
    labels: &[String],
    lines: &[Line],
) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: {y_desc} for each history entry, in the order the entries were appended \
         (x: commit and date); one line per design."
    );
    let lines: Vec<&Line> = lines.iter().filter(|l| !l.points.is_empty()).collect();
    let height = (120 + 18 * lines.len() as u32).max(400);
    render_svg(file, title, description, (1180, height), |area| {
        let max = lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        if lines.is_empty() || labels.is_empty() || max <= 0.0 {
            return draw_empty(area, title, "no entry of the history has this workload");
        }
        let k = labels.len();
        let (plot, legend) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(170));
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, caption_style())
            .margin(8)
            .margin_right(16)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.5f64..(k as f64 - 0.5), 0f64..max * 1.15)
            .map_err(err)?;
        // Only whole x values are entries; at most ~8 labels fit, plotters thins the rest.
        let label_at = |x: &f64| {
            let i = x.round();
            if (x - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            labels.get(i as usize).cloned().unwrap_or_default()
        };
        chart
            .configure_mesh()
            .light_line_style(MESH)
            .bold_line_style(MESH)
            .x_labels(k.min(8))
            .y_labels(8)
            .x_label_formatter(&label_at)
            .y_label_formatter(&|v| format::significant(*v, 3))
            .x_desc("history entry (commit, date), oldest first")
            .y_desc(y_desc)
            .label_style(label_style())
            .axis_desc_style(label_style())
            .draw()
            .map_err(err)?;
        for line in &lines {
            chart
                .draw_series(LineSeries::new(
                    line.points.clone(),
                    line.style.colour.rgb().stroke_width(2),
                ))
                .map_err(err)?;
            draw_markers(&mut chart, &line.points, &line.style)?;
        }
        let entries: Vec<&SeriesStyle> = lines.iter().map(|l| &l.style).collect();
        draw_legend(&legend, &entries, true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, line, uses};

    #[test]
    fn one_line_per_design_with_entry_labels() {
        let labels = vec![
            "aaaaaaa 2024-01-01".to_string(),
            "bbbbbbb 2024-01-02".to_string(),
            "ccccccc 2024-01-03".to_string(),
        ];
        let lines = vec![
            line(0, "holey", &[(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)]),
            line(2, "slotmap", &[(0.0, 1.4), (2.0, 1.2)]),
            line(4, "gone", &[]),
        ];
        let chart = build("t.svg", "lookup", "ns/op ÷ holey's", &labels, &lines).unwrap();
        assert!(uses(&chart.svg, &lines[0].style) >= 4, "line + 3 markers");
        assert!(uses(&chart.svg, &lines[1].style) >= 3);
        assert_eq!(uses(&chart.svg, &lines[2].style), 0, "no points, no legend");
        assert!(has_text(&chart.svg, "holey") && has_text(&chart.svg, "slotmap"));
        assert!(chart.svg.contains("aaaaaaa 2024-01-01"));
        assert!(chart.svg.matches("<polyline").count() >= 2);
    }

    #[test]
    fn empty_input_says_so() {
        let chart = build("t.svg", "lookup", "instr/op", &[], &[]).unwrap();
        assert!(chart.svg.contains("no entry of the history"));
    }
}
