//! The rules that classify each change, and the comparison of two runs.
//!
//! * **Deterministic metrics** (simulated instructions and misses, bytes per object, allocator
//!   calls) regress when they move the bad way by more than `threshold_det` (2%) of the base
//!   value *and* by more than the metric's `min_abs_change`. A regression fails the gate.
//! * **Time** (`ns_per_op`) is compared normalised by the family's reference design (see
//!   [`References`]: the run's `families`, else the built-in table of
//!   [`FamilyRecord::builtin`](crate::family::FamilyRecord::builtin), unless
//!   [`Rules::reference`] overrides it) on the same workload and n in the same run, so machine-wide drift cancels. A change is
//!   flagged only when it exceeds `threshold_time` (10%) *and* the two runs' normalised
//!   confidence intervals do not overlap. Time changes are printed, never fail the gate.
//!   Without the reference in both runs, time is not judged.
//! * **Status**: a benchmark that was verified and no longer is (failed, unsupported) is a
//!   regression; the reverse an improvement.
//! * Benchmarks only in NEW are `new` and pass. A benchmark only in BASE is `not run
//!   (filtered)` when a step of NEW records a selection that excluded it (see
//!   [`StepRecord`](crate::step::StepRecord)), and passes; otherwise it is `gone` and **fails
//!   the gate**: a crashed step, a removed design or an empty file must not pass.
//! * A NEW with no benchmarks at all fails the gate, whatever its selection.

use std::collections::BTreeMap;

use super::error::CompareError;
use super::metrics::{Better, LAYOUT_SENSITIVE, Measured, MetricDef, MetricKind};
use super::reference::References;
use super::run::{BenchKey, Run, RunBenchmark};

/// Thresholds of the rules; the defaults are the CI gate's.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// Relative tolerance of deterministic metrics (0.02 = 2%).
    pub threshold_det: f64,
    /// Relative change of normalised time that can be flagged (0.10 = 10%), for a benchmark
    /// without a [`Rules::noise`] band.
    pub threshold_time: f64,
    /// A design whose time normalises the others on the same workload and n in every
    /// family; `None` (the default) uses each family's own reference design (see
    /// [`References::resolve`]).
    pub reference: Option<String>,
    /// Each benchmark's time noise learned from a history
    /// ([`crate::history::noise_bands`]): where a benchmark has one, its band replaces
    /// `threshold_time`. Empty by default.
    pub noise: BTreeMap<BenchKey, NoiseBand>,
}

/// How far a benchmark's normalised time moved over its last runs in a history: the spread
/// of those runs' times over the reference design, `(largest - smallest) / median`. A change
/// beyond it is a change no two of those runs showed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NoiseBand {
    /// The runs it was learned from.
    pub runs: usize,
    /// The relative spread.
    pub spread: f64,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            threshold_det: 0.02,
            threshold_time: 0.10,
            reference: None,
            noise: BTreeMap::new(),
        }
    }
}

/// How one metric (or a whole benchmark) changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Worse beyond the rule's threshold.
    Regressed,
    /// Better beyond the rule's threshold.
    Improved,
    /// Only in NEW.
    New,
    /// Only in BASE, and nothing in NEW says why: fails the gate.
    Gone,
    /// Only in BASE, left out by a selection NEW records (a filter, a scale, `--family`).
    NotRun,
    /// Within the threshold (or not judged; see the row's note).
    Unchanged,
    /// Beyond the threshold on a metric with no better direction (a figure the trace fixes):
    /// shown, never gating, never counted as better or worse.
    Changed,
}

impl Verdict {
    /// Lower-case label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::New => "new",
            Verdict::Gone => "gone",
            Verdict::NotRun => "not run (filtered)",
            Verdict::Unchanged => "unchanged",
            Verdict::Changed => "changed",
        }
    }
}

/// One line of the comparison: a metric of a benchmark, or the benchmark itself (`metric`
/// `status` for verification changes and new/gone benchmarks).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The benchmark.
    pub key: BenchKey,
    /// Metric name, or `status`.
    pub metric: String,
    /// Deterministic rows can fail the gate; time rows never do.
    pub kind: MetricKind,
    /// Value in BASE (for time: normalised by the reference).
    pub base: Option<Measured>,
    /// Value in NEW.
    pub new: Option<Measured>,
    /// `new / base - 1`, when both are known and base is non-zero.
    pub change: Option<f64>,
    /// The classification.
    pub verdict: Verdict,
    /// Why, when the numbers alone do not say it (e.g. "not judged: no holey in NEW").
    pub note: String,
}

impl Row {
    /// Whether this row fails the gate: a regression of a deterministic metric or status,
    /// except the layout-sensitive miss counts (see [`LAYOUT_SENSITIVE`]), which are shown
    /// but never gate.
    pub fn fails_gate(&self) -> bool {
        match self.verdict {
            Verdict::Gone => true,
            Verdict::Regressed => {
                self.kind == MetricKind::Deterministic
                    && !LAYOUT_SENSITIVE.contains(&self.metric.as_str())
            }
            _ => false,
        }
    }
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Rules used.
    pub rules: Rules,
    /// The reference design of each family the times were normalised by.
    pub references: References,
    /// BASE commit.
    pub base_commit: String,
    /// NEW commit.
    pub new_commit: String,
    /// Every row, sorted by key then metric.
    pub rows: Vec<Row>,
    /// Run-level remarks (metrics only on one side, missing reference, ...).
    pub warnings: Vec<String>,
    /// Run-level reasons the gate fails beyond its rows (e.g. NEW has no benchmarks).
    pub problems: Vec<String>,
}

impl Comparison {
    /// Rows that fail the gate.
    pub fn regressions(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.fails_gate())
    }

    /// Whether any row or run-level problem fails the gate (the CLI exits 1).
    pub fn gate_failed(&self) -> bool {
        !self.problems.is_empty() || self.regressions().next().is_some()
    }

    /// Number of rows with this verdict and kind.
    pub fn count(&self, verdict: Verdict, kind: MetricKind) -> usize {
        self.rows
            .iter()
            .filter(|r| r.verdict == verdict && r.kind == kind)
            .count()
    }
}

/// Compares NEW against BASE under `rules`.
///
/// # Errors
/// [`CompareError::SimConfigMismatch`] when both runs carry simulated counts from different
/// cache hierarchies, [`CompareError::SeedMismatch`] when a benchmark was run on a trace of
/// another seed: the numbers are then not comparable, whatever they say.
/// [`CompareError::UnknownReference`] when [`Rules::reference`] names a design neither run
/// has.
pub fn compare(base: &Run, new: &Run, rules: &Rules) -> Result<Comparison, CompareError> {
    let references = References::resolve(Some(base), new, rules.reference.as_deref())?;
    check_same_sim(base, new)?;
    let mut rows = Vec::new();
    // (side, metric) -> (benchmarks, first example)
    let mut one_sided: BTreeMap<(&str, String), (usize, String)> = BTreeMap::new();
    let defs = metric_defs_of_both(base, new);
    let mut metric_only_in = |side: &'static str, metric: &str, key: &BenchKey| {
        one_sided
            .entry((side, metric.to_string()))
            .or_insert_with(|| (0, key.to_string()))
            .0 += 1;
    };
    // reference design -> time comparisons not judged for want of it
    let mut time_unjudged: BTreeMap<String, usize> = BTreeMap::new();
    for b in &base.benchmarks {
        let Some(n) = new.get(&b.key) else {
            rows.push(absent_from_new_row(b, new));
            continue;
        };
        check_same_seed(b, n)?;
        if let Some(row) = status_row(b, n) {
            rows.push(row);
        }
        let ops_note = if b.ops != n.ops {
            format!("trace changed: {} -> {} ops", b.ops, n.ops)
        } else {
            String::new()
        };
        for def in &defs {
            match (b.metrics.get(&*def.name), n.metrics.get(&*def.name)) {
                (None, None) => {}
                (Some(_), None) if b.is_verified() && n.is_verified() => {
                    metric_only_in("BASE", &def.name, &b.key)
                }
                (None, Some(_)) if def.kind == MetricKind::Deterministic && b.is_verified() => {
                    metric_only_in("NEW", &def.name, &b.key)
                }
                (Some(bv), Some(nv)) => {
                    let row = match def.kind {
                        MetricKind::Deterministic | MetricKind::Shown => {
                            det_row(def, &b.key, *bv, *nv, rules)
                        }
                        MetricKind::Time => {
                            let reference = references
                                .design_of(new, &n.key)
                                .or_else(|| references.design_of(base, &b.key));
                            let bn = references.time_vs_reference(base, &b.key);
                            let nn = references.time_vs_reference(new, &n.key);
                            let row = time_row(def, &b.key, reference, bn, nn, *bv, *nv, rules);
                            if row.note.starts_with("not judged") {
                                *time_unjudged
                                    .entry(reference.unwrap_or("(none)").to_string())
                                    .or_default() += 1;
                            }
                            row
                        }
                    };
                    let mut row = row;
                    if !ops_note.is_empty() {
                        row.note = join_notes(&row.note, &ops_note);
                    }
                    rows.push(row);
                }
                _ => {}
            }
        }
    }
    for n in &new.benchmarks {
        if base.get(&n.key).is_none() {
            rows.push(benchmark_row(&n.key, Verdict::New, n));
        }
    }
    let warnings = comparison_warnings(&rows, one_sided, time_unjudged);
    let problems = run_problems(new);
    rows.sort_by(|a, b| (&a.key, &a.metric).cmp(&(&b.key, &b.metric)));
    Ok(Comparison {
        rules: rules.clone(),
        references,
        base_commit: base.commit.clone(),
        new_commit: new.commit.clone(),
        rows,
        warnings,
        problems,
    })
}

/// An error when both runs carry simulated counts from different cache hierarchies.
fn check_same_sim(base: &Run, new: &Run) -> Result<(), CompareError> {
    if let (Some(b), Some(n)) = (&base.sim, &new.sim) {
        if b != n {
            return Err(CompareError::SimConfigMismatch {
                base: b.to_string(),
                new: n.to_string(),
            });
        }
    }
    Ok(())
}

/// The shared metrics, then each family metric either run declares (NEW's first).
fn metric_defs_of_both(base: &Run, new: &Run) -> Vec<MetricDef> {
    let mut defs = new.metric_defs();
    for d in base.metric_defs() {
        if !defs.iter().any(|x| x.name == d.name) {
            defs.push(d);
        }
    }
    defs
}

/// The status row of BASE benchmark `b` that NEW lacks: not run when NEW left it out, else gone.
fn absent_from_new_row(b: &RunBenchmark, new: &Run) -> Row {
    match new.excluded_by(&b.key) {
        Some(step) => status_change(
            &b.key,
            Verdict::NotRun,
            format!("excluded by {}", step.describe()),
        ),
        None if new.only_the_bench_ran_beside(&b.key) => status_change(
            &b.key,
            Verdict::NotRun,
            "a size only the measurement passes run (NEW ran the bench alone, which \
             never runs this size): `dodbench cache --quick`, `memory`, `latency` \
             and `sweep` add it"
                .to_string(),
        ),
        None => status_change(
            &b.key,
            Verdict::Gone,
            format!(
                "{} in BASE, absent from NEW, and no step of NEW excluded it",
                b.status
            ),
        ),
    }
}

/// An error when the two runs of one benchmark replayed traces of different seeds.
fn check_same_seed(b: &RunBenchmark, n: &RunBenchmark) -> Result<(), CompareError> {
    if let (Some(bs), Some(ns)) = (b.seed, n.seed) {
        if bs != ns {
            return Err(CompareError::SeedMismatch {
                key: b.key.to_string(),
                base: bs,
                new: ns,
            });
        }
    }
    Ok(())
}

/// The run-level warnings: one-sided metrics, unjudged times, no deterministic comparison.
fn comparison_warnings(
    rows: &[Row],
    one_sided: BTreeMap<(&str, String), (usize, String)>,
    time_unjudged: BTreeMap<String, usize>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for ((side, metric), (count, example)) in one_sided {
        warnings.push(format!(
            "metric {metric} only in {side} for {count} benchmarks (e.g. {example}): not compared"
        ));
    }
    for (reference, count) in time_unjudged {
        warnings.push(format!(
            "{count} time comparisons not judged: reference design {reference:?} missing on \
             their workload and n in one of the runs"
        ));
    }
    let compared_det = rows
        .iter()
        .filter(|r| {
            r.kind == MetricKind::Deterministic
                && r.metric != "status"
                && r.base.is_some()
                && r.new.is_some()
        })
        .count();
    if compared_det == 0 {
        warnings.push(
            "no deterministic metric was compared: the gate checked verification status only"
                .to_string(),
        );
    }
    warnings
}

/// The run-level problems that fail the gate: a NEW with no benchmarks.
fn run_problems(new: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    if new.benchmarks.is_empty() {
        problems.push(format!(
            "NEW ({}) has no benchmarks: nothing was measured",
            new.path.display()
        ));
    }
    problems
}

fn join_notes(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_string()
    } else {
        format!("{a}; {b}")
    }
}

fn benchmark_row(key: &BenchKey, verdict: Verdict, b: &RunBenchmark) -> Row {
    status_change(key, verdict, b.status.to_string())
}

/// A row of the `status` metric (a benchmark gone, new, or verified in one run only).
fn status_change(key: &BenchKey, verdict: Verdict, note: String) -> Row {
    Row {
        key: key.clone(),
        metric: "status".to_string(),
        kind: MetricKind::Deterministic,
        base: None,
        new: None,
        change: None,
        verdict,
        note,
    }
}

fn status_row(b: &RunBenchmark, n: &RunBenchmark) -> Option<Row> {
    let verdict = match (b.is_verified(), n.is_verified()) {
        (true, false) => Verdict::Regressed,
        (false, true) => Verdict::Improved,
        _ if b.status != n.status => Verdict::Unchanged,
        _ => return None,
    };
    Some(status_change(
        &b.key,
        verdict,
        format!("{} -> {}", b.status, n.status),
    ))
}

/// `new / base - 1`; `None` for a zero base.
fn relative(base: f64, new: f64) -> Option<f64> {
    (base != 0.0).then(|| new / base - 1.0)
}

/// +1 when `new` is worse than `base` in the metric's direction, -1 when better.
fn worse_sign(def: &MetricDef, base: f64, new: f64) -> f64 {
    let d = new - base;
    match def.better {
        Better::Lower => d.signum(),
        Better::Higher => -d.signum(),
        Better::Neither => 0.0,
    }
}

fn det_row(def: &MetricDef, key: &BenchKey, b: Measured, n: Measured, rules: &Rules) -> Row {
    let abs = (n.value - b.value).abs();
    let beyond = abs > def.min_abs_change && abs > rules.threshold_det * b.value.abs();
    let verdict = if !beyond || b.value == n.value {
        Verdict::Unchanged
    } else if def.better == Better::Neither {
        Verdict::Changed
    } else if worse_sign(def, b.value, n.value) > 0.0 {
        Verdict::Regressed
    } else {
        Verdict::Improved
    };
    Row {
        key: key.clone(),
        metric: def.name.to_string(),
        kind: def.kind,
        base: Some(b),
        new: Some(n),
        change: relative(b.value, n.value),
        verdict,
        note: String::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn time_row(
    def: &MetricDef,
    key: &BenchKey,
    reference: Option<&str>,
    base_norm: Option<Measured>,
    new_norm: Option<Measured>,
    base_raw: Measured,
    new_raw: Measured,
    rules: &Rules,
) -> Row {
    let mut row = Row {
        key: key.clone(),
        metric: def.name.to_string(),
        kind: def.kind,
        base: Some(base_raw),
        new: Some(new_raw),
        change: relative(base_raw.value, new_raw.value),
        verdict: Verdict::Unchanged,
        note: String::new(),
    };
    let Some(reference) = reference else {
        row.note = "not judged: no reference design for this benchmark's family".to_string();
        return row;
    };
    if key.design == reference {
        row.note = "reference design: raw time, not judged".to_string();
        return row;
    }
    let (Some(b), Some(n)) = (base_norm, new_norm) else {
        row.note = format!("not judged: no {reference} time on this workload and n");
        return row;
    };
    row.base = Some(b);
    row.new = Some(n);
    row.change = relative(b.value, n.value);
    let (threshold, band) = match rules.noise.get(key) {
        Some(band) => (
            band.spread,
            format!(
                "; noise {:.1}% over its last {} runs",
                band.spread * 100.0,
                band.runs
            ),
        ),
        None => (rules.threshold_time, String::new()),
    };
    let beyond_threshold = row.change.is_some_and(|c| c.abs() > threshold);
    // Intervals overlap (or are unknown): the change is inside the two runs' noise.
    let disjoint = match (b.lower, b.upper, n.lower, n.upper) {
        (Some(bl), Some(bu), Some(nl), Some(nu)) => nl > bu || nu < bl,
        _ => false,
    };
    row.note = format!("vs {reference}{band}");
    if beyond_threshold && disjoint {
        row.verdict = if worse_sign(def, b.value, n.value) > 0.0 {
            Verdict::Regressed
        } else {
            Verdict::Improved
        };
    } else if beyond_threshold {
        row.note = format!("vs {reference}{band}; within noise");
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::metrics::{METRICS, TIME_METRIC};
    use crate::family::{Family, FamilyRecord};
    use crate::schema::Status;
    use crate::step::StepRecord;
    use std::path::PathBuf;

    fn bench(design: &str, metrics: &[(&str, Measured)]) -> RunBenchmark {
        RunBenchmark {
            key: BenchKey {
                family: Family::IdTable,
                workload: "churn".into(),
                design: design.into(),
                n: 1000,
            },
            ops: 100,
            status: Status::Verified,
            seed: Some(1),
            metrics: metrics
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect::<BTreeMap<_, _>>(),
        }
    }

    fn run(benchmarks: Vec<RunBenchmark>) -> Run {
        Run {
            path: PathBuf::from("x"),
            commit: "c".into(),
            created_unix: None,
            mode: None,
            schema_version: 2,
            is_baseline: false,
            sim: None,
            families: FamilyRecord::builtin_all(),
            benchmarks,
            steps: Vec::new(),
            machine: None,
        }
    }

    fn t(median: f64, half: f64) -> Measured {
        Measured {
            value: median,
            lower: Some(median - half),
            upper: Some(median + half),
        }
    }

    #[test]
    fn deterministic_tolerance_and_absolute_floor() {
        let rules = Rules::default();
        let ir = METRICS.iter().find(|m| m.name == "ir").unwrap();
        let key = bench("pool", &[]).key;
        let v = |b, n| det_row(ir, &key, Measured::exact(b), Measured::exact(n), &rules).verdict;
        assert_eq!(v(100.0, 101.9), Verdict::Unchanged);
        assert_eq!(v(100.0, 102.1), Verdict::Regressed);
        assert_eq!(v(100.0, 97.0), Verdict::Improved);
        let d1 = METRICS.iter().find(|m| m.name == "d1_miss").unwrap();
        let small = det_row(
            d1,
            &key,
            Measured::exact(0.0005),
            Measured::exact(0.001),
            &rules,
        );
        assert_eq!(
            small.verdict,
            Verdict::Unchanged,
            "below the absolute floor"
        );
    }

    #[test]
    fn time_needs_threshold_and_disjoint_intervals_and_never_gates() {
        let rules = Rules::default();
        let base = run(vec![
            bench("holey", &[(TIME_METRIC, t(10.0, 0.1))]),
            bench("pool", &[(TIME_METRIC, t(20.0, 0.2))]),
        ]);
        // 30% slower but with huge noise: not flagged.
        let noisy = run(vec![
            bench("holey", &[(TIME_METRIC, t(10.0, 0.1))]),
            bench("pool", &[(TIME_METRIC, t(26.0, 8.0))]),
        ]);
        let c = compare(&base, &noisy, &rules).unwrap();
        assert_eq!(c.count(Verdict::Regressed, MetricKind::Time), 0);
        // 30% slower, tight intervals: flagged, but the gate passes.
        let slow = run(vec![
            bench("holey", &[(TIME_METRIC, t(10.0, 0.1))]),
            bench("pool", &[(TIME_METRIC, t(26.0, 0.2))]),
        ]);
        let c = compare(&base, &slow, &rules).unwrap();
        assert_eq!(c.count(Verdict::Regressed, MetricKind::Time), 1);
        assert!(!c.gate_failed());
        // The whole machine 30% slower: normalised, nothing changed.
        let drift = run(vec![
            bench("holey", &[(TIME_METRIC, t(13.0, 0.1))]),
            bench("pool", &[(TIME_METRIC, t(26.0, 0.2))]),
        ]);
        let c = compare(&base, &drift, &rules).unwrap();
        assert_eq!(c.count(Verdict::Regressed, MetricKind::Time), 0);
    }

    #[test]
    fn lost_verification_and_gone_benchmarks_fail_the_gate_and_new_ones_do_not() {
        let base = run(vec![bench("pool", &[]), bench("slab", &[])]);
        let mut failed = bench("pool", &[]);
        failed.status = Status::Failed;
        let c = compare(
            &base,
            &run(vec![failed, bench("slab", &[])]),
            &Rules::default(),
        )
        .unwrap();
        assert!(c.gate_failed());
        // A design missing from NEW with nothing to explain it: gone, and the gate fails.
        let c = compare(&base, &run(vec![bench("pool", &[])]), &Rules::default()).unwrap();
        assert_eq!(c.count(Verdict::Gone, MetricKind::Deterministic), 1);
        assert!(c.gate_failed());
        let gone: Vec<_> = c.regressions().map(|r| r.key.design.as_str()).collect();
        assert_eq!(gone, ["slab"]);
        let c = compare(
            &base,
            &run(vec![
                bench("pool", &[]),
                bench("slab", &[]),
                bench("x", &[]),
            ]),
            &Rules::default(),
        )
        .unwrap();
        assert!(!c.gate_failed());
        assert_eq!(c.count(Verdict::New, MetricKind::Deterministic), 1);
    }

    #[test]
    fn a_benchmark_a_step_of_new_excluded_is_not_run_and_passes() {
        let base = run(vec![bench("pool", &[]), bench("slab", &[])]);
        let mut new = run(vec![bench("pool", &[])]);
        let slab = base.benchmarks[1].key.to_string();
        new.steps.push(StepRecord::new(
            "bench",
            "filter pool",
            [slab.clone()],
            [""; 0],
        ));
        let c = compare(&base, &new, &Rules::default()).unwrap();
        assert!(!c.gate_failed(), "{:?}", c.rows);
        assert_eq!(c.count(Verdict::NotRun, MetricKind::Deterministic), 1);
        let row = c
            .rows
            .iter()
            .find(|r| r.verdict == Verdict::NotRun)
            .unwrap();
        assert_eq!(row.note, "excluded by bench (filter pool)");
        // A step that excluded something else explains nothing.
        new.steps[0] = StepRecord::new("bench", "filter pool", ["id_table/x/y/1"], [""; 0]);
        assert!(
            compare(&base, &new, &Rules::default())
                .unwrap()
                .gate_failed()
        );
    }

    #[test]
    fn a_pass_only_size_is_not_run_when_new_ran_the_bench_alone() {
        let mut pass_only = bench("pool", &[]);
        pass_only.key.n = 4096;
        let base = run(vec![bench("pool", &[]), pass_only]);
        let mut new = run(vec![bench("pool", &[])]);
        // The bench's step excludes nothing it could have run: 4096 is not in its matrix.
        new.steps.push(StepRecord::new(
            "bench",
            "quick",
            ["id_table/x/y/1"],
            [""; 0],
        ));
        let c = compare(&base, &new, &Rules::default()).unwrap();
        assert!(!c.gate_failed(), "{:?}", c.rows);
        let row = c
            .rows
            .iter()
            .find(|r| r.verdict == Verdict::NotRun)
            .unwrap();
        assert!(row.note.contains("dodbench cache --quick"), "{}", row.note);
        // A design NEW no longer has at any size is gone, bench alone or not.
        let c = compare(&base, &run(vec![bench("slab", &[])]), &Rules::default()).unwrap();
        assert!(c.gate_failed());
        // A filtered bench (a quick bench with a filter, then the gate, as in
        // docs/comparing-runs.md): a design the filter left out at the bench's sizes is not run
        // at the passes' size either.
        let mut filtered = run(vec![bench("slab", &[])]);
        let pool_at_bench_size = base.benchmarks[0].key.to_string();
        filtered.steps.push(StepRecord::new(
            "bench",
            "filter slab",
            [pool_at_bench_size],
            [""; 0],
        ));
        let c = compare(&base, &filtered, &Rules::default()).unwrap();
        assert!(!c.gate_failed(), "{:?}", c.rows);
        assert_eq!(c.count(Verdict::NotRun, MetricKind::Deterministic), 2);
        // A pass that ran and did not produce it: gone.
        new.steps
            .push(StepRecord::new("cache", "--quick", [""; 0], [""; 0]));
        assert!(
            compare(&base, &new, &Rules::default())
                .unwrap()
                .gate_failed()
        );
        // No bench step at all (a crashed bench): gone.
        new.steps.clear();
        assert!(
            compare(&base, &new, &Rules::default())
                .unwrap()
                .gate_failed()
        );
    }

    #[test]
    fn an_empty_new_fails_the_gate_even_when_its_steps_excluded_everything() {
        let base = run(vec![bench("pool", &[])]);
        let mut new = run(Vec::new());
        new.steps.push(StepRecord::new(
            "bench",
            "filter nothing-matches",
            [base.benchmarks[0].key.to_string()],
            [""; 0],
        ));
        let c = compare(&base, &new, &Rules::default()).unwrap();
        assert_eq!(c.count(Verdict::Gone, MetricKind::Deterministic), 0);
        assert!(c.gate_failed());
        assert_eq!(c.problems.len(), 1);
        assert!(c.problems[0].contains("no benchmarks"), "{:?}", c.problems);
    }
}
