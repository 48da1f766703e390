//! Interleaved rounds: every design of one cell (family, workload, N) timed together.
//!
//! Each contestant (a design's [`TimedReplay`], a reference replayer, a reference loop) is
//! prepared and verified first, outside the timed region, as for criterion. Then the cell is
//! timed in rounds: every round runs each contestant's sample once, in an order shuffled per
//! round, so a burst of other work on the machine lands on all of them alike and cancels in
//! the ratio of two designs' times in the same round (`results::stats`); a reference loop
//! runs back to back with the design it mirrors, in either order, so their ratio (the
//! replay's `overhead`) pairs samples taken moments apart. A contestant's
//! sample is `iters` verified replays, `iters` chosen once per contestant so a sample lasts at
//! least [`RoundsBudget::min_sample`], after untimed replays (none for a
//! [`SELF_WARMING_REPLAY`], one fewer for a [`LONG_REPLAY`]): [`WARM_UPS`] for a contestant
//! that keeps its state between samples (the round's other contestants have evicted it from
//! the caches, [`Timer::needs_warm_up`]), [`REBUILT_WARM_UPS`] for one whose state is rebuilt
//! for every replay, so every sample measures a warm state as
//! criterion's would, and the ratio of two designs does not depend on their iterations; the
//! number of rounds fills the cell's budget within
//! [`RoundsBudget::min_rounds`]..=[`RoundsBudget::max_rounds`]. Samples and budget are read
//! with [`Stopwatch`]: wall time less the time the thread waited for a processor, so other work
//! on the machine neither lengthens a sample it preempted nor takes rounds from a cell (it makes
//! the cell take longer instead).
//!
//! Then the comparisons the cell is read for (each reference loop against the design it
//! mirrors, the two fastest ranked designs against each other) that the rounds left unsettled
//! ([`settled`]) get **extra rounds**, in which only their contestants run, until they settle,
//! the rounds reach [`RoundsBudget::max_rounds`] or [`RoundsBudget::extra_per_contestant`] is
//! spent; a contestant leaves for good once none of its comparisons is open, so every
//! contestant ran a prefix of the rounds and two contestants pair the rounds they both ran. A
//! slow contestant does not cap the rounds of the fast pairs beside it. In the rounds before
//! the extra ones too, a contestant that has **spent its budget** (a slow replay, held at the
//! [`RoundsBudget::min_rounds`] floor, or one costlier than the cell's average) leaves as soon
//! as it has run [`RoundsBudget::leave_spent_after`] rounds with none of its comparisons open:
//! the floor is for the intervals of the comparisons a cell is read for, and a settled one
//! gains nothing from more rounds of a contestant that already took its share. A contestant whose
//! replay fails verification in any round leaves the rounds with its error and no time.
//!
//! Google Benchmark's random interleaving (`--benchmark_enable_random_interleaving`) and
//! tango-bench's paired samples measure the same way; the extra rounds are a sequential
//! design in the manner of adaptive sampling (sample until the interval is narrow enough, with
//! a cap).
//!
//! The engine is here: the [`Timer`] trait every contestant implements, what the rounds know
//! of the contestants ([`Roles`]), [`time_cell`] and what it gives ([`CellRounds`]). Beside
//! it: `budget.rs` (a cell's [`RoundsBudget`] and the settings of every scale),
//! `calibration.rs` (a contestant's replays per sample), `warm_up.rs` (the untimed replays
//! before each sample), `order.rs` (each round's order, a design back to back with the loops
//! that mirror it), `comparisons.rs` (when a comparison is settled, and which contestants the
//! open ones keep in the rounds).

use std::time::Duration;

use workloads::rng::TraceRng;

use crate::host::{Stopwatch, fresh_time_slice};
use crate::replay::{Family, ReferenceLoop};
use crate::timing::TimedReplay;

mod budget;
mod calibration;
mod comparisons;
mod order;
mod warm_up;

pub use budget::{LEAVE_SPENT_AFTER, RoundsBudget, SETTLED_PRECISION};
pub use comparisons::{Comparison, OVERHEAD_BAND, settled};
pub use warm_up::{LONG_REPLAY, REBUILT_WARM_UPS, SELF_WARMING_REPLAY, WARM_UPS};

use calibration::calibrate;
use comparisons::open_contestants;
use order::{adjacent_groups, round_order};
use warm_up::warm_ups;

/// Something timed in rounds: `iters` verified replays, returning the time inside them.
pub trait Timer {
    /// Runs `iters` timed, verified replays and returns the time spent inside them.
    ///
    /// # Errors
    /// A replay disagreed with the model: the contestant must not be reported with a time.
    fn time(&mut self, iters: u64) -> Result<Duration, String>;

    /// The contestant's one-time preparation (a replay's dry run), done before its first
    /// sample is timed, so the calibration's wall time per replay is a replay's and not the
    /// preparation's: counted in, it would make a read-only body's first replay look as long as
    /// its setup, and such cells (`lookup-uniform` at 65,536 objects) would run fewer rounds
    /// (`the_preparation_is_not_counted_as_a_replay`).
    ///
    /// # Errors
    /// As [`time`](Self::time).
    fn prepare(&mut self) -> Result<(), String> {
        Ok(())
    }

    /// Whether a sample needs one untimed replay first: the contestant keeps its state from
    /// sample to sample, so the other contestants of the round have evicted it from the
    /// caches since its last sample. Without it a sample of one replay would start cold and
    /// one of ten mostly warm, and two designs' ratio would depend on their iterations.
    fn needs_warm_up(&self) -> bool {
        true
    }

    /// Whether the contestant's replays hand their work to other threads, so the budget
    /// counts its time on the wall clock ([`Stopwatch::start_for`]), as its samples are.
    fn runs_on_other_threads(&self) -> bool {
        false
    }
}

impl<F: Family> Timer for TimedReplay<'_, F> {
    fn time(&mut self, iters: u64) -> Result<Duration, String> {
        self.run(iters)
    }

    fn prepare(&mut self) -> Result<(), String> {
        self.prepare()
    }

    /// A body that changes the state is replayed on a state built afresh (untimed) for every
    /// timed replay, which warms it; a read-only body reuses one state.
    fn needs_warm_up(&self) -> bool {
        self.reuses_state()
    }

    fn runs_on_other_threads(&self) -> bool {
        F::RUNS_ON_OTHER_THREADS
    }
}

/// A reference loop as a [`Timer`].
pub struct LoopTimer<L>(pub L);

impl<L: ReferenceLoop> Timer for LoopTimer<L> {
    fn time(&mut self, iters: u64) -> Result<Duration, String> {
        self.0.run(iters)
    }
}

/// One contestant's result from the rounds.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RoundsTiming {
    /// Replays per sample (of the first instance, when there are several).
    pub iters: u64,
    /// Nanoseconds per replay, one sample per round in round order (instance after instance).
    pub ns_per_replay: Vec<f64>,
    /// Rounds per instance ([`crate::instance`], `results::Rounds::instances`); empty for the
    /// rounds of one [`time_cell`].
    #[serde(default)]
    pub instances: Vec<u32>,
    /// The calibrated wall time of one replay in nanoseconds (of the first instance), which a
    /// later instance of the cell takes over with [`RoundsTiming::iters`] instead of
    /// calibrating again ([`Roles::earlier`]); 0 when unknown.
    #[serde(default)]
    pub wall_ns_per_replay: u64,
}

/// What the rounds of one cell gave.
#[derive(Debug)]
pub struct CellRounds {
    /// Rounds before the extra ones: every contestant ran them, but those that spent their
    /// budget and left early ([`RoundsBudget::leave_spent_after`]).
    pub rounds: usize,
    /// Contestants that spent their budget and left before the cell's last round.
    pub left_spent: usize,
    /// The round from which a contestant that spent its budget could leave
    /// ([`RoundsBudget::leave_spent_after`]).
    pub leave_from: usize,
    /// Extra rounds run by the contestants of unsettled comparisons (0 when none was).
    pub extra: usize,
    /// Contestants that entered the extra rounds.
    pub extra_contestants: usize,
    /// Per contestant, in the order given: its timing, or why it has none.
    pub timings: Vec<Result<RoundsTiming, String>>,
}

impl CellRounds {
    /// How the rounds went, for a progress line: " in 10 rounds (+8 for the 2 in unsettled
    /// comparisons), 3 left once over budget and settled (from round 6)".
    pub fn describe(&self) -> String {
        let mut text = format!(" in {} rounds", self.rounds);
        if self.extra > 0 {
            text += &format!(
                " (+{} for the {} in unsettled comparisons)",
                self.extra, self.extra_contestants
            );
        }
        if self.left_spent > 0 {
            text += &format!(
                ", {} left once over budget and settled (from round {})",
                self.left_spent, self.leave_from
            );
        }
        text
    }
}

/// What the rounds know of a cell's contestants besides their timers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Roles {
    /// Per contestant, the contestant whose design it mirrors (a reference loop and its design):
    /// the two take the same iterations (the more of their two calibrations), run back to
    /// back, and their ratio (the replay's `overhead`) is a comparison of the extra rounds.
    /// At sizes near the last-level cache a sample's later replays run warmer than its first
    /// (an untimed replay does not bring such a table fully back after the round's other
    /// contestants), so a loop that drew other iterations than its design would read a wider
    /// spread of `overhead`s (the ID tables' `lookup-*` loops at 65,536 objects);
    /// `paired_contestants_take_the_same_iterations` tests the rule.
    pub mirrors: Vec<Option<usize>>,
    /// Per contestant, whether it is one of the designs the cell ranks (not a reference): the
    /// two fastest of them are a comparison of the extra rounds.
    pub ranked: Vec<bool>,
    /// Per contestant, its rounds in the cell's earlier instances ([`crate::instance`]),
    /// pooled with this instance's, each instance's rounds paired within it, in every
    /// comparison the rounds settle; empty (or `None`) for none. A contestant with earlier
    /// rounds is not calibrated again: it is prepared, then takes the first instance's
    /// iterations per sample and wall time per replay, so every instance's samples are the same
    /// length and an instance spends its time on a fresh state's rounds, not on its
    /// calibration (`later_instances_take_the_first_ones_calibration`).
    pub earlier: Vec<Option<RoundsTiming>>,
}

impl Roles {
    /// `contestants` ranked designs, none mirroring another.
    pub fn designs(contestants: usize) -> Self {
        Self {
            mirrors: vec![None; contestants],
            ranked: vec![true; contestants],
            earlier: Vec::new(),
        }
    }
}

/// Times `timers` in interleaved rounds within `budget`, all of them ranked designs,
/// shuffling each round's order with a generator seeded by `seed`.
pub fn time_in_rounds(
    timers: &mut [Box<dyn Timer + '_>],
    budget: &RoundsBudget,
    seed: u64,
) -> CellRounds {
    let roles = Roles::designs(timers.len());
    time_cell(timers, &roles, budget, seed)
}

/// Times `timers` in interleaved rounds within `budget` (what each contestant is: `roles`),
/// then gives the comparisons left unsettled their extra rounds (the module's doc), shuffling
/// each round's order with a generator seeded by `seed`.
///
/// # Panics
/// If `roles` does not have one entry per timer, or a mirror is out of range.
pub fn time_cell(
    timers: &mut [Box<dyn Timer + '_>],
    roles: &Roles,
    budget: &RoundsBudget,
    seed: u64,
) -> CellRounds {
    assert!(
        roles.mirrors.len() == timers.len() && roles.ranked.len() == timers.len(),
        "one role per contestant"
    );
    let (calibrated, warm) = calibrate_pairs(timers, roles, budget);
    let plan = RoundsPlan::new(calibrated, &warm, budget);
    let threaded = timers.iter().any(|t| t.runs_on_other_threads());
    let mut cell = Rounds {
        timers,
        timings: plan.timings,
        warm,
        groups: adjacent_groups(&roles.mirrors),
        rng: TraceRng::new(seed),
    };
    let rounds = plan.rounds;
    let staying = cell.planned_rounds(rounds, &plan.per_round, roles, budget);
    let left_spent = staying.iter().filter(|&&s| !s).count();
    let (extra, extra_contestants) = cell.extra_rounds(rounds, staying, roles, budget, threaded);
    CellRounds {
        rounds,
        left_spent,
        leave_from: budget.leave_spent_after.unwrap_or(rounds),
        extra,
        extra_contestants,
        timings: cell.timings,
    }
}

/// A contestant's calibration: its iterations per sample and the wall time of one replay, or
/// why it failed.
type Calibration = Result<(u64, Duration), String>;

/// Calibrates every contestant (or prepares it and takes its calibration from the cell's
/// earlier instances, [`Roles::earlier`]), then gives each pair of `mirrors` (a design and the
/// loop that mirrors it) the same iterations per sample and the same warm-ups: the more of the
/// two. Returns each contestant's calibration and its warm-ups per round.
fn calibrate_pairs(
    timers: &mut [Box<dyn Timer + '_>],
    roles: &Roles,
    budget: &RoundsBudget,
) -> (Vec<Calibration>, Vec<u64>) {
    let mirrors = &roles.mirrors;
    let mut calibrated: Vec<Calibration> = timers
        .iter_mut()
        .enumerate()
        .map(
            |(i, timer)| match roles.earlier.get(i).and_then(Option::as_ref) {
                Some(t) if t.wall_ns_per_replay > 0 => timer
                    .prepare()
                    .map(|()| (t.iters, Duration::from_nanos(t.wall_ns_per_replay))),
                _ => calibrate(timer.as_mut(), budget),
            },
        )
        .collect();
    for (i, j) in mirrors.iter().enumerate() {
        let Some(j) = *j else { continue };
        if let (Ok((a, _)), Ok((b, _))) = (&calibrated[i], &calibrated[j]) {
            let both = (*a).max(*b);
            for k in [i, j] {
                if let Ok((iters, _)) = &mut calibrated[k] {
                    *iters = both;
                }
            }
        }
    }
    // Paired contestants warm up alike too (the more of the two).
    let mut warm: Vec<u64> = timers
        .iter()
        .zip(&calibrated)
        .map(|(timer, c)| {
            c.as_ref()
                .map_or(0, |&(_, wall)| warm_ups(timer.needs_warm_up(), wall))
        })
        .collect();
    for (i, j) in mirrors.iter().enumerate() {
        if let Some(j) = *j {
            let both = warm[i].max(warm[j]);
            (warm[i], warm[j]) = (both, both);
        }
    }
    (calibrated, warm)
}

/// How many rounds a cell gets before its extra rounds, from what one round costs.
struct RoundsPlan {
    /// Each contestant's timing so far: its iterations per sample, or why it failed.
    timings: Vec<Result<RoundsTiming, String>>,
    /// Each contestant's wall time per round (warm-ups and rebuilds included).
    per_round: Vec<Duration>,
    /// The rounds every contestant runs (unless it leaves spent).
    rounds: usize,
}

impl RoundsPlan {
    /// The rounds that fit the budget's time per live contestant, within its least and most
    /// rounds.
    fn new(calibrated: Vec<Calibration>, warm: &[u64], budget: &RoundsBudget) -> Self {
        let mut timings: Vec<Result<RoundsTiming, String>> = Vec::with_capacity(calibrated.len());
        let mut per_round: Vec<Duration> = Vec::with_capacity(calibrated.len());
        for (calibration, &warm_up) in calibrated.into_iter().zip(warm) {
            let cost = calibration
                .as_ref()
                .map_or(Duration::ZERO, |&(iters, wall)| {
                    wall.mul_f64((iters + warm_up) as f64)
                });
            per_round.push(cost);
            timings.push(calibration.map(|(iters, wall)| RoundsTiming {
                iters,
                ns_per_replay: Vec::new(),
                instances: Vec::new(),
                wall_ns_per_replay: u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX).max(1),
            }));
        }
        let round_wall: Duration = per_round.iter().sum();
        let live = timings.iter().filter(|t| t.is_ok()).count();
        let cell_budget = budget.per_contestant.as_secs_f64() * live as f64;
        let rounds = ((cell_budget / round_wall.as_secs_f64().max(1e-9)) as usize)
            .clamp(budget.min_rounds, budget.max_rounds.max(budget.min_rounds));
        Self {
            timings,
            per_round,
            rounds,
        }
    }
}

/// Extra rounds run between two looks at which comparisons are still open.
const EXTRA_BLOCK: usize = 4;

/// A cell's contestants while they are timed.
struct Rounds<'t, 'a> {
    timers: &'t mut [Box<dyn Timer + 'a>],
    timings: Vec<Result<RoundsTiming, String>>,
    warm: Vec<u64>,
    groups: Vec<Vec<usize>>,
    rng: TraceRng,
}

impl Rounds<'_, '_> {
    /// The planned `rounds`. From the budget's `leave_spent_after` round on, a contestant
    /// whose time spent has reached its budget leaves once none of its comparisons is open.
    /// Returns which contestants stayed to the end.
    fn planned_rounds(
        &mut self,
        rounds: usize,
        per_round: &[Duration],
        roles: &Roles,
        budget: &RoundsBudget,
    ) -> Vec<bool> {
        let mut staying = vec![true; roles.ranked.len()];
        for round in 0..rounds {
            if let Some(after) = budget.leave_spent_after
                && round >= after
            {
                let spent = |i: usize| per_round[i].mul_f64(round as f64) >= budget.per_contestant;
                if (0..staying.len()).any(|i| staying[i] && spent(i)) {
                    let open = open_contestants(&self.timings, roles, &staying, budget.precision);
                    for (i, stays) in staying.iter_mut().enumerate() {
                        *stays &= !spent(i) || open[i];
                    }
                }
            }
            self.round(&|i| staying[i]);
        }
        staying
    }

    /// The extra rounds, in blocks, each followed by a look at what is still open; a
    /// contestant that left never comes back (it would no longer have run a prefix of the
    /// rounds). Returns the extra rounds run and the contestants that had one open at the
    /// start.
    fn extra_rounds(
        &mut self,
        rounds: usize,
        staying: Vec<bool>,
        roles: &Roles,
        budget: &RoundsBudget,
        threaded: bool,
    ) -> (usize, usize) {
        let max_rounds = budget.max_rounds.max(budget.min_rounds);
        let mut active = open_contestants(&self.timings, roles, &staying, budget.precision);
        let extra_contestants = active.iter().filter(|&&a| a).count();
        let extra_budget = budget
            .extra_per_contestant
            .mul_f64(extra_contestants as f64);
        // Counted as the contestants' samples are: in wall time when one runs on other threads.
        let started = Stopwatch::start_for(threaded);
        let mut extra = 0;
        // The budget is looked at before every round, so a slow round (a threaded design on a
        // busy machine) overruns it by one round at most.
        let room = |extra: usize| rounds + extra < max_rounds && started.elapsed() < extra_budget;
        while active.contains(&true) && room(extra) {
            for _ in 0..EXTRA_BLOCK {
                if !room(extra) {
                    break;
                }
                self.round(&|i| active[i]);
                extra += 1;
            }
            active = open_contestants(&self.timings, roles, &active, budget.precision);
        }
        (extra, extra_contestants)
    }

    /// One round of the contestants `runs` keeps (and that have not failed), in a shuffled
    /// order: for each, its warm-ups and one timed sample.
    fn round(&mut self, runs: &dyn Fn(usize) -> bool) {
        for i in round_order(&mut self.groups, &mut self.rng) {
            if !runs(i) {
                continue;
            }
            let Ok(timing) = &mut self.timings[i] else {
                continue;
            };
            let warmed = match self.warm[i] {
                0 => Ok(()),
                n => self.timers[i].time(n).map(drop),
            };
            let timed = warmed.and_then(|()| {
                fresh_time_slice();
                self.timers[i].time(timing.iters)
            });
            match timed {
                Ok(inside) => timing
                    .ns_per_replay
                    .push(inside.as_nanos() as f64 / timing.iters as f64),
                Err(e) => self.timings[i] = Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake contestant: `ns` per replay, failing verification on call `fail_at`.
    struct Fake {
        ns: u64,
        calls: u64,
        fail_at: Option<u64>,
    }

    impl Timer for Fake {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            self.calls += 1;
            if self.fail_at == Some(self.calls) {
                return Err("digest differs".into());
            }
            Ok(Duration::from_nanos(self.ns * iters))
        }
    }

    fn budget() -> RoundsBudget {
        RoundsBudget {
            per_contestant: Duration::from_millis(5),
            min_sample: Duration::from_micros(100),
            min_rounds: 4,
            max_rounds: 50,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        }
    }

    #[test]
    fn every_contestant_gets_one_sample_per_round_and_a_failure_drops_out() {
        let mut timers: Vec<Box<dyn Timer>> = vec![
            Box::new(Fake {
                ns: 1_000,
                calls: 0,
                fail_at: None,
            }),
            Box::new(Fake {
                ns: 50_000,
                calls: 0,
                fail_at: None,
            }),
            Box::new(Fake {
                ns: 2_000,
                calls: 0,
                fail_at: Some(5),
            }),
        ];
        let cell = time_in_rounds(&mut timers, &budget(), 7);
        assert!((4..=50).contains(&cell.rounds), "{}", cell.rounds);
        let fast = cell.timings[0].as_ref().unwrap();
        assert_eq!(fast.ns_per_replay.len(), cell.rounds);
        assert!(fast.ns_per_replay.iter().all(|&ns| ns == 1_000.0));
        // A sample of the fast one lasts at least min_sample; the slow one needs fewer replays.
        assert_eq!(fast.iters, 100);
        assert_eq!(cell.timings[1].as_ref().unwrap().iters, 2);
        assert_eq!(cell.timings[2].as_ref().unwrap_err(), "digest differs");
    }

    /// A contestant of a later instance is prepared and takes the first instance's iterations
    /// and wall time per replay: every call it gets is a warm-up or a sample of those
    /// iterations, none a calibration's single replay; one without earlier rounds calibrates.
    #[test]
    fn later_instances_take_the_first_ones_calibration() {
        struct Counted {
            calls: std::rc::Rc<std::cell::RefCell<Vec<u64>>>,
            prepared: std::rc::Rc<std::cell::Cell<bool>>,
        }
        impl Timer for Counted {
            fn time(&mut self, iters: u64) -> Result<Duration, String> {
                self.calls.borrow_mut().push(iters);
                Ok(Duration::from_nanos(1_000 * iters))
            }
            fn prepare(&mut self) -> Result<(), String> {
                self.prepared.set(true);
                Ok(())
            }
        }
        let counted = || {
            let calls = std::rc::Rc::default();
            let prepared = std::rc::Rc::default();
            let timer = Counted {
                calls: std::rc::Rc::clone(&calls),
                prepared: std::rc::Rc::clone(&prepared),
            };
            (Box::new(timer) as Box<dyn Timer>, calls, prepared)
        };
        let (later, later_calls, later_prepared) = counted();
        let (first, first_calls, _) = counted();
        let mut timers = vec![later, first];
        let earlier = RoundsTiming {
            iters: 37,
            ns_per_replay: vec![1_000.0; 4],
            instances: vec![4],
            wall_ns_per_replay: 1_000,
        };
        let roles = Roles {
            earlier: vec![Some(earlier), None],
            ..Roles::designs(2)
        };
        let cell = time_cell(&mut timers, &roles, &budget(), 3);
        assert!(later_prepared.get());
        assert_eq!(cell.timings[0].as_ref().unwrap().iters, 37);
        assert!(
            later_calls
                .borrow()
                .iter()
                .all(|&iters| iters == 37 || iters == WARM_UPS),
            "{:?}",
            later_calls.borrow()
        );
        // The first instance's contestant calibrates: one replay, then a sample's worth.
        assert_eq!(&first_calls.borrow()[..2], &[WARM_UPS, 1]);
        assert_eq!(cell.timings[1].as_ref().unwrap().iters, 100);
        // Its wall time (a fake's, next to nothing) is kept for the instances after it.
        assert!(cell.timings[1].as_ref().unwrap().wall_ns_per_replay > 0);
    }
}

#[cfg(test)]
mod paired {
    use super::*;

    struct Fixed(u64);

    impl Timer for Fixed {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            Ok(Duration::from_nanos(self.0 * iters))
        }
    }

    /// A contestant paired with another takes the larger of their calibrated iterations; the
    /// others keep their own.
    #[test]
    fn paired_contestants_take_the_same_iterations() {
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(5),
            min_sample: Duration::from_micros(100),
            min_rounds: 4,
            max_rounds: 8,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        };
        let mut timers: Vec<Box<dyn Timer>> = vec![
            Box::new(Fixed(1_000)),
            Box::new(Fixed(50_000)),
            Box::new(Fixed(20_000)),
        ];
        let roles = Roles {
            mirrors: vec![None, Some(0), None],
            ranked: vec![true, false, true],
            earlier: Vec::new(),
        };
        let cell = time_cell(&mut timers, &roles, &budget, 5);
        let iters: Vec<u64> = cell
            .timings
            .iter()
            .map(|t| t.as_ref().unwrap().iters)
            .collect();
        assert_eq!(iters, [100, 100, 5]);
        let alone = time_in_rounds(&mut timers, &budget, 5);
        assert_eq!(alone.timings[1].as_ref().unwrap().iters, 2);
    }

    /// A contestant that logs its samples (calls of more than one replay) into `log`.
    struct Logged(usize, std::rc::Rc<std::cell::RefCell<Vec<usize>>>);

    impl Timer for Logged {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            if iters > 2 {
                self.1.borrow_mut().push(self.0);
            }
            Ok(Duration::from_nanos(1_000 * iters))
        }

        fn needs_warm_up(&self) -> bool {
            false
        }
    }

    /// In every round a loop runs right before or right after the design it mirrors, in both
    /// orders over the rounds, while the groups move around each other.
    #[test]
    fn paired_contestants_run_back_to_back_in_either_order() {
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(5),
            min_sample: Duration::from_micros(100),
            min_rounds: 40,
            max_rounds: 40,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        };
        let log = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut timers: Vec<Box<dyn Timer>> = (0..6)
            .map(|i| Box::new(Logged(i, log.clone())) as Box<dyn Timer>)
            .collect();
        // 1 and 4 mirror 0 (one design with two loops), 5 mirrors 3; 2 is alone.
        let pairs = [None, Some(0), None, None, Some(0), Some(3)];
        let roles = Roles {
            mirrors: pairs.to_vec(),
            ranked: vec![true; 6],
            earlier: Vec::new(),
        };
        let cell = time_cell(&mut timers, &roles, &budget, 9);
        assert_eq!(cell.rounds, 40);
        let samples = log.borrow().clone();
        // Calibration's samples first (one per contestant, in index order), then the rounds.
        let rounds: Vec<&[usize]> = samples[samples.len() - 40 * 6..].chunks(6).collect();
        let (mut loop_first, mut firsts) = (0, std::collections::HashSet::new());
        for round in &rounds {
            let at = |c: usize| round.iter().position(|&x| x == c).unwrap();
            let mut group = [at(0), at(1), at(4)];
            group.sort_unstable();
            assert_eq!(group[2] - group[0], 2, "0, 1 and 4 together in {round:?}");
            assert_eq!(
                at(3).abs_diff(at(5)),
                1,
                "3 and 5 back to back in {round:?}"
            );
            loop_first += usize::from(at(5) < at(3));
            firsts.insert(round[0]);
        }
        assert!(
            (10..=30).contains(&loop_first),
            "loop first in {loop_first} of 40"
        );
        assert!(firsts.len() >= 4, "the groups move: {firsts:?}");
        let groups = adjacent_groups(&pairs);
        assert_eq!(groups, [vec![0, 1, 4], vec![2], vec![3, 5]]);
    }
}
