//! Exports of a run for the continuous-benchmarking services users already have:
//!
//! * [`bmf`]: Bencher Metric Format, `{ "<benchmark>": { "<measure>": { "value", "lower_value",
//!   "upper_value" } } }`. Time goes to Bencher's built-in `latency` (ns per work unit) and
//!   `throughput` (work units per second) measures; deterministic metrics to custom measures
//!   named by the metric table's `bmf_measure` (`instructions`, `d1-misses`, ...).
//! * [`github_action_benchmark`]: github-action-benchmark's `customSmallerIsBetter` input, a
//!   JSON array of `{ "name", "unit", "value", "range"?, "extra"? }`; one entry per benchmark
//!   and metric (all of dodbench's metrics are smaller-is-better).
//!
//! Benchmarks are named by their criterion ID, `family/workload/design/n`. The machine is the
//! testbed ([`testbed`]): github-action-benchmark has no testbed field, so each entry's name
//! ends in ` [machine]` and one chart line per machine results; Bencher takes the testbed on
//! its command line (`bencher run --testbed <machine>`), which `dodbench export` prints.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::compare::Run;
use crate::compare::metrics::{Better, TIME_METRIC};

/// One Bencher metric.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BmfMetric {
    /// The value.
    pub value: f64,
    /// Lower bound, when the metric has an interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_value: Option<f64>,
    /// Upper bound, when the metric has an interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_value: Option<f64>,
}

/// Bencher Metric Format: benchmark name → measure slug → metric.
pub type Bmf = BTreeMap<String, BTreeMap<String, BmfMetric>>;

/// The run in Bencher Metric Format (verified benchmarks only; others have no numbers).
pub fn bmf(run: &Run) -> Bmf {
    let mut out = Bmf::new();
    let defs = run.metric_defs();
    for b in &run.benchmarks {
        let mut measures = BTreeMap::new();
        for def in &defs {
            let Some(m) = b.metrics.get(&*def.name) else {
                continue;
            };
            measures.insert(
                def.bmf_measure.to_string(),
                BmfMetric {
                    value: m.value,
                    lower_value: m.lower,
                    upper_value: m.upper,
                },
            );
            if def.name == TIME_METRIC && m.value > 0.0 {
                let per_s = |ns: Option<f64>| ns.filter(|&v| v > 0.0).map(|v| 1e9 / v);
                measures.insert(
                    "throughput".to_string(),
                    BmfMetric {
                        value: 1e9 / m.value,
                        // The slowest time gives the lowest throughput.
                        lower_value: per_s(m.upper),
                        upper_value: per_s(m.lower),
                    },
                );
            }
        }
        if !measures.is_empty() {
            out.insert(b.key.to_string(), measures);
        }
    }
    out
}

/// One entry of github-action-benchmark's `customSmallerIsBetter` input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GabEntry {
    /// Benchmark name: `family/workload/design/n`, with ` - <metric>` for deterministic
    /// metrics.
    pub name: String,
    /// Unit, e.g. `ns/op`.
    pub unit: String,
    /// The value.
    pub value: f64,
    /// Spread as the action displays it, `± <half-width of the interval>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// Free text shown in the chart's tooltip.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extra: Option<String>,
}

/// The testbed name of a run: its machine's name, `unknown` when the file does not record
/// one.
pub fn testbed(run: &Run) -> &str {
    run.machine.as_deref().unwrap_or("unknown")
}

/// The run as github-action-benchmark `customSmallerIsBetter` entries, named
/// `family/workload/design/n [machine]` (and ` - metric` for deterministic metrics).
pub fn github_action_benchmark(run: &Run) -> Vec<GabEntry> {
    let mut out = Vec::new();
    let defs = run.metric_defs();
    for b in &run.benchmarks {
        for def in defs.iter().filter(|d| d.better == Better::Lower) {
            let Some(m) = b.metrics.get(&*def.name) else {
                continue;
            };
            let name = if def.name == TIME_METRIC {
                format!("{} [{}]", b.key, testbed(run))
            } else {
                format!("{} - {} [{}]", b.key, def.name, testbed(run))
            };
            let range = match (m.lower, m.upper) {
                (Some(l), Some(u)) => Some(format!(
                    "± {:.3}",
                    (m.value - l).abs().max((u - m.value).abs())
                )),
                _ => None,
            };
            let extra = match (m.lower, m.upper) {
                (Some(l), Some(u)) => format!(
                    "{}; 95% interval {l:.3}..{u:.3}; commit {}; machine {}",
                    def.description,
                    run.commit,
                    testbed(run)
                ),
                _ => format!(
                    "{}; commit {}; machine {}",
                    def.description,
                    run.commit,
                    testbed(run)
                ),
            };
            out.push(GabEntry {
                name,
                unit: def.unit.to_string(),
                value: m.value,
                range,
                extra: Some(extra),
            });
        }
    }
    out
}
