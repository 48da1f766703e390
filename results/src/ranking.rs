//! Rankings of a cell's designs (family, workload, N) with their confidence, from the
//! interleaved rounds of [`crate::stats`]; and the paired ratios every timed benchmark carries
//! ([`Results::fill_paired_ratios`], [`Results::fill_overheads`]).
//!
//! [`rank`] orders a cell's timed designs by their ratios round by round
//! ([`order_by_paired_ratios`]) and says whether its winner can be told apart from the
//! runner-up: only when the interval of runner-up ÷ winner lies above 1. Designs timed in
//! different sessions (a filtered run merged into an older file) are compared by their medians
//! and the ranking says it has no interval.

use std::collections::{BTreeMap, HashMap};

use crate::family::Family;
use crate::schema::{Benchmark, Results};
use crate::stats::{MIN_ROUNDS, PairedRatio, Samples, order_by_paired_ratios, paired_ratio_in};

/// A cell: a family's workload at one size.
pub type CellKey = (Family, String, u64);

/// Each cell's designs (reference loops left out) of `run`, what [`rank`] orders.
pub fn cells(run: &Results) -> BTreeMap<CellKey, Vec<&Benchmark>> {
    let mut out: BTreeMap<CellKey, Vec<&Benchmark>> = BTreeMap::new();
    for b in run.benchmarks.iter().filter(|b| !b.family.is_reference()) {
        out.entry((b.family, b.workload.clone(), b.n))
            .or_default()
            .push(b);
    }
    out
}

/// `a` over `b` paired round by round, within each instance, when both were timed in one
/// session ([`paired_ratio_in`]).
pub fn paired(a: &Benchmark, b: &Benchmark) -> Option<PairedRatio> {
    let (ra, rb) = (a.rounds.as_ref()?, b.rounds.as_ref()?);
    if ra.session != rb.session || !a.verified || !b.verified {
        return None;
    }
    paired_ratio_in(a.samples(), b.samples(), &b.design)
}

/// How far the runner-up of a cell trails its winner.
#[derive(Debug, Clone, PartialEq)]
pub struct Gap {
    /// Runner-up ÷ winner: the median of the per-round ratios when they shared rounds, else the
    /// ratio of their medians.
    pub ratio: f64,
    /// The paired comparison, when they shared rounds.
    pub paired: Option<PairedRatio>,
}

impl Gap {
    /// Whether the winner is faster at 95% confidence: `Some(true)` when the interval of
    /// runner-up ÷ winner lies above 1 over at least [`MIN_ROUNDS`] rounds and its instances
    /// agree on the side ([`PairedRatio::unstable_about`]), `Some(false)` when it holds 1, the
    /// rounds are too few or the instances answer both ways (the two cannot be told apart on
    /// this machine), `None` without paired rounds.
    pub fn decided(&self) -> Option<bool> {
        self.paired.as_ref().map(Self::clears_one)
    }

    /// Whether `p`'s interval lies above 1 over enough rounds for a 95% interval
    /// ([`MIN_ROUNDS`]: below it the interval is only the range of the rounds), and no two of
    /// its instances put it on opposite sides of 1.
    fn clears_one(p: &PairedRatio) -> bool {
        p.rounds >= MIN_ROUNDS && p.ratio.lower > 1.0 && !p.unstable_about(1.0)
    }

    /// The gap in words, e.g. `1.120× [1.081, 1.153], winner faster in 97% of 30 rounds`,
    /// `cannot be told apart: 1.010× [0.970, 1.040] over 30 rounds in 3 instances` or `1.12×
    /// (no paired rounds)`.
    pub fn describe(&self) -> String {
        match &self.paired {
            None => format!("{:.2}× (no paired rounds)", self.ratio),
            Some(p) => {
                let interval = format!(
                    "{:.3}× [{:.3}, {:.3}]",
                    p.ratio.median, p.ratio.lower, p.ratio.upper
                );
                let rounds = p.rounds_in_words();
                if p.rounds < MIN_ROUNDS {
                    format!(
                        "{interval} over {rounds}, too few for a 95% interval (at least \
                         {MIN_ROUNDS})"
                    )
                } else if p.unstable_about(1.0) {
                    format!(
                        "unstable on this machine: {interval} over {rounds}, {}",
                        p.apart_in_words()
                    )
                } else if Self::clears_one(p) {
                    format!(
                        "{interval}, winner faster in {:.0}% of {rounds}",
                        (1.0 - p.faster_in) * 100.0
                    )
                } else {
                    format!("cannot be told apart: {interval} over {rounds}")
                }
            }
        }
    }
}

impl PairedRatio {
    /// How the instances disagree, e.g. `one instance's interval ends at 0.950, another's
    /// starts at 1.080`; empty when every two overlap.
    pub fn apart_in_words(&self) -> String {
        self.instances_apart
            .map(|(lowest_upper, highest_lower)| {
                format!(
                    "one instance's interval ends at {lowest_upper:.3}, another's starts at \
                     {highest_lower:.3}"
                )
            })
            .unwrap_or_default()
    }

    /// The rounds paired, with the instances when more than one: `30 rounds`, `30 rounds in 3
    /// instances`.
    pub fn rounds_in_words(&self) -> String {
        if self.instances > 1 {
            format!("{} rounds in {} instances", self.rounds, self.instances)
        } else {
            format!("{} rounds", self.rounds)
        }
    }
}

/// A cell's timed designs in order, fastest first, and how sure the order of the top two is.
#[derive(Debug, Clone)]
pub struct Ranking<'a> {
    /// Verified, timed designs, fastest first: by their ratios round by round to the fastest
    /// ([`order_by_paired_ratios`]), designs timed in other sessions by their median times.
    pub order: Vec<&'a Benchmark>,
    /// Runner-up against winner, when there are two.
    pub gap: Option<Gap>,
}

impl<'a> Ranking<'a> {
    /// The fastest design.
    pub fn winner(&self) -> &'a Benchmark {
        self.order[0]
    }

    /// The second fastest, if any.
    pub fn runner_up(&self) -> Option<&'a Benchmark> {
        self.order.get(1).copied()
    }

    /// How many of the order are reference loops calling a design directly (all of them but
    /// the designs [`rank_called_directly`] left as their replays).
    pub fn called_directly(&self) -> usize {
        self.order
            .iter()
            .filter(|b| b.family.is_reference())
            .count()
    }

    /// The designs that lead the cell, named by the design each benchmark times (a reference
    /// loop by the design it [`mirrors`](Benchmark::mirrors)): the winner; when the runner-up
    /// cannot be told apart from it ([`Gap::decided`] is `Some(false)`), the runner-up too and
    /// every next one whose rounds cannot tell it from the winner either.
    pub fn leaders(&self) -> Vec<&'a str> {
        let winner = self.winner();
        let mut names = vec![winner.timed_design()];
        let tied = |b: &Benchmark| {
            paired(b, winner).is_some_and(|p| {
                Gap {
                    ratio: p.ratio.median,
                    paired: Some(p),
                }
                .decided()
                    == Some(false)
            })
        };
        if let (Some(gap), Some(runner_up)) = (&self.gap, self.runner_up())
            && gap.decided() == Some(false)
        {
            names.push(runner_up.timed_design());
            names.extend(
                self.order[2..]
                    .iter()
                    .take_while(|b| tied(b))
                    .map(|b| b.timed_design()),
            );
        }
        names
    }

    /// Whether `self` and `other` (the same cell ranked another way, e.g.
    /// [`rank_called_directly`]) have no leading design in common: they name different
    /// winners.
    pub fn leads_apart(&self, other: &Ranking<'_>) -> bool {
        let mine = self.leaders();
        other.leaders().iter().all(|d| !mine.contains(d))
    }
}

impl Benchmark {
    /// Its per-round times with the rounds of each instance ([`Rounds::instances`]), what
    /// [`paired`] pairs.
    ///
    /// [`Rounds::instances`]: crate::stats::Rounds::instances
    pub fn samples(&self) -> Samples<'_> {
        Samples {
            values: &self.samples_ns_per_op,
            instances: self.rounds.as_ref().map_or(&[], |r| &r.instances),
        }
    }

    /// The design this benchmark times: a design's own name, or the design a reference loop
    /// [`mirrors`](Benchmark::mirrors) (a ranking of loops names designs).
    pub fn timed_design(&self) -> &str {
        self.mirrors.as_deref().unwrap_or(&self.design)
    }
}

/// Ranks the benchmarks of one cell (the caller passes the designs of one family, workload
/// and N, references left out); `None` when none is verified with a time.
pub fn rank<'a>(cell: &[&'a Benchmark]) -> Option<Ranking<'a>> {
    let mut order: Vec<&Benchmark> = cell
        .iter()
        .copied()
        .filter(|b| b.verified && b.ns_per_op.is_some_and(|e| e.median > 0.0))
        .collect();
    let median = |b: &Benchmark| b.ns_per_op.map_or(f64::INFINITY, |e| e.median);
    order.sort_by(|a, b| median(a).total_cmp(&median(b)));
    let ratio = |a: &Benchmark, b: &Benchmark| {
        paired(a, b).map_or(median(a) / median(b), |p| p.ratio.median)
    };
    let mut by_pairs: Vec<usize> = (0..order.len()).collect();
    order_by_paired_ratios(&mut by_pairs, |a, b| ratio(order[a], order[b]));
    let order: Vec<&Benchmark> = by_pairs.into_iter().map(|i| order[i]).collect();
    let first = *order.first()?;
    let gap = order.get(1).map(|second| {
        let paired = paired(second, first);
        Gap {
            ratio: paired
                .as_ref()
                .map_or(median(second) / median(first), |p| p.ratio.median),
            paired,
        }
    });
    Some(Ranking { order, gap })
}

/// The same cell ranked with every design that has a reference loop replaced by it (for a
/// peer: its crate with no adapter and no trait; for our designs: their own methods with no
/// replay driver), the ranking a user calling the crates themselves would see. `is_peer`
/// says which designs are peers (`DesignRecord::kind`).
///
/// `None` unless every peer [`rank`] orders has exactly one verified, timed loop in `here`
/// that [`mirrors`](Benchmark::mirrors) it on the same workload and N, at least one peer (or,
/// in a cell of ours alone, every design) is replaced, and there are at least two: a peer
/// ranked through its adapter would carry the adapter's cost into the ranking that is meant
/// to leave it out, and a cell of ours with loops for some would rank one of ours against
/// another's driver. Our designs without a loop
/// stay as their replays, which pay the family's driver that the loops do not: a handicap on
/// ours alone, so a design of ours that wins here wins against the crates used bare.
///
/// The order holds the loops and the designs left as they are; a loop's `mirrors` names its
/// design ([`Ranking::called_directly`] counts them). A family whose trait makes some designs
/// pay what others do not (the allocators' peers check every free where the crates called
/// directly trust the caller) can rank differently here: the report shows both, and says
/// when the winners differ.
pub fn rank_called_directly<'a>(
    cell: &[&'a Benchmark],
    here: &[&'a Benchmark],
    is_peer: impl Fn(&Benchmark) -> bool,
) -> Option<Ranking<'a>> {
    let designs = rank(cell)?.order;
    if designs.len() < 2 {
        return None;
    }
    let (mut replaced, mut peers_replaced) = (0, 0);
    let entries = designs
        .iter()
        .map(|&d| match only_loop_of(d, here) {
            Some(l) => {
                replaced += 1;
                peers_replaced += usize::from(is_peer(d));
                Some(l)
            }
            None if is_peer(d) => None,
            None => Some(d),
        })
        .collect::<Option<Vec<_>>>()?;
    (peers_replaced > 0 || replaced == entries.len())
        .then(|| rank(&entries))
        .flatten()
}

/// The peers [`rank`] orders in `cell` that have no single verified, timed loop in `here`: why
/// [`rank_called_directly`] gives no ranking there (empty when the cell ranks nothing, or
/// every peer has its loop).
pub fn peers_without_loop<'a>(
    cell: &[&'a Benchmark],
    here: &[&'a Benchmark],
    is_peer: impl Fn(&Benchmark) -> bool,
) -> Vec<&'a str> {
    rank(cell).map_or_else(Vec::new, |ranking| {
        ranking
            .order
            .iter()
            .filter(|d| is_peer(d) && only_loop_of(d, here).is_none())
            .map(|d| d.design.as_str())
            .collect()
    })
}

/// The one verified, timed loop of `here` that mirrors design `d` on its workload and N;
/// `None` when there is none, or more than one.
fn only_loop_of<'a>(d: &Benchmark, here: &[&'a Benchmark]) -> Option<&'a Benchmark> {
    let mut mirroring = here.iter().copied().filter(|l| {
        l.family.is_reference()
            && l.mirrors.as_deref() == Some(d.design.as_str())
            && l.workload == d.workload
            && l.n == d.n
    });
    let only = mirroring
        .next()
        .filter(|l| l.verified && l.ns_per_op.is_some_and(|e| e.median > 0.0));
    match (only, mirroring.next()) {
        (Some(l), None) => Some(l),
        _ => None,
    }
}

impl Results {
    /// Sets every reference loop's [`Benchmark::overhead`]: the time of the design it mirrors
    /// on the same workload and size over the loop's time, where both were timed in this run:
    /// the median of their per-round ratios when they were timed in the same rounds, else the
    /// ratio of their medians.
    pub fn fill_overheads(&mut self) {
        let overheads: Vec<Option<f64>> = self
            .benchmarks
            .iter()
            .map(|r| {
                let mirrored = r.mirrors.as_deref()?;
                let loop_ns = r.ns_per_op.as_ref().filter(|_| r.verified)?.median;
                let design = self.benchmarks.iter().find(|b| {
                    !b.family.is_reference()
                        && b.verified
                        && b.design == mirrored
                        && b.workload == r.workload
                        && b.n == r.n
                })?;
                if let Some(p) = paired(design, r) {
                    return Some(p.ratio.median);
                }
                let design_ns = design.ns_per_op.as_ref()?.median;
                (loop_ns > 0.0).then(|| design_ns / loop_ns)
            })
            .collect();
        for (b, overhead) in self.benchmarks.iter_mut().zip(overheads) {
            b.overhead = overhead;
        }
    }

    /// Sets every timed benchmark's paired ratios ([`Rounds::to_reference`],
    /// [`Rounds::to_best`]) against the designs timed in the same rounds: the family's
    /// reference design and the session's fastest design ([`rank`]).
    ///
    /// [`Rounds::to_reference`]: crate::stats::Rounds::to_reference
    /// [`Rounds::to_best`]: crate::stats::Rounds::to_best
    pub fn fill_paired_ratios(&mut self) {
        let mut sessions: HashMap<u64, Vec<&Benchmark>> = HashMap::new();
        for b in &self.benchmarks {
            if let Some(r) = b
                .rounds
                .as_ref()
                .filter(|_| b.verified && !b.family.is_reference())
            {
                sessions.entry(r.session).or_default().push(b);
            }
        }
        // Each session's winner, ranked once for all its benchmarks.
        let winners: HashMap<u64, &Benchmark> = sessions
            .iter()
            .filter_map(|(&session, mates)| Some((session, rank(mates)?.winner())))
            .collect();
        let ratios: Vec<_> = self
            .benchmarks
            .iter()
            .map(|b| {
                let session = b.rounds.as_ref().filter(|_| b.verified)?.session;
                let mates = sessions.get(&session)?;
                let reference = self.family_record(b.family).and_then(|r| {
                    mates
                        .iter()
                        .find(|o| o.design == r.reference_design && o.design != b.design)
                        .and_then(|o| paired(b, o))
                });
                let best = winners.get(&session).and_then(|w| paired(b, w));
                Some((reference, best))
            })
            .collect();
        for (b, ratios) in self.benchmarks.iter_mut().zip(ratios) {
            if let (Some(rounds), Some((reference, best))) = (b.rounds.as_mut(), ratios) {
                rounds.to_reference = reference;
                rounds.to_best = best;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;
    use crate::stats::{Rounds, median_interval};

    fn timed(design: &str, session: u64, samples: &[f64]) -> Benchmark {
        let mut b = Benchmark::new(Family::IdTable, "churn", design, 1000, 100);
        b.verified = true;
        b.status = crate::Status::Verified;
        b.samples_ns_per_op = samples.to_vec();
        b.ns_per_op = median_interval(&mut samples.to_vec());
        b.rounds = Some(Rounds::new(session, 1, Vec::new()));
        b
    }

    #[test]
    fn a_winner_is_named_only_when_its_interval_clears_one() {
        let rounds = [10.0, 11.0, 9.0, 30.0, 10.0, 10.5, 9.5, 10.0, 12.0, 10.0];
        let clear = timed("clear", 1, &rounds);
        let slower = timed("slower", 1, &rounds.map(|t| t * 1.2));
        let r = rank(&[&slower, &clear]).unwrap();
        assert_eq!(r.winner().design, "clear");
        let gap = r.gap.unwrap();
        assert_eq!(gap.decided(), Some(true));
        assert!(
            gap.describe()
                .contains("winner faster in 100% of 10 rounds")
        );

        // Alternating wins: the two cannot be told apart.
        let even: Vec<f64> = rounds
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { t * 0.98 } else { t * 1.02 })
            .collect();
        let tie = timed("tie", 1, &even);
        let three = rank(&[&slower, &tie, &clear]).unwrap();
        let mut leaders = three.leaders();
        leaders.sort_unstable();
        assert_eq!(leaders, ["clear", "tie"], "`slower` is told apart");
        assert!(!three.leads_apart(&rank(&[&clear, &slower]).unwrap()));
        let gap = rank(&[&tie, &clear]).unwrap().gap.unwrap();
        assert_eq!(gap.decided(), Some(false));
        assert!(gap.describe().starts_with("cannot be told apart"));

        // Another session: medians only.
        let other = timed("other", 2, &rounds.map(|t| t * 1.5));
        let gap = rank(&[&other, &clear]).unwrap().gap.unwrap();
        assert_eq!(gap.decided(), None);
        assert!(gap.describe().contains("no paired rounds"));
    }

    /// On a machine whose speed came and went, `lucky` ran its rounds while it was fast and has
    /// the lower median, but `fixed` took 0.6 of its time in 10 of the 12 rounds both ran:
    /// `fixed` wins, decided.
    #[test]
    fn the_winner_is_the_faster_round_by_round_not_by_median() {
        // Rounds 0-1: `lucky` ran fast, `fixed` slow; 2-6: both fast; 7-11: both slow.
        let fast_then_slow = |head: f64, fast: f64, slow: f64| {
            let mut samples = vec![head; 2];
            samples.extend([fast; 5]);
            samples.extend([slow; 5]);
            samples
        };
        let fixed = timed("fixed", 1, &fast_then_slow(1.2, 0.6, 1.2));
        let lucky = timed("lucky", 1, &fast_then_slow(1.0, 1.0, 2.0));
        assert!(lucky.ns_per_op.unwrap().median < fixed.ns_per_op.unwrap().median);
        let ranking = rank(&[&lucky, &fixed]).unwrap();
        assert_eq!(ranking.winner().design, "fixed");
        assert_eq!(ranking.gap.as_ref().unwrap().decided(), Some(true));
    }

    /// Five instances put `b` 1.3× behind `a`, one puts it 2% ahead: the pooled interval lies
    /// above 1, but which is faster depends on the instance, so the gap is not decided and
    /// says why.
    #[test]
    fn a_gap_whose_instances_answer_both_ways_is_unstable_not_decided() {
        let instance_ratios = [0.98, 1.3, 1.3, 1.3, 1.3, 1.3];
        let wobble = |i: usize| 1.0 + 0.001 * (i % 5) as f64;
        let a_samples: Vec<f64> = (0..60).map(|i| 10.0 * wobble(i)).collect();
        let b_samples: Vec<f64> = (0..60)
            .map(|i| 10.0 * instance_ratios[i / 10] * wobble(i))
            .collect();
        let with_instances = |mut b: Benchmark| {
            b.rounds.as_mut().unwrap().instances = vec![10; 6];
            b
        };
        let a = with_instances(timed("a", 1, &a_samples));
        let b = with_instances(timed("b", 1, &b_samples));
        let ranking = rank(&[&b, &a]).unwrap();
        assert_eq!(ranking.winner().design, "a");
        let gap = ranking.gap.as_ref().unwrap();
        assert!(gap.paired.as_ref().unwrap().ratio.lower > 1.0, "{gap:?}");
        assert_eq!(gap.decided(), Some(false));
        assert!(
            gap.describe()
                .starts_with("unstable on this machine: 1.300×")
                && gap
                    .describe()
                    .contains("one instance's interval ends at 0.980"),
            "{}",
            gap.describe()
        );
        assert_eq!(ranking.leaders(), ["a", "b"]);
    }

    /// Two instances, the second on a machine twice as slow: `slow` left the first instance
    /// after 4 rounds, so its rounds of the second instance pair with the second instance's
    /// rounds of `fast`, not with the first's remaining ones.
    #[test]
    fn rounds_pair_within_instances_and_the_gap_names_them() {
        let rounds = [10.0, 11.0, 9.0, 10.5, 10.0, 9.5];
        let with_instances = |mut b: Benchmark, instances: &[u32]| {
            b.rounds.as_mut().unwrap().instances = instances.to_vec();
            b
        };
        let fast_samples: Vec<f64> = rounds
            .iter()
            .chain(&rounds.map(|t| t * 2.0))
            .copied()
            .collect();
        let slow_samples: Vec<f64> = rounds[..4]
            .iter()
            .chain(&rounds.map(|t| t * 2.0))
            .map(|t| t * 1.2)
            .collect();
        let fast = with_instances(timed("fast", 1, &fast_samples), &[6, 6]);
        let slow = with_instances(timed("slow", 1, &slow_samples), &[4, 6]);
        let p = paired(&slow, &fast).unwrap();
        assert_eq!((p.rounds, p.instances), (10, 2));
        assert!(
            (p.ratio.lower - 1.2).abs() < 1e-9 && (p.ratio.upper - 1.2).abs() < 1e-9,
            "every paired round is 1.2: {:?}",
            p.ratio
        );
        let gap = rank(&[&slow, &fast]).unwrap().gap.unwrap();
        assert_eq!(gap.decided(), Some(true));
        assert!(
            gap.describe()
                .ends_with("winner faster in 100% of 10 rounds in 2 instances"),
            "{}",
            gap.describe()
        );
        // Without instances the same samples pair across them.
        let (fast, slow) = (with_instances(fast, &[]), with_instances(slow, &[]));
        let p = paired(&slow, &fast).unwrap();
        assert_eq!(p.instances, 1);
        assert!(p.ratio.upper > 1.3, "{:?}", p.ratio);
        assert!(
            !rank(&[&slow, &fast])
                .unwrap()
                .gap
                .unwrap()
                .describe()
                .contains("instances")
        );
    }

    /// A loop of `design` in session 1: family `reference`, mirroring it.
    fn loop_of(design: &str, samples: &[f64]) -> Benchmark {
        let mut b = timed(&format!("ref-direct-{design}"), 1, samples);
        b.family = Family::Reference;
        b.mirrors = Some(design.to_string());
        b
    }

    #[test]
    fn called_directly_replaces_every_peer_by_its_loop_and_ours_where_they_have_one() {
        let rounds = [10.0, 11.0, 9.0, 30.0, 10.0, 10.5, 9.5, 10.0, 12.0, 10.0];
        // `a` is ours, `b` a peer.
        let (a, b) = (
            timed("a", 1, &rounds),
            timed("b", 1, &rounds.map(|t| t * 1.2)),
        );
        let is_peer = |x: &Benchmark| x.design == "b";
        // Called directly, `b` is the faster: its replay paid what `a`'s did not.
        let (la, lb) = (
            loop_of("a", &rounds.map(|t| t * 0.9)),
            loop_of("b", &rounds.map(|t| t * 0.6)),
        );
        let cell = [&a, &b];
        let direct = rank_called_directly(&cell, &[&a, &b, &la, &lb], is_peer).unwrap();
        assert_eq!(rank(&cell).unwrap().winner().design, "a");
        assert_eq!(direct.winner().mirrors.as_deref(), Some("b"));
        assert_eq!(direct.gap.as_ref().unwrap().decided(), Some(true));
        assert_eq!(direct.called_directly(), 2);
        assert_eq!(
            direct.leaders(),
            ["b"],
            "named by the design each loop mirrors"
        );
        assert!(rank(&cell).unwrap().leads_apart(&direct));

        // The peer called directly, ours through its replay: ranked, ours as it is.
        let peer_only = rank_called_directly(&cell, &[&lb], is_peer).unwrap();
        assert_eq!(peer_only.called_directly(), 1);
        assert_eq!(peer_only.leaders(), ["b"]);
        assert_eq!(peer_only.order[1].design, "a");
        // A peer without a loop, with two, or with a failed one: no such ranking, and the
        // peer is named as the reason.
        assert!(rank_called_directly(&cell, &[&la], is_peer).is_none());
        assert_eq!(peers_without_loop(&cell, &[&la], is_peer), ["b"]);
        assert!(rank_called_directly(&cell, &[&la, &lb, &lb], is_peer).is_none());
        assert_eq!(peers_without_loop(&cell, &[&la, &lb, &lb], is_peer), ["b"]);
        let mut failed = lb.clone();
        failed.verified = false;
        assert!(rank_called_directly(&cell, &[&la, &failed], is_peer).is_none());
        assert_eq!(peers_without_loop(&cell, &[&la, &failed], is_peer), ["b"]);
        assert!(peers_without_loop(&cell, &[&lb], is_peer).is_empty());
        // A loop of another size or workload does not count.
        let mut other_n = lb.clone();
        other_n.n = 2000;
        assert!(rank_called_directly(&cell, &[&la, &other_n], is_peer).is_none());
        // No peer, and a loop for some of ours: one of ours would race another's driver.
        assert!(rank_called_directly(&cell, &[&la], |_| false).is_none());
        assert!(rank_called_directly(&cell, &[&la, &lb], |_| false).is_some());
        // One design: nothing to rank.
        assert!(rank_called_directly(&[&a], &[&la], is_peer).is_none());
        // An untimed design needs no loop: the ranking is of the timed ones.
        let mut untimed = timed("c", 1, &rounds);
        untimed.verified = false;
        let with_untimed = [&a, &b, &untimed];
        assert!(rank_called_directly(&with_untimed, &[&la, &lb], is_peer).is_some());
    }
}
