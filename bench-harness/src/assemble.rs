//! The one place results are assembled: a run's header, one [`Benchmark`] from a design's
//! verdict and criterion's estimates (`cargo bench`), and a pass's row merged into an existing
//! file (`dodbench cache|memory|latency|sweep`). Both binaries call these; neither builds a
//! `Benchmark` by hand.

use std::path::Path;

use workloads::TraceStats;

use crate::measure::DesignRow;
use crate::replay::{Family, ReferenceLoop};
use crate::rounds::{Roles, RoundsTiming};
use crate::suite::{PreparedTrace, current_commit, toolchain, unix_now};
use crate::verify::{Checked, Outcome};
use results::FamilyMetrics;
use results::stats::median_interval;
use results::{
    Benchmark, DesignRecord, Estimate, FamilyRecord, Results, ResultsError, Rounds, Status,
    WorkloadRecord,
};

/// A run with no benchmarks yet: this machine, commit, toolchain and time, in `mode`. Its
/// `families` fill in as families are merged into it.
pub fn new_results(mode: &str) -> Results {
    Results {
        families: Vec::new(),
        ..Results::empty(
            crate::machine::probe(),
            current_commit(),
            toolchain().to_string(),
            unix_now(),
            mode,
        )
    }
}

/// The results file at `path`, or a new run when there is none yet.
///
/// # Errors
/// The file exists but cannot be read or is not a results file.
pub fn load_or_new(path: &Path, mode: &str) -> Result<Results, ResultsError> {
    Results::load_or(path, || new_results(mode))
}

/// The record that regenerates `prepared`'s trace.
pub fn workload_record<F: Family>(prepared: &PreparedTrace<F>, seed: u64) -> WorkloadRecord {
    let working_set = prepared.trace.working_set();
    WorkloadRecord {
        working_set: Some(working_set.distinct),
        visits_store: working_set.visits_store,
        memory_bound: F::memory_bound(&prepared.trace),
        family: F::RESULTS_FAMILY,
        workload: prepared.workload.clone(),
        n: prepared.n as u64,
        seed,
        params: prepared.trace.header.params.clone(),
        ops: prepared.expected.stats.work_units(),
    }
}

/// What the criterion driver knows of one benchmark before criterion's numbers are read (sent
/// as JSON from the process that verified it, [`crate::instance`]).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// The family of the workload (the criterion group is `family/workload`).
    pub family: results::Family,
    /// Whether the replayer is a reference (results family `reference`).
    pub reference: bool,
    /// Workload name.
    pub workload: String,
    /// Design or reference name.
    pub design: String,
    /// For a reference loop: the design whose replay it writes by hand
    /// ([`crate::replay::ReferenceLoop::MIRRORS`]).
    pub mirrors: Option<String>,
    /// Live size.
    pub n: usize,
    /// Work units per body replay.
    pub ops: u64,
    /// The verification verdict (or why timing failed).
    pub outcome: Outcome,
    /// The design's memory after the setup (its own accounting).
    pub memory_bytes: Option<u64>,
    /// Live objects after the setup.
    pub live_after_setup: u64,
    /// The family's metrics from the untimed measuring replay.
    pub metrics: Option<FamilyMetrics>,
}

impl Verdict {
    /// The verdict of design `design` of `prepared` from its verification replay.
    pub fn of<F: Family>(prepared: &PreparedTrace<F>, design: &str, checked: &Checked) -> Self {
        Self {
            family: F::RESULTS_FAMILY,
            reference: false,
            workload: prepared.workload.clone(),
            design: design.to_string(),
            mirrors: None,
            n: prepared.n,
            ops: prepared.expected.stats.work_units(),
            outcome: checked.outcome.clone(),
            memory_bytes: checked.memory_bytes_after_setup,
            live_after_setup: prepared.expected.stats.live_at_start(),
            metrics: None,
        }
    }

    /// The verdict of reference loop `L` on `prepared` (results family `reference`, mirroring
    /// its design), from the outcome of its verification pass.
    pub fn of_loop<L: ReferenceLoop>(
        prepared: &PreparedTrace<L::Family>,
        outcome: Outcome,
    ) -> Self {
        let checked = Checked::outcome_only(outcome);
        Self {
            reference: true,
            mirrors: L::MIRRORS.map(str::to_string),
            ..Self::of(prepared, &L::name(), &checked)
        }
    }

    /// The key criterion stores its estimates under: (`family/workload`, design, n).
    pub fn criterion_key(&self) -> (String, String, String) {
        (
            format!("{}/{}", self.family, self.workload),
            self.design.to_string(),
            self.n.to_string(),
        )
    }

    /// The results entry of a verdict timed in the interleaved rounds of `session`: its
    /// per-round samples (ns per replay, divided by the work units), their median with its
    /// interval, and [`Rounds`] (the paired ratios are filled once the whole cell is in,
    /// [`Results::fill_paired_ratios`]).
    pub fn into_rounds_benchmark(self, session: u64, timing: RoundsTiming) -> Benchmark {
        let estimate = median_interval(&mut timing.ns_per_replay.clone());
        let mut b = self.into_benchmark(estimate, Some(timing.ns_per_replay));
        if b.verified {
            b.rounds = Some(Rounds::new(session, timing.iters, timing.instances));
        }
        b
    }

    /// The results entry: the verdict with a per-iteration estimate and raw samples (ns per
    /// iteration; criterion's, or the rounds') divided by the work units. A verified benchmark
    /// without an estimate is `failed` (nothing timed it).
    pub fn into_benchmark(
        self,
        per_iter: Option<Estimate>,
        samples_per_iter: Option<Vec<f64>>,
    ) -> Benchmark {
        let mut outcome = self.outcome;
        let per_iter = per_iter.filter(|_| outcome.is_verified());
        if outcome.is_verified() && per_iter.is_none() {
            outcome = Outcome::Failed("no timing was recorded for this benchmark".into());
        }
        let units = self.ops.max(1) as f64;
        let family = if self.reference {
            results::Family::Reference
        } else {
            self.family
        };
        let mut b = Benchmark::new(
            family,
            &self.workload,
            &self.design,
            self.n as u64,
            self.ops,
        );
        b.mirrors = self.mirrors;
        b.verified = outcome.is_verified();
        b.status = outcome.status();
        b.refused = outcome.refused();
        b.reason = outcome.reason().map(str::to_string);
        if let Some(e) = per_iter {
            let ns_per_op = Estimate {
                median: e.median / units,
                lower: e.lower / units,
                upper: e.upper / units,
            };
            b.ops_per_s = Some(1e9 / ns_per_op.median);
            b.ns_per_op = Some(ns_per_op);
            b.samples_ns_per_op = samples_per_iter
                .unwrap_or_default()
                .into_iter()
                .map(|ns| ns / units)
                .collect();
        }
        b.memory_bytes = self.memory_bytes;
        b.bytes_per_object = self
            .memory_bytes
            .filter(|_| self.live_after_setup > 0)
            .map(|m| m as f64 / self.live_after_setup as f64);
        b.metrics = self.metrics;
        b
    }
}

/// The roles of a cell's contestants in its rounds (`verdict(k)` is the `k`-th contestant's
/// verdict): a reference loop mirrors the contestant of its design when that design is in the
/// cell (the two run back to back with the same iterations, and their ratio is the loop's
/// `overhead`), and every contestant that is not a reference is ranked.
pub fn roles<'a>(contestants: usize, verdict: impl Fn(usize) -> &'a Verdict) -> Roles {
    let mirrors = (0..contestants)
        .map(|k| {
            let mirrors = verdict(k).mirrors.as_deref()?;
            (0..contestants).position(|j| {
                let v = verdict(j);
                !v.reference && v.design == mirrors
            })
        })
        .collect();
    let ranked = (0..contestants).map(|k| !verdict(k).reference).collect();
    Roles {
        mirrors,
        ranked,
        earlier: Vec::new(),
    }
}

/// A finished `cargo bench` run, with the reference loops' overheads filled in.
pub fn bench_results(
    mode: &str,
    families: Vec<FamilyRecord>,
    designs: Vec<DesignRecord>,
    workloads: Vec<WorkloadRecord>,
    benchmarks: Vec<Benchmark>,
) -> Results {
    let mut results = Results {
        families,
        designs,
        workloads,
        benchmarks,
        ..new_results(mode)
    };
    results.fill_paired_ratios();
    results.fill_overheads();
    results
}

/// Merges one design's row of a pass on `prepared` into `results`: the workload record, the
/// design's verdict (a verified entry keeps its status unless this pass found it failing) and
/// memory after the setup, then `store` puts the pass's own output into the entry.
pub fn merge_row<F: Family, O>(
    results: &mut Results,
    prepared: &PreparedTrace<F>,
    seed: u64,
    row: DesignRow<O>,
    store: &mut dyn FnMut(&mut Benchmark, Result<O, String>),
) {
    if !results.workloads.iter().any(|w| {
        w.family == F::RESULTS_FAMILY && w.workload == prepared.workload && w.n == prepared.n as u64
    }) {
        results.workloads.push(workload_record(prepared, seed));
    }
    if !results
        .designs
        .iter()
        .any(|d| d.family == F::RESULTS_FAMILY)
    {
        results.designs.extend(F::design_records());
    }
    if !results
        .families
        .iter()
        .any(|r| r.family == F::RESULTS_FAMILY)
    {
        results.families.push(F::family_record());
    }
    let ops = prepared.expected.stats.work_units();
    let family = if row.reference {
        results::Family::Reference
    } else {
        F::RESULTS_FAMILY
    };
    let entry = results.entry(
        family,
        &prepared.workload,
        &row.design,
        prepared.n as u64,
        ops,
    );
    let outcome = &row.checked.outcome;
    if entry.status == Status::Unmeasured || !outcome.is_verified() {
        entry.verified = outcome.is_verified();
        entry.status = outcome.status();
        entry.refused = outcome.refused();
        entry.reason = outcome.reason().map(str::to_string);
    }
    if let Some(m) = row.checked.memory_bytes_after_setup {
        entry.memory_bytes = Some(m);
        let live = prepared.expected.stats.live_at_start();
        entry.bytes_per_object = (live > 0).then(|| m as f64 / live as f64);
    }
    if let Some(measured) = row.measured {
        store(entry, measured);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(design: &str, mirrors: Option<&'static str>) -> Verdict {
        Verdict {
            family: results::Family::Alloc,
            reference: mirrors.is_some(),
            workload: "w".into(),
            design: design.into(),
            mirrors: mirrors.map(str::to_string),
            n: 1,
            ops: 1,
            outcome: Outcome::Verified,
            memory_bytes: None,
            live_after_setup: 0,
            metrics: None,
        }
    }

    /// A loop pairs with its design wherever it sits; a loop whose design is not in the cell,
    /// and every design, pair with nothing; the designs are ranked, the loops not.
    #[test]
    fn a_loop_pairs_with_the_design_it_mirrors() {
        let cell = [
            verdict("ref-direct-b", Some("b")),
            verdict("a", None),
            verdict("b", None),
            verdict("ref-direct-c", Some("c")),
            verdict("ref-direct-a", Some("a")),
        ];
        let roles = roles(cell.len(), |k| &cell[k]);
        assert_eq!(roles.mirrors, [Some(2), None, None, None, Some(1)]);
        assert_eq!(roles.ranked, [false, true, true, false, false]);
    }
}
