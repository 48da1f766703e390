//! A run split over machines and put back together: which cells a shard runs ([`assign`]), and
//! the merge of the shards' results files into one, refused unless the shards are exactly one
//! whole run ([`merge_shards`]).
//!
//! A shard is named `k/n` (`DODBENCH_SHARD=2/3`: the second of three). Whole cells (a family,
//! workload and N) go to one shard, so the rounds that pair a cell's designs never span
//! machines; the cells are dealt longest first to the shard with the least expected time so
//! far (ties to the lower shard), which depends on the selection alone, so every machine of a
//! CI matrix computes the same assignment.

use std::collections::{BTreeMap, HashMap};

use thiserror::Error;

use crate::machine::Machine;
use crate::merge::SameRun;
use crate::schema::{Benchmark, Results};

pub use crate::step::{MAX_SHARDS, Shard, ShardRecord};

/// Which shard (0-based) each of `cells` goes to: `cells` are `(id, expected seconds)`, dealt
/// longest first (ties by id) to the shard whose expected time so far is least (ties to the
/// lower shard). The answer depends on the cells alone, not on their order.
pub fn assign(cells: &[(String, f64)], count: u32) -> Vec<usize> {
    let count = count.max(1) as usize;
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by(|&a, &b| {
        cells[b]
            .1
            .total_cmp(&cells[a].1)
            .then_with(|| cells[a].0.cmp(&cells[b].0))
    });
    let mut load = vec![0.0f64; count];
    let mut shard_of = vec![0; cells.len()];
    for i in order {
        let least = (0..count)
            .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
            .expect("at least one shard");
        load[least] += cells[i].1.max(0.0);
        shard_of[i] = least;
    }
    shard_of
}

/// A digest of a deal: `cells` (their ids) and the shard (0-based) each went to, in any order.
/// Shards of one split agree on it; shards dealt from other selections or other estimates do
/// not ([`merge_shards`] refuses them).
pub fn plan_digest(cells: &[&str], shard_of: &[usize]) -> String {
    let mut pairs: Vec<(&str, usize)> = cells
        .iter()
        .copied()
        .zip(shard_of.iter().copied())
        .collect();
    pairs.sort_unstable();
    // FNV-1a, 64 bits: stable across platforms and releases, unlike `std`'s hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (cell, shard) in pairs {
        for byte in cell.bytes().chain([0]).chain((shard as u32).to_le_bytes()) {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Why shards cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShardError {
    /// No file given.
    #[error("no shard to merge")]
    Empty,
    /// A file is a whole run, not a shard.
    #[error("file {file} is not a shard (its run was not split with DODBENCH_SHARD)")]
    NotAShard {
        /// The file's position in the arguments, from 1.
        file: usize,
    },
    /// Shards of splits into different numbers.
    #[error("file {file} is shard {shard}, but file 1 is of {count} shards")]
    OtherCount {
        /// The file's position, from 1.
        file: usize,
        /// Its shard.
        shard: Shard,
        /// The first file's count.
        count: u32,
    },
    /// The same shard twice.
    #[error("shard {shard} is given twice (files {first} and {second})")]
    Duplicate {
        /// The shard.
        shard: Shard,
        /// The first file holding it.
        first: usize,
        /// The second.
        second: usize,
    },
    /// Shards missing from the set.
    #[error("shards {missing} of {count} are missing: a merged run would lack their benchmarks")]
    Missing {
        /// The missing indexes, `2, 3`.
        missing: String,
        /// How many shards there are.
        count: u32,
    },
    /// Shards of different runs (commit, mode, seed).
    #[error("shard {shard} is of another run than shard {first}: {why}")]
    OtherRun {
        /// The shard that differs.
        shard: Shard,
        /// The shard compared with.
        first: Shard,
        /// What differs.
        why: String,
    },
    /// Shards of different selections (criterion filter, sizes).
    #[error("shard {shard} ran another selection than shard {first}: {theirs:?}, not {ours:?}")]
    OtherSelection {
        /// The shard that differs.
        shard: Shard,
        /// The shard compared with.
        first: Shard,
        /// Its selection.
        theirs: String,
        /// The first shard's.
        ours: String,
    },
    /// Shards measured on different kinds of machine.
    #[error(
        "shard {shard} ran on another kind of machine than shard {first} ({why}): their times do \
         not compare; give the files to `dodbench report --results` as machines of their own"
    )]
    OtherMachine {
        /// The shard that differs.
        shard: Shard,
        /// The shard compared with.
        first: Shard,
        /// What differs.
        why: String,
    },
    /// Shards that dealt the cells differently (another selection, or other expected times).
    #[error(
        "shard {shard} dealt the selection's cells otherwise than shard {first} (plan {theirs}, \
         not {ours}): run every shard with the same selection and DODBENCH_SHARD_TIMES"
    )]
    OtherPlan {
        /// The shard that differs.
        shard: Shard,
        /// The shard compared with.
        first: Shard,
        /// Its plan.
        theirs: String,
        /// The first shard's.
        ours: String,
    },
    /// The shards together ran fewer or more cells than the selection holds.
    #[error(
        "the shards ran {ran} cells of the selection's {selected}: the merged run would not be whole"
    )]
    Incomplete {
        /// Cells the shards ran.
        ran: usize,
        /// Cells of the selection.
        selected: usize,
    },
    /// A pass's shards dealt its cells differently, or some shards ran the pass on its whole
    /// selection and others on their part.
    #[error(
        "shard {shard} ran the {step} pass on another part than shard {first} (plan {theirs}, \
         not {ours}): run every shard's {step} with the same selection and --shard K/N"
    )]
    OtherPassPlan {
        /// The pass.
        step: String,
        /// The shard that differs.
        shard: Shard,
        /// The shard compared with.
        first: Shard,
        /// Its plan (`none: not run with --shard` when the shard's latest run of the pass was
        /// whole, or it has no run of it).
        theirs: String,
        /// The first shard's.
        ours: String,
    },
    /// A pass's shards together measured fewer or more cells than its selection holds.
    #[error(
        "the shards' {step} passes ran {ran} cells of its selection's {selected}: the merged \
         run's {step} figures would not be whole"
    )]
    PassIncomplete {
        /// The pass.
        step: String,
        /// Cells the shards' passes ran.
        ran: usize,
        /// Cells of the pass's selection.
        selected: usize,
    },
    /// A benchmark measured twice: timed by two shards, or with the same pass's figures from
    /// two (the split was not of one selection).
    #[error("benchmark {id} is in shards {first} and {second} with the same measurement")]
    Overlap {
        /// The benchmark.
        id: String,
        /// The first shard holding it.
        first: Shard,
        /// The second.
        second: Shard,
    },
}

/// What makes two machines one kind for timing: everything but the name.
fn machine_kind_differs(a: &Machine, b: &Machine) -> Option<String> {
    let mut why = Vec::new();
    if a.cpu_model != b.cpu_model {
        why.push(format!("CPU {} and {}", a.cpu_model, b.cpu_model));
    }
    if a.cores != b.cores {
        why.push(format!("{} and {} cores", a.cores, b.cores));
    }
    if a.caches != b.caches {
        why.push("other cache sizes".to_string());
    }
    if (&a.os, &a.arch) != (&b.os, &b.arch) {
        why.push(format!("{}/{} and {}/{}", a.os, a.arch, b.os, b.arch));
    }
    (!why.is_empty()).then(|| why.join(", "))
}

/// The bench step's selection of a shard (what `cargo bench` ran, without the shard).
fn bench_selection(r: &Results) -> String {
    r.steps
        .iter()
        .filter(|s| s.step == "bench")
        .map(|s| s.selection.as_str())
        .collect::<Vec<_>>()
        .join("; then ")
}

/// `a` and `b`, one benchmark from two shards (the bench ran it in one, a pass ran at its
/// workload and N in the other), as one entry: the bench's with the pass figures of both.
/// `None` when both hold the same measurement: the bench ran it in both (`a_benched`,
/// `b_benched`), or both hold a figure of one pass.
fn joined(a: &Benchmark, a_benched: bool, b: &Benchmark, b_benched: bool) -> Option<Benchmark> {
    if a_benched && b_benched {
        return None;
    }
    let (mut base, other) = if b_benched {
        (b.clone(), a)
    } else {
        (a.clone(), b)
    };
    fn take<T: Clone>(mine: &mut Option<T>, theirs: &Option<T>) -> bool {
        match (mine.is_some(), theirs) {
            (true, Some(_)) => false,
            (false, Some(t)) => {
                *mine = Some(t.clone());
                true
            }
            (_, None) => true,
        }
    }
    let took_hw = base.hw.is_none() && other.hw.is_some();
    let all = take(&mut base.sim, &other.sim)
        && take(&mut base.hw, &other.hw)
        && take(&mut base.alloc_calls_per_op, &other.alloc_calls_per_op)
        && take(&mut base.memory, &other.memory)
        && take(&mut base.latency, &other.latency);
    // The reason goes with the counters (or says why the latency pass had none).
    if took_hw || (base.hw.is_none() && base.hw_reason.is_none()) {
        base.hw_reason = other.hw_reason.clone();
    }
    all.then_some(base)
}

/// Each pass run with `--shard` in some shard file: its shard records by shard, checked to
/// be one deal whose parts make its whole selection.
fn check_pass_shards(files: &BTreeMap<u32, (usize, Results)>) -> Result<(), ShardError> {
    let mut passes: BTreeMap<&str, Vec<(Shard, Option<&ShardRecord>)>> = BTreeMap::new();
    let sharded = files
        .values()
        .flat_map(|(_, r)| &r.steps)
        .filter(|s| s.shard.is_some());
    for step in sharded {
        passes.entry(step.step.as_str()).or_default();
    }
    for (name, records) in &mut passes {
        for (_, r) in files.values() {
            let shard = r.shard.as_ref().expect("checked by merge_shards").shard;
            // A pass run again into the file adds a record: its latest run is the file's.
            let latest = r.steps.iter().rev().find(|s| s.step == *name);
            records.push((shard, latest.and_then(|s| s.shard.as_ref())));
        }
    }
    for (name, records) in passes {
        let describe = |r: Option<&ShardRecord>| {
            r.map_or_else(
                || "none: not run with --shard".to_string(),
                |r| r.plan.clone(),
            )
        };
        let (first, head) = records[0];
        let mut ran = 0;
        for &(shard, record) in &records {
            let same = match (record, head) {
                (Some(r), Some(h)) => {
                    (r.plan.as_str(), r.selected) == (h.plan.as_str(), h.selected)
                }
                _ => false,
            };
            if !same {
                return Err(ShardError::OtherPassPlan {
                    step: name.to_string(),
                    shard,
                    first,
                    theirs: describe(record),
                    ours: describe(head),
                });
            }
            ran += record.map_or(0, |r| r.ran);
        }
        let selected = head.map_or(0, |h| h.selected);
        if ran != selected {
            return Err(ShardError::PassIncomplete {
                step: name.to_string(),
                ran,
                selected,
            });
        }
    }
    Ok(())
}

/// Merges the results of every shard of one run into the run's results: refused unless the
/// files are shards `1..=n` of one split, each once, of one commit, mode, seed and selection,
/// measured on one kind of machine, each pass run with `--shard` run so in every shard on
/// parts that make its selection, and no measurement of a benchmark in two of them (a
/// benchmark the bench timed in one shard and a pass measured in another is joined). The
/// merged run is no shard; its machine's name is the shards' when they agree, else their
/// names joined by `+`.
///
/// # Errors
/// The first [`ShardError`] found, checking the files in order.
pub fn merge_shards(files: Vec<Results>) -> Result<Results, ShardError> {
    let by_index = shards_by_index(files)?;
    check_pass_shards(&by_index)?;
    let mut shards = by_index.into_values().map(|(_, r)| r);
    let mut merged = shards.next().expect("count >= 1 shards");
    let head = merged.shard.clone().expect("checked above");
    let first = FirstShard {
        identity: SameRun::of(&merged).of_the_whole_run(),
        selection: bench_selection(&merged),
        record: head.clone(),
    };
    let mut ran = head.ran;
    let mut names = vec![merged.machine.name.clone()];
    let mut seen: HashMap<String, (Shard, bool)> = merged
        .benchmarks
        .iter()
        .map(|b| {
            let id = b.id();
            let ran = benched(&merged, &id);
            (id, (head.shard, ran))
        })
        .collect();
    for mut r in shards {
        let record = r.shard.clone().expect("checked above");
        first.check_same_split(&record, &merged.machine, &r)?;
        ran += record.ran;
        join_overlaps(&merged, &mut r, record.shard, &mut seen)?;
        if !names.contains(&r.machine.name) {
            names.push(r.machine.name.clone());
        }
        merged.merge_newer(r);
    }
    // The shards ran one selection each step: one for the whole run, not the shards' joined.
    for step in &mut merged.steps {
        let parts: Vec<&str> = step.selection.split("; then ").collect();
        if parts.iter().all(|p| *p == parts[0]) {
            step.selection = parts[0].to_string();
        }
    }
    if ran != head.selected {
        return Err(ShardError::Incomplete {
            ran,
            selected: head.selected,
        });
    }
    merged.machine.name = names.join("+");
    merged.shard = None;
    for step in &mut merged.steps {
        step.shard = None;
    }
    Ok(merged)
}

/// The files by shard index, each with its place (from 1) among `files`: refused unless they
/// are shards `1..=n` of one count, each once.
fn shards_by_index(files: Vec<Results>) -> Result<BTreeMap<u32, (usize, Results)>, ShardError> {
    let mut by_index: BTreeMap<u32, (usize, Results)> = BTreeMap::new();
    let mut count = None;
    for (i, r) in files.into_iter().enumerate() {
        let file = i + 1;
        let shard = r
            .shard
            .as_ref()
            .ok_or(ShardError::NotAShard { file })?
            .shard;
        let count = *count.get_or_insert(shard.count);
        if shard.count != count {
            return Err(ShardError::OtherCount { file, shard, count });
        }
        if let Some((first, _)) = by_index.get(&shard.index) {
            return Err(ShardError::Duplicate {
                shard,
                first: *first,
                second: file,
            });
        }
        by_index.insert(shard.index, (file, r));
    }
    let count = count.ok_or(ShardError::Empty)?;
    let missing: Vec<String> = (1..=count)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(ShardError::Missing {
            missing: missing.join(", "),
            count,
        });
    }
    Ok(by_index)
}

/// Whether a shard's bench ran a benchmark of its file (a pass may have added it).
fn benched(r: &Results, id: &str) -> bool {
    r.steps.iter().any(|s| s.step == "bench" && !s.excludes(id))
}

/// What every later shard must share with the first one.
struct FirstShard {
    record: ShardRecord,
    identity: SameRun,
    selection: String,
}

impl FirstShard {
    /// Refuses a shard (its `record` and results `r`) of another deal, run, kind of machine
    /// than `machine`, or selection.
    fn check_same_split(
        &self,
        record: &ShardRecord,
        machine: &Machine,
        r: &Results,
    ) -> Result<(), ShardError> {
        let (shard, first) = (record.shard, self.record.shard);
        if (record.plan.as_str(), record.selected)
            != (self.record.plan.as_str(), self.record.selected)
        {
            return Err(ShardError::OtherPlan {
                shard,
                first,
                theirs: record.plan.clone(),
                ours: self.record.plan.clone(),
            });
        }
        let theirs = SameRun::of(r).of_the_whole_run();
        if let Some(why) = self.identity.differs(&theirs) {
            return Err(ShardError::OtherRun { shard, first, why });
        }
        if let Some(why) = machine_kind_differs(machine, &r.machine) {
            return Err(ShardError::OtherMachine { shard, first, why });
        }
        let their_selection = bench_selection(r);
        if their_selection != self.selection {
            return Err(ShardError::OtherSelection {
                shard,
                first,
                theirs: their_selection,
                ours: self.selection.clone(),
            });
        }
        Ok(())
    }
}

/// Replaces each benchmark of `r` (shard `shard`) that an earlier shard also has by the two
/// joined ([`joined`]: the bench's entry with the passes' figures of both), and records in
/// `seen` which shard last had each benchmark and whether a bench ran it; refuses the same
/// measurement in two shards.
fn join_overlaps(
    merged: &Results,
    r: &mut Results,
    shard: Shard,
    seen: &mut HashMap<String, (Shard, bool)>,
) -> Result<(), ShardError> {
    let index: HashMap<String, usize> = merged
        .benchmarks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.id(), i))
        .collect();
    let ran: Vec<bool> = r.benchmarks.iter().map(|b| benched(r, &b.id())).collect();
    for (b, ran) in r.benchmarks.iter_mut().zip(ran) {
        let id = b.id();
        if let Some((earlier, earlier_ran)) = seen.insert(id.clone(), (shard, ran)) {
            let theirs = index.get(&id).map(|&i| &merged.benchmarks[i]);
            let both = theirs.and_then(|t| joined(t, earlier_ran, b, ran));
            *b = both.ok_or(ShardError::Overlap {
                id: id.clone(),
                first: earlier,
                second: shard,
            })?;
            seen.insert(id, (shard, ran || earlier_ran));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;
    use crate::step::StepRecord;

    /// The designs of the whole run: one cell per design of the `churn` workload at N = 10.
    const DESIGNS: [&str; 6] = ["holey", "packed", "slab", "pool", "slotmap", "thunderdome"];

    fn id(design: &str) -> String {
        format!("id_table/churn/{design}/10")
    }

    /// Shard `index` of `count` of the run over [`DESIGNS`], holding `designs`, measured on a
    /// machine named `name`; its record counts each design as a cell of its own.
    fn shard(index: u32, count: u32, designs: &[&str], name: &str) -> Results {
        let machine = Machine {
            name: name.into(),
            cpu_model: "test".into(),
            cores: 2,
            caches: crate::machine::CacheSizes::default(),
            os: "linux".into(),
            arch: "x86_64".into(),
            hw_counters_available: false,
            hw_counters_reason: None,
        };
        let mut r = Results::empty(machine, "abc".into(), "rustc".into(), 1, "quick");
        for design in designs {
            let b = r.entry(Family::IdTable, "churn", design, 10, 10);
            b.verified = true;
            b.memory_bytes = Some(design.len() as u64);
        }
        r.steps.push(StepRecord::new(
            "bench",
            "scale quick",
            DESIGNS.map(id),
            designs.iter().map(|d| id(d)),
        ));
        r.shard = Some(ShardRecord {
            shard: Shard { index, count },
            selected: DESIGNS.len(),
            ran: designs.len(),
            plan: "same".into(),
        });
        r
    }

    fn three() -> Vec<Results> {
        vec![
            shard(1, 3, &["holey", "packed"], "runner-a"),
            shard(2, 3, &["slab", "pool"], "runner-b"),
            shard(3, 3, &["slotmap", "thunderdome"], "runner-c"),
        ]
    }

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(" 1 / 1 ".parse(), Ok(Shard { index: 1, count: 1 }));
        for bad in ["0/3", "4/3", "3", "a/b", "1/257", "", "-1/2"] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert!(err.contains("is not K/N"), "{bad}: {err}");
        }
    }

    #[test]
    fn cells_are_dealt_longest_first_whatever_their_order() {
        let cells: Vec<(String, f64)> = [9.0, 1.0, 4.0, 4.0, 3.0, 7.0, 2.0, 5.0]
            .iter()
            .enumerate()
            .map(|(i, &t)| (format!("cell{i}"), t))
            .collect();
        let shard_of = assign(&cells, 3);
        let load = |k: usize| -> f64 {
            (0..cells.len())
                .filter(|&i| shard_of[i] == k)
                .map(|i| cells[i].1)
                .sum()
        };
        // 35 s over three shards: 12, 12 and 11, every shard within a cell of the others.
        let loads = [load(0), load(1), load(2)];
        assert_eq!(loads.iter().sum::<f64>(), 35.0);
        assert!(
            loads.iter().all(|&l| (11.0..=12.0).contains(&l)),
            "{loads:?}"
        );
        let mut reversed = cells.clone();
        reversed.reverse();
        let again = assign(&reversed, 3);
        for (i, (name, _)) in cells.iter().enumerate() {
            let j = reversed.iter().position(|(n, _)| n == name).unwrap();
            assert_eq!(shard_of[i], again[j], "{name}");
        }
    }

    #[test]
    fn a_plan_digest_depends_on_the_deal_not_on_the_order() {
        let d = plan_digest(&["a/1", "b/1", "c/1"], &[0, 1, 0]);
        assert_eq!(d, plan_digest(&["c/1", "a/1", "b/1"], &[0, 0, 1]));
        assert_ne!(d, plan_digest(&["a/1", "b/1", "c/1"], &[0, 1, 1]));
        assert_ne!(d, plan_digest(&["a/1", "b/1", "d/1"], &[0, 1, 0]));
        assert_eq!(d.len(), 16);
    }

    #[test]
    fn the_shards_of_a_run_merge_into_the_whole_run() {
        let mut files = three();
        files.rotate_left(1);
        let merged = merge_shards(files).unwrap();
        let mut ids: Vec<String> = merged.benchmarks.iter().map(|b| b.id()).collect();
        ids.sort();
        let mut all = DESIGNS.map(id).to_vec();
        all.sort();
        assert_eq!(ids, all);
        let bench = &merged.steps[0];
        assert!(bench.excluded.is_empty(), "{:?}", bench.excluded);
        assert_eq!(bench.selection, "scale quick");
        assert_eq!(merged.shard, None);
        assert_eq!(merged.machine.name, "runner-a+runner-b+runner-c");
        let memory = |d: &str| {
            merged
                .benchmarks
                .iter()
                .find(|b| b.design == d)
                .and_then(|b| b.memory_bytes)
        };
        assert_eq!(memory("thunderdome"), Some(11));
    }

    #[test]
    fn an_incomplete_or_mixed_set_of_shards_is_refused_naming_the_problem() {
        let cases: Vec<(Vec<Results>, &str)> = vec![
            (three()[..2].to_vec(), "shards 3 of 3 are missing"),
            (
                vec![three()[0].clone(), three()[1].clone(), three()[1].clone()],
                "shard 2/3 is given twice (files 2 and 3)",
            ),
            (
                {
                    let mut f = three();
                    f[2].commit = "def".into();
                    f
                },
                "shard 3/3 is of another run than shard 1/3: commit abc (now def)",
            ),
            (
                {
                    let mut f = three();
                    f[1].mode = "default".into();
                    f
                },
                "shard 2/3 is of another run than shard 1/3: mode quick (now default)",
            ),
            (
                {
                    let mut f = three();
                    f[1].machine.cpu_model = "other".into();
                    f
                },
                "shard 2/3 ran on another kind of machine than shard 1/3 (CPU test and other)",
            ),
            (
                {
                    let mut f = three();
                    f[2].steps[0].selection = "scale quick; arguments ^id_table/".into();
                    f
                },
                "shard 3/3 ran another selection than shard 1/3",
            ),
            (
                vec![
                    shard(1, 2, &["holey", "packed", "slab"], "a"),
                    shard(2, 2, &["slab", "pool", "slotmap", "thunderdome"], "b"),
                ],
                "benchmark id_table/churn/slab/10 is in shards 1/2 and 2/2",
            ),
            (
                vec![three()[0].clone(), shard(2, 2, &["slab"], "b")],
                "file 2 is shard 2/2, but file 1 is of 3 shards",
            ),
            (
                {
                    let mut f = three();
                    f[1].shard = None;
                    f
                },
                "file 2 is not a shard",
            ),
            (
                {
                    let mut f = three();
                    f[1].shard.as_mut().unwrap().plan = "other".into();
                    f
                },
                "shard 2/3 dealt the selection's cells otherwise than shard 1/3 (plan other, not same)",
            ),
            (
                vec![
                    shard(1, 2, &["holey", "packed", "slab"], "a"),
                    shard(2, 2, &["pool", "slotmap"], "b"),
                ],
                "the shards ran 5 cells of the selection's 6",
            ),
            (Vec::new(), "no shard to merge"),
        ];
        for (files, expected) in cases {
            let err = merge_shards(files).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}\nexpected: {expected}");
        }
    }

    /// `r` after a `memory --shard` pass that measured `designs` (adding the entries its bench
    /// did not run), its part `ran` of `selected` cells.
    fn with_memory_pass(mut r: Results, designs: &[&str], ran: usize, selected: usize) -> Results {
        let shard = r.shard.as_ref().unwrap().shard;
        for design in designs {
            r.entry(Family::IdTable, "churn", design, 10, 10)
                .alloc_calls_per_op = Some(2.0);
        }
        let mut step = StepRecord::new(
            "memory",
            "--quick",
            DESIGNS.map(id),
            designs.iter().map(|d| id(d)),
        );
        step.shard = Some(ShardRecord {
            shard,
            selected,
            ran,
            plan: "memory-deal".into(),
        });
        r.steps.push(step);
        r
    }

    #[test]
    fn a_pass_split_over_the_shards_joins_the_benchs_entries() {
        // The pass dealt its cells apart from the bench: shard 1's pass measured slotmap, which
        // shard 3's bench ran, and shard 3's measured holey, which shard 1's bench ran.
        let mut files = three();
        files[0] = with_memory_pass(files[0].clone(), &["slotmap", "packed"], 2, 6);
        files[1] = with_memory_pass(files[1].clone(), &["slab", "pool"], 2, 6);
        files[2] = with_memory_pass(files[2].clone(), &["holey", "thunderdome"], 2, 6);
        let merged = merge_shards(files).unwrap();
        assert_eq!(merged.benchmarks.len(), DESIGNS.len());
        for b in &merged.benchmarks {
            assert_eq!(b.alloc_calls_per_op, Some(2.0), "{}", b.id());
            // The bench's entry, with the bench's figures.
            assert_eq!(b.memory_bytes, Some(b.design.len() as u64), "{}", b.id());
        }
        let memory = merged.steps.iter().find(|s| s.step == "memory").unwrap();
        assert!(memory.excluded.is_empty(), "{:?}", memory.excluded);
        assert_eq!(memory.shard, None);
        assert_eq!(memory.selection, "--quick");
    }

    #[test]
    fn a_pass_split_otherwise_or_not_whole_is_refused() {
        let split = |parts: [(&[&str], usize); 3]| {
            let mut files = three();
            for (file, (designs, ran)) in files.iter_mut().zip(parts) {
                *file = with_memory_pass(file.clone(), designs, ran, 6);
            }
            files
        };
        let cases: Vec<(Vec<Results>, &str)> = vec![
            (
                split([(&["holey", "packed"], 2), (&["slab"], 1), (&["slotmap"], 1)]),
                "the shards' memory passes ran 4 cells of its selection's 6",
            ),
            (
                {
                    let mut f = split([(&["holey"], 2), (&["slab"], 2), (&["pool"], 2)]);
                    f[2].steps.retain(|s| s.step != "memory");
                    f
                },
                "shard 3/3 ran the memory pass on another part than shard 1/3 (plan none",
            ),
            (
                {
                    let mut f = split([(&["holey"], 2), (&["slab"], 2), (&["pool"], 2)]);
                    f[1].steps[1].shard.as_mut().unwrap().plan = "other".into();
                    f
                },
                "(plan other, not memory-deal)",
            ),
            (
                split([
                    (&["holey", "packed"], 2),
                    (&["slab", "pool"], 2),
                    (&["holey"], 2),
                ]),
                "benchmark id_table/churn/holey/10 is in shards 1/3 and 3/3 with the same \
                 measurement",
            ),
        ];
        for (files, expected) in cases {
            let err = merge_shards(files).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}\nexpected: {expected}");
        }
    }
}
