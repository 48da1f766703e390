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

use std::time::Duration;

use results::stats::{MIN_ROUNDS, PairedRatio, Samples, fastest_first, paired_ratio_in};
use workloads::rng::TraceRng;

use crate::host::{Stopwatch, fresh_time_slice};
use crate::replay::{Family, ReferenceLoop};
use crate::timing::TimedReplay;

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

/// Untimed replays before each sample of a contestant that keeps its state
/// ([`Timer::needs_warm_up`]). One is not enough for a state at or above the size of the
/// core's second-level cache (the 65,536-object ID tables and their resolved IDs take
/// 1.8-9.7 MB): a sample still runs about as warm as the round's other contestants left the
/// caches, so its time depends on what ran before it. That is observed, not derived (a
/// `lookup-uniform` body visits every object in each replay, so one replay does touch them
/// all): on the `lookup-*` workloads at 65,536 objects (`cargo bench -- '^id_table/lookup'`),
/// more of the reference loops' `overhead`s lie within [`OVERHEAD_BAND`] with two warm-ups
/// than with one, and no more with three. The rounds' budget counts the warm-ups, so a cell
/// above [`RoundsBudget::min_rounds`] takes no longer (it runs fewer rounds); a cell at that
/// floor takes a replay more per round.
pub const WARM_UPS: u64 = 2;

/// A replay at least this long (its calibrated wall time), and shorter than
/// [`SELF_WARMING_REPLAY`], takes one untimed replay fewer before each sample: one instead of
/// [`WARM_UPS`] for a contestant that keeps its state, none instead of [`REBUILT_WARM_UPS`] for
/// one rebuilt for every replay. The bound lies above the replays [`WARM_UPS`] is set for
/// (the ID tables' lookups at 65,536 objects, under 1.5 ms each in a quick run), and below
/// it a warm-up's cold start (a few tenths of a millisecond, [`REBUILT_WARM_UPS`]) is a large
/// part of a replay. Above it the warm-up saved is a large share of a quick run's time, while
/// the contestants it applies to move no more between runs than with the warm-up, and their
/// reference loops' `overhead`s (the ID tables' driver loops among them) stay within
/// [`OVERHEAD_BAND`] at least as often; at the default scale, one warm-up instead of two keeps
/// the ratios to the reference of `lookup-uniform` at 1M and `sp-large-radius` at 100K within
/// the runs' spread. `a_long_replay_is_warmed_once_less` tests the rule.
pub const LONG_REPLAY: Duration = Duration::from_millis(2);

/// A replay at least this long (its calibrated wall time) is timed without an untimed replay
/// before it, whether it keeps its state or rebuilds it: what a warm-up is for (the state back
/// in the caches, the first replay's cold code and predictors, a few tenths of a millisecond,
/// [`REBUILT_WARM_UPS`]) is a small part of a replay this long, and its warm-up would double
/// its share of a cell at the rounds' floor. On the quick `^(alloc|transforms)/` cells, the
/// reference loops of such contestants keep their `overhead` within [`OVERHEAD_BAND`] without
/// warm-ups, their times vary between runs less than the shorter contestants' do, and no
/// cell's winner depends on the rule. Not checked at the default scale, whose read-only
/// contestants above it (the maps over 1M IDs, the spatial scans at 100K points) reload their
/// evicted state inside the sample: an estimated tens of MB, a few ms of such a replay, paid
/// by the reference loop paired with each too. `a_self_warming_replay_is_not_warmed` tests
/// the rule.
pub const SELF_WARMING_REPLAY: Duration = Duration::from_millis(100);

/// The untimed replays before each sample of a contestant: none if its replay lasts
/// [`SELF_WARMING_REPLAY`] or more; else [`WARM_UPS`] for one that keeps its state
/// ([`Timer::needs_warm_up`]) and [`REBUILT_WARM_UPS`] for a body rebuilt for every replay,
/// one fewer if its replay lasts [`LONG_REPLAY`] or more.
fn warm_ups(needs_warm_up: bool, wall_per_replay: Duration) -> u64 {
    if wall_per_replay >= SELF_WARMING_REPLAY {
        return 0;
    }
    let warm_ups = if needs_warm_up {
        WARM_UPS
    } else {
        REBUILT_WARM_UPS
    };
    if wall_per_replay >= LONG_REPLAY {
        warm_ups.saturating_sub(1)
    } else {
        warm_ups
    }
}

/// Untimed replays (each on a state of its own, rebuilt as for a timed one) before each sample
/// of a contestant whose body changes the state. Without one, the first replay after the
/// round's other contestants runs slower than the next, so a sample of one replay reads slower
/// than a sample of two and a design's ratio to another depends on the iterations each drew:
/// `pool_tuned` over `holey32_24_8` on `churn-hot-stale` at 1,000 objects (quick) lies above 1
/// when `pool_tuned` draws one replay per sample and below when it draws two, so the cell's
/// winner would change from run to run; with one untimed replay first, the ratio is the same
/// whichever it draws. Neither randomising the heap's layout before each sample nor running
/// without address-space randomisation removes the effect; it is the replay before, not where
/// the state lands.
pub const REBUILT_WARM_UPS: u64 = 1;

/// How long a cell's rounds may take, in time the process ran ([`Stopwatch`]: wall time less
/// the waits for a processor), so a busy machine runs a cell's rounds as a quiet one would, only
/// later, instead of fewer of them: counted in wall time, a busy machine's extra rounds run out
/// before a reference loop's `overhead` settles (`ref-direct-packed` on `lookup-zipf` at 65,536
/// objects, quick, which quiet runs put within 1% of 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundsBudget {
    /// Time per contestant (the cell's budget is this times its contestants), untimed
    /// rebuilds of a mutating body included.
    pub per_contestant: Duration,
    /// The shortest sample: a contestant's iterations per sample are chosen so its sample's
    /// timed part lasts at least this (unless its untimed rebuilds would overrun the budget).
    pub min_sample: Duration,
    /// Fewest rounds, even when a slow contestant overruns the budget (but see
    /// [`RoundsBudget::leave_spent_after`]).
    pub min_rounds: usize,
    /// Most rounds, however fast the cell, extra rounds included.
    pub max_rounds: usize,
    /// Time per contestant still in the extra rounds (the cell's extra budget is this times
    /// the contestants that enter them), untimed replays included.
    pub extra_per_contestant: Duration,
    /// A comparison is settled once its interval's upper bound over its lower is at most
    /// `1 + precision`, wherever it lies ([`settled`]).
    pub precision: f64,
    /// `Some(k)`: from round `k` on, a contestant that has spent
    /// [`RoundsBudget::per_contestant`] (its rounds so far at its calibrated wall time per
    /// round) leaves the rounds as soon as none of its comparisons is open (a comparison
    /// settles over at least [`MIN_ROUNDS`] rounds, the cell's earlier instances included),
    /// so two contestants still pair the rounds both ran. `None`: every contestant runs every
    /// round (`dodbench advise`, whose rounds the user chose).
    pub leave_spent_after: Option<usize>,
}

impl RoundsBudget {
    /// One instance's share of this budget when a cell is timed as `instances` instances
    /// ([`crate::instance`]): the time, the most rounds, and the round from which a
    /// contestant that spent its budget may leave, divided among them, and a floor of 2
    /// rounds (every instance has a median of its own; the contestants of a comparison still
    /// open stay for more). The comparisons an instance settles pool the rounds of the
    /// instances before it ([`Roles::earlier`]), so a cell's slowest contestants run about as
    /// many rounds in all as one instance would run them.
    pub fn per_instance(&self, instances: usize) -> RoundsBudget {
        let k = instances.max(1);
        if k == 1 {
            return *self;
        }
        RoundsBudget {
            per_contestant: self.per_contestant / k as u32,
            extra_per_contestant: self.extra_per_contestant / k as u32,
            min_rounds: 2,
            max_rounds: self.max_rounds.div_ceil(k).max(2),
            leave_spent_after: self.leave_spent_after.map(|after| after.div_ceil(k).max(2)),
            ..*self
        }
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

/// Per contestant: replays per sample and the time of one replay, rebuilds included (its wall
/// time less waits for a processor, as the budget is counted).
fn calibrate(timer: &mut dyn Timer, budget: &RoundsBudget) -> Result<(u64, Duration), String> {
    timer.prepare()?;
    if timer.needs_warm_up() {
        // As before every sample: the state was last touched by the dry run or another cell.
        timer.time(WARM_UPS)?;
    }
    let started = Stopwatch::start_for(timer.runs_on_other_threads());
    let inside = timer.time(1)?;
    let mut wall = started.elapsed();
    let mut per_replay = inside;
    let wanted = |per_replay: Duration, wall: Duration| {
        let timed = budget
            .min_sample
            .as_nanos()
            .div_ceil(per_replay.as_nanos().max(1))
            .clamp(1, u128::from(u32::MAX)) as u64;
        // Never more replays per sample than the budget's share of one round allows.
        let share = budget.per_contestant.as_secs_f64() / budget.min_rounds.max(1) as f64;
        let affordable = ((share / wall.as_secs_f64().max(1e-9)) as u64).max(1);
        timed.min(affordable)
    };
    let mut iters = wanted(per_replay, wall);
    if iters > 1 {
        // A second, longer warm-up: the first replay ran cold.
        let started = Stopwatch::start_for(timer.runs_on_other_threads());
        let inside = timer.time(iters)?;
        wall = started.elapsed().div_f64(iters as f64);
        per_replay = inside.div_f64(iters as f64);
        iters = wanted(per_replay, wall);
    }
    Ok((iters, wall))
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
    /// comparison the rounds settle; empty (or `None`) for none.
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

/// Whether a comparison (the per-round ratio of two contestants over the rounds both ran) is
/// settled: over at least [`MIN_ROUNDS`] rounds, its interval is narrow, its upper bound over
/// its lower at most `1 + precision` (known to a few percent; two designs that close are tied),
/// or lies outside `band` around 1: which is faster is known ([`Comparison::Ranking`]: a band
/// of 0), or a reference loop's `overhead` is known to lie outside the
/// [`OVERHEAD_BAND`] a replay driver is held to ([`Comparison::Overhead`]).
pub fn settled(ratio: &PairedRatio, comparison: Comparison, precision: f64) -> bool {
    let r = &ratio.ratio;
    let band = match comparison {
        Comparison::Ranking => 0.0,
        Comparison::Overhead => OVERHEAD_BAND,
    };
    ratio.rounds >= MIN_ROUNDS
        && (r.lower > 1.0 + band || r.upper < 1.0 - band || r.upper <= r.lower * (1.0 + precision))
}

/// What a comparison the rounds settle is read for ([`settled`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// The two fastest ranked designs: which one is faster.
    Ranking,
    /// A reference loop against the design it mirrors: the replay's `overhead`.
    Overhead,
}

/// How far from 1 a reference loop's `overhead` may lie for a replay driver to count as adding
/// nothing (0.95-1.05: the loop and the replay within 5%). An interval that lies on one side
/// of 1 but reaches into this band does not settle an overhead: on a busy machine such an
/// interval can come after the fewest rounds for a loop that quiet runs put well inside the
/// band (`ref-direct-packed` on `lookup-zipf` at 65,536 objects, quick);
/// `a_comparison_settles_outside_its_band_or_narrow` tests the rule.
pub const OVERHEAD_BAND: f64 = 0.05;

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
    let same_iters_as = &roles.mirrors;
    assert!(
        same_iters_as.len() == timers.len() && roles.ranked.len() == timers.len(),
        "one role per contestant"
    );
    let mut calibrated: Vec<Result<(u64, Duration), String>> = timers
        .iter_mut()
        .map(|timer| calibrate(timer.as_mut(), budget))
        .collect();
    for (i, j) in same_iters_as.iter().enumerate() {
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
    for (i, j) in same_iters_as.iter().enumerate() {
        if let Some(j) = *j {
            let both = warm[i].max(warm[j]);
            (warm[i], warm[j]) = (both, both);
        }
    }
    let mut timings: Vec<Result<RoundsTiming, String>> = Vec::with_capacity(timers.len());
    // Each contestant's wall time per round (warm-ups and rebuilds included), and the round's.
    let mut per_round: Vec<Duration> = Vec::with_capacity(timers.len());
    for (calibration, &warm_up) in calibrated.into_iter().zip(&warm) {
        let cost = calibration
            .as_ref()
            .map_or(Duration::ZERO, |&(iters, wall)| {
                wall.mul_f64((iters + warm_up) as f64)
            });
        per_round.push(cost);
        timings.push(calibration.map(|(iters, _)| RoundsTiming {
            iters,
            ns_per_replay: Vec::new(),
            instances: Vec::new(),
        }));
    }
    let round_wall: Duration = per_round.iter().sum();
    let live = timings.iter().filter(|t| t.is_ok()).count();
    let cell_budget = budget.per_contestant.as_secs_f64() * live as f64;
    let max_rounds = budget.max_rounds.max(budget.min_rounds);
    let rounds = ((cell_budget / round_wall.as_secs_f64().max(1e-9)) as usize)
        .clamp(budget.min_rounds, max_rounds);
    let threaded = timers.iter().any(|t| t.runs_on_other_threads());
    let mut cell = Rounds {
        timers,
        timings,
        warm,
        groups: adjacent_groups(same_iters_as),
        rng: TraceRng::new(seed),
    };
    // The contestants still in the rounds: all but those that spent their budget and left.
    let mut staying = vec![true; roles.ranked.len()];
    for round in 0..rounds {
        if let Some(after) = budget.leave_spent_after
            && round >= after
        {
            let spent = |i: usize| per_round[i].mul_f64(round as f64) >= budget.per_contestant;
            if (0..staying.len()).any(|i| staying[i] && spent(i)) {
                let open = open_contestants(&cell.timings, roles, &staying, budget.precision);
                for (i, stays) in staying.iter_mut().enumerate() {
                    *stays &= !spent(i) || open[i];
                }
            }
        }
        cell.round(&|i| staying[i]);
    }
    let left_spent = staying.iter().filter(|&&s| !s).count();
    // The extra rounds, in blocks, each followed by a look at what is still open; a contestant
    // that left never comes back (it would no longer have run a prefix of the rounds).
    let mut active = open_contestants(&cell.timings, roles, &staying, budget.precision);
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
            cell.round(&|i| active[i]);
            extra += 1;
        }
        active = open_contestants(&cell.timings, roles, &active, budget.precision);
    }
    CellRounds {
        rounds,
        left_spent,
        leave_from: budget.leave_spent_after.unwrap_or(rounds),
        extra,
        extra_contestants,
        timings: cell.timings,
    }
}

/// The [`RoundsBudget::precision`] of every scale: a comparison whose interval reaches into its
/// band ([`settled`]) is settled when it spans at most 6% (a reference loop's `overhead` known
/// to about ±3%, which the 0.95-1.05 a replay driver is held to needs).
pub const SETTLED_PRECISION: f64 = 0.06;

/// The [`RoundsBudget::leave_spent_after`] of every scale: the fewest rounds whose
/// intervals [`settled`] reads ([`MIN_ROUNDS`]). A contestant that spent its budget in fewer
/// rounds than the cell runs (the scale's floor, [`RoundsBudget::min_rounds`]: 10 quick, 15
/// default, or more in a cell of cheaper contestants) leaves from here on once its comparisons
/// are settled.
pub const LEAVE_SPENT_AFTER: usize = MIN_ROUNDS as usize;

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

/// The contestants (of those still `active`) in a comparison that is not [`settled`]: a
/// reference loop and the design it mirrors, or the two fastest ranked designs (by their
/// ratios round by round, as the report ranks them: [`fastest_first`]), when both are active
/// and timed.
fn open_contestants(
    timings: &[Result<RoundsTiming, String>],
    roles: &Roles,
    active: &[bool],
    precision: f64,
) -> Vec<bool> {
    // This instance's rounds after the earlier instances' ones.
    let pooled = |i: usize| -> Option<(Vec<f64>, Vec<u32>)> {
        let now = &timings[i].as_ref().ok()?.ns_per_replay;
        let Some(Some(before)) = roles.earlier.get(i) else {
            return Some((now.clone(), Vec::new()));
        };
        let mut values = before.ns_per_replay.clone();
        values.extend_from_slice(now);
        let mut instances = match before.instances.as_slice() {
            [] => vec![before.ns_per_replay.len() as u32],
            lengths => lengths.to_vec(),
        };
        instances.push(now.len() as u32);
        Some((values, instances))
    };
    let samples = |i: usize| pooled(i).filter(|_| active[i]);
    let mut comparisons: Vec<(usize, usize, Comparison)> = roles
        .mirrors
        .iter()
        .enumerate()
        .filter_map(|(i, j)| Some((i, (*j)?, Comparison::Overhead)))
        .collect();
    let ranked: Vec<usize> = (0..timings.len()).filter(|&i| roles.ranked[i]).collect();
    let ranked_samples: Vec<&[f64]> = ranked
        .iter()
        .map(|&i| timings[i].as_ref().map_or(&[][..], |t| &t.ns_per_replay))
        .collect();
    if let [first, second, ..] = fastest_first(&ranked_samples)[..] {
        comparisons.push((ranked[second], ranked[first], Comparison::Ranking));
    }
    let mut open = vec![false; timings.len()];
    for (a, b, comparison) in comparisons {
        let (Some(sa), Some(sb)) = (samples(a), samples(b)) else {
            continue;
        };
        let ratio = paired_ratio_in(
            Samples {
                values: &sa.0,
                instances: &sa.1,
            },
            Samples {
                values: &sb.0,
                instances: &sb.1,
            },
            "",
        );
        if ratio.is_none_or(|p| !settled(&p, comparison, precision)) {
            open[a] = true;
            open[b] = true;
        }
    }
    open
}

/// The contestants as the rounds keep them together: each alone, but a design with the
/// reference loops that mirror it ([`Roles::mirrors`]) as one group,
/// the design first.
fn adjacent_groups(same_iters_as: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: Vec<Option<usize>> = vec![None; same_iters_as.len()];
    for (i, paired) in same_iters_as.iter().enumerate() {
        let root = paired.unwrap_or(i);
        let g = match group_of[root] {
            Some(g) => g,
            None => {
                groups.push(vec![root]);
                group_of[root] = Some(groups.len() - 1);
                groups.len() - 1
            }
        };
        if i != root {
            groups[g].push(i);
            group_of[i] = Some(g);
        }
    }
    groups
}

/// One round's order: the groups shuffled, and within each group its members shuffled, so a
/// reference loop runs right before or right after the design it mirrors, in turn at random.
/// Their ratio is the replay's `overhead`: shuffled apart, a burst of other work on a busy
/// machine lands on one of the two more often than a few percent allow at sizes near the
/// core's cache (`ref-direct-holey` on the `lookup-*` workloads), where a pair back to back
/// shares it. The order within the pair is drawn, not fixed: the second of the two runs a few
/// percent faster at 65,536 objects (the ID tables' `lookup-*` loops), which a fixed order
/// would add to every `overhead` (`paired_contestants_run_back_to_back_in_either_order`).
fn round_order(groups: &mut [Vec<usize>], rng: &mut TraceRng) -> Vec<usize> {
    rng.shuffle(groups);
    for group in groups.iter_mut().filter(|g| g.len() > 1) {
        rng.shuffle(group);
    }
    groups.iter().flatten().copied().collect()
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

#[cfg(test)]
mod extra_rounds {
    use super::*;

    /// `ns` per replay, times `1 ± swing` in turn from call to call (a noisy contestant).
    struct Swinging {
        ns: f64,
        swing: f64,
        calls: u64,
    }

    impl Timer for Swinging {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            self.calls += 1;
            let sign = if self.calls % 3 == 0 { 1.0 } else { -1.0 };
            let ns = self.ns * (1.0 + sign * self.swing) * iters as f64;
            Ok(Duration::from_nanos(ns as u64))
        }

        fn needs_warm_up(&self) -> bool {
            false
        }
    }

    fn contestant(ns: f64, swing: f64) -> Box<dyn Timer> {
        Box::new(Swinging {
            ns,
            swing,
            calls: 0,
        })
    }

    fn budget() -> RoundsBudget {
        RoundsBudget {
            per_contestant: Duration::from_micros(1),
            min_sample: Duration::from_micros(10),
            min_rounds: 10,
            max_rounds: 30,
            extra_per_contestant: Duration::from_secs(5),
            precision: 0.06,
            leave_spent_after: None,
        }
    }

    /// 0: a design; 1: its loop (noisy, so their ratio swings); 2: a design 5x slower; 3: a
    /// reference replayer, neither ranked nor mirroring.
    fn four_contestants() -> (Vec<Box<dyn Timer>>, Roles) {
        let timers = vec![
            contestant(1_000.0, 0.0),
            contestant(1_000.0, 0.3),
            contestant(5_000.0, 0.0),
            contestant(2_000.0, 0.3),
        ];
        let roles = Roles {
            mirrors: vec![None, Some(0), None, None],
            ranked: vec![true, false, true, false],
            earlier: Vec::new(),
        };
        (timers, roles)
    }

    /// Samples per contestant.
    fn lengths(cell: &CellRounds) -> Vec<usize> {
        cell.timings
            .iter()
            .map(|t| t.as_ref().unwrap().ns_per_replay.len())
            .collect()
    }

    /// A noisy loop and its design never settle: they alone run extra rounds, up to the most
    /// rounds; a design far from the others settles its ranking in the first rounds and stays
    /// out, and so does the reference that is in no comparison.
    #[test]
    fn only_the_contestants_of_open_comparisons_run_extra_rounds() {
        let (mut timers, roles) = four_contestants();
        let cell = time_cell(&mut timers, &roles, &budget(), 3);
        assert_eq!(cell.rounds, 10);
        assert_eq!((cell.extra, cell.extra_contestants), (20, 2));
        assert_eq!(lengths(&cell), [30, 30, 10, 10]);
    }

    /// With [`RoundsBudget::leave_spent_after`], contestants that spent their budget (all of
    /// them here: a budget of nothing) leave the rounds before the cell's floor once none of
    /// their comparisons is open: the design far from the others and the reference in no
    /// comparison after [`MIN_ROUNDS`], the noisy pair not until the extra rounds end. Given
    /// the time, nobody leaves.
    #[test]
    fn contestants_that_spent_their_budget_leave_once_settled() {
        let cell_of = |per_contestant: Duration| {
            let (mut timers, roles) = four_contestants();
            let budget = RoundsBudget {
                per_contestant,
                leave_spent_after: Some(LEAVE_SPENT_AFTER),
                ..budget()
            };
            let cell = time_cell(&mut timers, &roles, &budget, 3);
            (cell.rounds, cell.left_spent, lengths(&cell))
        };
        let floor = MIN_ROUNDS as usize;
        let spent = cell_of(Duration::ZERO);
        assert_eq!(spent, (10, 2, vec![30, 30, floor, floor]));
        assert_eq!(
            cell_of(Duration::from_secs(60)),
            (30, 0, vec![30, 30, 30, 30])
        );
    }

    #[test]
    fn a_cell_says_how_its_rounds_went() {
        let cell = |extra, left_spent| CellRounds {
            rounds: 10,
            left_spent,
            leave_from: 6,
            extra,
            extra_contestants: 2,
            timings: Vec::new(),
        };
        assert_eq!(cell(0, 0).describe(), " in 10 rounds");
        assert_eq!(
            cell(8, 3).describe(),
            " in 10 rounds (+8 for the 2 in unsettled comparisons), 3 left once over budget \
             and settled (from round 6)"
        );
    }

    /// Comparisons that the first rounds settle (a loop that reads its design's time in every
    /// round, two designs apart) get no extra rounds; two tied, noisy designs do, and their
    /// ratio pairs every round they both ran.
    #[test]
    fn settled_comparisons_get_no_extra_rounds() {
        let roles = Roles {
            mirrors: vec![None, Some(0), None],
            ranked: vec![true, false, true],
            earlier: Vec::new(),
        };
        let mut apart = vec![
            contestant(1_000.0, 0.0),
            contestant(1_000.0, 0.0),
            contestant(3_000.0, 0.2),
        ];
        let cell = time_cell(&mut apart, &roles, &budget(), 4);
        assert_eq!(
            (cell.rounds, cell.extra, cell.extra_contestants),
            (10, 0, 0)
        );
        let mut tied = vec![
            contestant(1_000.0, 0.2),
            contestant(1_000.0, 0.0),
            contestant(1_000.0, 0.2),
        ];
        let cell = time_cell(&mut tied, &roles, &budget(), 4);
        assert!(cell.extra > 0, "tied designs run extra rounds");
        let samples = |i: usize| cell.timings[i].as_ref().unwrap().ns_per_replay.clone();
        assert_eq!(samples(0).len(), cell.rounds + cell.extra);
        let pair = results::stats::paired_ratio(&samples(2), &samples(0), "0").unwrap();
        assert_eq!(pair.rounds as usize, samples(2).len().min(samples(0).len()));
    }

    #[test]
    fn instances_share_the_budget_and_each_has_a_median_of_its_own() {
        let whole = RoundsBudget {
            per_contestant: Duration::from_millis(300),
            min_sample: Duration::from_millis(1),
            min_rounds: 15,
            max_rounds: 150,
            extra_per_contestant: Duration::from_millis(300),
            precision: SETTLED_PRECISION,
            leave_spent_after: Some(LEAVE_SPENT_AFTER),
        };
        assert_eq!(whole.per_instance(1), whole);
        let third = whole.per_instance(3);
        assert_eq!(third.per_contestant, Duration::from_millis(100));
        assert_eq!(third.extra_per_contestant, Duration::from_millis(100));
        assert_eq!((third.min_rounds, third.max_rounds), (2, 50));
        assert_eq!(third.leave_spent_after, Some(2));
        assert_eq!(third.min_sample, whole.min_sample);
        let many = whole.per_instance(40);
        assert_eq!((many.min_rounds, many.max_rounds), (2, 4));
        assert_eq!(many.leave_spent_after, Some(2));
    }

    /// A comparison settled over the earlier instances' rounds lets a contestant that spent
    /// its budget leave after a few rounds of this instance; without them it stays until its
    /// comparison settles.
    #[test]
    fn earlier_instances_settle_a_comparison_for_this_one() {
        let budget = RoundsBudget {
            per_contestant: Duration::from_nanos(1),
            min_sample: Duration::from_micros(10),
            min_rounds: 5,
            max_rounds: 20,
            extra_per_contestant: Duration::from_secs(5),
            precision: 0.06,
            leave_spent_after: Some(2),
        };
        let earlier = |ns: f64| RoundsTiming {
            iters: 1,
            ns_per_replay: vec![ns; 12],
            instances: vec![6, 6],
        };
        let run = |earlier: Vec<Option<RoundsTiming>>| {
            let mut timers = vec![contestant(1_000.0, 0.0), contestant(3_000.0, 0.0)];
            let roles = Roles {
                earlier,
                ..Roles::designs(2)
            };
            let cell = time_cell(&mut timers, &roles, &budget, 7);
            lengths(&cell)
        };
        // Alone, the two run this instance's fewest rounds and more, until their ranking
        // settles over 6 rounds.
        let alone = run(Vec::new());
        assert!(alone.iter().all(|&n| n >= MIN_ROUNDS as usize), "{alone:?}");
        // With 12 earlier rounds that already tell them apart, both leave after 2.
        let pooled = run(vec![Some(earlier(1_000.0)), Some(earlier(3_000.0))]);
        assert_eq!(pooled, [2, 2]);
    }

    #[test]
    fn a_comparison_settles_outside_its_band_or_narrow() {
        let at = |median: f64, lower: f64, upper: f64, rounds: u32| PairedRatio {
            against: String::new(),
            ratio: results::stats::Estimate {
                median,
                lower,
                upper,
            },
            faster_in: 0.5,
            rounds,
            instances: 1,
        };
        let ranking = |p: &PairedRatio| settled(p, Comparison::Ranking, 0.06);
        assert!(ranking(&at(1.2, 1.1, 1.3, 10)), "above 1");
        assert!(ranking(&at(0.8, 0.7, 0.9, 10)), "below 1");
        assert!(ranking(&at(1.0, 0.98, 1.03, 10)), "narrow");
        assert!(!ranking(&at(1.0, 0.95, 1.05, 10)), "holds 1, wide");
        assert!(!ranking(&at(1.2, 1.1, 1.3, 5)), "too few rounds");
        // An overhead settles outside the band a replay driver is held to, or narrow.
        let overhead = |p: &PairedRatio| settled(p, Comparison::Overhead, 0.06);
        assert!(overhead(&at(1.2, 1.1, 1.3, 10)), "above the band");
        assert!(overhead(&at(0.8, 0.7, 0.9, 10)), "below the band");
        assert!(overhead(&at(1.0, 0.98, 1.03, 10)), "narrow");
        assert!(
            !overhead(&at(1.07, 1.016, 1.232, 10)),
            "above 1, into the band"
        );
        assert!(
            !overhead(&at(0.96, 0.9, 0.99, 10)),
            "below 1, into the band"
        );
        assert!(!overhead(&at(1.2, 1.1, 1.3, 5)), "too few rounds");
    }
}

#[cfg(test)]
mod preparation {
    use super::*;

    /// A contestant whose one-time preparation takes `prep` of wall time (as a dry run does)
    /// and whose replays take `replay` each, inside and out.
    struct Slow {
        prep: Duration,
        replay: Duration,
        prepared: bool,
    }

    impl Timer for Slow {
        fn prepare(&mut self) -> Result<(), String> {
            if !self.prepared {
                std::thread::sleep(self.prep);
                self.prepared = true;
            }
            Ok(())
        }

        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            self.prepare()?;
            std::thread::sleep(self.replay * iters as u32);
            Ok(self.replay * iters as u32)
        }
    }

    /// The rounds are counted from a replay's wall time, not the preparation's: a cell of
    /// 2 ms replays with a 40 ms preparation fills its 60 ms budget with about 15 rounds,
    /// where counting the preparation in would give the floor.
    #[test]
    fn the_preparation_is_not_counted_as_a_replay() {
        let mut timers: Vec<Box<dyn Timer>> = vec![Box::new(Slow {
            prep: Duration::from_millis(40),
            replay: Duration::from_millis(2),
            prepared: false,
        })];
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(60),
            min_sample: Duration::from_millis(1),
            min_rounds: 2,
            max_rounds: 100,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        };
        let cell = time_in_rounds(&mut timers, &budget, 1);
        // Each round is two warm-ups and a sample, 6 ms of sleep (more on a busy machine).
        assert!(cell.rounds >= 5, "{} rounds", cell.rounds);
    }
}

#[cfg(test)]
mod warm_ups {
    use super::*;

    /// A contestant that records the replays of every call; `keeps_state` as a read-only body
    /// (true) or a body rebuilt for every replay (false).
    struct Recorder {
        calls: Vec<u64>,
        keeps_state: bool,
    }

    impl Timer for Recorder {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            self.calls.push(iters);
            Ok(Duration::from_micros(100 * iters))
        }

        fn needs_warm_up(&self) -> bool {
            self.keeps_state
        }
    }

    /// Every sample of a contestant that keeps its state follows [`WARM_UPS`] untimed replays
    /// in one call (its calibration too); one rebuilt for every replay follows
    /// [`REBUILT_WARM_UPS`] (its calibration none).
    #[test]
    fn a_state_kept_between_samples_is_warmed_before_each() {
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(1),
            min_sample: Duration::from_micros(100),
            min_rounds: 3,
            max_rounds: 3,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        };
        for keeps_state in [true, false] {
            let mut recorder = Recorder {
                calls: Vec::new(),
                keeps_state,
            };
            let cell = {
                let mut timers: Vec<Box<dyn Timer + '_>> = vec![Box::new(&mut recorder)];
                time_in_rounds(&mut timers, &budget, 3)
            };
            assert_eq!(cell.rounds, 3);
            let sample = cell.timings[0].as_ref().unwrap().iters;
            let round: Vec<u64> = if keeps_state {
                vec![WARM_UPS, sample]
            } else {
                vec![REBUILT_WARM_UPS, sample]
            };
            let calibration: Vec<u64> = if keeps_state {
                vec![WARM_UPS, 1]
            } else {
                vec![1]
            };
            let expected: Vec<u64> = calibration
                .into_iter()
                .chain(round.iter().copied().cycle().take(3 * round.len()))
                .collect();
            assert_eq!(recorder.calls, expected, "keeps its state: {keeps_state}");
        }
    }

    /// The replay counts asked of one contestant whose replay lasts `per_replay` and that keeps
    /// its state between samples or not (`keeps_state`), timed alone in two rounds.
    fn calls_of_a_replay_lasting(per_replay: Duration, keeps_state: bool) -> Vec<u64> {
        struct Long(Duration, bool, std::rc::Rc<std::cell::RefCell<Vec<u64>>>);
        impl Timer for Long {
            fn time(&mut self, iters: u64) -> Result<Duration, String> {
                self.2.borrow_mut().push(iters);
                let took = self.0 * iters as u32;
                std::thread::sleep(took);
                Ok(took)
            }

            fn needs_warm_up(&self) -> bool {
                self.1
            }
        }
        let budget = RoundsBudget {
            per_contestant: Duration::from_millis(1),
            min_sample: Duration::from_micros(100),
            min_rounds: 2,
            max_rounds: 2,
            extra_per_contestant: Duration::ZERO,
            precision: 0.05,
            leave_spent_after: None,
        };
        let calls = std::rc::Rc::default();
        let long = Long(per_replay, keeps_state, std::rc::Rc::clone(&calls));
        let mut timers: Vec<Box<dyn Timer>> = vec![Box::new(long)];
        let cell = time_in_rounds(&mut timers, &budget, 3);
        let timing = cell.timings[0].as_ref().unwrap();
        assert_eq!((timing.iters, timing.ns_per_replay.len()), (1, 2));
        calls.borrow().clone()
    }

    /// A contestant whose replay lasts [`LONG_REPLAY`]: after the calibration (which cannot
    /// know that yet: the warm-ups and one replay), one untimed replay before each sample if
    /// it keeps its state, none if it is rebuilt for every replay.
    #[test]
    fn a_long_replay_is_warmed_once_less() {
        let calls = calls_of_a_replay_lasting(LONG_REPLAY, true);
        assert_eq!(calls, [WARM_UPS, 1, 1, 1, 1, 1]);
        let calls = calls_of_a_replay_lasting(LONG_REPLAY, false);
        assert_eq!(calls, [1, 1, 1]);
    }

    /// A contestant whose replay lasts [`SELF_WARMING_REPLAY`]: after the calibration, each
    /// round times its sample with no untimed replay before it, whether it keeps its state or
    /// not.
    #[test]
    fn a_self_warming_replay_is_not_warmed() {
        let calls = calls_of_a_replay_lasting(SELF_WARMING_REPLAY, true);
        assert_eq!(calls, [WARM_UPS, 1, 1, 1]);
        let calls = calls_of_a_replay_lasting(SELF_WARMING_REPLAY, false);
        assert_eq!(calls, [1, 1, 1]);
    }

    impl Timer for &mut Recorder {
        fn time(&mut self, iters: u64) -> Result<Duration, String> {
            (**self).time(iters)
        }

        fn needs_warm_up(&self) -> bool {
            (**self).needs_warm_up()
        }
    }
}
