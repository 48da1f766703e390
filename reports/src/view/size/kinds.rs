//! The best of each kind of design in a cell (article, tuned, peer, external) for the "which
//! design" row, with the peers set against our designs by contract: the peer named is the
//! fastest that guarantees what our fastest design does (`DesignRecord::contract_gaps`), and a
//! faster peer that guarantees less follows it, marked with what it skips.

use results::standing::{best_of_ours, peer_of_contract};
use results::{Benchmark, Ranking, Results};

use crate::view::KindBest;
use crate::view::ratio;
use crate::view::style::kind_of;

/// The kinds [`best_by_kind`] reports, in the order the summary lists them.
const KINDS: [&str; 4] = ["article", "tuned", "peer", "external"];

/// The fastest of each kind in `ranking`, with its time over the winner's. The peer is the
/// fastest whose contract is our best design's (or any peer, when none of ours was timed); a
/// faster peer with a weaker contract follows it, with what it skips.
pub(super) fn best_by_kind(results: &Results, ranking: &Ranking<'_>) -> Vec<KindBest> {
    let ours = best_of_ours(results, ranking);
    let entry = |b: &Benchmark, kind: &str, weaker: Vec<&str>| {
        Some(KindBest {
            kind: kind.to_string(),
            design: b.design.clone(),
            ratio: ratio::to_best(b, ranking.winner())?.cell(),
            weaker: weaker.join("; "),
        })
    };
    let mut out = Vec::new();
    for kind in KINDS {
        let mut of_kind = ranking.order.iter().filter(|b| kind_of(results, b) == kind);
        if kind != "peer" {
            out.extend(of_kind.next().and_then(|b| entry(b, kind, Vec::new())));
            continue;
        }
        let fastest = of_kind.next();
        let same = peer_of_contract(results, ranking, ours);
        out.extend(same.and_then(|b| entry(b, kind, Vec::new())));
        if let Some(b) = fastest.filter(|b| same.is_none_or(|s| s.design != b.design)) {
            out.extend(entry(b, "peer", weaker_than(results, b, ours)));
        }
    }
    out
}

/// What `b`'s design does not guarantee that `ours` does (nothing without `ours`, or for a
/// design missing from `results.designs`).
pub(super) fn weaker_than<'r>(
    results: &'r Results,
    b: &Benchmark,
    ours: Option<&Benchmark>,
) -> Vec<&'r str> {
    let (Some(mine), Some(theirs)) = (
        results.design_record(b),
        ours.and_then(|o| results.design_record(o)),
    ) else {
        return Vec::new();
    };
    mine.gaps_beyond(theirs)
}

#[cfg(test)]
mod tests {
    use crate::view::test_runs::criterion_timed;

    #[test]
    fn the_best_peer_is_the_fastest_with_our_contract_and_a_weaker_one_is_marked() {
        let mut run = criterion_timed(&[
            ("slab", 1.0),
            ("slotmap", 1.5),
            ("holey", 2.0),
            ("map-hash", 3.0),
        ]);
        let record = |name: &str, kind: &str, gaps: &[&str]| {
            results::DesignRecord::new(results::Family::IdTable, name, kind).with_gaps(gaps)
        };
        run.designs = vec![
            record("holey", "article", &[]),
            record("map-hash", "article", &[]),
            record("slab", "peer", &["detects no stale ID"]),
            record("slotmap", "peer", &[]),
        ];
        let v = crate::view::build(&[run], "t", None, None).unwrap().0;
        let summary = &v.summary[0];
        assert_eq!(summary.winner, "slab");
        assert_eq!(summary.winner_weaker, "detects no stale ID");
        let kinds: Vec<(&str, &str, &str, &str)> = summary
            .best_by_kind
            .iter()
            .map(|k| {
                (
                    k.kind.as_str(),
                    k.design.as_str(),
                    k.ratio.as_str(),
                    k.weaker.as_str(),
                )
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("article", "holey", "2.00×", ""),
                ("peer", "slotmap", "1.50×", ""),
                ("peer", "slab", "1.00×", "detects no stale ID"),
            ]
        );
    }
}
