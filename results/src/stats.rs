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

/// `a` over `b` round by round (`a[i] / b[i]`) over the rounds both ran (the first of them:
/// a design that stayed for extra rounds has more samples than one that did not), against
/// `against`; `None` when either has none or a time is not positive.
pub fn paired_ratio(a: &[f64], b: &[f64], against: &str) -> Option<PairedRatio> {
    let both = a.len().min(b.len());
    let (a, b) = (&a[..both], &b[..both]);
    if both == 0 || a.iter().chain(b).any(|&t| t.is_nan() || t <= 0.0) {
        return None;
    }
    let mut ratios: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    let faster = a.iter().zip(b).filter(|(x, y)| x < y).count();
    Some(PairedRatio {
        against: against.to_string(),
        ratio: median_interval(&mut ratios)?,
        faster_in: faster as f64 / a.len() as f64,
        rounds: a.len() as u32,
    })
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
    let mut by_median: Vec<(f64, usize)> = samples
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((median_interval(&mut s.to_vec())?.median, i)))
        .collect();
    by_median.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut order: Vec<usize> = by_median.into_iter().map(|(_, i)| i).collect();
    order_by_paired_ratios(&mut order, |a, b| {
        paired_ratio(samples[a], samples[b], "").map_or(f64::INFINITY, |p| p.ratio.median)
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
}
