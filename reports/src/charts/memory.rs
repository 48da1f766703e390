//! Bytes the design holds per live object, for one workload at one N: horizontal bars,
//! smallest at the top. The figure is the design's own heap accounting after the setup
//! divided by the live objects, so it includes holes, free lists and index tables.

use results::Direction;

use super::per_unit::{self, PerUnit};
use super::{Bar, Chart, ChartError};
use crate::format;

/// Builds the chart.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, bars: &[Bar]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: heap bytes each design holds per live object after the setup, smallest at \
         the top (the 32-byte payload is included)."
    );
    let spec = PerUnit {
        title,
        x_desc: "bytes per live object (lower is better)",
        better: Direction::Lower,
        value_label: |b| format!("{} B", format::significant(b, 3)),
    };
    per_unit::build(file, spec, description, bars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{bar, uses};

    #[test]
    fn smallest_first_with_byte_labels() {
        let bars = vec![bar(0, "big", Some(96.0)), bar(1, "small", Some(40.0))];
        let chart = build("m.svg", "bytes", &bars).unwrap();
        assert!(chart.svg.contains("40.0 B") && chart.svg.contains("96.0 B"));
        assert!(uses(&chart.svg, &bars[0].style) >= 1 && uses(&chart.svg, &bars[1].style) >= 1);
    }
}
