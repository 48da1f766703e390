//! One cell (family, workload, N) of the bench: [`CellBench`] visits the cell's designs and
//! reference loops with the generic driver [`FamilyBench`], which verifies and measures each and
//! then, as its [`Step`] says, times it under criterion ([`time_verified`]) or builds its timer
//! for one instance of the interleaved rounds ([`CellBench::time_instance`]).

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;
use std::time::Duration;

use bench_harness::assemble::{Verdict, roles};
use bench_harness::replay::{
    CellStates, Design, ExtraDesigns, Family, ReferenceLoop, ReplayerVisitor, Role, family_metrics,
    for_each_replayer_with,
};
use bench_harness::rounds::{LoopTimer, RoundsBudget, RoundsTiming, Timer, time_cell};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::TimedReplay;
use bench_harness::verify::{Outcome, check_design};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId};

use super::Budget;
use super::children::BenchKey;

/// Samples for a benchmark whose one body replay (setup excluded) already takes longer than a
/// whole measurement budget (a map-based design over a 1M-object lookup body): criterion's
/// fewest, so the slowest designs cost seconds, not minutes, of the run.
const LONG_BODY_SAMPLES: usize = 10;

/// One cell of family `F`: its prepared trace and what the run selects of it, visited to verify
/// its designs ([`CellBench::visit`]) or to time one instance of its rounds
/// ([`CellBench::time_instance`]).
pub(super) struct CellBench<'p, F: Family> {
    pub(super) group_name: &'p str,
    pub(super) prepared: &'p PreparedTrace<F>,
    pub(super) selected: Rc<HashSet<BenchKey>>,
    pub(super) budget: Budget,
    /// The designs a reference loop of the family mirrors.
    pub(super) mirrored: &'p [&'static str],
}

impl<'p, F: Family> CellBench<'p, F> {
    fn selects(&self, name: &str) -> bool {
        self.selected.contains(&(
            self.group_name.to_string(),
            name.to_string(),
            self.prepared.n.to_string(),
        ))
    }

    /// Visits the cell's selected designs and loops in registry order, verifying and
    /// measuring each (under criterion, timing it too); their verdicts in visit order.
    pub(super) fn visit<X: ExtraDesigns<F>>(&self, step: Step<'_, 'p, '_>) -> Vec<Verdict> {
        let mut visit = FamilyBench {
            cell: self,
            step,
            verdicts: Vec::new(),
            designs: CellStates::ending_in(self.prepared.expected.state_at_end),
        };
        for_each_replayer_with::<F, X, _>(&mut visit);
        visit.verdicts
    }

    /// One instance of the cell's rounds: builds afresh the timer of every design `verified`
    /// (the cell's verdicts in visit order) says is verified, times them together within
    /// `budget` (settling comparisons over their `earlier` instances' rounds too), and gives
    /// each one's timing by its index in `verified`, with how the rounds went in words.
    pub(super) fn time_instance<X: ExtraDesigns<F>>(
        &self,
        verified: &[Verdict],
        earlier: &[Option<RoundsTiming>],
        budget: &RoundsBudget,
        seed: u64,
    ) -> InstanceTimings {
        let mut visit = FamilyBench {
            cell: self,
            step: Step::Time {
                verified,
                visited: 0,
                contestants: Vec::new(),
            },
            verdicts: Vec::new(),
            designs: CellStates::ending_in(self.prepared.expected.state_at_end),
        };
        for_each_replayer_with::<F, X, _>(&mut visit);
        let Step::Time { contestants, .. } = visit.step else {
            unreachable!("the step stays what it was built as")
        };
        if contestants.is_empty() {
            return (Vec::new(), String::new());
        }
        let (indices, mut timers): (Vec<usize>, Vec<Box<dyn Timer + '_>>) =
            contestants.into_iter().unzip();
        // A reference loop runs beside the design it mirrors (its `overhead`).
        let mut roles = roles(indices.len(), |k| &verified[indices[k]]);
        roles.earlier = indices.iter().map(|&i| earlier[i].clone()).collect();
        let cell = time_cell(&mut timers, &roles, budget, seed);
        let shape = cell.describe();
        (indices.into_iter().zip(cell.timings).collect(), shape)
    }
}

/// One instance's timings (by the index of the design's verdict in its cell) and how its
/// rounds went.
pub(super) type InstanceTimings = (Vec<(usize, Result<RoundsTiming, String>)>, String);

/// What a visit of a cell's designs does with each.
pub(super) enum Step<'s, 'p, 'g> {
    /// Verify and measure it, then time it with criterion.
    Criterion(&'s mut BenchmarkGroup<'g, WallTime>),
    /// Verify and measure it (the rounds time the verified ones afterwards, in instances).
    Verify,
    /// Build its timer if `verified` (the cell's verdicts, in the visit order that `visited`
    /// counts) says it is verified.
    Time {
        verified: &'s [Verdict],
        visited: usize,
        contestants: Vec<(usize, Box<dyn Timer + 'p>)>,
    },
}

/// The generic driver for one cell of family `F`: what [`Step`] says, for each design.
struct FamilyBench<'c, 's, 'p, 'g, F: Family> {
    cell: &'c CellBench<'p, F>,
    step: Step<'s, 'p, 'g>,
    verdicts: Vec<Verdict>,
    /// The timed replays' states of the designs a loop mirrors, for the loops visited after
    /// them (read-only bodies).
    designs: CellStates,
}

impl<'p, F: Family> FamilyBench<'_, '_, 'p, '_, F> {
    /// The timer of design `R`, keeping its state for the loop that mirrors it (which reads
    /// this very state; an error here is the dry run's, which the timing reports).
    fn timed(&mut self, design: &'static dyn Design<F>) -> TimedReplay<'p, F> {
        let p = self.cell.prepared;
        let mut timed = TimedReplay::new(design, &p.trace, &p.expected);
        if self.cell.mirrored.contains(&design.name()) {
            match timed.shared() {
                Ok(Some(shared)) => self.designs.insert(design.name(), shared),
                // A body that writes: its resolved body, which the loop decodes its steps from.
                Ok(None) => {
                    if let Some(body) = timed.resolved() {
                        self.designs.insert_resolved(design.name(), body.clone());
                    }
                }
                Err(_) => {}
            }
        }
        timed
    }

    /// Under [`Step::Time`], whether the next visit, of `name`, was verified (the visit
    /// counted); `None` under the other steps.
    fn was_verified(&mut self, name: &str) -> Option<(usize, bool)> {
        let Step::Time {
            verified, visited, ..
        } = &mut self.step
        else {
            return None;
        };
        let i = *visited;
        *visited += 1;
        let ok = verified
            .get(i)
            .is_some_and(|v| v.design == name && v.outcome.is_verified());
        Some((i, ok))
    }

    fn push_contestant(&mut self, i: usize, timer: Box<dyn Timer + 'p>) {
        if let Step::Time { contestants, .. } = &mut self.step {
            contestants.push((i, timer));
        }
    }
}

impl<F: Family> ReplayerVisitor<F> for FamilyBench<'_, '_, '_, '_, F> {
    /// Verifies the design (or reference) of replayer `R`, measures its family metrics and,
    /// if verified, times it (criterion) or builds its timer (an instance of the rounds).
    fn visit_design(&mut self, design: &'static dyn Design<F>, role: Role) {
        let p = self.cell.prepared;
        let name = design.name();
        if !self.cell.selects(name) {
            return;
        }
        if let Some((i, verified)) = self.was_verified(name) {
            if verified {
                let timed = self.timed(design);
                self.push_contestant(i, Box::new(timed));
            }
            return;
        }
        let checked = check_design(design, &p.trace, &p.expected);
        let mut verdict = Verdict::of(p, name, &checked);
        verdict.reference = role == Role::Reference;
        if verdict.outcome.is_verified() {
            match design.measure(&p.trace, &p.expected.stats) {
                Ok(None) => {}
                Ok(Some(typed)) => match family_metrics::<F>(&typed) {
                    Ok(metrics) => verdict.metrics = Some(metrics),
                    Err(e) => verdict.outcome = Outcome::Failed(format!("metrics: {e}")),
                },
                Err(e) => verdict.outcome = Outcome::Failed(format!("metrics replay {e}")),
            }
        }
        let under_criterion = matches!(self.step, Step::Criterion(_));
        if verdict.outcome.is_verified() && (under_criterion || self.cell.mirrored.contains(&name))
        {
            let mut timed = self.timed(design);
            if let Step::Criterion(group) = &mut self.step {
                // The share of wall time spent in the timed body: a body that mutates the
                // design needs an untimed rebuild per timed replay, which criterion's budget
                // ignores.
                let share = match checked.setup_and_body_time {
                    Some((setup, body)) if !p.trace.body_is_read_only() => (body.as_secs_f64()
                        / (setup + body).as_secs_f64().max(1e-9))
                    .clamp(0.05, 1.0),
                    _ => 1.0,
                };
                let budget = &self.cell.budget;
                let long = checked
                    .setup_and_body_time
                    .is_some_and(|(_, body)| body > budget.measurement);
                if let Err(reason) = time_verified(
                    group,
                    BenchmarkId::new(name, p.n),
                    budget,
                    share,
                    long,
                    &mut |iters| timed.run(iters),
                ) {
                    verdict.outcome = Outcome::Failed(reason);
                }
            }
        }
        self.verdicts.push(verdict);
    }

    /// Verifies a reference loop where the trace has its shape, and times it (criterion) or
    /// builds its timer (an instance of the rounds).
    fn visit_loop<L: ReferenceLoop<Family = F>>(&mut self) {
        let p = self.cell.prepared;
        let name = L::name();
        if !self.cell.selects(&name) {
            return;
        }
        let Some(reference) = L::in_cell(&p.trace, &p.expected.body, &self.designs) else {
            return;
        };
        if let Some((i, verified)) = self.was_verified(&name) {
            if verified {
                self.push_contestant(i, Box::new(LoopTimer(reference)));
            }
            return;
        }
        let mut outcome = match reference.run(1) {
            Ok(_) => Outcome::Verified,
            Err(e) => Outcome::Failed(e),
        };
        if outcome.is_verified()
            && let Step::Criterion(group) = &mut self.step
            && let Err(reason) = time_verified(
                group,
                BenchmarkId::new(name.as_str(), p.n),
                &self.cell.budget,
                1.0,
                false,
                &mut |iters| reference.run(iters),
            )
        {
            outcome = Outcome::Failed(reason);
        }
        self.verdicts.push(Verdict::of_loop::<L>(p, outcome));
    }
}

/// Times `run` (which performs `iters` verified, timed replays and returns the time inside
/// them) under criterion with `budget` scaled by `share`, the fraction of wall time a replay
/// spends in its timed body, and [`LONG_BODY_SAMPLES`] samples if the body is `long`. Returns the first verification failure, if any: criterion's
/// numbers for that benchmark are then discarded.
fn time_verified(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    budget: &Budget,
    share: f64,
    long: bool,
    run: &mut dyn FnMut(u64) -> Result<Duration, String>,
) -> Result<(), String> {
    group
        .sample_size(if long {
            LONG_BODY_SAMPLES
        } else {
            budget.samples
        })
        .warm_up_time(budget.warm_up.mul_f64(share).max(Duration::from_millis(10)))
        .measurement_time(
            budget
                .measurement
                .mul_f64(share)
                .max(Duration::from_millis(20)),
        );
    let failure = RefCell::new(None);
    group.bench_function(id, |b| {
        b.iter_custom(|iters| match run(iters) {
            Ok(d) => d,
            Err(e) => {
                failure.borrow_mut().get_or_insert(e);
                Duration::from_nanos(iters)
            }
        })
    });
    failure.into_inner().map_or(Ok(()), Err)
}
