//! The reference loops (`ref-vec`, `ref-holey-direct`): baselines in results under their own
//! family, shown as dashed lines and italic rows beside the designs of the same workload on
//! whichever family page has that workload, never ranked. The one place that names that family.

use results::{Benchmark, Family, Results};

use crate::charts::SeriesStyle;
use crate::palette;

/// Family name of the baseline loops (`ref-vec`, `ref-holey-direct`) in results: shown as
/// reference rows and lines beside the designs of the same workload, never ranked.
pub const REFERENCE_FAMILY: Family = Family::Reference;

/// The kind the rows, filters and templates give reference loops (designs are `article`,
/// `tuned` or `peer`).
pub(super) const REFERENCE_KIND: &str = "reference";

/// Whether `b` is a reference loop rather than a design of a family.
pub(super) fn is_reference(b: &Benchmark) -> bool {
    is_reference_family(b.family)
}

/// Whether `family` (of a benchmark, sweep point or history point) is the reference loops'.
pub(super) fn is_reference_family(family: Family) -> bool {
    family.is_reference()
}

/// The verified reference loops of `results` that mirror `design` (write its replay by hand,
/// for a peer: call its crate directly) and have an `overhead` (the design's replay ÷ the
/// loop, paired), with that overhead.
pub(super) fn loops_mirroring<'a>(
    results: &'a Results,
    design: &'a str,
) -> impl Iterator<Item = (&'a Benchmark, f64)> + 'a {
    results.benchmarks.iter().filter_map(move |b| {
        (is_reference(b) && b.verified && b.mirrors.as_deref() == Some(design))
            .then_some(b.overhead.filter(|o| o.is_finite())?)
            .map(|o| (b, o))
    })
}

/// The one style of every reference loop: grey, a cross, dashed.
pub(super) fn reference_style(name: &str) -> SeriesStyle {
    SeriesStyle {
        name: name.to_string(),
        colour: palette::REFERENCE,
        marker: palette::Marker::Cross,
        reference: true,
    }
}
