//! What a bench run covers: each family's matrix of (workload, N) ([`matrix`]), the names it
//! registers in each workload group, every benchmark ID of an unfiltered run ([`Universe`]),
//! the run's selection in words ([`selection_text`]), a shard's part of it ([`shard_of`]), and
//! criterion's `--list` ([`Lister`]).

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use bench_harness::families::ListVisitor;
use bench_harness::replay::{
    ExtraDesigns, Family, OpOf, ReferenceLoop, Replayer, ReplayerVisitor, Role, Scale,
    for_each_replayer_with,
};
use bench_harness::suite::SuiteConfig;
use criterion::{BenchmarkId, Criterion};
use results::shards::Shard;
use workloads::Trace;

use super::children::BenchKey;
use super::fail;

/// One (workload, n) of a family's matrix; a recorded trace (which ignores n and runs once, at
/// the n its header records) comes with the trace read to learn that n, so it is not read twice.
pub(super) type MatrixEntry<F> = (&'static str, usize, Option<Trace<OpOf<F>>>);

/// Every (workload, n) of family `F`'s matrix, in run order. A quick run leaves out the points
/// of parameter sweeps (`WorkloadInfo::variant_of`): it keeps to one value of each parameter.
pub(super) fn matrix<F: Family>(config: &SuiteConfig) -> Vec<MatrixEntry<F>> {
    let mut out = Vec::new();
    for workload in workloads::registry::workloads_of(F::NAME) {
        if workload.variant_of.is_some() && config.quick() {
            continue;
        }
        if workload.recorded {
            match workloads::registry::generate_for::<F::Op>(workload.name, 1, config.seed, None) {
                Ok(t) => out.push((workload.name, t.header.n as usize, Some(t))),
                Err(e) => fail(&format!("cannot prepare {}: {e}", workload.name)),
            }
        } else {
            out.extend(
                config
                    .sizes_for_workload::<F>(workload.name)
                    .into_iter()
                    .map(|n| (workload.name, n, None)),
            );
        }
    }
    out
}

/// The names family `F` registers in each workload group: designs, references, loops, each
/// with the family its results entry is filed under (`reference` for references and loops).
fn names<F: Family, X: ExtraDesigns<F>>() -> Vec<(String, results::Family)> {
    struct Names(Vec<(String, results::Family)>);
    impl<F: Family> ReplayerVisitor<F> for Names {
        fn visit<R: Replayer<Family = F>>(&mut self, role: Role) {
            let family = match role {
                Role::Design => F::RESULTS_FAMILY,
                Role::Reference => results::Family::Reference,
            };
            self.0.push((R::design_name().to_string(), family));
        }
        fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
            self.0.push((L::name(), results::Family::Reference));
        }
    }
    let mut names = Names(Vec::new());
    for_each_replayer_with::<F, X, _>(&mut names);
    names.0
}

/// Every benchmark ID the bench could run with no selection: every family, at every scale's
/// sizes. The run's [`StepRecord`] excludes those it did not run, so `compare` can tell a
/// benchmark this run's selection left out from one that went missing.
pub(super) struct Universe {
    pub(super) seed: u64,
    pub(super) ids: Vec<String>,
}

impl ListVisitor for Universe {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        let names = names::<F, X>();
        for scale in [Scale::Quick, Scale::Default, Scale::Full] {
            let config = SuiteConfig {
                scale,
                sizes: None,
                seed: self.seed,
                fresh: false,
                timer: Default::default(),
                instances: None,
                shard: None,
                shard_times: None,
            };
            for (workload, n, _) in matrix::<F>(&config) {
                for (name, family) in &names {
                    self.ids.push(format!("{family}/{workload}/{name}/{n}"));
                }
            }
        }
    }
}

/// The bench step's cell times (`family/workload/n` to wall seconds) of the results file at
/// `path` (`DODBENCH_SHARD_TIMES`), or of the last line with cell times of the history file
/// there (`dodbench history append` keeps a run's cell times in its line).
///
/// # Errors
/// The file cannot be read as either, or it recorded no cell times.
pub(super) fn cell_seconds_of(path: &std::path::Path) -> Result<BTreeMap<String, f64>, String> {
    let cell_ms: BTreeMap<String, u64> = match results::Results::load(path) {
        Ok(results) => results::step::bench_cell_ms(&results.steps),
        Err(as_results) => match results::history::load(path) {
            Ok((entries, _)) if !entries.is_empty() => entries
                .iter()
                .rev()
                .find(|e| !e.cell_ms.is_empty())
                .map(|e| e.cell_ms.clone())
                .unwrap_or_default(),
            _ => return Err(format!("DODBENCH_SHARD_TIMES: {as_results}")),
        },
    };
    if cell_ms.is_empty() {
        return Err(format!(
            "DODBENCH_SHARD_TIMES: {} records no cell times (a results file of `cargo bench` \
             does, and a history line appended from one)",
            path.display()
        ));
    }
    Ok(cell_ms
        .into_iter()
        .map(|(id, ms)| (id, ms as f64 / 1000.0))
        .collect())
}

/// The part of `selected` that `shard` runs: whole cells (a workload group and N), dealt by
/// [`results::shards::assign`] on each cell's expected time: its time in `times` (a previous
/// run's, [`cell_seconds_of`]), else its contestants times the rounds budget's
/// `per_contestant` (what a cell's rounds take unless a contestant overruns it), scaled by how
/// much longer the cells `times` has took than that estimate of them. With the cells and
/// expected seconds of the shard and of the whole selection, for the run's first line.
pub(super) fn shard_of(
    selected: &HashSet<BenchKey>,
    shard: Shard,
    per_contestant: Duration,
    times: &BTreeMap<String, f64>,
) -> (HashSet<BenchKey>, ShardShare) {
    let mut contestants: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for (group, _, n) in selected {
        *contestants.entry((group.as_str(), n.as_str())).or_default() += 1;
    }
    let estimated: Vec<(String, f64)> = contestants
        .iter()
        .map(|((group, n), &k)| {
            (
                format!("{group}/{n}"),
                k as f64 * per_contestant.as_secs_f64(),
            )
        })
        .collect();
    let (seen, guessed) = estimated
        .iter()
        .filter_map(|(id, guess)| Some((times.get(id)?, guess)))
        .fold((0.0, 0.0), |(s, g), (t, e)| (s + t, g + e));
    let scale = if guessed > 0.0 { seen / guessed } else { 1.0 };
    let cells: Vec<(String, f64)> = estimated
        .into_iter()
        .map(|(id, guess)| {
            let expected = times.get(&id).copied().unwrap_or(guess * scale);
            (id, expected)
        })
        .collect();
    let shard_of = results::shards::assign(&cells, shard.count);
    let mine: HashSet<(&str, &str)> = contestants
        .keys()
        .zip(&shard_of)
        .filter(|&(_, &k)| k + 1 == shard.index as usize)
        .map(|(cell, _)| *cell)
        .collect();
    let ids: Vec<&str> = cells.iter().map(|(id, _)| id.as_str()).collect();
    let share = ShardShare {
        plan: results::shards::plan_digest(&ids, &shard_of),
        cells: mine.len(),
        all_cells: cells.len(),
        seconds: (0..cells.len())
            .filter(|&i| shard_of[i] + 1 == shard.index as usize)
            .map(|i| cells[i].1)
            .sum(),
        all_seconds: cells.iter().map(|c| c.1).sum(),
    };
    let kept = selected
        .iter()
        .filter(|(group, _, n)| mine.contains(&(group.as_str(), n.as_str())))
        .cloned()
        .collect();
    (kept, share)
}

/// A shard's share of the selection: cells and their expected seconds, and the deal's digest.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ShardShare {
    pub(super) plan: String,
    pub(super) cells: usize,
    pub(super) all_cells: usize,
    pub(super) seconds: f64,
    pub(super) all_seconds: f64,
}

/// This run's selection in words: its scale, size override and criterion arguments.
pub(super) fn selection_text(config: &SuiteConfig) -> String {
    let mut parts = vec![format!("scale {}", config.mode())];
    if let Some(sizes) = &config.sizes {
        let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
        parts.push(format!("DODBENCH_SIZES={}", sizes.join(",")));
    }
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if !args.is_empty() {
        parts.push(format!("arguments {}", args.join(" ")));
    }
    parts.join("; ")
}

/// Registers every benchmark name without preparing anything: what criterion's `--list` mode
/// prints (the closures never run in it).
pub(super) struct Lister<'a> {
    pub(super) criterion: &'a mut Criterion,
    pub(super) config: &'a SuiteConfig,
}

impl ListVisitor for Lister<'_> {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        for (workload, n, _) in matrix::<F>(self.config) {
            let mut group = self
                .criterion
                .benchmark_group(format!("{}/{workload}", F::NAME));
            for (name, _) in names::<F, X>() {
                group.bench_function(BenchmarkId::new(name, n), |b| b.iter(|| ()));
            }
            group.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use bench_harness::families::{AllFamilies, DesignList};

    use super::*;

    /// Every benchmark of an unfiltered run at `scale`, as criterion's selection names them.
    fn everything(scale: Scale) -> HashSet<BenchKey> {
        struct Keys(SuiteConfig, HashSet<BenchKey>);
        impl ListVisitor for Keys {
            fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
                let names = names::<F, X>();
                for (workload, n, _) in matrix::<F>(&self.0) {
                    for (name, _) in &names {
                        let group = format!("{}/{workload}", F::NAME);
                        self.1.insert((group, name.clone(), n.to_string()));
                    }
                }
            }
        }
        let config = SuiteConfig {
            scale,
            sizes: None,
            seed: bench_harness::suite::DEFAULT_SEED,
            fresh: false,
            timer: Default::default(),
            instances: None,
            shard: None,
            shard_times: None,
        };
        let mut keys = Keys(config, HashSet::new());
        AllFamilies::for_each(&mut keys);
        keys.1
    }

    /// A previous run's cell times replace the budget's estimate where it has them, and the
    /// cells it lacks are estimated at the scale its times show.
    #[test]
    fn a_previous_runs_cell_times_deal_the_cells() {
        let key = |cell: &str, design: &str| {
            let (group, n) = cell.rsplit_once('/').unwrap();
            (group.to_string(), design.to_string(), n.to_string())
        };
        let cells = ["f/a/1", "f/b/1", "f/c/1", "f/d/1"];
        let selected: HashSet<BenchKey> = cells
            .iter()
            .flat_map(|c| [key(c, "x"), key(c, "y")])
            .collect();
        // 2 contestants x 30 ms = 0.06 s estimated per cell; the run took 10, 1 and 1 s for
        // three of them, 200/3 times the estimate, so `d` is expected to take 4 s.
        let times: BTreeMap<String, f64> = [("f/a/1", 10.0), ("f/b/1", 1.0), ("f/c/1", 1.0)]
            .into_iter()
            .map(|(c, t)| (c.to_string(), t))
            .collect();
        let budget = Duration::from_millis(30);
        let (first, one) = shard_of(&selected, Shard { index: 1, count: 2 }, budget, &times);
        let (second, two) = shard_of(&selected, Shard { index: 2, count: 2 }, budget, &times);
        assert_eq!(first, HashSet::from([key("f/a/1", "x"), key("f/a/1", "y")]));
        assert_eq!(second.len(), 6);
        assert!((one.seconds - 10.0).abs() < 1e-9, "{one:?}");
        assert!((two.seconds - 6.0).abs() < 1e-9, "{two:?}");
        assert_eq!(one.plan, two.plan);
        let (_, unknown) = shard_of(
            &selected,
            Shard { index: 1, count: 2 },
            budget,
            &BTreeMap::new(),
        );
        assert_ne!(unknown.plan, one.plan, "another deal, another digest");
    }

    /// A history file's last line with cell times deals like the results file it came from;
    /// a file that is neither, or has no cell times, is an error naming the variable.
    #[test]
    fn cell_times_come_from_a_results_file_or_a_history_line() {
        let dir = tempfile::tempdir().unwrap();
        let line = |commit: &str, cells: &[(&str, u64)]| results::history::HistoryEntry {
            history_version: results::history::HISTORY_VERSION,
            commit: commit.into(),
            date: results::history::utc_date(0),
            created_unix: 0,
            mode: Some("quick".into()),
            machine: "ci".into(),
            reference: None,
            references: BTreeMap::new(),
            benchmarks: Vec::new(),
            cell_ms: cells.iter().map(|&(c, ms)| (c.to_string(), ms)).collect(),
        };
        let history = dir.path().join("history.jsonl");
        results::history::append(&history, &line("a", &[("f/a/1", 1500), ("f/b/1", 20)])).unwrap();
        results::history::append(&history, &line("b", &[])).unwrap();
        let times = cell_seconds_of(&history).unwrap();
        assert_eq!(times.get("f/a/1"), Some(&1.5));
        assert_eq!(times.get("f/b/1"), Some(&0.02));

        let without = dir.path().join("without.jsonl");
        results::history::append(&without, &line("b", &[])).unwrap();
        let garbage = dir.path().join("garbage.json");
        std::fs::write(&garbage, "not json\n").unwrap();
        for (file, expected) in [(&without, "records no cell times"), (&garbage, "")] {
            let err = cell_seconds_of(file).unwrap_err();
            assert!(
                err.starts_with("DODBENCH_SHARD_TIMES: ") && err.contains(expected),
                "{err}"
            );
        }
    }

    /// The quick and default matrices split into 2 to 4 shards: every benchmark in exactly one
    /// shard, whole cells, and the shards' expected times within 25% of each other.
    #[test]
    fn shards_split_the_matrix_into_whole_cells_of_even_expected_time() {
        for scale in [Scale::Quick, Scale::Default] {
            let selected = everything(scale);
            let per_contestant = Duration::from_millis(30);
            for count in 2..=4u32 {
                let mut seen: HashSet<BenchKey> = HashSet::new();
                let mut cell_of: HashSet<(String, String, u32)> = HashSet::new();
                let mut seconds = Vec::new();
                for index in 1..=count {
                    let (mine, share) = shard_of(
                        &selected,
                        Shard { index, count },
                        per_contestant,
                        &BTreeMap::new(),
                    );
                    for key in &mine {
                        assert!(seen.insert(key.clone()), "{key:?} in two shards");
                        cell_of.insert((key.0.clone(), key.2.clone(), index));
                    }
                    seconds.push(share.seconds);
                }
                assert_eq!(seen, selected, "{scale:?} {count}");
                let cells: HashSet<(&String, &String)> =
                    cell_of.iter().map(|(g, n, _)| (g, n)).collect();
                assert_eq!(cells.len(), cell_of.len(), "a cell split over shards");
                let (least, most) = seconds
                    .iter()
                    .fold((f64::INFINITY, 0.0f64), |(l, m), &s| (l.min(s), m.max(s)));
                assert!(
                    most <= least * 1.25,
                    "{scale:?}, {count} shards: expected {seconds:?} s"
                );
                eprintln!("{scale:?}, {count} shards: expected {seconds:.1?} s");
            }
        }
    }
}
