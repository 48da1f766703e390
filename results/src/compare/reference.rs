//! Which design normalises each family's times: the family's reference design, from the NEW
//! run's `families`, else BASE's, else the built-in table ([`FamilyRecord::builtin`]); or one
//! design named explicitly (`--reference NAME`) for every family.
//!
//! Reference loops (family `reference`) are normalised by the reference design of the family
//! whose workload they ran on.

use std::collections::BTreeMap;

use super::error::CompareError;
use super::metrics::{Measured, TIME_METRIC};
use super::run::{BenchKey, Run, RunBenchmark};
use crate::family::{Family, FamilyRecord};

/// The reference design of every family, resolved for one comparison or history entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct References {
    /// Family → design; every family with designs has an entry.
    by_family: BTreeMap<Family, String>,
    /// The explicit override, if one was given.
    explicit: Option<String>,
}

impl References {
    /// Resolves the reference design of every family for comparing `base` (if any) with
    /// `new`: `explicit` for every family when given, else each family's record in `new`,
    /// else in `base`, else the built-in one.
    ///
    /// # Errors
    /// [`CompareError::UnknownReference`] when `explicit` names a design no benchmark of
    /// either run has (time would silently never be judged); the error lists the designs.
    pub fn resolve(
        base: Option<&Run>,
        new: &Run,
        explicit: Option<&str>,
    ) -> Result<Self, CompareError> {
        let runs: Vec<&Run> = base.into_iter().chain([new]).collect();
        if let Some(name) = explicit {
            let known = runs
                .iter()
                .flat_map(|r| &r.benchmarks)
                .any(|b| b.key.design == name);
            if !known {
                let mut designs: Vec<String> = runs
                    .iter()
                    .flat_map(|r| &r.benchmarks)
                    .map(|b| b.key.design.clone())
                    .collect();
                designs.sort_unstable();
                designs.dedup();
                return Err(CompareError::UnknownReference {
                    name: name.to_string(),
                    designs,
                });
            }
        }
        let by_family = Family::ALL
            .into_iter()
            .filter(|f| !f.is_reference())
            .filter_map(|family| {
                let design = match explicit {
                    Some(name) => name.to_string(),
                    None => {
                        [Some(new), base]
                            .into_iter()
                            .flatten()
                            .flat_map(|r| &r.families)
                            .find(|r| r.family == family)
                            .cloned()
                            .or_else(|| FamilyRecord::builtin(family))?
                            .reference_design
                    }
                };
                Some((family, design))
            })
            .collect();
        Ok(Self {
            by_family,
            explicit: explicit.map(str::to_string),
        })
    }

    /// The reference design of `family` (not of [`Family::Reference`]: reference loops take
    /// the one of the family they ran beside, see [`Run::time_vs_reference`]).
    pub fn design_for(&self, family: Family) -> Option<&str> {
        self.by_family.get(&family).map(String::as_str)
    }

    /// Family → reference design, for storing beside normalised numbers.
    pub fn by_family(&self) -> &BTreeMap<Family, String> {
        &self.by_family
    }

    /// The reference design that normalises the time of `key` in `run`: its family's, or for
    /// a reference loop that of the family it ran beside ([`Run::group_family`]).
    pub fn design_of(&self, run: &Run, key: &BenchKey) -> Option<&str> {
        self.design_for(run.group_family(key)?)
    }

    /// `ns_per_op` of the benchmark `key` of `run` divided by its reference design's
    /// ([`References::design_of`]) on the same workload and n in the same run, with a
    /// conservative interval `[lower / ref.upper, upper / ref.lower]`, so the reference's own
    /// noise widens it. `None` when either has no time. The reference is looked up in the
    /// benchmark's family first, then in any family (an explicit reference may be a
    /// reference loop).
    pub fn time_vs_reference(&self, run: &Run, key: &BenchKey) -> Option<Measured> {
        let reference = self.design_of(run, key)?;
        let time = run.get(key)?.metrics.get(TIME_METRIC)?;
        let same = |b: &&RunBenchmark| {
            b.key.design == reference && b.key.workload == key.workload && b.key.n == key.n
        };
        let reference = run
            .benchmarks
            .iter()
            .filter(same)
            .find(|b| b.key.family == key.family)
            .or_else(|| run.benchmarks.iter().find(same))?;
        let r = reference.metrics.get(TIME_METRIC)?;
        if r.value <= 0.0 {
            return None;
        }
        let ratio = |num: Option<f64>, den: Option<f64>| match (num, den) {
            (Some(a), Some(b)) if b > 0.0 => Some(a / b),
            _ => None,
        };
        Some(Measured {
            value: time.value / r.value,
            lower: ratio(time.lower, r.upper),
            upper: ratio(time.upper, r.lower),
        })
    }

    /// The explicit override, if one was given.
    pub fn explicit(&self) -> Option<&str> {
        self.explicit.as_deref()
    }

    /// For tables: `holey` when one design serves every family, else `each family's
    /// reference design (id_table: holey; tags: vec_of_vecs; ...)`. Plain text: Markdown
    /// output escapes it whole.
    pub fn describe(&self) -> String {
        if let Some(name) = &self.explicit {
            return name.clone();
        }
        let list: Vec<String> = self
            .by_family
            .iter()
            .map(|(f, d)| format!("{f}: {d}"))
            .collect();
        format!("each family's reference design ({})", list.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Status;
    use std::path::PathBuf;

    fn run(families: Vec<FamilyRecord>, designs: &[&str]) -> Run {
        Run {
            path: PathBuf::from("x"),
            commit: "c".into(),
            created_unix: None,
            mode: None,
            schema_version: 4,
            is_baseline: false,
            sim: None,
            families,
            benchmarks: designs
                .iter()
                .map(|d| RunBenchmark {
                    key: BenchKey {
                        family: Family::IdTable,
                        workload: "churn".into(),
                        design: d.to_string(),
                        n: 1,
                    },
                    ops: 1,
                    status: Status::Verified,
                    seed: None,
                    metrics: Default::default(),
                })
                .collect(),
            steps: Vec::new(),
            machine: None,
        }
    }

    fn record(family: Family, design: &str) -> FamilyRecord {
        FamilyRecord {
            family,
            title: String::new(),
            reference_design: design.into(),
            claims: Vec::new(),
            untested: Vec::new(),
            metrics: None,
            no_loops: None,
        }
    }

    #[test]
    fn new_runs_families_then_bases_then_builtin() {
        let base = run(
            vec![
                record(Family::IdTable, "packed"),
                record(Family::Tags, "sparse"),
            ],
            &["holey"],
        );
        let new = run(vec![record(Family::IdTable, "pool")], &["holey"]);
        let r = References::resolve(Some(&base), &new, None).unwrap();
        assert_eq!(r.design_for(Family::IdTable), Some("pool"));
        assert_eq!(r.design_for(Family::Tags), Some("sparse"));
        assert_eq!(r.design_for(Family::Alloc), Some("buddy"));
        assert_eq!(r.design_for(Family::Reference), None);
        assert!(r.describe().contains("id_table: pool"), "{}", r.describe());
    }

    #[test]
    fn an_explicit_reference_applies_to_every_family_and_must_exist() {
        let new = run(Vec::new(), &["holey", "pool"]);
        let r = References::resolve(None, &new, Some("pool")).unwrap();
        assert_eq!(r.design_for(Family::Alloc), Some("pool"));
        assert_eq!(r.describe(), "pool");
        let e = References::resolve(None, &new, Some("hooley"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"hooley\""), "{e}");
        assert!(e.contains("holey, pool"), "{e}");
    }
}
