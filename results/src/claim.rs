//! A quantitative claim of the seed articles as data: the article's words, the comparison that
//! tests them (designs, workload, metric) and the rule that decides them, declared by the family
//! that measures them (`bench-harness`, `replay/<family>/claims.rs`, as the constants of
//! [`crate::claim_spec`]) and stored in the run's
//! [`FamilyRecord`](crate::FamilyRecord), so a results file judges its own claims
//! ([`crate::verdict`]): a verdict is computed from the numbers, never typed.
//!
//! A claim about counts (instructions, misses, allocator calls, bytes, a family's own metric)
//! is judged on the deterministic count, so two runs of one commit give the same verdict; a
//! claim about speed on the time of one run, paired round by round where both designs were
//! timed in one cell.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One claim of one article.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The catalogue's ID (`../shared/seeds/CATALOGUE.md`), e.g. `A3`; a claim the catalogue
    /// lists under one ID but tests twice adds a suffix (`D3b`).
    pub id: String,
    /// The article, e.g. `000 The ID Lookup Table`.
    pub source: String,
    /// The article's words (translated where the article is not in English).
    pub quote: String,
    /// How the quote is read as a test, in the suite's terms: what is compared and why the
    /// bound is where it is (`"40 times faster", read as at least 10×: the author calls it
    /// quick and dirty`).
    pub reading: String,
    /// What is measured.
    pub quantity: Quantity,
    /// What value of it confirms the claim; anything else refutes it.
    pub rule: Rule,
    /// The live sizes the article's words are about ("if the buffer is large"): points at other
    /// sizes are shown but not judged. Every size when the words name none.
    #[serde(default, skip_serializing_if = "Sizes::is_every")]
    pub sizes: Sizes,
    /// The design was built to satisfy the rule (it allocates once per object because that is
    /// the layout the article describes), so a run can show the build does what it says but not
    /// that the article is right: a confirming verdict reads "holds by construction".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_construction: bool,
    /// Where the article's own arithmetic or setup differs from what is measured, and why.
    /// Shown beside the verdict; never a measured number (the page shows those).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A quantitative statement of the catalogue that no claim tests, with the reason: what a test
/// would need that the suite lacks (a design, a workload, a metric), or why no run can decide
/// it. The claims page lists these beside the judged claims, so every statement is accounted
/// for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Untested {
    /// The catalogue's ID, as [`Claim::id`].
    pub id: String,
    /// The article, as [`Claim::source`].
    pub source: String,
    /// The article's words.
    pub quote: String,
    /// Why no claim tests them.
    pub reason: String,
}

/// The live sizes a claim is judged at: `min ≤ N ≤ max`, either bound open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sizes {
    /// The smallest N judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// The largest N judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl Sizes {
    /// Every size.
    pub const EVERY: Sizes = Sizes {
        min: None,
        max: None,
    };

    /// `N ≥ n`.
    pub const fn at_least(n: u64) -> Self {
        Sizes {
            min: Some(n),
            max: None,
        }
    }

    /// `N ≤ n`.
    pub const fn at_most(n: u64) -> Self {
        Sizes {
            min: None,
            max: Some(n),
        }
    }

    /// Whether no bound is set.
    pub fn is_every(&self) -> bool {
        *self == Sizes::EVERY
    }

    /// Whether `n` is judged.
    pub fn contains(&self, n: u64) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

impl fmt::Display for Sizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (None, None) => f.write_str("every N"),
            (Some(a), None) => write!(f, "N ≥ {a}"),
            (None, Some(b)) => write!(f, "N ≤ {b}"),
            (Some(a), Some(b)) => write!(f, "{a} ≤ N ≤ {b}"),
        }
    }
}

/// A metric of one design on one workload, at every N the run measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// Design (or reference loop) name.
    pub design: String,
    /// Workload name.
    pub workload: String,
    /// The metric.
    pub metric: Metric,
}

impl Operand {
    /// `metric` of `design` on `workload`.
    pub fn new(metric: Metric, design: &str, workload: &str) -> Self {
        Self {
            design: design.to_string(),
            workload: workload.to_string(),
            metric,
        }
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} of {} on {}", self.metric, self.design, self.workload)
    }
}

/// What a claim measures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Quantity {
    /// One operand's value at each N.
    Value {
        /// The operand.
        of: Operand,
    },
    /// `num ÷ den` at each N both were measured at (time: the median of the per-round ratios
    /// with its interval when both were timed in one cell, else the ratio of the medians).
    Ratio {
        /// Numerator.
        num: Operand,
        /// Denominator.
        den: Operand,
    },
    /// The exponent `k` of `value ≈ c·N^k`, fitted by least squares on log-log over every N the
    /// run measured (time: the bench's sizes and the working-set sweep's points); at least
    /// three sizes.
    Exponent {
        /// The operand.
        of: Operand,
        /// Fit the body's total (the per-work-unit value times the body's work units) instead
        /// of the per-work-unit value: "O(n²)" of a whole body is an exponent near 2 here.
        total: bool,
    },
    /// The exponent `k` of `value ≈ c·x^k` across operands that differ in one parameter `x`
    /// (the same design on workloads whose chains are 5, 64 and 1024 long), fitted at each N
    /// the run has all of them at; at least three operands.
    ExponentAcross {
        /// Each operand with its parameter value.
        points: Vec<Across>,
    },
    /// `num ÷ den` on pairs of operands that differ in one parameter `x` (the same two designs
    /// on workloads whose script does 0, 64 or 1024 iterations of work between API calls),
    /// judged at each `x` and N; where the rule holds on one side of some `x` and fails on the
    /// other, the judgement names the crossover (`crate::verdict::Crossover`).
    RatioAcross {
        /// What `x` is, in words with its unit (`script work between API calls (iterations)`).
        param: String,
        /// Each ratio with its parameter value, `x` ascending.
        points: Vec<RatioAcross>,
    },
}

/// One ratio of [`Quantity::RatioAcross`] and the parameter value it stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatioAcross {
    /// Numerator.
    pub num: Operand,
    /// Denominator.
    pub den: Operand,
    /// Its parameter value.
    pub x: f64,
}

/// One operand of [`Quantity::ExponentAcross`] and the parameter value it stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Across {
    /// The operand.
    pub of: Operand,
    /// Its parameter value (positive).
    pub x: f64,
}

impl Quantity {
    /// `num ÷ den`.
    pub fn ratio(num: Operand, den: Operand) -> Self {
        Quantity::Ratio { num, den }
    }

    /// `of` at each N.
    pub fn value(of: Operand) -> Self {
        Quantity::Value { of }
    }

    /// The fitted exponent of the body's total of `of` (its per-work-unit value times the
    /// body's work units).
    pub fn total_exponent(of: Operand) -> Self {
        Quantity::Exponent { of, total: true }
    }

    /// The fitted exponent of `of` per work unit.
    pub fn exponent(of: Operand) -> Self {
        Quantity::Exponent { of, total: false }
    }

    /// The exponent across `points` (operand, parameter value) at each N.
    pub fn exponent_across(points: Vec<(Operand, f64)>) -> Self {
        Quantity::ExponentAcross {
            points: points.into_iter().map(|(of, x)| Across { of, x }).collect(),
        }
    }

    /// The operands, numerator first.
    pub fn operands(&self) -> Vec<&Operand> {
        match self {
            Quantity::Value { of } | Quantity::Exponent { of, .. } => vec![of],
            Quantity::Ratio { num, den } => vec![num, den],
            Quantity::ExponentAcross { points } => points.iter().map(|p| &p.of).collect(),
            Quantity::RatioAcross { points, .. } => {
                points.iter().flat_map(|p| [&p.num, &p.den]).collect()
            }
        }
    }

    /// Whether the quantity is a deterministic count (the same in every run of one commit).
    pub fn is_deterministic(&self) -> bool {
        self.operands().iter().all(|o| o.metric.is_deterministic())
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::Value { of } => write!(f, "{of}"),
            Quantity::Ratio { num, den } if num.metric == den.metric => {
                if num.workload == den.workload {
                    write!(
                        f,
                        "{}, {} ÷ {} on {}",
                        num.metric, num.design, den.design, num.workload
                    )
                } else {
                    write!(
                        f,
                        "{}, {} on {} ÷ {} on {}",
                        num.metric, num.design, num.workload, den.design, den.workload
                    )
                }
            }
            Quantity::Ratio { num, den } => write!(f, "{num} ÷ {den}"),
            Quantity::Exponent { of, total: false } => write!(f, "exponent k of {of} ≈ c·N^k"),
            Quantity::Exponent { of, total: true } => write!(
                f,
                "exponent k of the whole body's {} (per work unit × work units) of {} on {} ≈ c·N^k",
                of.metric, of.design, of.workload
            ),
            Quantity::ExponentAcross { points } => {
                let xs: Vec<String> = points
                    .iter()
                    .map(|p| format!("{} at x = {}", p.of.workload, p.x))
                    .collect();
                match points.first() {
                    Some(p) => write!(
                        f,
                        "exponent k of {} of {} ≈ c·x^k across {}",
                        p.of.metric,
                        p.of.design,
                        xs.join(", ")
                    ),
                    None => f.write_str("exponent of nothing"),
                }
            }
            Quantity::RatioAcross { param, points } => {
                let xs: Vec<String> = points
                    .iter()
                    .map(|p| format!("{} at x = {}", p.num.workload, p.x))
                    .collect();
                match points.first() {
                    Some(p) => write!(
                        f,
                        "{}, {} ÷ {} across x = {param}: {}",
                        p.num.metric,
                        p.num.design,
                        p.den.design,
                        xs.join(", ")
                    ),
                    None => f.write_str("ratio across nothing"),
                }
            }
        }
    }
}

/// A metric a benchmark carries, as results.json names it.
pub type Metric = MetricOf<String>;

/// A metric a benchmark carries, its family field named by `F`: [`Metric`] (an owned name, in
/// results.json) or [`ClaimMetric`](crate::ClaimMetric) (a `&'static str`, in the families'
/// claim tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetricOf<F> {
    /// Nanoseconds per work unit (the bench's timing; not deterministic).
    Time,
    /// Simulated instructions per work unit (callgrind).
    Instructions,
    /// Simulated D1 misses per work unit.
    D1Misses,
    /// Simulated last-level misses per work unit.
    LlMisses,
    /// Simulated L1 instruction-cache misses per work unit: the body's code not fitting I1.
    I1Misses,
    /// Allocator calls per work unit seen by the counting allocator (memory pass).
    AllocCallsPerOp,
    /// Heap bytes per live object after the setup.
    BytesPerObject,
    /// The slowest batch of the latency pass, ns per work unit (not deterministic).
    LatencyMax,
    /// A field of the family's own metrics (`FamilyMetrics`), by its results.json name,
    /// e.g. `garbage_after_last_frame`.
    Family(F),
    /// 1 when the design verified on the trace, 0 when it failed verification or its replay
    /// ran past its documented limits (the reason is shown): "a LIFO free list with 16-bit
    /// generations resolves a stale ID after 64K reuses" is a claim about this. A trace its
    /// limits refused before any replay (`Benchmark::refused`) gives no value.
    Verified,
}

impl<F> MetricOf<F> {
    /// The same metric, its family field name mapped by `f`.
    pub fn map_family<G>(self, f: impl FnOnce(F) -> G) -> MetricOf<G> {
        match self {
            MetricOf::Time => MetricOf::Time,
            MetricOf::Instructions => MetricOf::Instructions,
            MetricOf::D1Misses => MetricOf::D1Misses,
            MetricOf::LlMisses => MetricOf::LlMisses,
            MetricOf::I1Misses => MetricOf::I1Misses,
            MetricOf::AllocCallsPerOp => MetricOf::AllocCallsPerOp,
            MetricOf::BytesPerObject => MetricOf::BytesPerObject,
            MetricOf::LatencyMax => MetricOf::LatencyMax,
            MetricOf::Family(field) => MetricOf::Family(f(field)),
            MetricOf::Verified => MetricOf::Verified,
        }
    }
}

impl Metric {
    /// A family metric by its results.json name.
    pub fn family(field: &str) -> Self {
        Metric::Family(field.to_string())
    }

    /// Whether every run of one commit gives the same value.
    pub fn is_deterministic(&self) -> bool {
        !matches!(self, Metric::Time | Metric::LatencyMax)
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Metric::Time => f.write_str("time per work unit"),
            Metric::Instructions => f.write_str("instructions per work unit"),
            Metric::D1Misses => f.write_str("D1 misses per work unit"),
            Metric::LlMisses => f.write_str("LL misses per work unit"),
            Metric::I1Misses => f.write_str("I1 misses per work unit"),
            Metric::AllocCallsPerOp => f.write_str("allocator calls per work unit"),
            Metric::BytesPerObject => f.write_str("heap bytes per object"),
            Metric::LatencyMax => f.write_str("slowest batch"),
            Metric::Family(field) => f.write_str(field),
            Metric::Verified => f.write_str("verified (1) or not (0)"),
        }
    }
}

/// The values that confirm a claim.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// At least this.
    AtLeast(f64),
    /// At most this.
    AtMost(f64),
    /// Within `[low, high]`.
    Between(f64, f64),
}

impl Rule {
    /// The confirming values as an interval `[low, high]` (infinite where unbounded).
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Rule::AtLeast(x) => (x, f64::INFINITY),
            Rule::AtMost(x) => (f64::NEG_INFINITY, x),
            Rule::Between(a, b) => (a, b),
        }
    }

    /// Whether `x` confirms.
    pub fn holds(self, x: f64) -> bool {
        let (low, high) = self.bounds();
        x >= low && x <= high
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::AtLeast(x) => write!(f, "≥ {x}"),
            Rule::AtMost(x) => write!(f, "≤ {x}"),
            Rule::Between(a, b) => write!(f, "within [{a}, {b}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_round_trip_through_json() {
        let c = Claim {
            id: "A3".into(),
            source: "000".into(),
            quote: "40 times faster".into(),
            reading: "holey ÷ map-btree".into(),
            quantity: Quantity::ratio(
                Operand::new(Metric::Time, "holey", "lookup-uniform"),
                Operand::new(
                    Metric::family("garbage_peak"),
                    "map-btree",
                    "lookup-uniform",
                ),
            ),
            rule: Rule::AtMost(0.1),
            sizes: Sizes::at_least(65_536),
            by_construction: false,
            note: None,
        };
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json["sizes"]["min"], 65_536);
        assert!(json.get("by_construction").is_none(), "false is left out");
        assert_eq!(json["quantity"]["kind"], "ratio");
        assert_eq!(json["quantity"]["num"]["metric"], "time");
        assert_eq!(json["quantity"]["den"]["metric"]["family"], "garbage_peak");
        assert_eq!(json["rule"]["at_most"], 0.1);
        assert_eq!(serde_json::from_value::<Claim>(json).unwrap(), c);
        assert!(!c.quantity.is_deterministic());
        let same = Quantity::ratio(
            Operand::new(Metric::Instructions, "a", "w"),
            Operand::new(Metric::Instructions, "b", "w"),
        );
        assert_eq!(same.to_string(), "instructions per work unit, a ÷ b on w");
        assert!(same.is_deterministic());
    }

    #[test]
    fn rules_bound_the_confirming_values() {
        assert!(Rule::AtLeast(2.0).holds(2.0) && !Rule::AtLeast(2.0).holds(1.9));
        assert!(Rule::AtMost(2.0).holds(-5.0) && !Rule::AtMost(2.0).holds(2.1));
        assert!(Rule::Between(1.8, 2.2).holds(2.0) && !Rule::Between(1.8, 2.2).holds(2.3));
        assert_eq!(Rule::AtMost(1.0).bounds(), (f64::NEG_INFINITY, 1.0));
    }
}
