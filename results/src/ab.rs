//! The statistics behind `scripts/ab.sh`: two revisions measured in alternating rounds
//! (A, B, B, A, A, B, ...) on one machine, one results.json per round and side.
//!
//! Round i of A is paired with round i of B, so drift of the machine between rounds cancels in
//! the pair's ratio. Per benchmark the report gives the geometric mean of the paired ratios
//! B/A of `ns_per_op` medians and a 95% Student-t interval computed on their logarithms
//! (k rounds, k-1 degrees of freedom). With one round there is a ratio but no interval.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::compare::metrics::TIME_METRIC;
use crate::compare::{BenchKey, Run};
use crate::stats::t_975;

/// B/A of one benchmark (or of the geometric mean over all benchmarks).
#[derive(Debug, Clone, PartialEq)]
pub struct AbRow {
    /// The benchmark; `None` for the overall geometric mean.
    pub key: Option<BenchKey>,
    /// Paired rounds that had a time on both sides.
    pub rounds: usize,
    /// Geometric mean of B/A over the rounds.
    pub ratio: f64,
    /// 95% interval of the ratio, when there are at least two rounds.
    pub interval: Option<(f64, f64)>,
}

impl AbRow {
    /// `B slower`, `B faster` or `no clear change` (the interval contains 1, or is unknown).
    pub fn verdict(&self) -> &'static str {
        match self.interval {
            Some((lo, _)) if lo > 1.0 => "B slower",
            Some((_, hi)) if hi < 1.0 => "B faster",
            _ => "no clear change",
        }
    }
}

/// Why the rounds cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum AbError {
    /// One side has no rounds.
    #[error("no results for side {0}")]
    NoRounds(&'static str),
}

/// The report: one row per benchmark timed on both sides in every paired round, then the
/// overall row.
#[derive(Debug, Clone, PartialEq)]
pub struct AbReport {
    /// Rounds paired (the smaller of the two sides' counts).
    pub rounds: usize,
    /// Per benchmark, sorted by key.
    pub rows: Vec<AbRow>,
    /// Geometric mean over the benchmarks of each round, then over rounds.
    pub overall: Option<AbRow>,
}

/// Pairs round i of `a` with round i of `b` and computes the ratios.
///
/// # Errors
/// [`AbError::NoRounds`] when a side is empty.
pub fn report(a: &[Run], b: &[Run]) -> Result<AbReport, AbError> {
    if a.is_empty() {
        return Err(AbError::NoRounds("A"));
    }
    if b.is_empty() {
        return Err(AbError::NoRounds("B"));
    }
    let rounds = a.len().min(b.len());
    // Per key, the log-ratio of each round in which both sides timed it.
    let mut logs: BTreeMap<BenchKey, Vec<f64>> = BTreeMap::new();
    for (ra, rb) in a.iter().zip(b).take(rounds) {
        for ba in &ra.benchmarks {
            let time = |run: &Run| {
                run.get(&ba.key)
                    .and_then(|x| x.metrics.get(TIME_METRIC))
                    .map(|m| m.value)
                    .filter(|v| *v > 0.0)
            };
            if let (Some(ta), Some(tb)) = (time(ra), time(rb)) {
                logs.entry(ba.key.clone()).or_default().push((tb / ta).ln());
            }
        }
    }
    // Only benchmarks present in every round: a partial one would bias the overall mean.
    logs.retain(|_, v| v.len() == rounds);
    let rows: Vec<AbRow> = logs
        .iter()
        .map(|(k, v)| summarise(Some(k.clone()), v))
        .collect();
    let overall = (!logs.is_empty()).then(|| {
        let per_round: Vec<f64> = (0..rounds)
            .map(|i| logs.values().map(|v| v[i]).sum::<f64>() / logs.len() as f64)
            .collect();
        summarise(None, &per_round)
    });
    Ok(AbReport {
        rounds,
        rows,
        overall,
    })
}

fn summarise(key: Option<BenchKey>, logs: &[f64]) -> AbRow {
    let k = logs.len();
    let mean = logs.iter().sum::<f64>() / k as f64;
    let interval = (k >= 2).then(|| {
        let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        let half = t_975(k - 1) * (var / k as f64).sqrt();
        ((mean - half).exp(), (mean + half).exp())
    });
    AbRow {
        key,
        rounds: k,
        ratio: mean.exp(),
        interval,
    }
}

impl AbReport {
    /// A text table: benchmark, rounds, B/A, 95% interval, verdict.
    pub fn render(&self, label_a: &str, label_b: &str) -> String {
        let mut out = format!(
            "A = {label_a}, B = {label_b}: {} paired rounds; B/A of ns_per_op medians \
             (geometric mean of paired rounds, 95% t interval)\n\n",
            self.rounds
        );
        let width = self
            .rows
            .iter()
            .filter_map(|r| r.key.as_ref().map(|k| k.to_string().len()))
            .max()
            .unwrap_or(9)
            .max(9);
        let _ = writeln!(
            out,
            "{:<width$}  {:>6}  {:>7}  {:>17}  verdict",
            "benchmark", "rounds", "B/A", "95% interval"
        );
        for r in self.rows.iter().chain(&self.overall) {
            let name = r
                .key
                .as_ref()
                .map_or("geometric mean (all)".to_string(), ToString::to_string);
            let interval = r
                .interval
                .map_or("-".to_string(), |(l, h)| format!("{l:.3} .. {h:.3}"));
            let _ = writeln!(
                out,
                "{name:<width$}  {:>6}  {:>7.3}  {interval:>17}  {}",
                r.rounds,
                r.ratio,
                r.verdict()
            );
        }
        if self.rows.is_empty() {
            out.push_str("(no benchmark was timed on both sides)\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::metrics::Measured;
    use crate::compare::run::RunBenchmark;
    use crate::family::{Family, FamilyRecord};
    use crate::schema::Status;

    fn run(times: &[(&str, f64)]) -> Run {
        Run {
            path: "r".into(),
            commit: "c".into(),
            created_unix: None,
            mode: None,
            schema_version: 1,
            is_baseline: false,
            sim: None,
            families: FamilyRecord::builtin_all(),
            benchmarks: times
                .iter()
                .map(|(d, t)| RunBenchmark {
                    key: BenchKey {
                        family: Family::IdTable,
                        workload: "churn".into(),
                        design: d.to_string(),
                        n: 1000,
                    },
                    ops: 1,
                    status: Status::Verified,
                    seed: None,
                    metrics: [(TIME_METRIC.to_string(), Measured::exact(*t))].into(),
                })
                .collect(),
            steps: Vec::new(),
            machine: None,
        }
    }

    #[test]
    fn paired_rounds_cancel_drift_and_detect_a_real_change() {
        // The machine drifts 20% between rounds; B is consistently 10% slower on pool and
        // equal on slab.
        let a = [
            run(&[("pool", 10.0), ("slab", 5.0)]),
            run(&[("pool", 12.0), ("slab", 6.0)]),
            run(&[("pool", 9.0), ("slab", 4.5)]),
        ];
        let b = [
            run(&[("pool", 11.0), ("slab", 5.0)]),
            run(&[("pool", 13.2), ("slab", 6.05)]),
            run(&[("pool", 9.9), ("slab", 4.48)]),
        ];
        let r = report(&a, &b).unwrap();
        assert_eq!(r.rounds, 3);
        let pool = &r.rows[0];
        assert!((pool.ratio - 1.1).abs() < 1e-9);
        assert_eq!(pool.verdict(), "B slower");
        assert_eq!(r.rows[1].verdict(), "no clear change");
        assert!(r.render("a", "b").contains("geometric mean"));
    }

    #[test]
    fn one_round_has_no_interval_and_empty_sides_are_errors() {
        let r = report(&[run(&[("pool", 10.0)])], &[run(&[("pool", 5.0)])]).unwrap();
        assert_eq!(r.rows[0].interval, None);
        assert_eq!(r.rows[0].verdict(), "no clear change");
        assert!(report(&[], &[run(&[])]).is_err());
    }
}
