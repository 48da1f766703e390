//! Reads criterion's estimates back from `target/criterion` (criterion 0.8 layout:
//! `<dir>/new/benchmark.json` names the benchmark, `<dir>/new/estimates.json` holds its
//! statistics in nanoseconds per iteration).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::results::Estimate;

#[derive(Deserialize)]
struct BenchmarkJson {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

#[derive(Deserialize)]
struct Statistic {
    point_estimate: f64,
    confidence_interval: Interval,
}

#[derive(Deserialize)]
struct EstimatesJson {
    median: Statistic,
}

/// `(group_id, function_id, value_str)` of a criterion benchmark.
pub type CriterionKey = (String, String, String);

/// Every benchmark's median ns per iteration (with interval) found under `criterion_dir`.
/// Unreadable entries are skipped: a benchmark without estimates is reported as unmeasured.
pub fn read_medians(criterion_dir: &Path) -> HashMap<CriterionKey, Estimate> {
    let mut found = HashMap::new();
    let mut stack: Vec<PathBuf> = vec![criterion_dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !path.is_dir() {
                continue;
            }
            if path.file_name().is_some_and(|n| n == "new") {
                if let Some((key, est)) = read_one(&path) {
                    found.insert(key, est);
                }
            } else {
                stack.push(path);
            }
        }
    }
    found
}

fn read_one(new_dir: &Path) -> Option<(CriterionKey, Estimate)> {
    let bench: BenchmarkJson =
        serde_json::from_slice(&std::fs::read(new_dir.join("benchmark.json")).ok()?).ok()?;
    let est: EstimatesJson =
        serde_json::from_slice(&std::fs::read(new_dir.join("estimates.json")).ok()?).ok()?;
    Some((
        (
            bench.group_id,
            bench.function_id.unwrap_or_default(),
            bench.value_str.unwrap_or_default(),
        ),
        Estimate {
            median: est.median.point_estimate,
            lower: est.median.confidence_interval.lower_bound,
            upper: est.median.confidence_interval.upper_bound,
        },
    ))
}
