//! Reads criterion's estimates back from `target/criterion` (criterion 0.8 layout:
//! `<dir>/new/benchmark.json` names the benchmark, `<dir>/new/estimates.json` holds its
//! statistics in nanoseconds per iteration, `<dir>/new/sample.json` its raw samples as
//! `iters[i]` iterations taking `times[i]` nanoseconds).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use results::Estimate;

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

#[derive(Deserialize)]
struct SampleJson {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// `(group_id, function_id, value_str)` of a criterion benchmark.
pub type CriterionKey = (String, String, String);

/// Every benchmark's median ns per iteration (with interval) found under `criterion_dir`.
/// Unreadable entries are skipped: a benchmark without estimates is reported as unmeasured.
pub fn read_medians(criterion_dir: &Path) -> HashMap<CriterionKey, Estimate> {
    read_each(criterion_dir, read_one)
}

/// Every benchmark's raw samples under `criterion_dir`, as nanoseconds per iteration
/// (`times[i] / iters[i]`, in criterion's sample order). Unreadable entries and samples with
/// zero iterations are skipped.
pub fn read_samples(criterion_dir: &Path) -> HashMap<CriterionKey, Vec<f64>> {
    read_each(criterion_dir, read_one_sample)
}

/// Applies `read` to every `new` directory under `criterion_dir`, keeping what it returns.
fn read_each<T>(
    criterion_dir: &Path,
    read: fn(&Path) -> Option<(CriterionKey, T)>,
) -> HashMap<CriterionKey, T> {
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
                if let Some((key, value)) = read(&path) {
                    found.insert(key, value);
                }
            } else {
                stack.push(path);
            }
        }
    }
    found
}

fn read_key(new_dir: &Path) -> Option<CriterionKey> {
    let bench: BenchmarkJson =
        serde_json::from_slice(&std::fs::read(new_dir.join("benchmark.json")).ok()?).ok()?;
    Some((
        bench.group_id,
        bench.function_id.unwrap_or_default(),
        bench.value_str.unwrap_or_default(),
    ))
}

fn read_one_sample(new_dir: &Path) -> Option<(CriterionKey, Vec<f64>)> {
    let key = read_key(new_dir)?;
    let sample: SampleJson =
        serde_json::from_slice(&std::fs::read(new_dir.join("sample.json")).ok()?).ok()?;
    Some((key, per_iteration(&sample.iters, &sample.times)))
}

/// `times[i] / iters[i]` for every sample with at least one iteration.
fn per_iteration(iters: &[f64], times: &[f64]) -> Vec<f64> {
    iters
        .iter()
        .zip(times)
        .filter(|&(&i, _)| i > 0.0)
        .map(|(&i, &t)| t / i)
        .collect()
}

fn read_one(new_dir: &Path) -> Option<(CriterionKey, Estimate)> {
    let key = read_key(new_dir)?;
    let est: EstimatesJson =
        serde_json::from_slice(&std::fs::read(new_dir.join("estimates.json")).ok()?).ok()?;
    Some((
        key,
        Estimate {
            median: est.median.point_estimate,
            lower: est.median.confidence_interval.lower_bound,
            upper: est.median.confidence_interval.upper_bound,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_samples_as_ns_per_iteration() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir
            .path()
            .join("id_table_churn")
            .join("holey")
            .join("1000")
            .join("new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            r#"{"group_id":"id_table/churn","function_id":"holey","value_str":"1000"}"#,
        )
        .unwrap();
        std::fs::write(
            new.join("sample.json"),
            r#"{"sampling_mode":"Flat","iters":[2.0,4.0,0.0],"times":[100.0,300.0,5.0]}"#,
        )
        .unwrap();
        let samples = read_samples(dir.path());
        let key = (
            "id_table/churn".to_string(),
            "holey".to_string(),
            "1000".to_string(),
        );
        assert_eq!(samples.get(&key), Some(&vec![50.0, 75.0]));
        assert!(read_medians(dir.path()).is_empty(), "no estimates.json");
    }
}
