//! Interleaved rounds as plain data: the designs of one cell (family, workload, N) timed
//! together, estimates with intervals, and the paired ratios computed from them.
//!
//! The bench times every design of a cell once per round, in a shuffled order, and records a
//! design's time in round `i` as its `samples_ns_per_op[i]`; every benchmark timed in the same
//! rounds carries the same [`Rounds::session`]. The designs of comparisons the first rounds
//! left open run extra rounds among themselves, so a benchmark may have more samples than
//! others of its session, always rounds `0..len`. Two designs of one session are compared round
//! by round over the rounds both ran: the ratio of their times in round `i` saw the same machine at the same moment, so
//! a burst of other work slows both and cancels. A ratio is summarised by the median of the
//! per-round ratios and a distribution-free 95% interval of that median (order statistics of
//! the binomial, [`median_interval`]), with the share of rounds one side was faster.
//!
//! Rounds in one process share one build of each design's state (its layout in memory, its
//! physical pages), so two runs disagree by more than the rounds' interval says. The bench
//! therefore times a cell as several instances, each a fresh process that builds the designs
//! anew and runs rounds of its own ([`Rounds::instances`]); two designs pair rounds within
//! each instance ([`paired_ratio_in`]). Following Kalibera and Jones, "Rigorous Benchmarking in
//! Reasonable Time" (ISMM 2013), the interval is sized by the level that varies most: it spans
//! both the rounds' interval of the pooled median and a Student-t interval over the instances'
//! own medians (in log space, [`t_975`]), so instances that disagree widen it and instances
//! that agree leave the rounds' interval as it is.
//!
//! [`crate::ranking`] builds on these to rank a cell's designs.

use serde::{Deserialize, Serialize};

/// A median with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub median: f64,
    /// Lower bound of the confidence interval.
    pub lower: f64,
    /// Upper bound of the confidence interval.
    pub upper: f64,
}

/// The confidence of every interval computed here.
pub const CONFIDENCE: f64 = 0.95;

/// The fewest samples whose median has a [`CONFIDENCE`] interval narrower than their range
/// (below it, [`median_interval`] gives the range, and no ranking is called decided).
pub const MIN_ROUNDS: u32 = 6;

/// How a benchmark was timed in interleaved rounds (`Benchmark::rounds`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rounds {
    /// The rounds' identity: benchmarks with the same session were timed in the same rounds,
    /// sample `i` of each in round `i`, and only they are paired.
    pub session: u64,
    /// Body replays per sample (chosen per design so a sample is long enough to time).
    pub iters: u64,
    /// This design over the family's reference design, round by round; `None` for the
    /// reference itself or when the reference was not timed in the session.
    #[serde(default)]
    pub to_reference: Option<PairedRatio>,
    /// This design over the session's fastest design (by [`order_by_paired_ratios`]), round by
    /// round (1 for the fastest itself).
    #[serde(default)]
    pub to_best: Option<PairedRatio>,
    /// Rounds per instance, in the order they ran: each instance built the cell's designs
    /// afresh in a process of its own, so their layout in memory (and what the machine did to
    /// it) is drawn anew, and the samples are these instances' rounds one after another
    /// (`sum == samples_ns_per_op.len()`). Empty: one instance held every round (files
    /// written before instances, `dodbench advise`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instances: Vec<u32>,
}

impl Rounds {
    /// The rounds of `session`, `iters` body replays per sample, `instances` rounds per
    /// instance, before the cell's paired ratios are filled
    /// ([`Results::fill_paired_ratios`](crate::Results::fill_paired_ratios)).
    pub fn new(session: u64, iters: u64, instances: Vec<u32>) -> Self {
        Rounds {
            session,
            iters,
            to_reference: None,
            to_best: None,
            instances,
        }
    }
}

/// One design's time over another's, from the rounds they shared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairedRatio {
    /// The design divided by.
    pub against: String,
    /// Median of the per-round ratios, with its [`CONFIDENCE`] interval.
    pub ratio: Estimate,
    /// Share of rounds in which this design was the faster of the two.
    pub faster_in: f64,
    /// Rounds paired.
    pub rounds: u32,
    /// Instances that paired at least one round ([`Rounds::instances`]); 0 (absent) in files
    /// written before instances, which means one.
    #[serde(default)]
    pub instances: u32,
    /// When the instances disagree beyond their own spread, `(lowest upper, highest lower)`
    /// bound of the instances' own [`CONFIDENCE`] intervals (the first below the second: the
    /// two instances' intervals are disjoint); `None` when every two instances' intervals
    /// overlap, or fewer than two instances paired [`MIN_ROUNDS`] rounds each. See
    /// [`PairedRatio::unstable_about`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances_apart: Option<(f64, f64)>,
}

impl PairedRatio {
    /// Whether the instances answer "is the ratio above `bound`?" both ways: one instance's
    /// own interval lies wholly below `bound` and another's wholly above. Such a ratio is
    /// unstable on this machine: which side it falls on depends on the instance (its layout
    /// in memory, its threads' placement), so no ranking or verdict is decided on it, however
    /// narrow the pooled interval.
    pub fn unstable_about(&self, bound: f64) -> bool {
        self.instances_apart
            .is_some_and(|(lowest_upper, highest_lower)| {
                lowest_upper < bound && bound < highest_lower
            })
    }
}

/// The 0-based ranks `(lo, hi)` of the order statistics bounding a [`CONFIDENCE`] interval of
/// the median of `n` samples: the largest `k` with P(Binomial(n, ½) < k) ≤ (1 − confidence) / 2
/// gives `(k − 1, n − k)`; below 6 samples no such `k` exists and the interval is the range.
fn median_interval_ranks(n: usize) -> (usize, usize) {
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // log P(X = i) for X ~ Binomial(n, 1/2), summed from i = 0 up.
    let mut log_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut cdf = 0.0;
    let mut k = 0;
    for i in 0..n {
        cdf += log_pmf.exp();
        if cdf > tail {
            break;
        }
        k = i + 1;
        log_pmf += ((n - i) as f64 / (i + 1) as f64).ln();
    }
    if k == 0 { (0, n - 1) } else { (k - 1, n - k) }
}

/// The median of `samples` with a distribution-free [`CONFIDENCE`] interval (sorts in place);
/// `None` for no samples.
pub fn median_interval(samples: &mut [f64]) -> Option<Estimate> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    let median = if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2.0
    };
    let (lo, hi) = median_interval_ranks(n);
    Some(Estimate {
        median,
        lower: samples[lo],
        upper: samples[hi],
    })
}

/// One design's per-round times and the rounds of each instance that timed them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Samples<'a> {
    /// Per-round times: instance 0's rounds, then instance 1's, and so on.
    pub values: &'a [f64],
    /// Rounds per instance ([`Rounds::instances`]); empty when one instance ran them all.
    pub instances: &'a [u32],
}

impl<'a> Samples<'a> {
    /// Times that one instance ran, rounds `0..len`.
    pub fn one_instance(values: &'a [f64]) -> Self {
        Self {
            values,
            instances: &[],
        }
    }

    /// Each instance's rounds, in the order they ran. The instances' lengths cut `values`
    /// where they say; when they count more rounds than there are, the last are cut short,
    /// and rounds past their total belong to no instance (a file whose counts disagree with
    /// its samples pairs only what both describe).
    fn per_instance(&self) -> Vec<&'a [f64]> {
        if self.instances.is_empty() {
            return vec![self.values];
        }
        let mut rest = self.values;
        self.instances
            .iter()
            .map(|&len| {
                let (head, tail) = rest.split_at((len as usize).min(rest.len()));
                rest = tail;
                head
            })
            .collect()
    }
}

/// Two-sided [`CONFIDENCE`] quantile of Student's t with `df` degrees of freedom (the `t` of
/// a 95% interval of a mean of `df + 1` values): exact to three decimals up to 30, the
/// Cornish-Fisher expansion around the normal quantile beyond (within 0.0001 of the exact
/// value there); infinite for 0.
pub fn t_975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if let Some(&t) = T.get(df - 1) {
        return t;
    }
    // The normal quantile of 0.975 plus the first four terms of the expansion in 1/df.
    let z: f64 = 1.959_963_984_540_054;
    let v = df as f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        + (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / (92160.0 * v.powi(4))
}

/// `a` over `b` round by round (`a[i] / b[i]`) over the rounds both ran (the first of them:
/// a design that stayed for extra rounds has more samples than one that did not), against
/// `against`; `None` when either has none or a time is not positive. The rounds of one
/// instance: [`paired_ratio_in`] with no instances.
pub fn paired_ratio(a: &[f64], b: &[f64], against: &str) -> Option<PairedRatio> {
    paired_ratio_in(Samples::one_instance(a), Samples::one_instance(b), against)
}

/// `a` over `b` round by round, each instance's rounds paired within it (instance `k`'s
/// first `min(len_a, len_b)` rounds: a design may leave an instance early or stay for extra
/// rounds), against `against`; `None` when no round pairs or a paired time is not positive.
///
/// The point is the median of every paired ratio, pooled over the instances. The interval
/// spans the pooled ratios' distribution-free interval ([`median_interval`]) and, when at
/// least two instances paired rounds, the Student-t interval over instances in log space:
/// `ln(pooled median) ± t_975(K − 1) · sd(m) / √K`, with `m_k` the log of instance `k`'s
/// median ratio and `sd` the sample standard deviation of the `K` values.
pub fn paired_ratio_in(a: Samples<'_>, b: Samples<'_>, against: &str) -> Option<PairedRatio> {
    let pairs: Vec<(&[f64], &[f64])> = a
        .per_instance()
        .into_iter()
        .zip(b.per_instance())
        .map(|(a, b)| {
            let both = a.len().min(b.len());
            (&a[..both], &b[..both])
        })
        .filter(|(a, _)| !a.is_empty())
        .collect();
    let positive = |t: &f64| !t.is_nan() && *t > 0.0;
    if pairs.is_empty()
        || !pairs
            .iter()
            .all(|(a, b)| a.iter().chain(b.iter()).all(positive))
    {
        return None;
    }
    let ratios_of = |(a, b): &(&[f64], &[f64])| -> Vec<f64> {
        a.iter().zip(b.iter()).map(|(x, y)| x / y).collect()
    };
    let mut pooled: Vec<f64> = pairs.iter().flat_map(ratios_of).collect();
    let faster = pairs
        .iter()
        .flat_map(|(a, b)| a.iter().zip(b.iter()))
        .filter(|(x, y)| x < y)
        .count();
    let rounds = pooled.len();
    let mut ratio = median_interval(&mut pooled)?;
    let per_instance: Vec<Estimate> = pairs
        .iter()
        .filter_map(|pair| median_interval(&mut ratios_of(pair)))
        .collect();
    let instance_logs: Vec<f64> = per_instance.iter().map(|e| e.median.ln()).collect();
    let settled: Vec<&Estimate> = pairs
        .iter()
        .zip(&per_instance)
        .filter(|((a, _), _)| a.len() >= MIN_ROUNDS as usize)
        .map(|(_, e)| e)
        .collect();
    let lowest_upper = settled
        .iter()
        .map(|e| e.upper)
        .fold(f64::INFINITY, f64::min);
    let highest_lower = settled
        .iter()
        .map(|e| e.lower)
        .fold(f64::NEG_INFINITY, f64::max);
    let instances_apart = (settled.len() >= 2 && lowest_upper < highest_lower)
        .then_some((lowest_upper, highest_lower));
    if let Some(half) = t_half_width(&instance_logs) {
        let centre = ratio.median.ln();
        ratio.lower = ratio.lower.min((centre - half).exp());
        ratio.upper = ratio.upper.max((centre + half).exp());
    }
    Some(PairedRatio {
        against: against.to_string(),
        ratio,
        faster_in: faster as f64 / rounds as f64,
        rounds: rounds as u32,
        instances: pairs.len() as u32,
        instances_apart,
    })
}

/// Half the width of the [`CONFIDENCE`] Student-t interval of the mean of `values`
/// (`t_975(K − 1) · sd / √K`); `None` below two values.
fn t_half_width(values: &[f64]) -> Option<f64> {
    let k = values.len();
    if k < 2 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / k as f64;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
    Some(t_975(k - 1) * (variance / k as f64).sqrt())
}

/// Orders contestants fastest first by their paired ratios (`ratio(a, b)`: `a`'s time over
/// `b`'s, the median of their per-round ratios where they shared rounds), starting from
/// `order`, a first guess (by median time): the first is the anchor, every other is keyed by
/// its ratio to the anchor and sorted; when one keys below 1 (faster than the anchor round by
/// round) it becomes the anchor and the keys are taken again, at most once per contestant.
///
/// A median time alone can name the wrong winner on a busy machine: as other work comes and
/// goes, a cell's samples take either about their quiet time or twice it, so a design whose
/// samples fell in the quiet spells can have the lower median while another is faster round by
/// round (`boxed_nodes` and `fixed` on `tags-visit-all-fragmented` at 1,000 objects, which
/// quiet runs rank `fixed` first; the case is
/// `ranking::tests::the_winner_is_the_faster_round_by_round_not_by_median`).
pub fn order_by_paired_ratios(order: &mut [usize], ratio: impl Fn(usize, usize) -> f64) {
    for _ in 0..order.len() {
        let Some(&anchor) = order.first() else {
            return;
        };
        let key = |i: usize| if i == anchor { 1.0 } else { ratio(i, anchor) };
        let mut keyed: Vec<(f64, usize)> = order.iter().map(|&i| (key(i), i)).collect();
        // Stable: the anchor stays ahead of a contestant its ratio ties.
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (slot, (_, i)) in order.iter_mut().zip(keyed) {
            *slot = i;
        }
        if order[0] == anchor {
            return;
        }
    }
}

/// The contestants of one session, each given by its per-round times (rounds `0..len`),
/// fastest first: by median time, then [`order_by_paired_ratios`] over the rounds each two
/// shared. Contestants with no samples are left out.
pub fn fastest_first(samples: &[&[f64]]) -> Vec<usize> {
    let samples: Vec<Samples<'_>> = samples.iter().map(|s| Samples::one_instance(s)).collect();
    fastest_first_in(&samples)
}

/// [`fastest_first`] over contestants timed in instances: two contestants' rounds pair within
/// each instance ([`paired_ratio_in`]), so one that left an instance early does not pair its
/// later instances' rounds with another's earlier ones.
pub fn fastest_first_in(samples: &[Samples<'_>]) -> Vec<usize> {
    let mut by_median: Vec<(f64, usize)> = samples
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((median_interval(&mut s.values.to_vec())?.median, i)))
        .collect();
    by_median.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut order: Vec<usize> = by_median.into_iter().map(|(_, i)| i).collect();
    order_by_paired_ratios(&mut order, |a, b| {
        paired_ratio_in(samples[a], samples[b], "").map_or(f64::INFINITY, |p| p.ratio.median)
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_interval_uses_binomial_order_statistics() {
        // n = 10: P(X <= 1) = 11/1024 < 0.025 < P(X <= 2) = 56/1024, so k = 2: [x(2), x(9)].
        assert_eq!(median_interval_ranks(10), (1, 8));
        // n = 30: the textbook k = 10 ([x(10), x(21)], 95.7%).
        assert_eq!(median_interval_ranks(30), (9, 20));
        // Fewer than 6 samples: the range.
        assert_eq!(median_interval_ranks(5), (0, 4));
        assert_eq!(median_interval_ranks(1), (0, 0));
        let mut s: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        let e = median_interval(&mut s).unwrap();
        assert_eq!((e.median, e.lower, e.upper), (5.5, 2.0, 9.0));
        assert!(median_interval(&mut []).is_none());
    }

    /// Contestant 0 has the lowest median but is slower than 1 in every round they share (the
    /// rounds were fast while 0 ran alone); 1 is first, and the rest follow by their ratio to it.
    #[test]
    fn contestants_are_ordered_by_their_ratios_round_by_round() {
        let samples: [&[f64]; 3] = [
            &[1.0, 1.0, 1.0, 2.0, 2.0],
            &[0.55, 0.6, 0.5, 1.2, 1.1],
            &[1.4, 1.6, 1.5, 3.0, 3.2],
        ];
        let ratio = |a: usize, b: usize| {
            paired_ratio(samples[a], samples[b], "")
                .unwrap()
                .ratio
                .median
        };
        let mut order = vec![0, 2, 1];
        order_by_paired_ratios(&mut order, ratio);
        assert_eq!(order, [1, 0, 2]);
        // An order the ratios already agree with is kept.
        order_by_paired_ratios(&mut order, ratio);
        assert_eq!(order, [1, 0, 2]);
        let mut none: Vec<usize> = Vec::new();
        order_by_paired_ratios(&mut none, ratio);
        assert!(none.is_empty());
        assert_eq!(fastest_first(&samples), [1, 0, 2]);
        assert_eq!(fastest_first(&[&[], samples[2], samples[0]]), [2, 1]);
    }

    /// Two contestants timed in two instances, the second one 10 times faster for both; `b`
    /// left the first instance after one round. Paired within each instance, `a` is 10%
    /// faster in every round; paired by position, `a`'s first instance would meet `b`'s second.
    #[test]
    fn contestants_in_instances_are_ordered_by_rounds_of_the_same_instance() {
        let a = [10.0, 10.0, 10.0, 1.0, 1.0, 1.0];
        let b = [11.0, 1.1, 1.1, 1.1];
        let in_instances = [
            Samples {
                values: &a,
                instances: &[3, 3],
            },
            Samples {
                values: &b,
                instances: &[1, 3],
            },
        ];
        assert_eq!(fastest_first_in(&in_instances), [0, 1]);
        assert_eq!(
            fastest_first(&[&a, &b]),
            [1, 0],
            "by position, as one instance"
        );
    }

    #[test]
    fn intervals_narrow_as_rounds_grow() {
        let (lo100, hi100) = median_interval_ranks(100);
        let (lo1000, hi1000) = median_interval_ranks(1000);
        assert!(
            (hi100 - lo100) as f64 / 100.0 > (hi1000 - lo1000) as f64 / 1000.0,
            "{lo100}..{hi100} vs {lo1000}..{hi1000}"
        );
        // Large n keeps to the normal approximation's ~n/2 ± 1.96·√n/2.
        assert_eq!(lo1000, 468, "x(469), 1-based");
    }

    #[test]
    fn a_shared_burst_cancels_in_the_paired_ratio() {
        // b is 2x a in every round, while the rounds' absolute times swing 10x.
        let a = [1.0, 10.0, 1.0, 5.0, 1.0, 1.0, 8.0, 1.0];
        let b: Vec<f64> = a.iter().map(|t| t * 2.0).collect();
        let r = paired_ratio(&b, &a, "a").unwrap();
        assert_eq!(
            (r.ratio.median, r.ratio.lower, r.ratio.upper),
            (2.0, 2.0, 2.0)
        );
        assert_eq!(r.faster_in, 0.0);
        assert_eq!(r.rounds, 8);
        // Extra rounds of one side are left out: the first three rounds pair.
        let extra = paired_ratio(&b, &a[..3], "a").unwrap();
        assert_eq!((extra.rounds, extra.ratio.median), (3, 2.0));
        assert!(paired_ratio(&b, &[], "a").is_none());
        assert!(paired_ratio(&[0.0], &[1.0], "a").is_none());
    }

    /// The pairing before instances: rounds `0..min(len)` in one sequence.
    fn paired_ratio_in_one_sequence(a: &[f64], b: &[f64]) -> Option<(Estimate, f64, u32)> {
        let both = a.len().min(b.len());
        let (a, b) = (&a[..both], &b[..both]);
        if both == 0 || a.iter().chain(b).any(|&t| t.is_nan() || t <= 0.0) {
            return None;
        }
        let mut ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
        let faster = a.iter().zip(b).filter(|(x, y)| x < y).count();
        Some((
            median_interval(&mut ratios)?,
            faster as f64 / both as f64,
            both as u32,
        ))
    }

    #[test]
    fn one_instance_pairs_as_one_sequence_of_rounds() {
        let a = [3.0, 1.5, 2.2, 9.0, 1.1, 2.0, 2.5, 1.9, 3.3, 2.8, 2.1];
        let b = [2.0, 1.7, 2.0, 4.0, 1.0, 2.4, 2.2, 2.0, 3.0, 2.6];
        for (x, y) in [(&a[..], &b[..]), (&b[..], &a[..]), (&a[..4], &b[..])] {
            let (ratio, faster_in, rounds) = paired_ratio_in_one_sequence(x, y).unwrap();
            let expected = PairedRatio {
                against: "b".into(),
                ratio,
                faster_in,
                rounds,
                instances: 1,
                instances_apart: None,
            };
            assert_eq!(paired_ratio(x, y, "b").as_ref(), Some(&expected));
            // One instance named explicitly is the same as none named.
            let (lx, ly) = ([x.len() as u32], [y.len() as u32]);
            let named = paired_ratio_in(
                Samples {
                    values: x,
                    instances: &lx,
                },
                Samples {
                    values: y,
                    instances: &ly,
                },
                "b",
            );
            assert_eq!(named, Some(expected));
        }
        assert!(paired_ratio_in_one_sequence(&a, &[]).is_none());
        assert!(paired_ratio(&a, &[], "b").is_none());
    }

    #[test]
    fn rounds_pair_within_each_instance() {
        // Instance 0: `a` ran 3 rounds, `b` 2; instance 1: nothing of `a`; instance 2: `a` 2,
        // `b` 4. The paired ratios are 1, 2 | 3, 4; the unpaired rounds (100, 1000) would
        // show in any pairing across instances.
        let a = Samples {
            values: &[1.0, 2.0, 100.0, 3.0, 4.0],
            instances: &[3, 0, 2],
        };
        let b = Samples {
            values: &[1.0, 1.0, 1000.0, 1.0, 1.0, 1000.0, 1000.0],
            instances: &[2, 1, 4],
        };
        let p = paired_ratio_in(a, b, "b").unwrap();
        assert_eq!((p.rounds, p.instances), (4, 2));
        assert_eq!(p.ratio.median, 2.5);
        assert_eq!(p.faster_in, 0.0);
        // The other way round: the same rounds pair.
        let q = paired_ratio_in(b, a, "a").unwrap();
        assert_eq!((q.rounds, q.instances), (4, 2));
        assert!(
            (q.ratio.median - 5.0 / 12.0).abs() < 1e-12,
            "median of 1/4, 1/3, 1/2, 1"
        );
        assert_eq!(q.faster_in, 0.75);
        // A non-positive time in an unpaired round does not matter; in a paired one it does.
        let holed = Samples {
            values: &[1.0, 2.0, 0.0, 3.0, 4.0],
            instances: &[3, 0, 2],
        };
        assert!(paired_ratio_in(holed, b, "b").is_some());
        let holed = Samples {
            values: &[1.0, 0.0, 100.0, 3.0, 4.0],
            instances: &[3, 0, 2],
        };
        assert!(paired_ratio_in(holed, b, "b").is_none());
        // Counts beyond the samples are cut short.
        let short = Samples {
            values: &[1.0, 2.0],
            instances: &[3, 2],
        };
        let p = paired_ratio_in(short, b, "b").unwrap();
        assert_eq!((p.rounds, p.instances), (2, 1));
    }

    /// `n` rounds of each instance whose ratio to `b = 1` sits within ±0.5% of `median`.
    fn instances_around(medians: &[f64], n: usize) -> (Vec<f64>, Vec<u32>) {
        let spread = |i: usize| 1.0 + 0.01 * (i as f64 / (n - 1) as f64 - 0.5);
        let values = medians
            .iter()
            .flat_map(|m| (0..n).map(move |i| m * spread(i)))
            .collect();
        (values, vec![n as u32; medians.len()])
    }

    fn pooled_interval(values: &[f64]) -> Estimate {
        median_interval(&mut values.to_vec()).unwrap()
    }

    #[test]
    fn instances_that_disagree_widen_the_interval() {
        let (values, instances) = instances_around(&[1.0, 1.1, 1.2], 10);
        let p = over_ones(&values, &instances);
        let pooled = pooled_interval(&values);
        assert_eq!((p.rounds, p.instances), (30, 3));
        assert_eq!(p.ratio.median, pooled.median);
        // ln(1.1) ± 4.303 · sd(ln 1, ln 1.1, ln 1.2) / √3: about 0.88 to 1.38.
        assert!(p.ratio.lower < 0.9 && p.ratio.lower > 0.85, "{:?}", p.ratio);
        assert!(p.ratio.upper > 1.3 && p.ratio.upper < 1.45, "{:?}", p.ratio);
        assert!(p.ratio.lower < pooled.lower && p.ratio.upper > pooled.upper);
        // The same rounds as one instance keep the rounds' interval.
        let one = paired_ratio(&values, &vec![1.0; values.len()], "b").unwrap();
        assert_eq!(one.ratio, pooled);
        assert_eq!(one.instances, 1);
    }

    #[test]
    fn instances_that_agree_keep_the_rounds_interval() {
        // Medians 0.1% apart, rounds spread ±0.5%: the instances' t interval lies within the
        // pooled rounds' interval.
        let (values, instances) = instances_around(&[1.0, 1.001, 0.999, 1.0], 12);
        let p = over_ones(&values, &instances);
        assert_eq!(p.instances, 4);
        assert_eq!(p.ratio, pooled_interval(&values));
    }

    /// `values` over ones, paired within `instances`.
    fn over_ones(values: &[f64], instances: &[u32]) -> PairedRatio {
        let ones = vec![1.0; values.len()];
        let samples = |values| Samples { values, instances };
        paired_ratio_in(samples(values), samples(&ones), "b").unwrap()
    }

    #[test]
    fn instances_that_answer_both_ways_are_unstable_about_the_bound_between_them() {
        // Five instances put the ratio at 1.3, one at 0.98: the pooled interval lies above 1,
        // yet one instance's own interval lies wholly below it.
        let (values, instances) = instances_around(&[0.98, 1.3, 1.3, 1.3, 1.3, 1.3], 10);
        let p = over_ones(&values, &instances);
        assert!(p.ratio.lower > 1.0, "{:?}", p.ratio);
        let (lowest_upper, highest_lower) = p.instances_apart.unwrap();
        // Within each instance's ±0.5% spread of its own median.
        assert!(
            (0.98..0.98 * 1.005).contains(&lowest_upper),
            "{lowest_upper}"
        );
        assert!(
            (1.3 * 0.995..1.3).contains(&highest_lower),
            "{highest_lower}"
        );
        assert!(p.unstable_about(1.0));
        // Every instance puts the ratio below 1.5 and above 0.9: those sides are stable.
        assert!(!p.unstable_about(1.5) && !p.unstable_about(0.9));
        // Instances whose intervals overlap are not apart.
        let (values, instances) = instances_around(&[1.0, 1.001, 0.999, 1.0], 12);
        assert_eq!(over_ones(&values, &instances).instances_apart, None);
        // An instance with fewer than MIN_ROUNDS rounds has no interval of its own to compare.
        let (values, instances) = instances_around(&[0.98, 1.3], (MIN_ROUNDS - 1) as usize);
        assert_eq!(over_ones(&values, &instances).instances_apart, None);
    }

    #[test]
    fn t_quantiles_are_exact_to_30_degrees_and_approach_the_normal() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(2), 4.303);
        assert_eq!(t_975(10), 2.228);
        assert_eq!(t_975(30), 2.042);
        assert!(t_975(0).is_infinite());
        // Reference values of the 0.975 quantile.
        for (df, exact) in [(31, 2.0395), (40, 2.0211), (60, 2.0003), (120, 1.9799)] {
            assert!((t_975(df) - exact).abs() < 1e-4, "df {df}: {}", t_975(df));
        }
        assert!((t_975(1_000_000) - 1.959_964).abs() < 1e-5);
        assert!((1..500).all(|df| t_975(df + 1) < t_975(df)), "decreasing");
    }

    #[test]
    fn a_paired_ratio_without_instances_reads_as_zero() {
        let json = r#"{"against":"b","ratio":{"median":1.0,"lower":0.9,"upper":1.1},
                       "faster_in":0.5,"rounds":10}"#;
        let p: PairedRatio = serde_json::from_str(json).unwrap();
        assert_eq!(p.instances, 0);
    }
}
