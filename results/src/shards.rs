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
mod tests;
