//! ns per work unit against the working set in bytes for one workload, on log-log axes, with
//! dashed vertical lines at the machine's L1d, L2 and L3 sizes: where a design's line bends
//! upward past a cache line, its data stopped fitting that level.
//!
//! The points come from the `sweeps` section of `dodbench sweep` when it covers the workload
//! (x = the design's heap bytes after the setup at each swept N); otherwise each point is one
//! benchmark (x = its `memory_bytes`).

use super::scaling::{LogX, time_per_unit};
use super::{Chart, ChartError, Line};
use crate::format;

/// A cache level to mark: its name (`L1d`) and size in bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheLevel {
    /// `L1d`, `L2`, `L3`.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// Builds the chart. Cache levels outside the data's range are still drawn (the x axis is
/// widened to include them) so the reader sees how far the data is from each level. `source`
/// (where the points come from: the sweep and its cap, or the benchmarks) ends the description.
///
/// # Errors
/// plotters failed to draw.
pub fn build(
    file: &str,
    title: &str,
    lines: &[Line],
    caches: &[CacheLevel],
    source: &str,
) -> Result<Chart, ChartError> {
    let description = format!(
        "{title}: nanoseconds per work unit against the bytes the design holds (its working \
         set), both axes logarithmic; dashed vertical lines mark this machine's cache sizes. \
         Lower is better. {source}"
    );
    let verticals: Vec<(f64, String)> = caches
        .iter()
        .map(|c| {
            (
                c.bytes as f64,
                format!("{} {}", c.name, format::bytes(c.bytes as f64)),
            )
        })
        .collect();
    let x = LogX {
        desc: "working set, bytes (log scale)",
        label: format::bytes,
        verticals: &verticals,
        pad: 1.4,
    };
    let empty = "no benchmark with a measured working set";
    time_per_unit(file, title, description, lines, &x, empty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::{line, uses};

    #[test]
    fn marks_each_cache_level() {
        let lines = vec![line(
            1,
            "packed",
            &[(40e3, 2.0), (2.6e6, 3.0), (40e6, 11.0)],
        )];
        let caches = vec![
            CacheLevel {
                name: "L1d".into(),
                bytes: 48 << 10,
            },
            CacheLevel {
                name: "L2".into(),
                bytes: 2 << 20,
            },
        ];
        let chart = build("w.svg", "churn", &lines, &caches, "Swept up to N = 4096.").unwrap();
        assert!(chart.svg.contains("L1d 48 KiB"), "{}", chart.svg);
        assert!(chart.svg.contains("L2 2 MiB"));
        assert!(chart.description.ends_with("Swept up to N = 4096."));
        assert!(uses(&chart.svg, &lines[0].style) >= 4);
    }
}
