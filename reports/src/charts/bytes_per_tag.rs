//! Heap bytes per tag a tag store holds after the setup, for one workload at one N: horizontal
//! bars, smallest at the top. The figure is the design's own accounting divided by the tags it
//! then holds, so it includes per-entity headers, spare capacity, chunk slack and links.

use super::per_unit::{self, PerUnit};
use super::{Bar, Chart, ChartError};

/// Builds the chart.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, bars: &[Bar]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: heap bytes each tag store holds per tag after the setup (its own accounting \
         divided by the tags held), smallest at the top."
    );
    per_unit::build(
        file,
        PerUnit {
            title,
            x_desc: "heap bytes per tag (lower is better)",
            value_label: per_unit::bytes_label,
        },
        description,
        bars,
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
        let chart = build("t.svg", "tags-build", &bars).unwrap();
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
