use super::*;
use crate::family::Family;
use crate::machine::Machine;
use crate::measures::SimPerOp;
use crate::schema::{DesignRecord, Status};
use crate::stats::{Rounds, median_interval};

/// A cell `relations/idx-tags/1000` timed in one session of 30 rounds: each design's rounds
/// are its base time with the same alternating drift, so every paired ratio is exactly the
/// ratio of the bases.
fn run(designs: &[(&str, &str, &[&str], f64)]) -> Results {
    let machine = Machine::test_box("box");
    let mut r = Results::empty(machine, "c".into(), "t".into(), 1, "quick");
    for &(name, kind, gaps, base) in designs {
        r.designs
            .push(DesignRecord::new(Family::Relations, name, kind).with_gaps(gaps));
        let samples: Vec<f64> = (0..30)
            .map(|i| base * if i % 2 == 0 { 1.0 } else { 1.5 })
            .collect();
        let mut b = Benchmark::new(Family::Relations, "idx-tags", name, 1000, 1);
        b.verified = true;
        b.status = Status::Verified;
        b.ns_per_op = median_interval(&mut samples.clone());
        b.samples_ns_per_op = samples;
        b.rounds = Some(Rounds::new(7, 30, Vec::new()));
        r.benchmarks.push(b);
    }
    r
}

fn of<'a>(r: &'a Results) -> Option<Standing<'a>> {
    let cell: Vec<&Benchmark> = r.benchmarks.iter().filter(|b| b.n == 1000).collect();
    standing(r, &cell)
}

fn sim(ir: f64, d1_miss: f64, ll_miss: f64) -> SimPerOp {
    SimPerOp {
        ir,
        data_reads: 0.0,
        data_writes: 0.0,
        d1_miss,
        ll_miss,
        d1_read_miss: d1_miss,
        ll_read_miss: ll_miss,
        i1_miss: None,
        bytes_streamed: d1_miss * 64.0,
        ops: 1000,
        config: crate::measures::SimConfig {
            i1: String::new(),
            d1: String::new(),
            ll: String::new(),
            valgrind: String::new(),
            start_state: String::new(),
        },
    }
}

#[test]
fn the_peer_set_against_ours_is_the_fastest_with_our_contract() {
    let r = run(&[
        ("open", "tuned", &[], 10.0),
        ("article", "article", &[], 12.0),
        ("weaker", "peer", &["detects no stale ID"], 5.0),
        ("same", "peer", &[], 11.0),
    ]);
    let s = of(&r).expect("ours and a same-contract peer");
    assert_eq!(
        (s.ours.design.as_str(), s.peer.design.as_str()),
        ("open", "same")
    );
    assert_eq!(s.side, Side::Ahead);
    assert!((s.gap.ratio - 10.0 / 11.0).abs() < 1e-9);
    assert!(s.why.is_empty());
    assert!(
        s.describe().starts_with("open ahead of same: 0.909×"),
        "{}",
        s.describe()
    );
}

#[test]
fn a_cell_without_a_peer_of_our_contract_or_without_ours_has_no_standing() {
    let weaker_only = run(&[
        ("open", "tuned", &[], 10.0),
        ("weaker", "peer", &["detects no stale ID"], 5.0),
    ]);
    assert!(of(&weaker_only).is_none());
    let peers_only = run(&[("a", "peer", &[], 10.0), ("b", "peer", &[], 5.0)]);
    assert!(of(&peers_only).is_none());
}

#[test]
fn behind_is_decided_by_the_paired_interval_and_level_when_it_holds_one() {
    let behind = run(&[("open", "tuned", &[], 10.4), ("peer", "peer", &[], 10.0)]);
    let s = of(&behind).unwrap();
    assert_eq!(s.side, Side::Behind);
    assert!(
        s.describe()
            .contains("open behind peer: 1.040× [1.040, 1.040] over 30 rounds")
    );

    // Ours slower in half the rounds, faster in the other half: the median is above 1 and
    // the interval holds it.
    let mut level = behind.clone();
    let ours = &mut level.benchmarks[0];
    ours.samples_ns_per_op = (0..30)
        .map(|i| if i % 4 < 2 { 10.4 } else { 9.0 } * if i % 2 == 0 { 1.0 } else { 1.5 })
        .collect();
    let l = of(&level).unwrap();
    assert_eq!(l.side, Side::Level, "{}", l.describe());
    assert!(l.why.is_empty());
}

#[test]
fn why_names_the_counts_that_differ_at_the_nearest_counted_size() {
    let mut r = run(&[("open", "tuned", &[], 10.4), ("peer", "peer", &[], 10.0)]);
    let s = of(&r).unwrap();
    assert!(s.why.starts_with("not counted"), "{}", s.why);
    assert!(s.why.contains(
        "dodbench cache --family relations --workload idx-tags --design open --design peer --n 1000"
    ));

    // Counted at another size only: more instructions, and more D1 misses.
    for (design, counts) in [
        ("open", sim(130.0, 2.0, 0.0)),
        ("peer", sim(119.0, 1.0, 0.0)),
    ] {
        let mut b = Benchmark::new(Family::Relations, "idx-tags", design, 100_000, 1);
        b.sim = Some(counts);
        r.benchmarks.push(b);
    }
    let s = of(&r).unwrap();
    assert_eq!(
        s.why,
        "it runs 9% more simulated instructions per work unit (130 against 119) (counted at \
         N = 100000); it misses more per work unit: D1 2.00 against 1.00"
    );

    // Counted in the cell itself, fewer instructions and no more misses; more allocator calls.
    for (i, counts) in [sim(111.8, 0.5, 0.01), sim(120.1, 0.5, 0.01)]
        .into_iter()
        .enumerate()
    {
        r.benchmarks[i].sim = Some(counts);
    }
    r.benchmarks[0].alloc_calls_per_op = Some(0.5);
    r.benchmarks[1].alloc_calls_per_op = Some(0.0);
    let s = of(&r).unwrap();
    assert!(
        s.why.starts_with(
            "it runs no more simulated instructions per work unit (112 against 120); it misses \
             the simulated caches no more (D1 0.500 against 0.500, LL 0.010 against 0.010): the \
             gap is in what the simulation does not count"
        ),
        "{}",
        s.why
    );
    assert!(
        s.why
            .ends_with("it calls the allocator 0.500 times per work unit, the peer 0.000"),
        "{}",
        s.why
    );
}
