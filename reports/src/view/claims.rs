//! The claims page (`claims.html`): every quantitative claim of the seed articles the run
//! declares, judged on the run's own numbers by `results::verdict`, with the article's words, how
//! they were read, the measured value at each N and a link to the workload section it comes
//! from. Refuted and mixed claims come first: they are what a reader of the articles most needs
//! to know. The index's summary line comes from the same tally.

use results::Results;
use results::verdict::{Judgement, Verdict, judge_run, shorten, tally, untested};
use serde::Serialize;

use super::Filters;
use super::names::push_unique;
use super::page::FamilyView;

/// The claims page.
#[derive(Debug, Serialize)]
pub struct ClaimsView {
    /// File name of the page.
    pub page: String,
    /// How many claims have each verdict, in `Verdict::ALL` order (verdicts no claim has are
    /// left out).
    pub tally: Vec<TallyView>,
    /// One sentence for the index, e.g. `38 claims of the articles judged on this run: 20
    /// confirmed, 6 refuted, ...`; empty when the run declares none.
    pub summary: String,
    /// The machine whose run judged them (several machines: the first).
    pub machine: String,
    /// One row per claim: refuted, mixed by size, undecided, confirmed, holds by construction,
    /// then not measured; catalogue order within each.
    pub rows: Vec<ClaimRow>,
    /// The catalogue's statements no claim tests, with the reason, in family order.
    pub untested: Vec<UntestedRow>,
    /// Filter choices (verdict, family).
    pub filters: Filters,
}

/// A statement of the catalogue no claim tests.
#[derive(Debug, Serialize)]
pub struct UntestedRow {
    /// Catalogue ID.
    pub id: String,
    /// The family whose articles make it.
    pub family: String,
    /// The article.
    pub source: String,
    /// The article's words.
    pub quote: String,
    /// Why no claim tests it.
    pub reason: String,
}

/// How many claims have one verdict.
#[derive(Debug, Serialize)]
pub struct TallyView {
    /// The verdict's word.
    pub verdict: String,
    /// Its CSS class.
    pub class: String,
    /// Claims with it.
    pub count: usize,
}

/// One claim.
#[derive(Debug, Serialize)]
pub struct ClaimRow {
    /// Catalogue ID.
    pub id: String,
    /// HTML id of the row.
    pub anchor: String,
    /// The family that measures it.
    pub family: String,
    /// The article.
    pub source: String,
    /// The article's words.
    pub quote: String,
    /// The article's words in one line, for the compact table.
    pub quote_short: String,
    /// How they were read as a test.
    pub reading: String,
    /// What was measured and the confirming values, e.g. `instructions per work unit of a on
    /// w ÷ ... ≤ 0.5`.
    pub measured: String,
    /// Whether it is judged on deterministic counts (`counts`) or on time (`time`).
    pub basis: String,
    /// The verdict's word.
    pub verdict: String,
    /// Its CSS class.
    pub class: String,
    /// The value at each N, in words.
    pub points: Vec<String>,
    /// The value at each N in one line, for the compact table.
    pub values: String,
    /// What the run lacks for sizes or operands without a number.
    pub missing: Vec<String>,
    /// The sizes the claim is judged at, when its words limit them (`N ≥ 100000`); empty for
    /// every size.
    pub sizes: String,
    /// Sizes the run measured outside them, shown but not judged (`1000, 16384`).
    pub outside: String,
    /// Where the article's own arithmetic or setup differs.
    pub note: String,
    /// The workload section the numbers come from (`page#anchor`), when the report has it.
    pub link: Option<String>,
}

fn class(v: Verdict) -> &'static str {
    match v {
        Verdict::Confirmed => "confirmed",
        Verdict::HoldsByConstruction => "by-construction",
        Verdict::Refuted => "refuted",
        Verdict::Mixed | Verdict::Crossover => "mixed",
        Verdict::Undecided => "undecided",
        Verdict::NotMeasured => "not-measured",
    }
}

/// Where a verdict sorts: the ones a reader must see first on top.
fn order(v: Verdict) -> u8 {
    match v {
        Verdict::Refuted => 0,
        Verdict::Mixed | Verdict::Crossover => 1,
        Verdict::Undecided => 2,
        Verdict::Confirmed => 3,
        Verdict::HoldsByConstruction => 4,
        Verdict::NotMeasured => 5,
    }
}

/// The claims of `results` judged, linked into `families`' pages.
pub(super) fn build_claims(results: &Results, page: &str, families: &[FamilyView]) -> ClaimsView {
    let mut judgements: Vec<Judgement<'_>> = judge_run(results);
    judgements.sort_by_key(|j| order(j.verdict));
    let counts: Vec<TallyView> = tally(&judgements)
        .into_iter()
        .filter(|&(_, count)| count > 0)
        .map(|(v, count)| TallyView {
            verdict: v.as_str().to_string(),
            class: class(v).to_string(),
            count,
        })
        .collect();
    let summary = if judgements.is_empty() {
        String::new()
    } else {
        let parts: Vec<String> = counts
            .iter()
            .map(|t| format!("{} {}", t.count, t.verdict))
            .collect();
        format!(
            "{} claims of the articles judged on this run: {}.",
            judgements.len(),
            parts.join(", ")
        )
    };
    let mut filters = Filters::default();
    let rows = judgements
        .iter()
        .map(|j| {
            push_unique(&mut filters.family, j.family.as_str());
            let c = j.claim;
            let first = c.quantity.operands()[0];
            let link = families
                .iter()
                .find(|f| f.name == j.family.as_str())
                .and_then(|f| {
                    f.workloads
                        .iter()
                        .find(|w| w.name == first.workload)
                        .map(|w| format!("{}#{}", f.page, w.anchor))
                });
            ClaimRow {
                id: c.id.clone(),
                anchor: format!("claim-{}", c.id),
                family: j.family.to_string(),
                source: c.source.clone(),
                quote: c.quote.clone(),
                quote_short: shorten(&c.quote, 60),
                reading: c.reading.clone(),
                measured: format!("{} {}", c.quantity, c.rule),
                basis: if c.quantity.is_deterministic() {
                    "counts"
                } else {
                    "time"
                }
                .to_string(),
                verdict: j.verdict.as_str().to_string(),
                class: class(j.verdict).to_string(),
                points: j.points.iter().map(|p| p.describe()).collect(),
                values: j.values_in_short(),
                missing: j.missing.clone(),
                sizes: if c.sizes.is_every() {
                    String::new()
                } else {
                    c.sizes.to_string()
                },
                outside: j
                    .outside
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                note: c.note.clone().unwrap_or_default(),
                link,
            }
        })
        .collect::<Vec<_>>();
    for t in &counts {
        push_unique(&mut filters.verdict, &t.verdict);
    }
    ClaimsView {
        page: page.to_string(),
        tally: counts,
        summary,
        machine: results.machine.name.clone(),
        rows,
        untested: untested(results)
            .into_iter()
            .map(|(family, u)| UntestedRow {
                id: u.id.clone(),
                family: family.to_string(),
                source: u.source.clone(),
                quote: u.quote.clone(),
                reason: u.reason.clone(),
            })
            .collect(),
        filters,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::test_runs;

    #[test]
    fn refuted_claims_come_first_and_the_summary_counts_every_claim() {
        let results = test_runs::with_claims();
        let view = build_claims(&results, "claims.html", &[]);
        assert!(!view.rows.is_empty());
        let orders: Vec<u8> = view
            .rows
            .iter()
            .map(|r| {
                let v = Verdict::ALL
                    .into_iter()
                    .find(|v| v.as_str() == r.verdict)
                    .unwrap();
                order(v)
            })
            .collect();
        assert!(orders.windows(2).all(|w| w[0] <= w[1]), "{orders:?}");
        let total: usize = view.tally.iter().map(|t| t.count).sum();
        assert_eq!(total, view.rows.len());
        assert!(
            view.summary
                .starts_with(&format!("{} claims of the articles", view.rows.len())),
            "{}",
            view.summary
        );
    }
}
