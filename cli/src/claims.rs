//! `dodbench claims`: the articles' quantitative claims judged on a results file, as text (the
//! report's `claims.html` shows the same judgements).

use std::path::PathBuf;

use anyhow::Result;
use bench_harness::families::{FamilyVisitor, for_each_family};
use bench_harness::replay::Family;
use results::{FamilyRecord, Results, default_results_path};

use crate::Gate;

/// Judges the claims `results` (default `target/dodbench/results.json`) records, or with
/// `current` the claims this build declares (a file written before a claim was added or
/// changed), and prints every judgement and the tally (with `json`, the judgements as a JSON
/// array: each claim, its points, verdict and what is missing).
///
/// # Errors
/// The file cannot be read or is not a results file.
pub fn run(results: Option<PathBuf>, current: bool, json: bool) -> Result<Gate> {
    let path = results.unwrap_or_else(default_results_path);
    let mut run = Results::load(&path)?;
    if current {
        redeclare(&mut run);
    }
    let judgements = results::verdict::judge_run(&run);
    if json {
        println!("{}", serde_json::to_string_pretty(&judgements)?);
    } else {
        print!("{}", results::verdict::render_text(&judgements));
        print!(
            "{}",
            results::verdict::render_untested_text(&results::verdict::untested(&run))
        );
    }
    Ok(Gate::Pass)
}

/// Every family's record (claims and untested statements included) as this build declares it.
pub fn family_records() -> Vec<FamilyRecord> {
    struct Records(Vec<FamilyRecord>);
    impl FamilyVisitor for Records {
        fn visit<F: Family>(&mut self) {
            self.0.push(F::family_record());
        }
    }
    let mut records = Records(Vec::new());
    for_each_family(&mut records);
    records.0
}

/// Replaces the claims of every family `run` records by this build's declarations.
pub fn redeclare(run: &mut Results) {
    let records = family_records();
    for f in &mut run.families {
        if let Some(current) = records.iter().find(|r| r.family == f.family) {
            f.claims = current.claims.clone();
            f.untested = current.untested.clone();
        }
    }
}
