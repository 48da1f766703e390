//! What each measuring step of a run was asked to measure, so a benchmark missing from a run
//! can be told apart from one the run chose not to measure.
//!
//! A run is built by steps: `cargo bench` writes the file, then `dodbench cache|memory|
//! latency|sweep` merge into it. Each step records a [`StepRecord`]: its name, a one-line
//! description of its selection (scale, filter, `--family`, ...) and the benchmarks it
//! **excluded**: every benchmark it could have measured with no selection at all (every
//! family, design and workload it serves, at every scale's sizes) that it did not measure.
//! `compare` reads a benchmark of BASE that NEW lacks as `not run (filtered)` only when some
//! step of NEW excluded it; any other missing benchmark is `gone` and fails the gate (a crash,
//! a removed design, a step that did not run).
//!
//! A run split over machines runs one [`Shard`] of its selection per machine
//! ([`crate::shards`]).

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One step of a run and what its selection left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// `bench`, or the pass: `cache`, `memory`, `latency`, `sweep`.
    pub step: String,
    /// The selection in words, e.g. `quick; filter ^tags/` or `--quick --family tags`.
    pub selection: String,
    /// Benchmark IDs (`family/workload/design/n`, reference loops under family `reference`)
    /// the step would measure with no selection and did not, sorted.
    pub excluded: Vec<String>,
    /// Wall-clock seconds the step took, summed over the runs merged into this record (a
    /// filtered run merged into the file adds its own); absent in files that predate it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seconds: Option<u64>,
    /// The bench step's wall milliseconds per cell (`family/workload/n`): what a later run
    /// split into shards deals its cells by (`DODBENCH_SHARD_TIMES`). Empty for the passes.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub cell_ms: std::collections::BTreeMap<String, u64>,
    /// For a pass run with `--shard K/N`: its part of the pass's selection (the cells, a
    /// family, workload and N each, dealt as the bench deals its own). `dodbench merge` checks
    /// that the shards' parts make the whole selection, then drops it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
}

impl StepRecord {
    /// The record of a step that could measure `universe` and measured `measured`.
    ///
    /// ```
    /// use results::StepRecord;
    /// let universe = ["tags/churn/a/10", "tags/churn/b/10", "alloc/x/buddy/4"];
    /// let measured = ["tags/churn/a/10"];
    /// let r = StepRecord::new("bench", "filter churn/a", universe, measured);
    /// assert_eq!(r.excluded, ["alloc/x/buddy/4", "tags/churn/b/10"]);
    /// assert!(r.excludes("tags/churn/b/10"));
    /// assert!(!r.excludes("tags/churn/a/10"));
    /// ```
    pub fn new<U, M>(step: &str, selection: &str, universe: U, measured: M) -> Self
    where
        U: IntoIterator,
        U::Item: Into<String>,
        M: IntoIterator,
        M::Item: Into<String>,
    {
        let measured: BTreeSet<String> = measured.into_iter().map(Into::into).collect();
        let excluded: BTreeSet<String> = universe
            .into_iter()
            .map(Into::into)
            .filter(|id| !measured.contains(id))
            .collect();
        Self {
            step: step.to_string(),
            selection: selection.to_string(),
            excluded: excluded.into_iter().collect(),
            seconds: None,
            cell_ms: Default::default(),
            shard: None,
        }
    }

    /// Whether this step's selection left out benchmark `id`.
    pub fn excludes(&self, id: &str) -> bool {
        self.excluded
            .binary_search_by(|e| e.as_str().cmp(id))
            .is_ok()
    }

    /// Whether this step's selection left out some benchmark whose ID starts with `prefix`
    /// (`family/workload/design/`: that design on that workload at any size).
    pub fn excludes_any_with_prefix(&self, prefix: &str) -> bool {
        let first = self.excluded.partition_point(|e| e.as_str() < prefix);
        self.excluded
            .get(first)
            .is_some_and(|e| e.starts_with(prefix))
    }

    /// `step (selection)`, for notes.
    pub fn describe(&self) -> String {
        if self.selection.is_empty() {
            self.step.clone()
        } else {
            format!("{} ({})", self.step, self.selection)
        }
    }
}

/// The `bench` steps' cell times of a run's `steps` (`family/workload/n` to wall
/// milliseconds): what `DODBENCH_SHARD_TIMES` deals a split run by.
pub fn bench_cell_ms(steps: &[StepRecord]) -> std::collections::BTreeMap<String, u64> {
    steps
        .iter()
        .filter(|s| s.step == "bench")
        .flat_map(|s| s.cell_ms.clone())
        .collect()
}

/// The most shards a run may be split into.
pub const MAX_SHARDS: u32 = 256;

/// One shard of a run: the `index`-th (from 1) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 1 to `count`.
    pub index: u32,
    /// How many shards the run is split into.
    pub count: u32,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `k/n` with `1 <= k <= n <= MAX_SHARDS`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("shard {s:?} is not K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 2/3");
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// What a shard's results file records of its split ([`crate::shards::merge_shards`] checks it):
/// which shard it is, the cells (workload and N) of the whole selection and those this shard's
/// benchmarks cover, and a digest of how the selection's cells were dealt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// Which shard.
    #[serde(flatten)]
    pub shard: Shard,
    /// Cells of the whole selection the run was split from.
    pub selected: usize,
    /// Cells this shard ran (distinct workload and N of its benchmarks; of a pass's step, the
    /// cells of its part).
    pub ran: usize,
    /// [`crate::shards::plan_digest`] of the deal: every shard of one split has the same.
    pub plan: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excluded_is_sorted_deduplicated_and_searchable() {
        let r = StepRecord::new(
            "cache",
            "--quick",
            ["b/w/d/2", "a/w/d/1", "b/w/d/2", "c/w/d/3"],
            ["c/w/d/3"],
        );
        assert_eq!(r.excluded, ["a/w/d/1", "b/w/d/2"]);
        assert!(r.excludes("a/w/d/1") && r.excludes("b/w/d/2"));
        assert!(!r.excludes("c/w/d/3") && !r.excludes("z"));
        assert!(r.excludes_any_with_prefix("a/w/d/") && r.excludes_any_with_prefix("b/w/"));
        assert!(!r.excludes_any_with_prefix("c/w/d/") && !r.excludes_any_with_prefix("a/w/e/"));
        assert_eq!(r.describe(), "cache (--quick)");
    }

    #[test]
    fn an_unselective_step_excludes_nothing() {
        let all = ["a/w/d/1", "a/w/e/1"];
        let r = StepRecord::new("bench", "", all, all);
        assert!(r.excluded.is_empty());
        assert_eq!(r.describe(), "bench");
    }
}
