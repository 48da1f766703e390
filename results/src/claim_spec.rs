//! A claim as a constant: the borrowed mirrors of [`Claim`], [`Untested`], [`Quantity`],
//! [`Operand`] and [`Metric`] that a family declares its claims with
//! (`bench-harness`, `replay/<family>/claims.rs`: `const CLAIMS: &[ClaimSpec]`), so the claims
//! of an article read as a table of data rather than a function that builds one. Each converts
//! to the owned type a run records ([`Claim::from`]); the rule and the sizes are shared as
//! they are ([`Rule`], [`Sizes`]). The operands of the metrics most claims compare have
//! helpers ([`time`], [`instructions`], [`d1`], [`verified`], [`family`]), so a row names its
//! designs and workloads and little else.
//!
//! ```
//! use results::claim_spec::time;
//! use results::{Claim, ClaimSpec, QuantitySpec, Rule, Sizes};
//!
//! const CLAIMS: &[ClaimSpec] = &[ClaimSpec {
//!     id: "A3",
//!     source: "000 The ID Lookup Table",
//!     quote: "40 times faster",
//!     reading: "map-btree ÷ holey, time per op on article-mix, at least 10.",
//!     quantity: QuantitySpec::ratio(
//!         time("map-btree", "article-mix"),
//!         time("holey", "article-mix"),
//!     ),
//!     rule: Rule::AtLeast(10.0),
//!     sizes: Sizes::EVERY,
//!     by_construction: false,
//!     note: None,
//! }];
//!
//! let claims: Vec<Claim> = CLAIMS.iter().map(Claim::from).collect();
//! assert_eq!(claims[0].quantity.operands()[1].design, "holey");
//! ```

use crate::claim::{
    Across, Claim, Metric, MetricOf, Operand, Quantity, RatioAcross, Rule, Sizes, Untested,
};

/// A [`Claim`] with borrowed text: one row of a family's table of claims.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClaimSpec {
    /// The catalogue's ID, as [`Claim::id`].
    pub id: &'static str,
    /// The article, as [`Claim::source`].
    pub source: &'static str,
    /// The article's words, as [`Claim::quote`].
    pub quote: &'static str,
    /// How the quote is read as a test, as [`Claim::reading`].
    pub reading: &'static str,
    /// What is measured, as [`Claim::quantity`].
    pub quantity: QuantitySpec,
    /// What value of it confirms the claim, as [`Claim::rule`].
    pub rule: Rule,
    /// The live sizes the article's words are about, as [`Claim::sizes`].
    pub sizes: Sizes,
    /// The design was built to satisfy the rule, as [`Claim::by_construction`].
    pub by_construction: bool,
    /// Where the article's arithmetic or setup differs from what is measured, as
    /// [`Claim::note`].
    pub note: Option<&'static str>,
}

impl From<&ClaimSpec> for Claim {
    fn from(spec: &ClaimSpec) -> Self {
        Claim {
            id: spec.id.to_string(),
            source: spec.source.to_string(),
            quote: spec.quote.to_string(),
            reading: spec.reading.to_string(),
            quantity: spec.quantity.into(),
            rule: spec.rule,
            sizes: spec.sizes,
            by_construction: spec.by_construction,
            note: spec.note.map(str::to_string),
        }
    }
}

/// An [`Untested`] statement with borrowed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UntestedSpec {
    /// The catalogue's ID, as [`Untested::id`].
    pub id: &'static str,
    /// The article, as [`Untested::source`].
    pub source: &'static str,
    /// The article's words, as [`Untested::quote`].
    pub quote: &'static str,
    /// Why no claim tests them, as [`Untested::reason`].
    pub reason: &'static str,
}

impl From<&UntestedSpec> for Untested {
    fn from(spec: &UntestedSpec) -> Self {
        Untested {
            id: spec.id.to_string(),
            source: spec.source.to_string(),
            quote: spec.quote.to_string(),
            reason: spec.reason.to_string(),
        }
    }
}

/// A [`Quantity`] over [`OperandSpec`]s: one variant per variant of [`Quantity`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuantitySpec {
    /// [`Quantity::Value`]: one operand's value at each N.
    Value {
        /// The operand.
        of: OperandSpec,
    },
    /// [`Quantity::Ratio`]: `num ÷ den` at each N both were measured at.
    Ratio {
        /// Numerator.
        num: OperandSpec,
        /// Denominator.
        den: OperandSpec,
    },
    /// [`Quantity::Exponent`]: the exponent `k` of `value ≈ c·N^k`.
    Exponent {
        /// The operand.
        of: OperandSpec,
        /// Fit the body's total instead of the per-work-unit value.
        total: bool,
    },
    /// [`Quantity::ExponentAcross`]: the exponent `k` of `value ≈ c·x^k` across operands that
    /// differ in one parameter `x`.
    ExponentAcross {
        /// Each operand with its parameter value (positive).
        points: &'static [(OperandSpec, f64)],
    },
    /// [`Quantity::RatioAcross`]: `num ÷ den` at each parameter value `x` and N, and where the
    /// rule's outcome changes along `x`.
    RatioAcross {
        /// What `x` is, in words with its unit.
        param: &'static str,
        /// Each `(num, den, x)`, `x` ascending.
        points: &'static [(OperandSpec, OperandSpec, f64)],
    },
}

impl QuantitySpec {
    /// `num ÷ den`, as [`Quantity::ratio`].
    pub const fn ratio(num: OperandSpec, den: OperandSpec) -> Self {
        QuantitySpec::Ratio { num, den }
    }

    /// `of` at each N, as [`Quantity::value`].
    pub const fn value(of: OperandSpec) -> Self {
        QuantitySpec::Value { of }
    }

    /// The fitted exponent of the body's total of `of`, as [`Quantity::total_exponent`].
    pub const fn total_exponent(of: OperandSpec) -> Self {
        QuantitySpec::Exponent { of, total: true }
    }

    /// The fitted exponent of `of` per work unit, as [`Quantity::exponent`].
    pub const fn exponent(of: OperandSpec) -> Self {
        QuantitySpec::Exponent { of, total: false }
    }

    /// The exponent across `points` (operand, parameter value) at each N, as
    /// [`Quantity::exponent_across`].
    pub const fn exponent_across(points: &'static [(OperandSpec, f64)]) -> Self {
        QuantitySpec::ExponentAcross { points }
    }
}

impl From<QuantitySpec> for Quantity {
    fn from(spec: QuantitySpec) -> Self {
        match spec {
            QuantitySpec::Value { of } => Quantity::Value { of: of.into() },
            QuantitySpec::Ratio { num, den } => Quantity::Ratio {
                num: num.into(),
                den: den.into(),
            },
            QuantitySpec::Exponent { of, total } => Quantity::Exponent {
                of: of.into(),
                total,
            },
            QuantitySpec::ExponentAcross { points } => Quantity::ExponentAcross {
                points: points
                    .iter()
                    .map(|&(of, x)| Across { of: of.into(), x })
                    .collect(),
            },
            QuantitySpec::RatioAcross { param, points } => Quantity::RatioAcross {
                param: param.to_string(),
                points: points
                    .iter()
                    .map(|&(num, den, x)| RatioAcross {
                        num: num.into(),
                        den: den.into(),
                        x,
                    })
                    .collect(),
            },
        }
    }
}

/// An [`Operand`] with borrowed names: a metric of one design on one workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperandSpec {
    /// The metric.
    pub metric: ClaimMetric,
    /// Design (or reference loop) name.
    pub design: &'static str,
    /// Workload name.
    pub workload: &'static str,
}

impl OperandSpec {
    /// `metric` of `design` on `workload`, as [`Operand::new`].
    pub const fn new(metric: ClaimMetric, design: &'static str, workload: &'static str) -> Self {
        Self {
            metric,
            design,
            workload,
        }
    }
}

/// Time per work unit of `design` on `workload` (the bench's median; not deterministic).
pub const fn time(design: &'static str, workload: &'static str) -> OperandSpec {
    OperandSpec::new(ClaimMetric::Time, design, workload)
}

/// Simulated instructions per work unit of `design` on `workload` (the cache pass).
pub const fn instructions(design: &'static str, workload: &'static str) -> OperandSpec {
    OperandSpec::new(ClaimMetric::Instructions, design, workload)
}

/// Simulated D1 misses per work unit of `design` on `workload` (the cache pass).
pub const fn d1(design: &'static str, workload: &'static str) -> OperandSpec {
    OperandSpec::new(ClaimMetric::D1Misses, design, workload)
}

/// 1 when `design` verified on `workload`, 0 when it failed or its limits refused the trace.
pub const fn verified(design: &'static str, workload: &'static str) -> OperandSpec {
    OperandSpec::new(ClaimMetric::Verified, design, workload)
}

/// The family metric `field` (its results.json name) of `design` on `workload`.
pub const fn family(
    field: &'static str,
    design: &'static str,
    workload: &'static str,
) -> OperandSpec {
    OperandSpec::new(ClaimMetric::Family(field), design, workload)
}

impl From<OperandSpec> for Operand {
    fn from(spec: OperandSpec) -> Self {
        Operand::new(spec.metric.into(), spec.design, spec.workload)
    }
}

/// A [`Metric`] with a borrowed family field name, for the claim tables' `const`s.
/// (Not `MetricSpec`: that is a family metric's declaration, [`crate::MetricSpec`].)
pub type ClaimMetric = MetricOf<&'static str>;

impl From<ClaimMetric> for Metric {
    fn from(spec: ClaimMetric) -> Self {
        spec.map_family(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn garbage(workload: &'static str) -> OperandSpec {
        family("garbage_after_last_frame", "buffer_hash", workload)
    }

    const ACROSS: ClaimSpec = ClaimSpec {
        id: "G10d",
        source: "002 Part 2: Components",
        quote: "quickly destroyed",
        reading: "garbage across the kill fractions",
        quantity: QuantitySpec::exponent_across(&[
            (garbage("comp-gc-kill0p1"), 0.001),
            (garbage("comp-gc"), 0.01),
            (garbage("comp-gc-kill10"), 0.1),
        ]),
        rule: Rule::AtMost(0.99),
        sizes: Sizes::at_least(1_000),
        by_construction: true,
        note: Some("kill0 is left out"),
    };

    #[test]
    fn a_spec_converts_field_by_field() {
        let claim = Claim::from(&ACROSS);
        assert_eq!(
            [&claim.id, &claim.source, &claim.quote, &claim.reading],
            [ACROSS.id, ACROSS.source, ACROSS.quote, ACROSS.reading]
        );
        let garbage = |workload: &str| {
            Operand::new(
                Metric::family("garbage_after_last_frame"),
                "buffer_hash",
                workload,
            )
        };
        assert_eq!(
            claim.quantity,
            Quantity::exponent_across(vec![
                (garbage("comp-gc-kill0p1"), 0.001),
                (garbage("comp-gc"), 0.01),
                (garbage("comp-gc-kill10"), 0.1),
            ])
        );
        assert_eq!(claim.rule, ACROSS.rule);
        assert_eq!(claim.sizes, ACROSS.sizes);
        assert!(claim.by_construction);
        assert_eq!(claim.note.as_deref(), ACROSS.note);
    }

    #[test]
    fn every_quantity_and_metric_keeps_its_kind() {
        let of = OperandSpec::new(ClaimMetric::Verified, "holey32", "churn-hot-stale");
        let den = OperandSpec::new(ClaimMetric::LlMisses, "holey", "w");
        let owned = |o: OperandSpec| Operand::from(o);
        assert_eq!(
            Quantity::from(QuantitySpec::value(of)),
            Quantity::value(owned(of))
        );
        assert_eq!(
            Quantity::from(QuantitySpec::ratio(of, den)),
            Quantity::ratio(owned(of), owned(den))
        );
        assert_eq!(
            Quantity::from(QuantitySpec::exponent(of)),
            Quantity::exponent(owned(of))
        );
        assert_eq!(
            Quantity::from(QuantitySpec::total_exponent(of)),
            Quantity::total_exponent(owned(of))
        );
        let pairs = [
            (ClaimMetric::Time, Metric::Time),
            (ClaimMetric::Instructions, Metric::Instructions),
            (ClaimMetric::D1Misses, Metric::D1Misses),
            (ClaimMetric::LlMisses, Metric::LlMisses),
            (ClaimMetric::I1Misses, Metric::I1Misses),
            (ClaimMetric::AllocCallsPerOp, Metric::AllocCallsPerOp),
            (ClaimMetric::BytesPerObject, Metric::BytesPerObject),
            (ClaimMetric::LatencyMax, Metric::LatencyMax),
            (
                ClaimMetric::Family("bytes_per_tag"),
                Metric::family("bytes_per_tag"),
            ),
            (ClaimMetric::Verified, Metric::Verified),
        ];
        for (spec, metric) in pairs {
            assert_eq!(Metric::from(spec), metric);
        }
    }

    #[test]
    fn an_untested_spec_converts_field_by_field() {
        let spec = UntestedSpec {
            id: "E8",
            source: "002 Part 4: Entity Resources",
            quote: "we are not that concerned with compile time performance",
            reason: "the author's priorities",
        };
        let owned = Untested::from(&spec);
        assert_eq!(
            (owned.id.as_str(), owned.source.as_str()),
            (spec.id, spec.source)
        );
        assert_eq!(
            (owned.quote.as_str(), owned.reason.as_str()),
            (spec.quote, spec.reason)
        );
    }
}
