//! Heap bytes per item (a tag, a relation record) a design holds after the setup, for one
//! workload at one N: horizontal bars, smallest at the top. The figure is the design's own
//! accounting divided by the items it then holds, so it includes headers, spare capacity, slack,
//! links and hash tables. Families whose metrics carry such a figure share this chart.

use super::per_unit::{self, PerUnit};
use super::{Bar, Chart, ChartError};

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
    per_unit::build(
        file,
        PerUnit {
            title,
            x_desc: &x_desc,
            value_label: per_unit::bytes_label,
        },
        description,
        bars,
    )
}
