//! A run merged into the results file already on disk, so a filtered `cargo bench`
//! (`cargo bench -- 'id_table/churn/holey/'`, the way to re-run one benchmark in
//! docs/cli.md) refreshes the benchmarks it ran and keeps every other one.
//!
//! Two files describe the same run when they agree on what makes their numbers comparable: the
//! commit, the machine's name, the mode (`quick`, `default`, `full`) and the trace seed. Then
//! the newer run's benchmarks replace the entries of the same (family, workload, design, n),
//! keeping what the measurement passes wrote into them (simulated counts, memory, latency:
//! the same commit measures the same), and everything else of the older file stays. Files of
//! different runs are never mixed: the caller starts a new file and says why
//! ([`SameRun::differs`]).

use std::collections::HashSet;

use crate::schema::{Benchmark, Results};
use crate::step::StepRecord;

/// What decides whether two results files may be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SameRun {
    commit: String,
    machine: String,
    mode: String,
    seeds: Vec<u64>,
    shard: Option<crate::step::Shard>,
}

impl SameRun {
    /// The identity of `results`: commit, machine name, mode, the seeds of its workloads and
    /// its shard, if it is one.
    pub fn of(results: &Results) -> Self {
        let mut seeds: Vec<u64> = results.workloads.iter().map(|w| w.seed).collect();
        seeds.sort_unstable();
        seeds.dedup();
        Self {
            commit: results.commit.clone(),
            machine: results.machine.name.clone(),
            mode: results.mode.clone(),
            seeds,
            shard: results.shard.as_ref().map(|r| r.shard),
        }
    }

    /// This identity with the machine's name and the shard left out: what the shards of one
    /// run, measured on machines of one kind under their own names, have in common
    /// ([`crate::shards::merge_shards`]).
    pub fn of_the_whole_run(mut self) -> Self {
        self.machine.clear();
        self.shard = None;
        self
    }

    /// Why a file of identity `self` may not take the benchmarks of a run of identity `newer`,
    /// in words (`None`: it may). A file without workloads yet matches any seed.
    pub fn differs(&self, newer: &SameRun) -> Option<String> {
        let mut why = Vec::new();
        if self.commit != newer.commit {
            why.push(format!("commit {} (now {})", self.commit, newer.commit));
        }
        if self.machine != newer.machine {
            why.push(format!("machine {} (now {})", self.machine, newer.machine));
        }
        if self.mode != newer.mode {
            why.push(format!("mode {} (now {})", self.mode, newer.mode));
        }
        let seeds_agree = self.seeds.is_empty()
            || newer.seeds.is_empty()
            || newer.seeds.iter().all(|s| self.seeds.contains(s));
        if !seeds_agree {
            why.push(format!("seed {:?} (now {:?})", self.seeds, newer.seeds));
        }
        if self.shard != newer.shard {
            let name = |s: Option<crate::step::Shard>| {
                s.map_or_else(|| "the whole run".to_string(), |s| format!("shard {s}"))
            };
            why.push(format!("{} (now {})", name(self.shard), name(newer.shard)));
        }
        (!why.is_empty()).then(|| why.join(", "))
    }
}

/// What [`Results::merge_newer`] did, for the run's closing line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MergeCounts {
    /// Entries of the older file this run replaced.
    pub replaced: usize,
    /// Entries this run added.
    pub added: usize,
    /// Entries of the older file kept as they were.
    pub kept: usize,
}

impl Results {
    /// Merges `newer`, a later run of the same commit, machine, mode and seed (the caller
    /// checks with [`SameRun::differs`]), into `self`: `newer`'s benchmarks replace the entries
    /// of the same (family, workload, design, n) and keep the pass fields the older entry had
    /// and the newer lacks (`sim`, `hw`, `alloc_calls_per_op`, `memory`, `latency`: passes
    /// measure the commit, not the bench run); design, workload and family records are
    /// replaced by key; the newer run's steps replace the older steps of the same name, and a
    /// step both ran excludes only what neither measured. Overheads are recomputed.
    pub fn merge_newer(&mut self, newer: Results) -> MergeCounts {
        let older_ids: HashSet<String> = self.benchmarks.iter().map(Benchmark::id).collect();
        let mut counts = MergeCounts {
            replaced: 0,
            added: 0,
            kept: self.benchmarks.len(),
        };
        for mut b in newer.benchmarks {
            let same = |o: &Benchmark| {
                o.family == b.family
                    && o.workload == b.workload
                    && o.design == b.design
                    && o.n == b.n
            };
            match self.benchmarks.iter().position(same) {
                Some(i) => {
                    b.keep_pass_fields_of(&self.benchmarks[i]);
                    self.benchmarks[i] = b;
                    counts.replaced += 1;
                    counts.kept -= 1;
                }
                None => {
                    self.benchmarks.push(b);
                    counts.added += 1;
                }
            }
        }
        for d in newer.designs {
            self.designs
                .retain(|o| (o.family, &o.name) != (d.family, &d.name));
            self.designs.push(d);
        }
        for w in newer.workloads {
            self.workloads
                .retain(|o| (o.family, &o.workload, o.n) != (w.family, &w.workload, w.n));
            self.workloads.push(w);
        }
        for f in newer.families {
            self.families.retain(|o| o.family != f.family);
            self.families.push(f);
        }
        for step in newer.steps {
            let older: Vec<StepRecord> = self
                .steps
                .iter()
                .filter(|s| s.step == step.step)
                .cloned()
                .collect();
            self.steps.retain(|s| s.step != step.step);
            self.steps.push(step.merged_with_older(&older, &older_ids));
        }
        self.created_unix = self.created_unix.max(newer.created_unix);
        self.toolchain = newer.toolchain;
        self.fill_paired_ratios();
        self.fill_overheads();
        counts
    }
}

impl Benchmark {
    /// Takes `older`'s pass fields where `self` has none (see [`Results::merge_newer`]).
    fn keep_pass_fields_of(&mut self, older: &Benchmark) {
        if self.sim.is_none() {
            self.sim = older.sim.clone();
        }
        if self.hw.is_none() {
            self.hw = older.hw.clone();
            self.hw_reason = self.hw_reason.take().or_else(|| older.hw_reason.clone());
        }
        if self.alloc_calls_per_op.is_none() {
            self.alloc_calls_per_op = older.alloc_calls_per_op;
        }
        if self.memory.is_none() {
            self.memory = older.memory.clone();
        }
        if self.latency.is_none() {
            self.latency = older.latency.clone();
        }
    }
}

impl StepRecord {
    /// This step merged with the `older` records of the same step whose file held
    /// `older_ids`: a benchmark stays excluded only if every run of the step excluded it (a
    /// benchmark the older file holds was measured by some step, so it is not excluded).
    fn merged_with_older(mut self, older: &[StepRecord], older_ids: &HashSet<String>) -> Self {
        if older.is_empty() {
            self.excluded.retain(|id| !older_ids.contains(id));
            return self;
        }
        self.excluded
            .retain(|id| older.iter().all(|o| o.excludes(id)) && !older_ids.contains(id));
        self.seconds = older.iter().map(|o| o.seconds).chain([self.seconds]).sum();
        // A cell both ran keeps the newer run's time.
        let newer = std::mem::take(&mut self.cell_ms);
        for o in older {
            self.cell_ms.extend(o.cell_ms.clone());
        }
        self.cell_ms.extend(newer);
        let mut selections: Vec<&str> = older.iter().map(|o| o.selection.as_str()).collect();
        selections.push(&self.selection);
        self.selection = selections.join("; then ");
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;
    use crate::schema::Estimate;

    fn run(commit: &str, ids: &[(&str, u64)], ns: f64) -> Results {
        let machine = crate::machine::Machine::test_box("test-box");
        let mut r = Results::empty(machine, commit.to_string(), "rustc".to_string(), 1, "quick");
        for (design, n) in ids {
            let b = r.entry(Family::IdTable, "churn", design, *n, 10);
            b.verified = true;
            b.ns_per_op = Some(Estimate {
                median: ns,
                lower: ns,
                upper: ns,
            });
        }
        r
    }

    #[test]
    fn a_filtered_run_replaces_its_entries_and_keeps_the_rest() {
        let mut old = run("abc", &[("holey", 10), ("packed", 10), ("slab", 10)], 5.0);
        old.benchmarks[0].alloc_calls_per_op = Some(2.0);
        old.steps.push(StepRecord::new(
            "bench",
            "quick",
            ["id_table/churn/x/10"],
            ["id_table/churn/holey/10"],
        ));
        let mut new = run("abc", &[("holey", 10), ("pool", 10)], 7.0);
        new.steps.push(StepRecord::new(
            "bench",
            "quick; filter holey",
            [
                "id_table/churn/holey/10",
                "id_table/churn/packed/10",
                "id_table/churn/slab/10",
                "id_table/churn/x/10",
            ],
            ["id_table/churn/holey/10"],
        ));
        assert_eq!(SameRun::of(&old).differs(&SameRun::of(&new)), None);
        let counts = old.merge_newer(new);
        assert_eq!(
            counts,
            MergeCounts {
                replaced: 1,
                added: 1,
                kept: 2
            }
        );
        let ns = |d: &str| {
            old.benchmarks
                .iter()
                .find(|b| b.design == d)
                .and_then(|b| b.ns_per_op.as_ref())
                .map(|e| e.median)
        };
        assert_eq!(
            (ns("holey"), ns("packed"), ns("slab"), ns("pool")),
            (Some(7.0), Some(5.0), Some(5.0), Some(7.0))
        );
        // The pass field of the replaced entry survives; only what neither run measured is
        // still excluded.
        assert_eq!(old.benchmarks[0].alloc_calls_per_op, Some(2.0));
        let bench: Vec<_> = old.steps.iter().filter(|s| s.step == "bench").collect();
        assert_eq!(bench.len(), 1);
        assert_eq!(bench[0].excluded, ["id_table/churn/x/10"]);
        assert_eq!(bench[0].selection, "quick; then quick; filter holey");
    }

    #[test]
    fn runs_of_another_commit_mode_or_seed_are_told_apart() {
        let old = run("abc", &[("holey", 10)], 5.0);
        let mut other = run("def", &[("holey", 10)], 5.0);
        other.mode = "default".to_string();
        let why = SameRun::of(&old).differs(&SameRun::of(&other)).unwrap();
        assert!(why.contains("commit abc (now def)"), "{why}");
        assert!(why.contains("mode quick (now default)"), "{why}");
        let seeded = |seed| {
            let mut r = run("abc", &[], 5.0);
            r.workloads.push(crate::schema::WorkloadRecord {
                family: Family::IdTable,
                workload: "churn".into(),
                n: 10,
                seed,
                params: serde_json::Value::Null,
                ops: 10,
                working_set: None,
                visits_store: false,
                memory_bound: None,
            });
            SameRun::of(&r)
        };
        assert!(seeded(1).differs(&seeded(2)).unwrap().contains("seed"));
        assert_eq!(seeded(1).differs(&seeded(1)), None);
    }
}
