use super::*;
use crate::claim::{Claim, Metric, Operand, Quantity, Rule, Sizes};
use crate::family::Family;
use crate::machine::Machine;
use crate::schema::Status;
use crate::stats::{PairedRatio, Rounds, median_interval};

fn run(times: &[(&str, &[f64])]) -> Results {
    let machine = Machine::test_box("box");
    let mut r = Results::empty(machine, "c".into(), "t".into(), 1, "quick");
    for (design, samples) in times {
        let mut b = Benchmark::new(Family::IdTable, "churn", design, 1000, 1);
        b.verified = true;
        b.status = Status::Verified;
        b.ns_per_op = median_interval(&mut samples.to_vec());
        b.samples_ns_per_op = samples.to_vec();
        b.rounds = Some(Rounds::new(1, 1, Vec::new()));
        r.benchmarks.push(b);
    }
    r
}

#[test]
fn identical_ratios_resolve_to_zero_and_a_flipped_winner_is_named() {
    let a = run(&[
        ("holey", &[10.0, 20.0, 10.0]),
        ("pool", &[5.0, 10.0, 5.0]),
        ("slab", &[8.0, 16.0, 8.0]),
    ]);
    // Twice as slow everywhere: ratios are the same, so nothing differs.
    let b = run(&[
        ("holey", &[20.0, 40.0, 20.0]),
        ("pool", &[10.0, 20.0, 10.0]),
        ("slab", &[16.0, 32.0, 16.0]),
    ]);
    let same = agreement(&a, &b);
    assert_eq!(same.compared, 2);
    assert_eq!(same.paired, 2);
    assert!(same.resolution.abs() < 1e-12);
    assert_eq!((same.decisive_cells, same.same_winner), (1, 1));

    let flipped = run(&[
        ("holey", &[10.0, 20.0, 10.0]),
        ("pool", &[9.0, 18.0, 9.0]),
        ("slab", &[4.0, 8.0, 4.0]),
    ]);
    let d = agreement(&a, &flipped);
    assert_eq!((d.decisive_cells, d.same_winner), (1, 0));
    assert_eq!(d.disagreements, ["id_table/churn/1000: pool vs slab"]);
    // pool 0.5 -> 0.9 and slab 0.8 -> 0.4: the 95th percentile is the larger, 2x.
    assert!((d.resolution - 1.0).abs() < 1e-9, "{}", d.resolution);
    assert!(d.render("a", "b").contains("same winner in 0 of 1 cells"));
}

#[test]
fn loop_overheads_are_split_into_our_designs_and_peers() {
    let mut a = run(&[("holey", &[10.0]), ("slab", &[8.0])]);
    a.designs = ["holey", "slab"]
        .into_iter()
        .map(|name| {
            let mut d = crate::schema::DesignRecord::new(Family::IdTable, name, "tuned");
            d.idiom = (name == "slab").then(|| "Slab::get".to_string());
            d
        })
        .collect();
    for (design, overhead) in [("holey", 1.01), ("holey", 0.90), ("slab", 1.30)] {
        let mut l = Benchmark::new(Family::Reference, "churn", "loop", 1000, 1);
        l.mirrors = Some(design.into());
        l.overhead = Some(overhead);
        a.benchmarks.push(l);
    }
    let o = agreement(&a, &a).overheads[0];
    assert_eq!(o.own, Some((0.90, 1.01)));
    assert_eq!(o.own_within, (1, 2));
    assert_eq!(o.peers, Some((1.30, 1.30)));
    let text = agreement(&a, &a).render("a", "b");
    assert!(
        text.contains("loops of our own designs: 0.900 to 1.010, 1 of 2 within 0.95-1.05"),
        "{text}"
    );
    assert!(
        text.contains("peers' loops (the adapter's cost): 1.300 to 1.300"),
        "{text}"
    );
}

/// Eight rounds of a machine whose speed swings, times `factor`.
fn rounds_of(factor: f64) -> Vec<f64> {
    [10.0, 12.0, 9.0, 30.0, 10.0, 11.0, 9.5, 20.0]
        .iter()
        .map(|t| t * factor)
        .collect()
}

/// Rounds of `factor` times [`rounds_of`], alternately `up` and `down` times that.
fn alternating(factor: f64, up: f64, down: f64) -> Vec<f64> {
    rounds_of(factor)
        .iter()
        .enumerate()
        .map(|(i, t)| if i % 2 == 0 { t * up } else { t * down })
        .collect()
}

/// A run of holey, pool and slab with these rounds each (holey is the family's reference).
fn holey_pool_slab(holey: Vec<f64>, pool: Vec<f64>, slab: Vec<f64>) -> Results {
    run(&[("holey", &holey), ("pool", &pool), ("slab", &slab)])
}

fn counts(a: &Agreement) -> FamilyCounts {
    assert_eq!(a.families.len(), 1, "{:?}", a.families);
    assert_eq!(a.families[0].0, Family::IdTable);
    a.families[0].1
}

#[test]
fn intervals_to_the_reference_are_disjoint_when_they_do_not_overlap() {
    // holey is the reference: pool is 0.5 of it in both runs, slab 0.8 in A and 0.6 in B.
    let a = holey_pool_slab(rounds_of(1.0), rounds_of(0.5), rounds_of(0.8));
    let b = holey_pool_slab(rounds_of(1.0), rounds_of(0.5), rounds_of(0.6));
    let c = counts(&agreement(&a, &b));
    assert_eq!(
        c.intervals,
        IntervalCounts {
            both: 2,
            disjoint: 1,
            disjoint_unstable: 0
        }
    );
    // A stored ratio to the reference is the one used; this one's instances answer both ways
    // (one ends at 0.93, another starts at 1.02).
    let mut stored = b.clone();
    let pool = stored
        .benchmarks
        .iter_mut()
        .find(|x| x.design == "pool")
        .unwrap();
    pool.rounds.as_mut().unwrap().to_reference = Some(PairedRatio {
        against: "holey".into(),
        ratio: Estimate {
            median: 0.95,
            lower: 0.9,
            upper: 1.0,
        },
        faster_in: 0.6,
        rounds: 8,
        instances: 2,
        instances_apart: Some((0.93, 1.02)),
    });
    let c = counts(&agreement(&a, &stored));
    assert_eq!(
        c.intervals,
        IntervalCounts {
            both: 2,
            disjoint: 2,
            disjoint_unstable: 1
        }
    );
    let text = agreement(&a, &stored).render("a", "b");
    assert!(text.contains("2 (100.0%)"), "{text}");
}

#[test]
fn a_winner_decided_in_both_runs_apart_is_a_flip() {
    let a = holey_pool_slab(rounds_of(2.0), rounds_of(1.2), rounds_of(1.0));
    let b = holey_pool_slab(rounds_of(2.0), rounds_of(1.0), rounds_of(1.2));
    let d = agreement(&a, &b);
    assert_eq!(
        counts(&d).rankings,
        RankingCounts {
            ranked: 1,
            decided_a: 1,
            decided_b: 1,
            same_winner: 0,
            flips: 1,
            decided_either: 1,
            consistent: 0,
        }
    );
    assert_eq!(d.ranking_flips, ["id_table/churn/1000: slab vs pool"]);
    let text = d.render("a", "b");
    assert!(
        text.contains("winner flips (decided in both runs): id_table/churn/1000: slab vs pool"),
        "{text}"
    );
    // The pages' table: the same counts as Markdown, a row per family and the total, the flip
    // listed below.
    let markdown = d.render_markdown();
    assert!(
        markdown.starts_with("| family | intervals | disjoint | unstable |"),
        "{markdown}"
    );
    assert!(markdown.contains("| `id_table` | "), "{markdown}");
    assert!(markdown.contains("| total | "), "{markdown}");
    assert!(
        markdown
            .contains("- Winner flips (decided in both runs): id_table/churn/1000: slab vs pool."),
        "{markdown}"
    );
    let same = counts(&agreement(&a, &a)).rankings;
    assert_eq!((same.same_winner, same.flips, same.consistent), (1, 0, 1));
}

#[test]
fn a_winner_decided_in_one_run_and_tied_in_the_other_is_no_flip() {
    let a = holey_pool_slab(rounds_of(2.0), rounds_of(1.2), rounds_of(1.0));
    // In B pool trails slab by 2% at the median but leads it in half the rounds.
    let b = holey_pool_slab(rounds_of(2.0), alternating(1.0, 1.05, 0.99), rounds_of(1.0));
    let ranked_b = rank(&cells(&b).into_values().next().unwrap()).unwrap();
    assert_eq!(ranked_b.winner().design, "slab");
    assert_eq!(ranked_b.gap.unwrap().decided(), Some(false));
    let d = agreement(&a, &b);
    assert_eq!(
        counts(&d).rankings,
        RankingCounts {
            ranked: 1,
            decided_a: 1,
            decided_b: 0,
            same_winner: 0,
            flips: 0,
            decided_either: 1,
            consistent: 1,
        }
    );
    assert!(d.ranking_flips.is_empty());
    let text = d.render("a", "b");
    let total = text.lines().find(|l| l.starts_with("total")).unwrap();
    assert!(total.contains("1/1 (100.0%)"), "{text}");
}

fn time_ratio_claim(id: &str, num: &str, den: &str, rule: Rule) -> Claim {
    Claim {
        id: id.into(),
        source: "test".into(),
        quote: "q".into(),
        reading: "r".into(),
        quantity: Quantity::ratio(
            Operand::new(Metric::Time, num, "churn"),
            Operand::new(Metric::Time, den, "churn"),
        ),
        rule,
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    }
}

#[test]
fn claims_decided_apart_in_the_two_runs_are_flips() {
    let claims = vec![
        // Refuted in A (pool is 1.2x slab), confirmed in B (pool is 1/1.2 of it).
        time_ratio_claim("C1", "pool", "slab", Rule::AtMost(1.0)),
        // Confirmed in both: holey takes 2.4 times slab's time.
        time_ratio_claim("C2", "holey", "slab", Rule::AtLeast(1.5)),
        // Confirmed in A; undecided in B, whose rounds put pool at 0.8 and 1.2 of slab's
        // time, an interval holding 1.1.
        time_ratio_claim("C3", "pool", "slab", Rule::AtLeast(1.1)),
    ];
    let with_claims = |mut r: Results| {
        let record = r
            .families
            .iter_mut()
            .find(|f| f.family == Family::IdTable)
            .unwrap();
        record.claims = claims.clone();
        r
    };
    let a = with_claims(holey_pool_slab(
        rounds_of(2.4),
        rounds_of(1.2),
        rounds_of(1.0),
    ));
    let b = with_claims(holey_pool_slab(
        rounds_of(2.4),
        alternating(1.0, 1.2, 0.8),
        rounds_of(1.0),
    ));
    let verdicts = |r: &Results| -> Vec<Verdict> {
        ClaimVerdict::of_run(r).iter().map(|c| c.verdict).collect()
    };
    assert_eq!(
        verdicts(&a),
        [Verdict::Refuted, Verdict::Confirmed, Verdict::Confirmed]
    );
    assert_eq!(
        verdicts(&b),
        [Verdict::Undecided, Verdict::Confirmed, Verdict::Undecided]
    );
    let d = agreement(&a, &b);
    assert_eq!(
        counts(&d).claims,
        ClaimCounts {
            decided_both: 1,
            flips: 0,
            one_sided: 2,
        }
    );

    // B with pool faster than slab in every round: C1 flips to confirmed, C3 to refuted.
    let b = with_claims(holey_pool_slab(
        rounds_of(2.4),
        rounds_of(0.8),
        rounds_of(1.0),
    ));
    let d = agreement(&a, &b);
    assert_eq!(
        counts(&d).claims,
        ClaimCounts {
            decided_both: 3,
            flips: 2,
            one_sided: 0,
        }
    );
    assert_eq!(
        d.claim_flips[0],
        "C1 (id_table): refuted (1000: 1.20) vs confirmed (1000: 0.800)"
    );
    assert!(d.render("a", "b").contains("claim flips: C3 (id_table)"));
}

#[test]
fn claim_verdicts_are_matched_by_family_and_id() {
    let verdict = |family: Family, id: &str, verdict: Verdict| ClaimVerdict {
        family,
        id: id.into(),
        verdict,
        values: "1000: 1".into(),
        crossovers: Vec::new(),
    };
    let a = [
        verdict(Family::IdTable, "A1", Verdict::Confirmed),
        verdict(Family::IdTable, "A2", Verdict::Mixed),
        verdict(Family::Tags, "A1", Verdict::Refuted),
        verdict(Family::Tags, "B1", Verdict::NotMeasured),
        verdict(Family::Alloc, "only-in-a", Verdict::Confirmed),
    ];
    let b = [
        verdict(Family::Tags, "A1", Verdict::Confirmed),
        verdict(Family::IdTable, "A1", Verdict::Confirmed),
        verdict(Family::IdTable, "A2", Verdict::Refuted),
        verdict(Family::Tags, "B1", Verdict::Undecided),
    ];
    let ComparedClaims {
        counts,
        flips,
        crossovers,
    } = compare_claims(&a, &b);
    assert!(crossovers.is_empty());
    assert_eq!(
        counts[&Family::IdTable],
        ClaimCounts {
            decided_both: 1,
            flips: 0,
            one_sided: 1,
        }
    );
    assert_eq!(
        counts[&Family::Tags],
        ClaimCounts {
            decided_both: 1,
            flips: 1,
            one_sided: 0,
        }
    );
    assert!(
        !counts.contains_key(&Family::Alloc),
        "a claim of one run only"
    );
    assert_eq!(
        flips,
        ["A1 (tags): refuted (1000: 1) vs confirmed (1000: 1)"]
    );
}

/// A claim read across a parameter shows both runs' crossovers side by side at each N either
/// run has one; a run without one there says its verdict.
#[test]
fn crossovers_of_both_runs_are_set_side_by_side() {
    use crate::verdict::{Crossover, Meeting, Outcome};
    let crossing = |n: u64, at: f64| Crossover {
        n,
        between: (64.0, 128.0),
        below: Outcome::Refuted,
        above: Outcome::Confirmed,
        meets: Some(Meeting {
            bound: 1.0,
            at,
            den_at: None,
        }),
    };
    let verdict = |verdict: Verdict, crossovers: Vec<Crossover>| ClaimVerdict {
        family: Family::Locking,
        id: "H2".into(),
        verdict,
        values: String::new(),
        crossovers,
    };
    let a = [verdict(Verdict::Crossover, vec![crossing(1000, 99.2)])];
    let b = [verdict(
        Verdict::Crossover,
        vec![crossing(1000, 96.8), crossing(16384, 50.0)],
    )];
    let compared = compare_claims(&a, &b);
    assert_eq!(
        compared.crossovers,
        [
            "H2 (locking) at N = 1000: A refuted up to x = 64, confirmed from x = 128, meeting 1 \
             at x ≈ 99.2; B refuted up to x = 64, confirmed from x = 128, meeting 1 at x ≈ 96.8",
            "H2 (locking) at N = 16384: A none (crossover); B refuted up to x = 64, confirmed \
             from x = 128, meeting 1 at x ≈ 50.0"
        ]
    );
    assert_eq!(compared.counts[&Family::Locking], ClaimCounts::default());
}
