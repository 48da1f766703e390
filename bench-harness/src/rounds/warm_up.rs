//! The warm-up policy: how many untimed replays come before each sample of a contestant
//! ([`WARM_UPS`], [`REBUILT_WARM_UPS`]; one fewer for a [`LONG_REPLAY`], none for a
//! [`SELF_WARMING_REPLAY`]).

use std::time::Duration;

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
///
/// [`Timer::needs_warm_up`]: super::Timer::needs_warm_up
/// [`OVERHEAD_BAND`]: super::OVERHEAD_BAND
/// [`RoundsBudget::min_rounds`]: super::RoundsBudget::min_rounds
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
///
/// [`OVERHEAD_BAND`]: super::OVERHEAD_BAND
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
///
/// [`OVERHEAD_BAND`]: super::OVERHEAD_BAND
pub const SELF_WARMING_REPLAY: Duration = Duration::from_millis(100);

/// The untimed replays before each sample of a contestant: none if its replay lasts
/// [`SELF_WARMING_REPLAY`] or more; else [`WARM_UPS`] for one that keeps its state
/// ([`Timer::needs_warm_up`]) and [`REBUILT_WARM_UPS`] for a body rebuilt for every replay,
/// one fewer if its replay lasts [`LONG_REPLAY`] or more.
///
/// [`Timer::needs_warm_up`]: super::Timer::needs_warm_up
pub(super) fn warm_ups(needs_warm_up: bool, wall_per_replay: Duration) -> u64 {
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

#[cfg(test)]
mod warm_ups {
    use super::*;
    use crate::rounds::{RoundsBudget, Timer, time_in_rounds};

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
