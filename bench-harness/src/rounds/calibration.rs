//! A contestant's calibration before the rounds: its preparation, then the replays per sample
//! that make a sample last [`RoundsBudget::min_sample`] within its share of the budget, and
//! the wall time of one replay the rounds are counted with.

use std::time::Duration;

use super::{RoundsBudget, Timer, WARM_UPS};
use crate::host::Stopwatch;

/// Per contestant: replays per sample and the time of one replay, rebuilds included (its wall
/// time less waits for a processor, as the budget is counted).
pub(super) fn calibrate(
    timer: &mut dyn Timer,
    budget: &RoundsBudget,
) -> Result<(u64, Duration), String> {
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

#[cfg(test)]
mod preparation {
    use super::*;
    use crate::rounds::time_in_rounds;

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
