//! The verdicts' unit tests: claims judged on small hand-built runs (counts, paired times,
//! fitted exponents, missing numbers, sizes outside a claim), and the text they render.

use super::*;
use crate::claim::Rule;
use crate::family::FamilyRecord;
use crate::family_metrics::{FamilyMetrics, MetricValue};
use crate::machine::Machine;
use crate::measures::{SimConfig, SimPerOp};
use crate::metric_spec::{MetricSpec, Unit};
use crate::schema::Benchmark;
use crate::stats::Rounds;

fn claim(quantity: Quantity, rule: Rule) -> Claim {
    Claim {
        id: "X1".into(),
        source: "test".into(),
        quote: "q".into(),
        reading: "r".into(),
        quantity,
        rule,
        sizes: crate::claim::Sizes::EVERY,
        by_construction: false,
        note: None,
    }
}

fn run(benchmarks: Vec<Benchmark>, claims: Vec<Claim>) -> Results {
    let machine = Machine::test_box("box");
    let mut r = Results::empty(machine, "c".into(), "t".into(), 0, "quick");
    r.families = vec![FamilyRecord {
        family: Family::Transforms,
        title: "T".into(),
        reference_design: "a".into(),
        claims,
        untested: Vec::new(),
        metrics: None,
        no_loops: None,
    }];
    r.benchmarks = benchmarks;
    r
}

fn counted(design: &str, n: u64, ir: f64) -> Benchmark {
    let mut b = Benchmark::new(Family::Transforms, "w", design, n, n);
    b.status = Status::Verified;
    b.verified = true;
    b.sim = Some(SimPerOp {
        ir,
        data_reads: 0.0,
        data_writes: 0.0,
        d1_miss: 0.0,
        ll_miss: 0.0,
        d1_read_miss: 0.0,
        ll_read_miss: 0.0,
        i1_miss: None,
        bytes_streamed: 0.0,
        ops: n,
        config: SimConfig {
            i1: String::new(),
            d1: String::new(),
            ll: String::new(),
            valgrind: String::new(),
            start_state: String::new(),
        },
    });
    b
}

fn timed(design: &str, n: u64, samples: &[f64]) -> Benchmark {
    let mut b = counted(design, n, 1.0);
    let mut s = samples.to_vec();
    b.ns_per_op = crate::stats::median_interval(&mut s);
    b.samples_ns_per_op = samples.to_vec();
    b.rounds = Some(Rounds::new(7, 1, Vec::new()));
    b
}

#[test]
fn shortened_text_ends_at_a_word() {
    assert_eq!(shorten("forty times faster", 40), "forty times faster");
    assert_eq!(shorten("forty times faster, roughly", 16), "forty times…");
}

#[test]
fn counts_decide_per_size_and_mixed_sizes_say_so() {
    let q = Quantity::ratio(
        Operand::new(Metric::Instructions, "a", "w"),
        Operand::new(Metric::Instructions, "b", "w"),
    );
    let c = claim(q, Rule::AtMost(0.5));
    let r = run(
        vec![
            counted("a", 10, 4.0),
            counted("b", 10, 10.0),
            counted("a", 100, 8.0),
            counted("b", 100, 10.0),
        ],
        vec![c],
    );
    let j = &judge_run(&r)[0];
    assert_eq!(j.points.len(), 2);
    assert_eq!(j.points[0].outcome, Outcome::Confirmed);
    assert_eq!(j.points[1].outcome, Outcome::Refuted);
    assert_eq!(j.verdict, Verdict::Mixed);
    assert_eq!(j.points[0].how, "counts");
    assert!((j.points[0].value - 0.4).abs() < 1e-12);
}

#[test]
fn a_paired_time_ratio_decides_only_when_its_interval_clears_the_bound() {
    let q = Quantity::ratio(
        Operand::new(Metric::Time, "a", "w"),
        Operand::new(Metric::Time, "b", "w"),
    );
    // a is 2x b in every round: the interval is [2, 2].
    let b: Vec<f64> = (1..=10).map(f64::from).collect();
    let a: Vec<f64> = b.iter().map(|t| t * 2.0).collect();
    let r = run(
        vec![timed("a", 10, &a), timed("b", 10, &b)],
        vec![
            claim(q.clone(), Rule::AtLeast(1.5)),
            claim(q.clone(), Rule::AtMost(1.5)),
        ],
    );
    let js = judge_run(&r);
    assert_eq!(js[0].verdict, Verdict::Confirmed);
    assert_eq!(js[1].verdict, Verdict::Refuted);
    assert_eq!(js[0].points[0].interval, Some((2.0, 2.0)));
    assert_eq!(js[0].points[0].how, "paired over 10 rounds");
    // Noisy rounds around 1: the interval holds 1, so "at least 1" cannot be decided.
    let a2: Vec<f64> = b
        .iter()
        .enumerate()
        .map(|(i, t)| if i % 2 == 0 { t * 1.2 } else { t * 0.8 })
        .collect();
    let r = run(
        vec![timed("a", 10, &a2), timed("b", 10, &b)],
        vec![claim(q, Rule::AtLeast(1.0))],
    );
    assert_eq!(judge_run(&r)[0].verdict, Verdict::Undecided);
}

#[test]
fn a_paired_time_ratio_whose_instances_answer_both_ways_is_undecided() {
    let q = Quantity::ratio(
        Operand::new(Metric::Time, "a", "w"),
        Operand::new(Metric::Time, "b", "w"),
    );
    // Five instances put a at 1.3 b, one at 0.98 b: the pooled interval clears 1.
    let instance_ratios = [0.98, 1.3, 1.3, 1.3, 1.3, 1.3];
    let wobble = |i: usize| 1.0 + 0.001 * (i % 5) as f64;
    let b: Vec<f64> = (0..60).map(|i| 10.0 * wobble(i)).collect();
    let a: Vec<f64> = (0..60)
        .map(|i| 10.0 * instance_ratios[i / 10] * wobble(i))
        .collect();
    let in_instances = |mut x: Benchmark| {
        x.rounds.as_mut().unwrap().instances = vec![10; 6];
        x
    };
    let r = run(
        vec![
            in_instances(timed("a", 10, &a)),
            in_instances(timed("b", 10, &b)),
        ],
        vec![
            claim(q.clone(), Rule::AtLeast(1.0)),
            claim(q, Rule::AtMost(1.5)),
        ],
    );
    let js = judge_run(&r);
    let p = &js[0].points[0];
    assert!(p.interval.unwrap().0 > 1.0, "{p:?}");
    assert_eq!(p.outcome, Outcome::Undecided);
    assert!(
        p.how
            .starts_with("unstable on this machine: paired over 60 rounds in 6 instances"),
        "{}",
        p.how
    );
    assert_eq!(js[0].verdict, Verdict::Undecided);
    // Every instance puts it below 1.5: that bound is answered.
    assert_eq!(js[1].verdict, Verdict::Confirmed);
}

#[test]
fn exponents_are_fitted_on_log_log_and_need_three_sizes() {
    let op = Operand::new(Metric::Instructions, "a", "w");
    // Per op ∝ n, ops = n: the body's total ∝ n².
    let bs: Vec<Benchmark> = [10, 100, 1000]
        .into_iter()
        .map(|n| counted("a", n, 3.0 * n as f64))
        .collect();
    let c1 = claim(
        Quantity::total_exponent(op.clone()),
        Rule::Between(1.9, 2.1),
    );
    let c2 = claim(Quantity::exponent(op), Rule::Between(0.9, 1.1));
    let r = run(bs.clone(), vec![c1.clone(), c2]);
    let js = judge_run(&r);
    assert!((js[0].points[0].value - 2.0).abs() < 1e-9, "{:?}", js[0]);
    assert_eq!(js[0].verdict, Verdict::Confirmed);
    assert!((js[1].points[0].value - 1.0).abs() < 1e-9);
    assert_eq!(js[0].points[0].how, "fitted over N = 10 to 1000 (3 sizes)");
    let r = run(bs[..2].to_vec(), vec![c1]);
    let j = &judge_run(&r)[0];
    assert_eq!(j.verdict, Verdict::NotMeasured);
    assert!(j.missing[0].contains("needs 3"), "{:?}", j.missing);
}

#[test]
fn exponents_across_a_parameter_are_fitted_per_size() {
    // Per op ∝ chain length at N = 10 (k = 1), flat at N = 20 (k = 0).
    let mut bs = Vec::new();
    for (w, x) in [("w5", 5.0), ("w64", 64.0), ("w1024", 1024.0)] {
        let mut b = counted("a", 10, 2.0 * x);
        b.workload = w.into();
        bs.push(b);
        let mut b = counted("a", 20, 7.0);
        b.workload = w.into();
        bs.push(b);
    }
    let q = Quantity::exponent_across(
        [("w5", 5.0), ("w64", 64.0), ("w1024", 1024.0)]
            .into_iter()
            .map(|(w, x)| (Operand::new(Metric::Instructions, "a", w), x))
            .collect(),
    );
    let r = run(bs, vec![claim(q, Rule::Between(0.8, 1.2))]);
    let j = &judge_run(&r)[0];
    assert_eq!(j.points.len(), 2, "{j:?}");
    assert!((j.points[0].value - 1.0).abs() < 1e-9);
    assert_eq!(j.points[0].outcome, Outcome::Confirmed);
    assert!(j.points[1].value.abs() < 1e-9);
    assert_eq!(j.verdict, Verdict::Mixed);
}

/// `a ÷ b` on workloads `w0`, `w64`, `w128`, `w256` (x = 0 to 256) at N = 10: `a` is 1.5, 1.3,
/// 0.8 and 0.6 times `b`, whose time per op grows 100, 300, 500, 900.
fn across_run(workloads: &[(&str, f64, f64, f64)]) -> Results {
    let mut bs = Vec::new();
    for &(w, _, ratio, den) in workloads {
        let b_samples: Vec<f64> = (0..10)
            .map(|i| den * (1.0 + 0.001 * f64::from(i)))
            .collect();
        let a_samples: Vec<f64> = b_samples.iter().map(|t| t * ratio).collect();
        for (design, samples) in [("a", &a_samples), ("b", &b_samples)] {
            let mut x = timed(design, 10, samples);
            x.workload = w.into();
            bs.push(x);
        }
    }
    let q = Quantity::RatioAcross {
        param: "work (iterations)".into(),
        points: [("w0", 0.0), ("w64", 64.0), ("w128", 128.0), ("w256", 256.0)]
            .into_iter()
            .map(|(w, x)| crate::claim::RatioAcross {
                num: Operand::new(Metric::Time, "a", w),
                den: Operand::new(Metric::Time, "b", w),
                x,
            })
            .collect(),
    };
    run(bs, vec![claim(q, Rule::AtLeast(1.0))])
}

#[test]
fn a_ratio_across_a_parameter_names_its_crossover() {
    let all = [
        ("w0", 0.0, 1.5, 100.0),
        ("w64", 64.0, 1.3, 300.0),
        ("w128", 128.0, 0.8, 500.0),
        ("w256", 256.0, 0.6, 900.0),
    ];
    let r = across_run(&all);
    let j = &judge_run(&r)[0];
    let outcomes: Vec<(Option<f64>, Outcome)> = j.points.iter().map(|p| (p.x, p.outcome)).collect();
    assert_eq!(
        outcomes,
        [
            (Some(0.0), Outcome::Confirmed),
            (Some(64.0), Outcome::Confirmed),
            (Some(128.0), Outcome::Refuted),
            (Some(256.0), Outcome::Refuted)
        ]
    );
    assert_eq!(j.verdict, Verdict::Crossover);
    let [x] = j.crossovers.as_slice() else {
        panic!("one crossover: {:?}", j.crossovers)
    };
    assert_eq!(
        (x.n, x.between, x.below, x.above),
        (10, (64.0, 128.0), Outcome::Confirmed, Outcome::Refuted)
    );
    let m = x.meets.unwrap();
    assert_eq!(m.bound, 1.0);
    // ln 1.3 → ln 0.8 over 64 → 128 meets ln 1 a fraction 0.5404 of the way.
    let t = 1.3_f64.ln() / (1.3_f64.ln() - 0.8_f64.ln());
    assert!((m.at - (64.0 + 64.0 * t)).abs() < 0.2, "{}", m.at);
    let den_at = m.den_at.unwrap();
    // b's medians are 0.45% above 300 and 500 (its rounds grow 0.1% each).
    assert!(
        (den_at - 1.0045 * (300.0 + 200.0 * t)).abs() < 0.5,
        "{den_at}"
    );
    let text = render_text(&judge_run(&r));
    assert!(
        text.contains(
            "crossover at N = 10: confirmed up to x = 64, refuted from x = 128 (x: work \
             (iterations)); the ratio meets 1 at x ≈ 98.6, where b's time per work unit is ≈ 410"
        ),
        "{text}"
    );
    assert!(
        j.values_in_short()
            .ends_with("; crosses 1 at x ≈ 98.6 (N = 10)"),
        "{}",
        j.values_in_short()
    );
    // The base workload alone (a quick run): judged there, the sweep's points named missing.
    let r = across_run(&all[1..2]);
    let j = &judge_run(&r)[0];
    assert_eq!(j.verdict, Verdict::Confirmed);
    assert!(j.crossovers.is_empty());
    assert!(
        j.missing
            .iter()
            .any(|m| m == "no benchmark of a on w0 in this run"),
        "{:?}",
        j.missing
    );
    // The same outcome everywhere has no crossover.
    let r = across_run(&[("w0", 0.0, 1.5, 100.0), ("w64", 64.0, 1.3, 300.0)]);
    let j = &judge_run(&r)[0];
    assert_eq!((j.verdict, j.crossovers.len()), (Verdict::Confirmed, 0));
}

#[test]
fn missing_numbers_are_named_not_judged() {
    let q = Quantity::value(Operand::new(Metric::family("products_per_frame"), "a", "w"));
    let mut unsupported = counted("a", 10, 1.0);
    unsupported.status = Status::Unsupported;
    unsupported.reason = Some("too deep".into());
    let mut no_metrics = counted("a", 20, 1.0);
    no_metrics.metrics = None;
    let r = run(
        vec![unsupported, no_metrics.clone()],
        vec![claim(q.clone(), Rule::AtMost(1.0))],
    );
    let j = &judge_run(&r)[0];
    assert_eq!(j.verdict, Verdict::NotMeasured);
    assert_eq!(j.missing.len(), 1, "{:?}", j.missing);
    assert!(
        j.missing[0].contains("unsupported (too deep)"),
        "{:?}",
        j.missing
    );
    // No size has the metric: every size says so.
    let r2 = run(vec![no_metrics], vec![claim(q, Rule::AtMost(1.0))]);
    let j = &judge_run(&r2)[0];
    assert!(j.missing[0].contains("not measured"), "{:?}", j.missing);
    let mut with = counted("a", 30, 1.0);
    with.metrics = Some(FamilyMetrics {
        family: Family::Transforms,
        values: [("products_per_frame".to_string(), MetricValue::Number(0.5))].into(),
    });
    let r = run(vec![with], r.families[0].claims.clone());
    assert_eq!(judge_run(&r)[0].verdict, Verdict::Confirmed);
    assert_eq!(
        tally(&judge_run(&r))[0],
        (Verdict::Confirmed, 1),
        "the tally counts it"
    );
}

#[test]
fn a_replay_past_the_designs_limits_is_a_value_of_the_verified_metric() {
    let q = Quantity::value(Operand::new(Metric::Verified, "a", "w"));
    let mut wrapped = counted("a", 10, 1.0);
    wrapped.status = Status::Unsupported;
    wrapped.reason = Some("generation wrapped".into());
    let r = run(
        vec![wrapped, counted("a", 20, 1.0)],
        vec![claim(q, Rule::AtMost(0.0))],
    );
    let j = &judge_run(&r)[0];
    assert_eq!(j.points[0].value, 0.0);
    assert_eq!(j.points[0].how, "unsupported: generation wrapped");
    assert_eq!(j.points[1].outcome, Outcome::Refuted);
    assert_eq!(j.verdict, Verdict::Mixed);
}

#[test]
fn a_trace_refused_before_the_replay_is_no_answer_to_judge() {
    let q = Quantity::value(Operand::new(Metric::Verified, "a", "w"));
    let mut refused = counted("a", 65_536, 1.0);
    refused.status = Status::Unsupported;
    refused.refused = true;
    refused.reason = Some("fixed capacity 64512".into());
    let r = run(
        vec![counted("a", 1_000, 1.0), refused],
        vec![claim(q, Rule::AtLeast(1.0))],
    );
    let j = &judge_run(&r)[0];
    assert_eq!(j.points.len(), 1, "only the size the design accepts");
    assert_eq!(j.points[0].n, Some(1_000));
    assert_eq!(j.verdict, Verdict::Confirmed);
    assert!(
        j.missing[0].contains("refused before the replay")
            && j.missing[0].contains("fixed capacity 64512"),
        "{:?}",
        j.missing
    );
}

#[test]
fn a_claim_is_judged_only_at_the_sizes_it_is_about() {
    let q = Quantity::ratio(
        Operand::new(Metric::Instructions, "a", "w"),
        Operand::new(Metric::Instructions, "b", "w"),
    );
    let benchmarks = vec![
        counted("a", 1_000, 3.0),
        counted("b", 1_000, 1.0),
        counted("a", 100_000, 1.0),
        counted("b", 100_000, 2.0),
    ];
    let mut every = claim(q, Rule::AtMost(1.0));
    let r = run(benchmarks.clone(), vec![every.clone()]);
    assert_eq!(judge_run(&r)[0].verdict, Verdict::Mixed);
    every.sizes = crate::claim::Sizes::at_least(65_536);
    let r = run(benchmarks, vec![every]);
    let j = &judge_run(&r)[0];
    assert_eq!(j.verdict, Verdict::Confirmed);
    assert_eq!(j.points.len(), 1);
    assert_eq!(j.outside, vec![1_000]);
    let text = render_text(&judge_run(&r));
    assert!(
        text.contains("not judged (the claim is about N ≥ 65536): N = 1000"),
        "{text}"
    );
}

#[test]
fn a_claim_built_to_hold_reads_holds_by_construction_and_can_still_fail() {
    let q = Quantity::value(Operand::new(Metric::Instructions, "a", "w"));
    let mut c = claim(q, Rule::AtLeast(1.0));
    c.by_construction = true;
    let r = run(vec![counted("a", 10, 1.0)], vec![c.clone()]);
    assert_eq!(judge_run(&r)[0].verdict, Verdict::HoldsByConstruction);
    assert_eq!(tally(&judge_run(&r))[1], (Verdict::HoldsByConstruction, 1));
    let r = run(vec![counted("a", 10, 0.5)], vec![c]);
    assert_eq!(judge_run(&r)[0].verdict, Verdict::Refuted);
}

#[test]
fn unknown_family_metric_names_are_declaration_errors() {
    let ok = claim(
        Quantity::value(Operand::new(Metric::family("products_per_frame"), "a", "w")),
        Rule::AtMost(1.0),
    );
    let section = MetricSection {
        title: "work".into(),
        rank_by: "products_per_frame".into(),
        specs: vec![MetricSpec::per_design(
            "products_per_frame",
            "p / f",
            Unit::Number,
        )],
    };
    assert!(check_metric_names(&ok, Some(&section)).is_ok());
    let typo = claim(
        Quantity::value(Operand::new(Metric::family("product_per_frame"), "a", "w")),
        Rule::AtMost(1.0),
    );
    let e = check_metric_names(&typo, Some(&section)).unwrap_err();
    assert!(e.contains("products_per_frame"), "{e}");
    assert!(check_metric_names(&ok, None).is_err());
}
