//! A cell's timing instances, each this program started again for it
//! ([`bench_harness::instance::in_new_process`]): what the coordinator sends one
//! ([`InstanceRequest`]), the longest it may run ([`deadline`]), and what the instance's
//! process does with it ([`serve_instance`]): it finds its cell in the run's matrix, prepares
//! the trace as the coordinator did, and times the verified designs.

use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use bench_harness::assemble::Verdict;
use bench_harness::families::{DesignList, ListVisitor};
use bench_harness::instance;
use bench_harness::replay::{ExtraDesigns, Family, OpOf, mirrored_designs};
use bench_harness::rounds::{RoundsBudget, RoundsTiming};
use bench_harness::suite::{PreparedTrace, SuiteConfig};

use super::cell::{CellBench, InstanceTimings};
use super::children::BenchKey;
use super::matrix::matrix;
use super::{criterion_budget, fail};

/// What one instance of a cell is asked to time.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct InstanceRequest {
    /// The names the run selects in the cell (designs and reference loops).
    pub(super) selected: Vec<String>,
    /// The cell's verdicts, in visit order: the verified ones are timed.
    pub(super) verified: Vec<Verdict>,
    /// Each design's rounds in the cell's earlier instances, by verdict index.
    pub(super) earlier: Vec<Option<RoundsTiming>>,
    /// The instance's seed: its order of rounds and its heap padding.
    pub(super) seed: u64,
    /// The model's answers on the cell's trace (`verify::Expected` of its family, as JSON),
    /// so that the instance, which generates the trace again, does not replay the model.
    pub(super) expected: String,
}

/// The wall time an instance may take before it is stopped: its budget's time for every
/// contestant, rounds and extra rounds, twenty times over, and five minutes more. A cell's
/// designs can overrun their budget (the fewest rounds run however slow a contestant is, and
/// a body that writes rebuilds its state untimed before each replay), and a busy machine
/// stretches the wall time of all of it, most for the threaded designs, whose workers wait for
/// processors: the bound is there so that a run ends, not to shape a quiet one.
pub(super) fn deadline(budget: &RoundsBudget, contestants: usize) -> Duration {
    (budget.per_contestant + budget.extra_per_contestant) * 20 * contestants.max(1) as u32
        + Duration::from_secs(300)
}

/// The cell's name as an instance is started for it: `family/workload/n`.
pub(super) fn cell_name(group_name: &str, n: usize) -> String {
    format!("{group_name}/{n}")
}

/// In a process started for an instance of `cell` ([`instance::started_for`]): reads the
/// request, times the cell's verified designs of list `L`, writes the answer and exits.
pub(super) fn serve_instance<L: DesignList>(config: SuiteConfig, cell: &str) -> ! {
    instance::serve(|request: InstanceRequest| {
        let mut visit = InstanceOf {
            config,
            cell,
            request: Some(request),
            answer: None,
        };
        L::for_each(&mut visit);
        visit
            .answer
            .ok_or_else(|| format!("no cell {cell} in this run's matrix"))
    })
}

/// Visits the families of a list to time the one instance of `cell` that `request` asks for.
struct InstanceOf<'a> {
    config: SuiteConfig,
    cell: &'a str,
    request: Option<InstanceRequest>,
    answer: Option<InstanceTimings>,
}

impl ListVisitor for InstanceOf<'_> {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        if self.answer.is_some() {
            return;
        }
        let Some((workload, n, recorded)) = matrix::<F>(&self.config)
            .into_iter()
            .find(|(w, n, _)| cell_name(&format!("{}/{w}", F::NAME), *n) == self.cell)
        else {
            return;
        };
        let Some(request) = self.request.take() else {
            return;
        };
        let group_name = format!("{}/{workload}", F::NAME);
        let trace = match recorded {
            Some(trace) => Ok(trace),
            None => {
                workloads::registry::generate_for::<OpOf<F>>(workload, n, self.config.seed, None)
                    .map_err(|e| e.to_string())
            }
        };
        let prepared = trace
            .and_then(|trace| {
                let expected = serde_json::from_str(&request.expected)
                    .map_err(|e| format!("its answers cannot be read: {e}"))?;
                PreparedTrace::<F>::with_expected(trace, expected)
            })
            .unwrap_or_else(|e| fail(&format!("cannot prepare {workload} at n={n}: {e}")));
        let n_text = n.to_string();
        let selected: HashSet<BenchKey> = request
            .selected
            .iter()
            .map(|name| (group_name.clone(), name.clone(), n_text.clone()))
            .collect();
        let mirrored = mirrored_designs::<F>();
        let cell = CellBench {
            group_name: &group_name,
            prepared: &prepared,
            selected: Rc::new(selected),
            budget: criterion_budget(self.config.scale).0,
            mirrored: &mirrored,
        };
        let budget = self
            .config
            .rounds_budget()
            .per_instance(self.config.instances());
        let _padding = instance::pad_heap(request.seed.rotate_left(17));
        self.answer = Some(cell.time_instance::<X>(
            &request.verified,
            &request.earlier,
            &budget,
            request.seed,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_grows_with_the_contestants_and_leaves_room_for_a_slow_machine() {
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(200),
            min_sample: Duration::from_millis(1),
            min_rounds: 15,
            max_rounds: 150,
            extra_per_contestant: Duration::from_millis(200),
            precision: 0.06,
            leave_spent_after: Some(5),
        };
        let one = deadline(&budget, 1);
        assert!(one >= Duration::from_secs(300));
        assert!(deadline(&budget, 20) > one);
        assert_eq!(deadline(&budget, 0), one);
    }
}
