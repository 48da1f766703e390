//! Global-allocator calls (alloc, realloc, dealloc) per work unit for one workload at one N,
//! as the counting allocator of `dodbench memory` saw them during the body: horizontal bars,
//! fewest at the top. A design that allocates per insert, or reallocates while growing, shows
//! here even when its time hides it.

use results::Direction;

use super::per_unit::{self, PerUnit};
use super::{Bar, Chart, ChartError};

/// Builds the chart.
///
/// # Errors
/// plotters failed to draw.
pub fn build(file: &str, title: &str, bars: &[Bar]) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: calls into the global allocator (alloc, realloc, dealloc) per work unit of \
         the body, counted by dodbench memory, fewest at the top; 0 means the body never \
         allocated."
    );
    let spec = PerUnit {
        title,
        x_desc: "allocator calls per work unit (lower is better)",
        better: Direction::Lower,
        value_label: per_unit::plain_label,
    };
    per_unit::build(file, spec, description, bars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{bar, uses};

    #[test]
    fn one_bar_per_design_with_its_count() {
        let bars = vec![bar(0, "holey", Some(0.0)), bar(2, "slotmap", Some(0.0125))];
        let chart = build("a.svg", "fill", &bars).unwrap();
        assert!(chart.svg.contains("0.0125"), "{}", chart.svg);
        assert!(uses(&chart.svg, &bars[1].style) >= 1);
        assert!(chart.description.contains("allocator"));
    }
}
