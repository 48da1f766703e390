//! A design's time over another design's of the same cell (family, workload, N) on the same
//! machine: the one rule behind every "× best" and "× reference" number and every "fastest"
//! verdict of the report.
//!
//! When the two were timed in the same interleaved rounds (the same `rounds.session`), the
//! ratio is the one the run stored, `rounds.to_best` or `rounds.to_reference`: the median of
//! the per-round ratios with its 95% interval. Otherwise (runs timed by criterion, or designs
//! of different sessions after a filtered run was merged into an older file) it is the ratio of
//! their medians, as before rounds existed. A stored ratio is used only when it is against the
//! very benchmark the view compares with (same session, same design), so a stale one is never
//! shown. A design whose paired interval to the best holds 1 cannot be told apart from the best
//! (the rule of `results::Gap::decided`) and is marked [`TIED`].

use results::stats::CONFIDENCE;
use results::{Benchmark, Gap, PairedRatio, Rounds};

use super::status::median;
use crate::format;

/// Marks a design that cannot be told apart from the best of its cell.
pub(super) const TIED: &str = "≈";

/// The sentence that explains [`TIED`] under a map or table showing it.
pub(super) fn tied_note() -> String {
    format!(
        "{TIED}: within the {:.0}% interval of the best; not ranked apart (paired ratio over \
         interleaved rounds).",
        CONFIDENCE * 100.0
    )
}

/// The fastest of `benchmarks`, the winner [`results::rank`] names (by the ratios round by
/// round of the designs timed in the same rounds); `None` when none has a time.
pub(super) fn fastest<'b>(benchmarks: &[&'b Benchmark]) -> Option<&'b Benchmark> {
    results::rank(benchmarks).map(|r| r.winner())
}

/// A design's time over another's.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ratio<'a> {
    /// The design is the one compared with (`1.00×`).
    Itself,
    /// From the rounds the two shared.
    Paired(&'a PairedRatio),
    /// The ratio of their medians: they shared no rounds.
    Medians(f64),
}

impl Ratio<'_> {
    /// The number: the median of the per-round ratios, else the ratio of medians.
    pub(super) fn value(&self) -> f64 {
        match self {
            Ratio::Itself => 1.0,
            Ratio::Paired(p) => p.ratio.median,
            Ratio::Medians(r) => *r,
        }
    }

    /// Whether the two cannot be told apart: by the rule `results::rank` applies to a winner
    /// and its runner-up ([`Gap::decided`] is `Some(false)`: the paired interval holds 1), so
    /// the heat map, the tables and the "which design" verdict agree. Never for the design
    /// itself or without shared rounds.
    pub(super) fn tied(&self) -> bool {
        match self {
            Ratio::Paired(p) => {
                let gap = Gap {
                    ratio: p.ratio.median,
                    paired: Some((*p).clone()),
                };
                gap.decided() == Some(false)
            }
            _ => false,
        }
    }

    /// A table cell: `1.25×`, or `1.02× ≈` when [`Self::tied`].
    pub(super) fn cell(&self) -> String {
        if self.tied() {
            format!("{} {TIED}", format::ratio(self.value()))
        } else {
            format::ratio(self.value())
        }
    }

    /// The ratio in words against `other` (`the best`): `1.12× [1.08, 1.15] the best over 30
    /// rounds in 3 instances, faster than the best in 3% of rounds` when paired, else `1.12×
    /// the best`.
    pub(super) fn describe(&self, other: &str) -> String {
        match self {
            Ratio::Paired(p) => format!(
                "{:.2}× [{:.2}, {:.2}] {other} over {}, faster than {other} in {:.0}% of \
                 rounds",
                p.ratio.median,
                p.ratio.lower,
                p.ratio.upper,
                p.rounds_in_words(),
                p.faster_in * 100.0
            ),
            _ => format!("{} {other}", format::ratio(self.value())),
        }
    }
}

/// `b` over `best`, the fastest design of its cell on its machine (see [`fastest`]); `None`
/// when either has no time.
pub(super) fn to_best<'a>(b: &'a Benchmark, best: &Benchmark) -> Option<Ratio<'a>> {
    versus(b, best, |r| r.to_best.as_ref())
}

/// `b` over `reference`, its family's reference design in its cell on its machine; `None` when
/// either has no time.
pub(super) fn to_reference<'a>(b: &'a Benchmark, reference: &Benchmark) -> Option<Ratio<'a>> {
    versus(b, reference, |r| r.to_reference.as_ref())
}

/// `b` over `other`: the paired ratio `stored` reads from `b`'s rounds when it is against
/// `other` in the same session, else the ratio of medians.
fn versus<'a>(
    b: &'a Benchmark,
    other: &Benchmark,
    stored: fn(&Rounds) -> Option<&PairedRatio>,
) -> Option<Ratio<'a>> {
    let (mine, theirs) = (median(b)?, median(other)?);
    if std::ptr::eq(b, other) {
        return Some(Ratio::Itself);
    }
    let paired = match (&b.rounds, &other.rounds) {
        (Some(r), Some(o)) if r.session == o.session => {
            stored(r).filter(|p| p.against == other.design)
        }
        _ => None,
    };
    Some(paired.map_or(Ratio::Medians(mine / theirs), Ratio::Paired))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::test_runs::{ROUNDS, TIE, criterion_timed, interleaved};

    #[test]
    fn a_stored_paired_ratio_is_used_only_against_its_own_session_and_design() {
        let run = interleaved(&[("a", &ROUNDS), ("b", &TIE)], 1);
        let (a, b) = (&run.benchmarks[0], &run.benchmarks[1]);
        assert!(matches!(to_best(a, a), Some(Ratio::Itself)));
        let r = to_best(b, a).unwrap();
        assert!(matches!(r, Ratio::Paired(_)) && r.tied(), "{r:?}");
        assert!(r.cell().ends_with(" ≈"), "{}", r.cell());
        assert!(
            r.describe("the best")
                .contains(" the best over 10 rounds, faster than the best in 50% of rounds"),
            "{}",
            r.describe("the best")
        );
        // The same design timed in another session: medians only.
        let other = interleaved(&[("a", &ROUNDS)], 2);
        let r = to_best(b, &other.benchmarks[0]).unwrap();
        assert!(matches!(r, Ratio::Medians(_)) && !r.tied());
        // Criterion-timed: medians, no mark.
        let run = criterion_timed(&[("a", 2.0), ("b", 2.5)]);
        let r = to_best(&run.benchmarks[1], &run.benchmarks[0]).unwrap();
        assert_eq!(
            (r.cell(), r.describe("the best")),
            ("1.25×".into(), "1.25× the best".into())
        );
    }
}
