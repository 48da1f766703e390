//! The comparisons a cell is read for ([`Comparison`]), when one is [`settled`], and which
//! contestants the open ones keep in the rounds: the rule behind the extra rounds and a spent
//! contestant's leaving.

use results::stats::{MIN_ROUNDS, PairedRatio, Samples, fastest_first, paired_ratio_in};

use super::{Roles, RoundsTiming};

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

/// The contestants (of those still `active`) in a comparison that is not [`settled`]: a
/// reference loop and the design it mirrors, or the two fastest ranked designs (by their
/// ratios round by round, as the report ranks them: [`fastest_first`]), when both are active
/// and timed.
pub(super) fn open_contestants(
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

#[cfg(test)]
mod extra_rounds {
    use super::*;
    use std::time::Duration;

    use crate::rounds::{
        CellRounds, LEAVE_SPENT_AFTER, RoundsBudget, SETTLED_PRECISION, Timer, time_cell,
    };

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
            wall_ns_per_replay: 0,
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
            instances_apart: None,
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
