//! Small runs for the views' unit tests: one cell (`id_table`, `churn`, N = 1,000) whose
//! designs were timed in interleaved rounds, with their paired ratios filled the way the bench
//! fills them, or timed by criterion (no rounds).

use results::stats::median_interval;
use results::{Benchmark, CacheSizes, Estimate, Family, Machine, Results, Rounds, Status};

/// Ten rounds whose absolute times swing (round 3 saw a burst of other work).
pub(crate) const ROUNDS: [f64; 10] = [10.0, 11.0, 9.0, 30.0, 10.0, 10.5, 9.5, 10.0, 12.0, 10.0];

/// [`ROUNDS`] 2% faster and 2% slower in turn: a median 2% above it, but the two cannot be told
/// apart (per-round ratios 0.98 and 1.02, five each).
pub(crate) const TIE: [f64; 10] = [9.8, 11.22, 8.82, 30.6, 9.8, 10.71, 9.31, 10.2, 11.76, 10.2];

/// [`ROUNDS`] 20% slower in every round: decidedly behind it.
pub(crate) const SLOWER: [f64; 10] = [12.0, 13.2, 10.8, 36.0, 12.0, 12.6, 11.4, 12.0, 14.4, 12.0];

/// An empty run on a test machine.
fn run() -> Results {
    let machine = Machine {
        name: "test-box".into(),
        cpu_model: "test".into(),
        cores: 1,
        caches: CacheSizes::default(),
        os: "linux".into(),
        arch: "x86_64".into(),
        hw_counters_available: false,
        hw_counters_reason: None,
    };
    Results::empty(machine, "c".into(), "rustc".into(), 1, "full")
}

/// A verified `design` of the test cell with `samples` and the median `ns_per_op`.
fn verified(design: &str, samples: &[f64], ns_per_op: Estimate) -> Benchmark {
    let mut b = Benchmark::new(Family::IdTable, "churn", design, 1000, 100);
    b.verified = true;
    b.status = Status::Verified;
    b.samples_ns_per_op = samples.to_vec();
    b.ns_per_op = Some(ns_per_op);
    b
}

/// `designs` (name, time in each round) timed together in rounds of `session`, with
/// [`Results::fill_paired_ratios`] run as the bench runs it.
pub(crate) fn interleaved(designs: &[(&str, &[f64])], session: u64) -> Results {
    let mut results = run();
    for &(design, samples) in designs {
        let estimate = median_interval(&mut samples.to_vec()).expect("samples");
        let mut b = verified(design, samples, estimate);
        b.rounds = Some(Rounds::new(session, 1, Vec::new()));
        results.benchmarks.push(b);
    }
    results.fill_paired_ratios();
    results
}

/// `designs` (name, median ns per work unit) timed one by one by criterion: no rounds.
pub(crate) fn criterion_timed(designs: &[(&str, f64)]) -> Results {
    let mut results = run();
    for &(design, median) in designs {
        let estimate = Estimate {
            median,
            lower: median * 0.95,
            upper: median * 1.05,
        };
        let samples = [median * 0.9, median, median * 1.1];
        results
            .benchmarks
            .push(verified(design, &samples, estimate));
    }
    results
}

/// [`interleaved`]'s cell (`a` at [`ROUNDS`], `b` at [`SLOWER`], `c` at [`TIE`]) with three
/// claims on it: one the rounds confirm (b ÷ a ≥ 1.1), one they refute (b ÷ a ≤ 1) and one on
/// a design the run lacks.
pub(crate) fn with_claims() -> Results {
    use results::{Claim, Metric, Operand, Quantity, Rule, Sizes};
    let mut results = interleaved(&[("a", &ROUNDS), ("b", &SLOWER), ("c", &TIE)], 1);
    let claim = |id: &str, den: &str, rule| Claim {
        id: id.into(),
        source: "test article".into(),
        quote: "b is slower".into(),
        reading: "b ÷ a".into(),
        quantity: Quantity::ratio(
            Operand::new(Metric::Time, "b", "churn"),
            Operand::new(Metric::Time, den, "churn"),
        ),
        rule,
        sizes: Sizes::EVERY,
        by_construction: false,
        note: None,
    };
    let record = results
        .families
        .iter_mut()
        .find(|f| f.family == Family::IdTable)
        .expect("a built-in record");
    record.claims = vec![
        claim("T1", "a", Rule::AtLeast(1.1)),
        claim("T2", "a", Rule::AtMost(1.0)),
        claim("T3", "absent", Rule::AtMost(1.0)),
    ];
    results
}
