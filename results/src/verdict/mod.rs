//! The verdicts of the claims a run declares ([`crate::claim`], in each
//! [`FamilyRecord`](crate::FamilyRecord)), computed from the run's own numbers: at every N the
//! run measured, the claim's quantity and whether its rule holds there; over the sizes, one
//! verdict (confirmed, refuted, mixed by size, undecided, not measured with the reason).
//!
//! A count is exact, so its rule holds or not. A time ratio of two designs timed in one cell is
//! the median of their per-round ratios with its 95% interval ([`crate::ranking::paired`]): it
//! confirms only when the whole interval satisfies the rule, refutes only when none of it does,
//! and is undecided otherwise. Times never paired (different cells or sessions) are compared by
//! their medians, and the point says so.

use std::fmt;

use serde::Serialize;

use crate::claim::{Claim, Metric, Operand, Quantity, Untested};
use crate::family::Family;
use crate::metric_spec::MetricSection;
use crate::ranking::paired;
use crate::schema::{Benchmark, Results, Status};

mod exponent;

pub use exponent::fit_exponent;
use exponent::{across_at, exponent};

/// Whether a claim's rule holds at one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The rule holds (for a paired time: over the whole interval).
    Confirmed,
    /// The rule fails (for a paired time: over the whole interval).
    Refuted,
    /// The interval holds values on both sides of the rule's bound.
    Undecided,
}

/// A claim's verdict over every point the run measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Confirmed at every point.
    Confirmed,
    /// Confirmed at every point by a design built to satisfy the rule
    /// ([`Claim::by_construction`]): the build does what it says; the article is not tested.
    HoldsByConstruction,
    /// Refuted at every point.
    Refuted,
    /// The outcome differs between sizes (confirmed at one, refuted or undecided at another).
    Mixed,
    /// No point could be told either way (time intervals holding the bound at every size).
    Undecided,
    /// No point: the run has no numbers for the claim (the reason says which are missing).
    NotMeasured,
}

impl Verdict {
    /// Every verdict, in the order a summary lists them.
    pub const ALL: [Verdict; 6] = [
        Verdict::Confirmed,
        Verdict::HoldsByConstruction,
        Verdict::Refuted,
        Verdict::Mixed,
        Verdict::Undecided,
        Verdict::NotMeasured,
    ];

    /// The word a page shows: `confirmed`, `holds by construction`, `refuted`, `mixed by size`,
    /// `undecided`, `not measured`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Confirmed => "confirmed",
            Verdict::HoldsByConstruction => "holds by construction",
            Verdict::Refuted => "refuted",
            Verdict::Mixed => "mixed by size",
            Verdict::Undecided => "undecided",
            Verdict::NotMeasured => "not measured",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The claim's quantity at one N (or fitted over several).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Point {
    /// The live size; `None` for a fitted exponent.
    pub n: Option<u64>,
    /// The quantity.
    pub value: f64,
    /// Its 95% interval, for a time ratio paired round by round.
    pub interval: Option<(f64, f64)>,
    /// Whether the rule holds.
    pub outcome: Outcome,
    /// How the value was obtained, e.g. `paired over 15 rounds`, `fitted over N = 1000 to
    /// 65536 (4 sizes)`, `counts`.
    pub how: String,
}

/// One claim judged on one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Judgement<'a> {
    /// The family that declared it.
    pub family: Family,
    /// The claim.
    pub claim: &'a Claim,
    /// Its points, by N.
    pub points: Vec<Point>,
    /// The verdict over the points.
    pub verdict: Verdict,
    /// What is missing, for sizes or operands without a number (every reason, once).
    pub missing: Vec<String>,
    /// Sizes the run measured that lie outside the claim's [`Claim::sizes`]: shown, not judged.
    pub outside: Vec<u64>,
}

/// Every claim of every family of `results`, judged, in the order the families list them.
pub fn judge_run(results: &Results) -> Vec<Judgement<'_>> {
    results
        .families
        .iter()
        .flat_map(|f| f.claims.iter().map(move |c| judge(c, f.family, results)))
        .collect()
}

/// The catalogue's statements the families of `results` record as untested, each with its
/// family, in the order the families list them.
pub fn untested(results: &Results) -> Vec<(Family, &Untested)> {
    results
        .families
        .iter()
        .flat_map(|f| f.untested.iter().map(move |u| (f.family, u)))
        .collect()
}

/// The untested statements as plain text, one block each (`dodbench claims`, after the
/// judgements); empty when there is none.
pub fn render_untested_text(untested: &[(Family, &Untested)]) -> String {
    if untested.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{} statements of the catalogue no claim tests:\n",
        untested.len()
    );
    for (family, u) in untested {
        out.push_str(&format!(
            "{} ({family}, {}): not testable here\n  \"{}\"\n  why: {}\n",
            u.id, u.source, u.quote, u.reason
        ));
    }
    out
}

/// The untested statements as a Markdown table (statement, family, the article's words in
/// short, why), after a blank line; empty when there is none.
pub fn render_untested_markdown(untested: &[(Family, &Untested)]) -> String {
    if untested.is_empty() {
        return String::new();
    }
    let cell = |text: &str| text.replace('|', "/").replace('\n', " ");
    let mut out = format!(
        "\n{} statements of the catalogue no claim tests:\n\n| statement | family | the article \
         says | why it is not tested |\n| --- | --- | --- | --- |\n",
        untested.len()
    );
    for (family, u) in untested {
        out.push_str(&format!(
            "| {} | `{family}` | {} | {} |\n",
            cell(&u.id),
            cell(&shorten(&u.quote, 70)),
            cell(&u.reason)
        ));
    }
    out
}

/// How many judgements have each verdict, in [`Verdict::ALL`] order.
pub fn tally(judgements: &[Judgement<'_>]) -> Vec<(Verdict, usize)> {
    Verdict::ALL
        .into_iter()
        .map(|v| (v, judgements.iter().filter(|j| j.verdict == v).count()))
        .collect()
}

/// A number with three significant digits (`0.0312`, `1.98`, `2594`).
pub fn format_value(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = (2 - v.abs().log10().floor() as i32).max(0) as usize;
    format!("{v:.digits$}")
}

impl Point {
    /// The point in words: `N = 1000: 0.0312 [0.0301, 0.0325] confirmed (paired over 15
    /// rounds)`.
    pub fn describe(&self) -> String {
        let at = self
            .n
            .map_or_else(|| "fit".to_string(), |n| format!("N = {n}"));
        let interval = self
            .interval
            .map(|(a, b)| format!(" [{}, {}]", format_value(a), format_value(b)))
            .unwrap_or_default();
        let outcome = match self.outcome {
            Outcome::Confirmed => "confirmed",
            Outcome::Refuted => "refuted",
            Outcome::Undecided => "undecided",
        };
        format!(
            "{at}: {}{interval} {outcome} ({})",
            format_value(self.value),
            self.how
        )
    }
}

/// The judgements as plain text, one block per claim, then the tally (`dodbench claims`).
pub fn render_text(judgements: &[Judgement<'_>]) -> String {
    let mut out = String::new();
    for j in judgements {
        let c = j.claim;
        out.push_str(&format!(
            "{} ({}, {}): {}\n  \"{}\"\n  measured: {} {}\n",
            c.id, j.family, c.source, j.verdict, c.quote, c.quantity, c.rule
        ));
        for p in &j.points {
            out.push_str(&format!("  {}\n", p.describe()));
        }
        if !j.outside.is_empty() {
            let ns: Vec<String> = j.outside.iter().map(u64::to_string).collect();
            out.push_str(&format!(
                "  not judged (the claim is about {}): N = {}\n",
                c.sizes,
                ns.join(", ")
            ));
        }
        for m in &j.missing {
            out.push_str(&format!("  missing: {m}\n"));
        }
    }
    out.push_str(&tally_line(judgements));
    out.push('\n');
    out
}

/// `139 claims: 85 confirmed, 13 refuted, ...`: the tally in words, no line end.
pub fn tally_line(judgements: &[Judgement<'_>]) -> String {
    let counts: Vec<String> = tally(judgements)
        .into_iter()
        .map(|(v, k)| format!("{k} {v}"))
        .collect();
    format!("{} claims: {}", judgements.len(), counts.join(", "))
}

/// At most `max` characters of `text`, cut at a word, with `…` when cut: an article's words
/// in a table row.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    let at_word = cut.rfind(' ').map_or(cut.as_str(), |i| &cut[..i]);
    format!("{}…", at_word.trim_end_matches([',', ';', ':', '.']))
}

impl Judgement<'_> {
    /// The value at each N in one line (`1000: 2.64; 65536: 5.06`, `fit: 1.98`), or the first
    /// thing missing when there is none.
    pub fn values_in_short(&self) -> String {
        if self.points.is_empty() {
            return self
                .missing
                .first()
                .map_or(String::new(), |m| shorten(m, 60));
        }
        self.points
            .iter()
            .map(|p| {
                let at = p.n.map_or_else(|| "fit".to_string(), |n| format!("{n}"));
                format!("{at}: {}", format_value(p.value))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// The judgements as one Markdown table, a row per claim (claim, family, the article's words
/// in short, verdict, the value at each N), then the tally: the compact form `docs/claims.md`
/// carries for the committed reference run.
pub fn render_markdown(judgements: &[Judgement<'_>]) -> String {
    // A table cell holds no `|` and no line break.
    let cell = |text: &str| text.replace('|', "/").replace('\n', " ");
    let mut out = String::from(
        "| claim | family | the article says | verdict | measured |\n| --- | --- | --- | --- | --- |\n",
    );
    for j in judgements {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            cell(&j.claim.id),
            j.family,
            cell(&shorten(&j.claim.quote, 70)),
            j.verdict,
            cell(&j.values_in_short())
        ));
    }
    out.push_str(&format!("\n{}.\n", tally_line(judgements)));
    out
}

/// Checks a claim's family metrics against the metrics its family declares (`section`, `None`
/// for a family without any): a name that is not one is a declaration error (a typo would
/// otherwise read as "not measured" forever).
///
/// # Errors
/// The first unknown field, with the valid names.
pub fn check_metric_names(claim: &Claim, section: Option<&MetricSection>) -> Result<(), String> {
    for op in claim.quantity.operands() {
        if let Metric::Family(field) = &op.metric {
            let fields = section.map(MetricSection::names).unwrap_or_default();
            if !fields.iter().any(|f| f == field) {
                return Err(format!(
                    "claim {}: its family has no metric {field:?}; its metrics are: {}",
                    claim.id,
                    fields.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// `claim` (declared by `family`) judged on `results`.
pub fn judge<'a>(claim: &'a Claim, family: Family, results: &Results) -> Judgement<'a> {
    let mut missing = Vec::new();
    let mut outside = Vec::new();
    let mut sizes = |op: &Operand| -> Vec<u64> {
        let (judged, not): (Vec<u64>, Vec<u64>) = sizes(results, family, op)
            .into_iter()
            .partition(|&n| claim.sizes.contains(n));
        outside.extend(not);
        judged
    };
    let points: Vec<Point> = match &claim.quantity {
        Quantity::Value { of } if of.metric == Metric::Verified => sizes(of)
            .into_iter()
            .filter_map(|n| verified_at(claim, family, results, of, n, &mut missing))
            .collect(),
        Quantity::Value { of } => sizes(of)
            .into_iter()
            .filter_map(|n| {
                let b = lookup(results, family, of, n, &mut missing)?;
                let value = value_of(&of.metric, b, &mut missing)?;
                Some(point(claim, n, value, None, how_single(&of.metric)))
            })
            .collect(),
        Quantity::Ratio { num, den } => sizes(num)
            .into_iter()
            .filter_map(|n| ratio_at(claim, family, results, num, den, n, &mut missing))
            .collect(),
        Quantity::Exponent { of, total } => exponent(
            claim,
            family,
            results,
            of,
            *total,
            &mut missing,
            &mut outside,
        )
        .into_iter()
        .collect(),
        Quantity::ExponentAcross { points } => match points.first() {
            Some(first) => sizes(&first.of)
                .into_iter()
                .filter_map(|n| across_at(claim, family, results, points, n, &mut missing))
                .collect(),
            None => Vec::new(),
        },
    };
    if points.is_empty() && missing.is_empty() {
        missing.push(format!(
            "no benchmark of {} on {} in this run",
            claim.quantity.operands()[0].design,
            claim.quantity.operands()[0].workload
        ));
    }
    dedup(&mut missing);
    outside.sort_unstable();
    outside.dedup();
    let verdict = match verdict_of(&points) {
        Verdict::Confirmed if claim.by_construction => Verdict::HoldsByConstruction,
        v => v,
    };
    Judgement {
        family,
        claim,
        verdict,
        points,
        missing,
        outside,
    }
}

fn dedup(v: &mut Vec<String>) {
    let mut seen = Vec::new();
    v.retain(|s| {
        let new = !seen.contains(s);
        if new {
            seen.push(s.clone());
        }
        new
    });
}

/// One outcome at every point gives that verdict; outcomes that differ between sizes give
/// [`Verdict::Mixed`] (a refutation at one size and an undecided point at another must not read
/// as merely undecided), and the points say which size is which.
fn verdict_of(points: &[Point]) -> Verdict {
    let Some(first) = points.first() else {
        return Verdict::NotMeasured;
    };
    if points.iter().any(|p| p.outcome != first.outcome) {
        return Verdict::Mixed;
    }
    match first.outcome {
        Outcome::Confirmed => Verdict::Confirmed,
        Outcome::Refuted => Verdict::Refuted,
        Outcome::Undecided => Verdict::Undecided,
    }
}

fn how_single(metric: &Metric) -> String {
    if metric.is_deterministic() {
        "count".to_string()
    } else {
        "median".to_string()
    }
}

fn point(claim: &Claim, n: u64, value: f64, interval: Option<(f64, f64)>, how: String) -> Point {
    Point {
        n: Some(n),
        value,
        interval,
        outcome: outcome(claim, value, interval),
        how,
    }
}

fn outcome(claim: &Claim, value: f64, interval: Option<(f64, f64)>) -> Outcome {
    let Some((lower, upper)) = interval else {
        return if claim.rule.holds(value) {
            Outcome::Confirmed
        } else {
            Outcome::Refuted
        };
    };
    let (low, high) = claim.rule.bounds();
    if lower >= low && upper <= high {
        Outcome::Confirmed
    } else if upper < low || lower > high {
        Outcome::Refuted
    } else {
        Outcome::Undecided
    }
}

/// The sizes at which `family`'s benchmarks (or the reference loops') hold `op`, ascending.
///
/// Sizes where a verified entry lacks `op`'s metric are left out (a pass that runs at other
/// sizes than the bench is not a gap in the claim), unless no size has it: then every size is
/// kept, so the judgement says what is missing.
fn sizes(results: &Results, family: Family, op: &Operand) -> Vec<u64> {
    let of_op = || results.benchmarks.iter().filter(|b| holds(b, family, op));
    let measured = |b: &&Benchmark| {
        op.metric == Metric::Verified
            || b.status != Status::Verified
            || value_of(&op.metric, b, &mut Vec::new()).is_some()
    };
    let mut ns: Vec<u64> = of_op().filter(measured).map(|b| b.n).collect();
    if ns.is_empty() {
        ns = of_op().map(|b| b.n).collect();
    }
    ns.sort_unstable();
    ns.dedup();
    ns
}

fn holds(b: &Benchmark, family: Family, op: &Operand) -> bool {
    (b.family == family || b.family == Family::Reference)
        && b.design == op.design
        && b.workload == op.workload
}

fn lookup<'r>(
    results: &'r Results,
    family: Family,
    op: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<&'r Benchmark> {
    let found = results
        .benchmarks
        .iter()
        .find(|b| holds(b, family, op) && b.n == n);
    match found {
        None => missing.push(format!(
            "no benchmark of {} on {} at N = {n}",
            op.design, op.workload
        )),
        Some(b) if b.status != Status::Verified => missing.push(format!(
            "{} on {} at N = {n}: {}{}",
            op.design,
            op.workload,
            b.status,
            b.reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        )),
        Some(_) => {}
    }
    found.filter(|b| b.status == Status::Verified)
}

/// Whether `op`'s design verified at `n` (1) or failed, or ran past its documented limits (0,
/// the reason in the point). A trace its limits refused before any replay (capacity) gave no
/// answer to judge, and an entry no replay reached has none either: both are missing.
fn verified_at(
    claim: &Claim,
    family: Family,
    results: &Results,
    op: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<Point> {
    let b = results
        .benchmarks
        .iter()
        .find(|b| holds(b, family, op) && b.n == n && b.status != Status::Unmeasured);
    let Some(b) = b else {
        missing.push(format!(
            "no verdict of {} on {} at N = {n}",
            op.design, op.workload
        ));
        return None;
    };
    if b.refused {
        missing.push(format!(
            "{} on {} at N = {n}: refused before the replay by its documented limits{}; no \
             answer to judge",
            op.design,
            op.workload,
            b.reason
                .as_deref()
                .map(|r| format!(" ({r})"))
                .unwrap_or_default()
        ));
        return None;
    }
    let value = if b.status == Status::Verified {
        1.0
    } else {
        0.0
    };
    let how = match &b.reason {
        Some(r) if b.status != Status::Verified => format!("{}: {r}", b.status),
        _ => b.status.to_string(),
    };
    Some(point(claim, n, value, None, how))
}

/// `metric` of `b`; `None` (with the reason in `missing`) when the run did not measure it.
fn value_of(metric: &Metric, b: &Benchmark, missing: &mut Vec<String>) -> Option<f64> {
    let (value, pass) = match metric {
        Metric::Time => (b.ns_per_op.as_ref().map(|e| e.median), "the bench"),
        Metric::Instructions => (b.sim.as_ref().map(|s| s.ir), "the cache pass"),
        Metric::D1Misses => (b.sim.as_ref().map(|s| s.d1_miss), "the cache pass"),
        Metric::LlMisses => (b.sim.as_ref().map(|s| s.ll_miss), "the cache pass"),
        Metric::I1Misses => (b.sim.as_ref().and_then(|s| s.i1_miss), "the cache pass"),
        Metric::AllocCallsPerOp => (b.alloc_calls_per_op, "the memory pass"),
        Metric::BytesPerObject => (b.bytes_per_object, "the bench"),
        Metric::LatencyMax => (b.latency.as_ref().map(|l| l.max), "the latency pass"),
        Metric::Verified => (Some(1.0), "the bench"),
        Metric::Family(field) => (
            b.metrics.as_ref().and_then(|m| m.number(field)),
            "the bench (family metrics)",
        ),
    };
    if value.is_none() {
        missing.push(format!(
            "{metric} of {} on {} at N = {}: not measured (by {pass})",
            b.design, b.workload, b.n
        ));
    }
    value.filter(|v| v.is_finite())
}

fn ratio_at(
    claim: &Claim,
    family: Family,
    results: &Results,
    num: &Operand,
    den: &Operand,
    n: u64,
    missing: &mut Vec<String>,
) -> Option<Point> {
    let a = lookup(results, family, num, n, missing);
    let b = lookup(results, family, den, n, missing);
    let (a, b) = (a?, b?);
    let (va, vb) = (
        value_of(&num.metric, a, missing),
        value_of(&den.metric, b, missing),
    );
    let (va, vb) = (va?, vb?);
    if num.metric == Metric::Time && den.metric == Metric::Time {
        if let Some(p) = paired(a, b) {
            let interval = Some((p.ratio.lower, p.ratio.upper));
            let how = format!("paired over {}", p.rounds_in_words());
            return Some(point(claim, n, p.ratio.median, interval, how));
        }
    }
    if vb == 0.0 {
        missing.push(format!("{den} at N = {n} is 0: no ratio"));
        return None;
    }
    let how = if num.metric.is_deterministic() && den.metric.is_deterministic() {
        "counts".to_string()
    } else {
        "ratio of medians (not timed in the same rounds)".to_string()
    };
    Some(point(claim, n, va / vb, None, how))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claim::Rule;
    use crate::family::FamilyRecord;
    use crate::family_metrics::{FamilyMetrics, MetricValue};
    use crate::machine::{CacheSizes, Machine};
    use crate::measures::{SimConfig, SimPerOp};
    use crate::metric_spec::{MetricSpec, Unit};
    use crate::stats::Rounds;

    fn claim(quantity: Quantity, rule: Rule) -> Claim {
        Claim {
            id: "X1".into(),
            source: "test".into(),
            quote: "q".into(),
            reading: "r".into(),
            quantity,
            rule,
            sizes: crate::claim::Sizes::EVERY,
            by_construction: false,
            note: None,
        }
    }

    fn run(benchmarks: Vec<Benchmark>, claims: Vec<Claim>) -> Results {
        let machine = Machine {
            name: "box".into(),
            cpu_model: "cpu".into(),
            cores: 2,
            caches: CacheSizes::default(),
            os: "linux".into(),
            arch: "x86_64".into(),
            hw_counters_available: false,
            hw_counters_reason: None,
        };
        let mut r = Results::empty(machine, "c".into(), "t".into(), 0, "quick");
        r.families = vec![FamilyRecord {
            family: Family::Transforms,
            title: "T".into(),
            reference_design: "a".into(),
            claims,
            untested: Vec::new(),
            metrics: None,
        }];
        r.benchmarks = benchmarks;
        r
    }

    fn counted(design: &str, n: u64, ir: f64) -> Benchmark {
        let mut b = Benchmark::new(Family::Transforms, "w", design, n, n);
        b.status = Status::Verified;
        b.verified = true;
        b.sim = Some(SimPerOp {
            ir,
            data_reads: 0.0,
            data_writes: 0.0,
            d1_miss: 0.0,
            ll_miss: 0.0,
            d1_read_miss: 0.0,
            ll_read_miss: 0.0,
            i1_miss: None,
            bytes_streamed: 0.0,
            ops: n,
            config: SimConfig {
                i1: String::new(),
                d1: String::new(),
                ll: String::new(),
                valgrind: String::new(),
                start_state: String::new(),
            },
        });
        b
    }

    fn timed(design: &str, n: u64, samples: &[f64]) -> Benchmark {
        let mut b = counted(design, n, 1.0);
        let mut s = samples.to_vec();
        b.ns_per_op = crate::stats::median_interval(&mut s);
        b.samples_ns_per_op = samples.to_vec();
        b.rounds = Some(Rounds {
            session: 7,
            iters: 1,
            to_reference: None,
            to_best: None,
            instances: Vec::new(),
        });
        b
    }

    #[test]
    fn shortened_text_ends_at_a_word() {
        assert_eq!(shorten("forty times faster", 40), "forty times faster");
        assert_eq!(shorten("forty times faster, roughly", 16), "forty times…");
    }

    #[test]
    fn counts_decide_per_size_and_mixed_sizes_say_so() {
        let q = Quantity::ratio(
            Operand::new(Metric::Instructions, "a", "w"),
            Operand::new(Metric::Instructions, "b", "w"),
        );
        let c = claim(q, Rule::AtMost(0.5));
        let r = run(
            vec![
                counted("a", 10, 4.0),
                counted("b", 10, 10.0),
                counted("a", 100, 8.0),
                counted("b", 100, 10.0),
            ],
            vec![c],
        );
        let j = &judge_run(&r)[0];
        assert_eq!(j.points.len(), 2);
        assert_eq!(j.points[0].outcome, Outcome::Confirmed);
        assert_eq!(j.points[1].outcome, Outcome::Refuted);
        assert_eq!(j.verdict, Verdict::Mixed);
        assert_eq!(j.points[0].how, "counts");
        assert!((j.points[0].value - 0.4).abs() < 1e-12);
    }

    #[test]
    fn a_paired_time_ratio_decides_only_when_its_interval_clears_the_bound() {
        let q = Quantity::ratio(
            Operand::new(Metric::Time, "a", "w"),
            Operand::new(Metric::Time, "b", "w"),
        );
        // a is 2x b in every round: the interval is [2, 2].
        let b: Vec<f64> = (1..=10).map(f64::from).collect();
        let a: Vec<f64> = b.iter().map(|t| t * 2.0).collect();
        let r = run(
            vec![timed("a", 10, &a), timed("b", 10, &b)],
            vec![
                claim(q.clone(), Rule::AtLeast(1.5)),
                claim(q.clone(), Rule::AtMost(1.5)),
            ],
        );
        let js = judge_run(&r);
        assert_eq!(js[0].verdict, Verdict::Confirmed);
        assert_eq!(js[1].verdict, Verdict::Refuted);
        assert_eq!(js[0].points[0].interval, Some((2.0, 2.0)));
        assert_eq!(js[0].points[0].how, "paired over 10 rounds");
        // Noisy rounds around 1: the interval holds 1, so "at least 1" cannot be decided.
        let a2: Vec<f64> = b
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { t * 1.2 } else { t * 0.8 })
            .collect();
        let r = run(
            vec![timed("a", 10, &a2), timed("b", 10, &b)],
            vec![claim(q, Rule::AtLeast(1.0))],
        );
        assert_eq!(judge_run(&r)[0].verdict, Verdict::Undecided);
    }

    #[test]
    fn exponents_are_fitted_on_log_log_and_need_three_sizes() {
        let op = Operand::new(Metric::Instructions, "a", "w");
        // Per op ∝ n, ops = n: the body's total ∝ n².
        let bs: Vec<Benchmark> = [10, 100, 1000]
            .into_iter()
            .map(|n| counted("a", n, 3.0 * n as f64))
            .collect();
        let c1 = claim(
            Quantity::total_exponent(op.clone()),
            Rule::Between(1.9, 2.1),
        );
        let c2 = claim(Quantity::exponent(op), Rule::Between(0.9, 1.1));
        let r = run(bs.clone(), vec![c1.clone(), c2]);
        let js = judge_run(&r);
        assert!((js[0].points[0].value - 2.0).abs() < 1e-9, "{:?}", js[0]);
        assert_eq!(js[0].verdict, Verdict::Confirmed);
        assert!((js[1].points[0].value - 1.0).abs() < 1e-9);
        assert_eq!(js[0].points[0].how, "fitted over N = 10 to 1000 (3 sizes)");
        let r = run(bs[..2].to_vec(), vec![c1]);
        let j = &judge_run(&r)[0];
        assert_eq!(j.verdict, Verdict::NotMeasured);
        assert!(j.missing[0].contains("needs 3"), "{:?}", j.missing);
    }

    #[test]
    fn exponents_across_a_parameter_are_fitted_per_size() {
        // Per op ∝ chain length at N = 10 (k = 1), flat at N = 20 (k = 0).
        let mut bs = Vec::new();
        for (w, x) in [("w5", 5.0), ("w64", 64.0), ("w1024", 1024.0)] {
            let mut b = counted("a", 10, 2.0 * x);
            b.workload = w.into();
            bs.push(b);
            let mut b = counted("a", 20, 7.0);
            b.workload = w.into();
            bs.push(b);
        }
        let q = Quantity::exponent_across(
            [("w5", 5.0), ("w64", 64.0), ("w1024", 1024.0)]
                .into_iter()
                .map(|(w, x)| (Operand::new(Metric::Instructions, "a", w), x))
                .collect(),
        );
        let r = run(bs, vec![claim(q, Rule::Between(0.8, 1.2))]);
        let j = &judge_run(&r)[0];
        assert_eq!(j.points.len(), 2, "{j:?}");
        assert!((j.points[0].value - 1.0).abs() < 1e-9);
        assert_eq!(j.points[0].outcome, Outcome::Confirmed);
        assert!(j.points[1].value.abs() < 1e-9);
        assert_eq!(j.verdict, Verdict::Mixed);
    }

    #[test]
    fn missing_numbers_are_named_not_judged() {
        let q = Quantity::value(Operand::new(Metric::family("products_per_frame"), "a", "w"));
        let mut unsupported = counted("a", 10, 1.0);
        unsupported.status = Status::Unsupported;
        unsupported.reason = Some("too deep".into());
        let mut no_metrics = counted("a", 20, 1.0);
        no_metrics.metrics = None;
        let r = run(
            vec![unsupported, no_metrics.clone()],
            vec![claim(q.clone(), Rule::AtMost(1.0))],
        );
        let j = &judge_run(&r)[0];
        assert_eq!(j.verdict, Verdict::NotMeasured);
        assert_eq!(j.missing.len(), 1, "{:?}", j.missing);
        assert!(
            j.missing[0].contains("unsupported (too deep)"),
            "{:?}",
            j.missing
        );
        // No size has the metric: every size says so.
        let r2 = run(vec![no_metrics], vec![claim(q, Rule::AtMost(1.0))]);
        let j = &judge_run(&r2)[0];
        assert!(j.missing[0].contains("not measured"), "{:?}", j.missing);
        let mut with = counted("a", 30, 1.0);
        with.metrics = Some(FamilyMetrics {
            family: Family::Transforms,
            values: [("products_per_frame".to_string(), MetricValue::Number(0.5))].into(),
        });
        let r = run(vec![with], r.families[0].claims.clone());
        assert_eq!(judge_run(&r)[0].verdict, Verdict::Confirmed);
        assert_eq!(
            tally(&judge_run(&r))[0],
            (Verdict::Confirmed, 1),
            "the tally counts it"
        );
    }

    #[test]
    fn a_replay_past_the_designs_limits_is_a_value_of_the_verified_metric() {
        let q = Quantity::value(Operand::new(Metric::Verified, "a", "w"));
        let mut wrapped = counted("a", 10, 1.0);
        wrapped.status = Status::Unsupported;
        wrapped.reason = Some("generation wrapped".into());
        let r = run(
            vec![wrapped, counted("a", 20, 1.0)],
            vec![claim(q, Rule::AtMost(0.0))],
        );
        let j = &judge_run(&r)[0];
        assert_eq!(j.points[0].value, 0.0);
        assert_eq!(j.points[0].how, "unsupported: generation wrapped");
        assert_eq!(j.points[1].outcome, Outcome::Refuted);
        assert_eq!(j.verdict, Verdict::Mixed);
    }

    #[test]
    fn a_trace_refused_before_the_replay_is_no_answer_to_judge() {
        let q = Quantity::value(Operand::new(Metric::Verified, "a", "w"));
        let mut refused = counted("a", 65_536, 1.0);
        refused.status = Status::Unsupported;
        refused.refused = true;
        refused.reason = Some("fixed capacity 64512".into());
        let r = run(
            vec![counted("a", 1_000, 1.0), refused],
            vec![claim(q, Rule::AtLeast(1.0))],
        );
        let j = &judge_run(&r)[0];
        assert_eq!(j.points.len(), 1, "only the size the design accepts");
        assert_eq!(j.points[0].n, Some(1_000));
        assert_eq!(j.verdict, Verdict::Confirmed);
        assert!(
            j.missing[0].contains("refused before the replay")
                && j.missing[0].contains("fixed capacity 64512"),
            "{:?}",
            j.missing
        );
    }

    #[test]
    fn a_claim_is_judged_only_at_the_sizes_it_is_about() {
        let q = Quantity::ratio(
            Operand::new(Metric::Instructions, "a", "w"),
            Operand::new(Metric::Instructions, "b", "w"),
        );
        let benchmarks = vec![
            counted("a", 1_000, 3.0),
            counted("b", 1_000, 1.0),
            counted("a", 100_000, 1.0),
            counted("b", 100_000, 2.0),
        ];
        let mut every = claim(q, Rule::AtMost(1.0));
        let r = run(benchmarks.clone(), vec![every.clone()]);
        assert_eq!(judge_run(&r)[0].verdict, Verdict::Mixed);
        every.sizes = crate::claim::Sizes::at_least(65_536);
        let r = run(benchmarks, vec![every]);
        let j = &judge_run(&r)[0];
        assert_eq!(j.verdict, Verdict::Confirmed);
        assert_eq!(j.points.len(), 1);
        assert_eq!(j.outside, vec![1_000]);
        let text = render_text(&judge_run(&r));
        assert!(
            text.contains("not judged (the claim is about N ≥ 65536): N = 1000"),
            "{text}"
        );
    }

    #[test]
    fn a_claim_built_to_hold_reads_holds_by_construction_and_can_still_fail() {
        let q = Quantity::value(Operand::new(Metric::Instructions, "a", "w"));
        let mut c = claim(q, Rule::AtLeast(1.0));
        c.by_construction = true;
        let r = run(vec![counted("a", 10, 1.0)], vec![c.clone()]);
        assert_eq!(judge_run(&r)[0].verdict, Verdict::HoldsByConstruction);
        assert_eq!(tally(&judge_run(&r))[1], (Verdict::HoldsByConstruction, 1));
        let r = run(vec![counted("a", 10, 0.5)], vec![c]);
        assert_eq!(judge_run(&r)[0].verdict, Verdict::Refuted);
    }

    #[test]
    fn unknown_family_metric_names_are_declaration_errors() {
        let ok = claim(
            Quantity::value(Operand::new(Metric::family("products_per_frame"), "a", "w")),
            Rule::AtMost(1.0),
        );
        let section = MetricSection {
            title: "work".into(),
            rank_by: "products_per_frame".into(),
            specs: vec![MetricSpec::per_design(
                "products_per_frame",
                "p / f",
                Unit::Number,
            )],
        };
        assert!(check_metric_names(&ok, Some(&section)).is_ok());
        let typo = claim(
            Quantity::value(Operand::new(Metric::family("product_per_frame"), "a", "w")),
            Rule::AtMost(1.0),
        );
        let e = check_metric_names(&typo, Some(&section)).unwrap_err();
        assert!(e.contains("products_per_frame"), "{e}");
        assert!(check_metric_names(&ok, None).is_err());
    }
}
