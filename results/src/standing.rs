//! Where our fastest design stands against the crates in one cell: the fastest of our designs
//! (article or tuned) over the fastest peer that guarantees as much
//! ([`crate::DesignRecord::guarantees_as_much_as`]), paired round by round, and, where ours is
//! decidedly behind, what the run's deterministic counts say about why.
//!
//! A peer with a weaker contract (it detects no stale ID, lets a job write only its own unit)
//! is left out: its lead is bought with a guarantee ours keeps, and the report marks it where
//! it wins. Everything here is computed from the run; nothing is typed per cell.

use crate::ranking::{Gap, Ranking, rank};
use crate::schema::{Benchmark, Results};
use crate::stats::PairedRatio;

/// Which side of the best same-contract peer our best design is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// Ours at most the peer's time (the median of the paired ratios, else of the medians).
    Ahead,
    /// Ours slower at the median, but the interval of the ratio holds 1 (or the instances
    /// answer both ways): the two cannot be told apart on this machine.
    Level,
    /// Ours slower, and the interval lies above 1 (or no paired rounds, and the medians say so).
    Behind,
}

impl Side {
    /// The side in words, as the report's filters and tables name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ahead => "ahead",
            Self::Level => "level",
            Self::Behind => "behind",
        }
    }
}

/// Our best design against the best peer with its contract in one cell.
#[derive(Debug, Clone)]
pub struct Standing<'a> {
    /// The fastest of our designs (article or tuned) in the cell's ranking.
    pub ours: &'a Benchmark,
    /// The fastest peer whose contract is at least ours'.
    pub peer: &'a Benchmark,
    /// Ours ÷ peer: the median of the paired per-round ratios, else the ratio of medians,
    /// with the paired comparison when they shared rounds.
    pub gap: Gap,
    /// Which side of the peer ours is.
    pub side: Side,
    /// Where ours is [`Side::Behind`]: what the counts of the run say about it ([`why`]).
    pub why: String,
}

/// The standing of `cell` (the designs of one family, workload and N, as
/// [`crate::ranking::cells`] groups them) in `run`; `None` when the cell has no timed design
/// of ours or no timed peer with our best design's contract. [`standing_in`] for a cell
/// already ranked.
pub fn standing<'a>(run: &'a Results, cell: &[&'a Benchmark]) -> Option<Standing<'a>> {
    standing_in(run, &rank(cell)?)
}

/// The standing of the cell `ranking` orders ([`standing`]).
pub fn standing_in<'a>(run: &'a Results, ranking: &Ranking<'a>) -> Option<Standing<'a>> {
    let ours = best_of_ours(run, ranking)?;
    let peer = peer_of_contract(run, ranking, Some(ours))?;
    let paired = crate::ranking::paired(ours, peer);
    let median = |b: &Benchmark| b.ns_per_op.map_or(f64::INFINITY, |e| e.median);
    let gap = Gap {
        ratio: paired
            .as_ref()
            .map_or(median(ours) / median(peer), |p| p.ratio.median),
        paired,
    };
    let side = side_of(&gap);
    let why = if side == Side::Behind {
        why(run, ours, peer)
    } else {
        String::new()
    };
    Some(Standing {
        ours,
        peer,
        gap,
        side,
        why,
    })
}

/// The fastest of our designs (article or tuned) in `ranking`.
pub fn best_of_ours<'a>(run: &Results, ranking: &Ranking<'a>) -> Option<&'a Benchmark> {
    ranking.order.iter().copied().find(|b| {
        run.design_record(b)
            .is_some_and(|d| matches!(d.kind.as_str(), "article" | "tuned"))
    })
}

/// The fastest peer in `ranking` that guarantees as much as `ours`
/// ([`crate::DesignRecord::guarantees_as_much_as`]); any peer without `ours` or its record.
pub fn peer_of_contract<'a>(
    run: &Results,
    ranking: &Ranking<'a>,
    ours: Option<&Benchmark>,
) -> Option<&'a Benchmark> {
    let our_record = ours.and_then(|o| run.design_record(o));
    ranking.order.iter().copied().find(|b| {
        run.design_record(b).is_some_and(|d| {
            d.kind == "peer" && our_record.is_none_or(|o| d.guarantees_as_much_as(o))
        })
    })
}

/// [`Side::Ahead`] at a ratio of at most 1; above it, [`Side::Behind`] when the paired interval
/// decides it ([`Gap::decided`], or the medians alone without paired rounds), else
/// [`Side::Level`].
fn side_of(gap: &Gap) -> Side {
    if gap.ratio <= 1.0 {
        Side::Ahead
    } else if gap.decided() == Some(false) {
        Side::Level
    } else {
        Side::Behind
    }
}

impl Standing<'_> {
    /// The standing in words: `intrusive_2idx_open behind hashbrown_smallvec: 1.042× [1.030,
    /// 1.059] over 18 rounds in 3 instances`, then [`Self::why`] where behind.
    pub fn describe(&self) -> String {
        let against = |p: &PairedRatio| {
            format!(
                "{:.3}× [{:.3}, {:.3}] over {}",
                p.ratio.median,
                p.ratio.lower,
                p.ratio.upper,
                p.rounds_in_words()
            )
        };
        let ratio = self.gap.paired.as_ref().map_or_else(
            || format!("{:.2}× (no paired rounds)", self.gap.ratio),
            against,
        );
        let words = match self.side {
            Side::Ahead => "ahead of",
            Side::Level => "cannot be told apart from",
            Side::Behind => "behind",
        };
        let mut out = format!("{} {words} {}: {ratio}", self.ours.design, self.peer.design);
        if !self.why.is_empty() {
            out.push_str("; ");
            out.push_str(&self.why);
        }
        out
    }
}

/// What the run's deterministic counts say about `ours` being behind `peer`: their simulated
/// instructions and cache misses per work unit (`dodbench cache`) in this cell, else at the
/// nearest size of the workload where both were counted, and their allocator calls per work
/// unit where ours makes more. Which of these decides the time is not something the counts
/// can say; they say where the two differ, and where they do not.
pub fn why(run: &Results, ours: &Benchmark, peer: &Benchmark) -> String {
    let counted = |n: u64| {
        let at = |design: &str| {
            run.benchmarks
                .iter()
                .find(|b| {
                    b.family == ours.family
                        && b.workload == ours.workload
                        && b.n == n
                        && b.design == design
                })
                .and_then(|b| b.sim.as_ref())
        };
        Some((n, at(&ours.design)?, at(&peer.design)?))
    };
    let mut sizes: Vec<u64> = run
        .benchmarks
        .iter()
        .filter(|b| b.family == ours.family && b.workload == ours.workload && b.sim.is_some())
        .map(|b| b.n)
        .collect();
    sizes.sort_by_key(|&n| (n.abs_diff(ours.n), n));
    sizes.dedup();
    let mut parts = Vec::new();
    match sizes.into_iter().find_map(counted) {
        None => parts.push(format!(
            "not counted: no simulated counts of both on this workload (`dodbench cache \
             --behind` counts every such cell, `dodbench cache --family {} --workload {} \
             --design {} --design {} --n {}` this one)",
            ours.family, ours.workload, ours.design, peer.design, ours.n
        )),
        Some((n, o, p)) => {
            let at = if n == ours.n {
                String::new()
            } else {
                format!(" (counted at N = {n})")
            };
            let more = |a: f64, b: f64| a > b * 1.02 + 1e-3;
            let pair = |a: f64, b: f64| format!("{} against {}", count(a), count(b));
            let more_work = more(o.ir, p.ir);
            parts.push(if more_work {
                format!(
                    "it runs {:.0}% more simulated instructions per work unit ({}){at}",
                    (o.ir / p.ir - 1.0) * 100.0,
                    pair(o.ir, p.ir)
                )
            } else {
                format!(
                    "it runs no more simulated instructions per work unit ({}){at}",
                    pair(o.ir, p.ir)
                )
            });
            let misses = [("D1", o.d1_miss, p.d1_miss), ("LL", o.ll_miss, p.ll_miss)];
            let worse: Vec<String> = misses
                .iter()
                .filter(|(_, a, b)| more(*a, *b))
                .map(|(level, a, b)| format!("{level} {}", pair(*a, *b)))
                .collect();
            parts.push(match (worse.is_empty(), more_work) {
                (false, _) => format!("it misses more per work unit: {}", worse.join(", ")),
                (true, true) => format!(
                    "it misses the simulated caches no more (D1 {}, LL {})",
                    pair(o.d1_miss, p.d1_miss),
                    pair(o.ll_miss, p.ll_miss)
                ),
                (true, false) => format!(
                    "it misses the simulated caches no more (D1 {}, LL {}): the gap is in what \
                     the simulation does not count (branch prediction, how many misses overlap)",
                    pair(o.d1_miss, p.d1_miss),
                    pair(o.ll_miss, p.ll_miss)
                ),
            });
        }
    }
    if let (Some(o), Some(p)) = (ours.alloc_calls_per_op, peer.alloc_calls_per_op)
        && o > p + 0.01
    {
        parts.push(format!(
            "it calls the allocator {} times per work unit, the peer {}",
            count(o),
            count(p)
        ));
    }
    parts.join("; ")
}

/// A count per work unit in words: three significant figures, no exponent.
fn count(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

#[cfg(test)]
mod tests;
