//! Heap bytes per item (a tag, a relation record) a design holds after the setup, for one
//! workload at one N: horizontal bars, smallest at the top. The figure is the design's own
//! accounting divided by the items it then holds, so it includes headers, spare capacity, slack,
//! links and hash tables. Families whose metrics carry such a figure share this chart.

use super::draw::{Best, HBars, draw_hbars};
use super::throughput::bar_chart_height;
use super::{Bar, Chart, ChartError, render_svg};
use crate::format;

/// Builds the chart; `item` names what the bytes are divided by (`"tag"`, `"record"`).
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, item: &str, bars: &[Bar]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: heap bytes each design holds per {item} after the setup (its own accounting \
         divided by the {item}s held), smallest at the top."
    );
    let x_desc = format!("heap bytes per {item} (lower is better)");
    render_svg(
        file,
        title,
        description,
        (620, bar_chart_height(bars.len())),
        |area| {
            draw_hbars(
                area,
                &HBars {
                    caption: title,
                    x_desc: &x_desc,
                    bars,
                    references: &[],
                    best: Best::Lowest,
                    value_label: |b| format!("{} B", format::significant(b, 3)),
                    fixed_max: None,
                },
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{has_text, style, uses};

    #[test]
    fn one_labelled_bar_per_design_smallest_first() {
        let bars = vec![
            Bar {
                style: style(0, "vec_of_vecs"),
                value: Some(26.5),
                note: None,
            },
            Bar {
                style: style(1, "fixed"),
                value: Some(8.0),
                note: None,
            },
        ];
        let chart = build("t.svg", "tags-build", "tag", &bars).unwrap();
        assert!(has_text(&chart.svg, "8.00 B") && has_text(&chart.svg, "26.5 B"));
        assert!(uses(&chart.svg, &bars[0].style) >= 1 && uses(&chart.svg, &bars[1].style) >= 1);
        // Smallest at the top: its bar has the smaller y.
        let bar_y = |style: &crate::charts::SeriesStyle| {
            let fill = format!("fill=\"{}\"", style.colour.hex().to_uppercase());
            let rect = chart
                .svg
                .lines()
                .find(|l| l.starts_with("<rect") && l.contains(&fill))
                .expect("a bar");
            let y = &rect[rect.find(" y=\"").unwrap() + 4..];
            y[..y.find('"').unwrap()].parse::<f64>().unwrap()
        };
        assert!(bar_y(&bars[1].style) < bar_y(&bars[0].style));
        assert!(chart.description.contains("per tag"));
    }
}
