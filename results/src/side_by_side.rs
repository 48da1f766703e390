//! Whether several runs (one per machine) may be shown side by side in one report: their
//! traces must be the same (same seed for every (family, workload, n) both ran) and their
//! simulated cache hierarchy the same, as `compare` requires of two runs, and their machine
//! names must tell them apart (they label the report's columns and lines).

use std::path::{Path, PathBuf};

use crate::schema::Results;

/// Why runs cannot share one report (the CLI exits 2 on all of these).
#[derive(Debug, thiserror::Error)]
pub enum SideBySideError {
    /// The same trace (family, workload, n) generated from different seeds.
    #[error(
        "{first} and {second}: {trace} has trace seed {first_seed} in the first but {second_seed} in the second; run both machines with the same DODBENCH_SEED"
    )]
    SeedMismatch {
        /// The first file.
        first: PathBuf,
        /// The second file.
        second: PathBuf,
        /// `family/workload/n`.
        trace: String,
        /// Its seed in the first file.
        first_seed: u64,
        /// Its seed in the second file.
        second_seed: u64,
    },
    /// Simulated counts from different cache hierarchies.
    #[error(
        "{first} and {second}: simulated cache differs ({first_config} in the first, {second_config} in the second); rerun dodbench cache with one hierarchy"
    )]
    SimConfigMismatch {
        /// The first file.
        first: PathBuf,
        /// The second file.
        second: PathBuf,
        /// The first file's hierarchy.
        first_config: String,
        /// The second file's.
        second_config: String,
    },
    /// Two files name the same machine, so their columns could not be told apart.
    #[error(
        "{first} and {second}: both were measured on a machine named {name:?}, so the report could not tell their columns apart; rerun one with DODBENCH_MACHINE set to another name"
    )]
    SameMachine {
        /// The first file.
        first: PathBuf,
        /// The second file.
        second: PathBuf,
        /// The shared name.
        name: String,
    },
}

/// `D1 <d1>, LL <ll>` of the first benchmark of `run` with simulated counts.
fn sim_config(run: &Results) -> Option<String> {
    run.benchmarks
        .iter()
        .find_map(|b| b.sim.as_ref())
        .map(|s| format!("D1 {}, LL {}", s.config.d1, s.config.ll))
}

/// Checks every pair of `runs` (each with the file it was read from).
///
/// # Errors
/// The first pair that differs in a trace seed, in the simulated hierarchy, or that shares a
/// machine name.
pub fn check(runs: &[(&Path, &Results)]) -> Result<(), SideBySideError> {
    for (i, &(first, a)) in runs.iter().enumerate() {
        for &(second, b) in &runs[i + 1..] {
            let paths = || (first.to_path_buf(), second.to_path_buf());
            if a.machine.name == b.machine.name {
                let (first, second) = paths();
                return Err(SideBySideError::SameMachine {
                    first,
                    second,
                    name: a.machine.name.clone(),
                });
            }
            if let (Some(x), Some(y)) = (sim_config(a), sim_config(b)) {
                if x != y {
                    let (first, second) = paths();
                    return Err(SideBySideError::SimConfigMismatch {
                        first,
                        second,
                        first_config: x,
                        second_config: y,
                    });
                }
            }
            for w in &a.workloads {
                let other = b
                    .workloads
                    .iter()
                    .find(|v| v.family == w.family && v.workload == w.workload && v.n == w.n);
                if let Some(v) = other.filter(|v| v.seed != w.seed) {
                    let (first, second) = paths();
                    return Err(SideBySideError::SeedMismatch {
                        first,
                        second,
                        trace: format!("{}/{}/{}", w.family, w.workload, w.n),
                        first_seed: w.seed,
                        second_seed: v.seed,
                    });
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(machine: &str, seed: u64) -> Results {
        serde_json::from_value(serde_json::json!({
            "schema_version": 4,
            "machine": {"name": machine, "cpu_model": "c", "cores": 1,
                "caches": {"l1d": null, "l2": null, "l3": null}, "os": "linux", "arch": "x"},
            "commit": "c", "toolchain": "t", "created_unix": 0, "mode": "quick",
            "designs": [], "benchmarks": [],
            "workloads": [{"family": "id_table", "workload": "churn", "n": 10, "seed": seed,
                "params": {}, "ops": 1}],
        }))
        .unwrap()
    }

    #[test]
    fn refuses_other_seeds_and_one_machine_name_twice() {
        let (a, b) = (Path::new("a.json"), Path::new("b.json"));
        assert!(check(&[(a, &run("ci", 1)), (b, &run("laptop", 1))]).is_ok());
        let e = check(&[(a, &run("ci", 1)), (b, &run("laptop", 2))]).unwrap_err();
        assert!(matches!(e, SideBySideError::SeedMismatch { .. }));
        assert!(
            e.to_string()
                .starts_with("a.json and b.json: id_table/churn/10")
        );
        let e = check(&[(a, &run("ci", 1)), (b, &run("ci", 1))]).unwrap_err();
        assert!(matches!(e, SideBySideError::SameMachine { .. }), "{e}");
    }
}
