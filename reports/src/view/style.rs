//! A design's identity in every chart and table: its colour and marker (from its index in
//! `results.designs`) and its kind.

use results::Family;
use results::{Benchmark, Results};

use super::reference::{REFERENCE_KIND, is_reference};
use crate::charts::SeriesStyle;
use crate::palette::{design_colour, design_marker};

/// Style of the design `name` in `family`: its index in `results.designs` fixes colour and
/// marker; designs missing from that list come after it in order of first appearance.
pub(super) fn style_of(results: &Results, family: Family, name: &str) -> SeriesStyle {
    let index = design_index(results, family, name);
    SeriesStyle {
        name: name.to_string(),
        colour: design_colour(index),
        marker: design_marker(index),
        reference: false,
    }
}

/// The palette index behind [`style_of`].
pub(super) fn design_index(results: &Results, family: Family, name: &str) -> usize {
    results
        .designs
        .iter()
        .position(|d| d.family == family && d.name == name)
        .unwrap_or_else(|| {
            let mut extra: Vec<&str> = Vec::new();
            for b in &results.benchmarks {
                let known = results
                    .designs
                    .iter()
                    .any(|d| d.family == b.family && d.name == b.design);
                if !known && !is_reference(b) && !extra.contains(&b.design.as_str()) {
                    extra.push(&b.design);
                }
            }
            results.designs.len() + extra.iter().position(|&d| d == name).unwrap_or(0)
        })
}

/// `article`, `tuned`, `peer` (from `results.designs`), `reference` or `unknown`.
pub(super) fn kind_of(results: &Results, b: &Benchmark) -> String {
    if is_reference(b) {
        return REFERENCE_KIND.to_string();
    }
    results
        .design_record(b)
        .map_or_else(|| "unknown".to_string(), |d| d.kind.clone())
}
