//! The printed summary of [`Advice`]: the verdict on the top two, the top three with why each
//! wins or loses (time, memory, D1 misses, allocator calls), the ranking called directly, and the
//! designs that could not run the trace.

use std::fmt::Write as _;

use results::{Benchmark, Gap, Ranking, Status};

use super::{Advice, gap_between, ns};

impl Advice {
    /// The printed summary: whether the top two can be told apart, the top three with why each
    /// wins or loses (the winner's line with the interval of its lead over the rounds), then
    /// the designs that are `unsupported` or `failed` with their reasons, then where the report
    /// is.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let total = self.designs().count();
        let _ = writeln!(
            out,
            "advise: {} trace {:?}: {} designs, {} verified, {} unsupported, {} failed",
            self.family,
            self.results
                .workloads
                .first()
                .map_or("", |w| w.workload.as_str()),
            total,
            self.ranking.len(),
            self.not_ranked()
                .filter(|b| b.status == Status::Unsupported)
                .count(),
            self.not_ranked()
                .filter(|b| b.status == Status::Failed)
                .count(),
        );
        let ranked: Vec<&Benchmark> = self.ranked().collect();
        let gap = self.gap();
        if let (Some(gap), [winner, runner_up, ..]) = (&gap, ranked.as_slice())
            && gap.decided() == Some(false)
        {
            let described = gap.describe();
            let detail = described
                .strip_prefix("cannot be told apart: ")
                .unwrap_or(&described);
            let _ = writeln!(
                out,
                "  {} and {} cannot be told apart on this trace: {detail}",
                winner.design, runner_up.design
            );
        }
        for (place, b) in ranked.iter().take(3).enumerate() {
            let versus = match (place, ranked.get(1)) {
                (_, None) => "the only verified design".to_string(),
                (0, Some(runner_up)) => {
                    reason(&winner_time(b, runner_up, gap.as_ref()), b, runner_up)
                }
                (_, Some(_)) => reason(&trailing_time(b, ranked[0]), b, ranked[0]),
            };
            let _ = writeln!(
                out,
                "  {}. {:<24} {:>9.2} ns/op  {:>8} B/object  {:>6} alloc calls/op  {:>8} D1 misses/op  {}",
                place + 1,
                b.design,
                ns(b).unwrap_or(f64::NAN),
                bytes_per_object(b).map_or("-".to_string(), |v| format!("{v:.1}")),
                b.alloc_calls_per_op
                    .map_or("-".to_string(), |v| format!("{v:.3}")),
                b.sim
                    .as_ref()
                    .map_or("-".to_string(), |s| format!("{:.3}", s.d1_miss)),
                versus,
            );
        }
        if let (Some(direct), Some(through_trait)) =
            (self.called_directly(), results::rank(&ranked))
        {
            let _ = writeln!(out, "  {}", called_directly_line(&direct, &through_trait));
        }
        for b in self.not_ranked() {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                b.status,
                b.design,
                b.reason.as_deref().unwrap_or("")
            );
            if let Some(command) = &b.shrink {
                let _ = writeln!(out, "    shrink it: {command}");
            }
        }
        if let Some(reason) = &self.cache_skipped {
            let _ = writeln!(out, "  simulated cache misses skipped: {reason}");
        } else {
            let simulated = self.ranked().filter(|b| b.sim.is_some()).count();
            if simulated < self.ranking.len() {
                let _ = writeln!(
                    out,
                    "  simulated cache misses: the fastest {simulated} of {} verified designs \
                     (--cache-sim-top N or all)",
                    self.ranking.len()
                );
            }
        }
        let _ = write!(out, "advise: report at {}", self.report.display());
        out
    }
}

/// The summary's line for the designs called directly: the fastest loop's design, the
/// runner-up's and how sure their order is, and whether it names none of the designs that
/// lead `ranked` (the trace's ranking through the family's trait, [`Ranking::leads_apart`]).
fn called_directly_line(direct: &Ranking<'_>, ranked: &Ranking<'_>) -> String {
    let mut line = format!(
        "called directly ({}): {} fastest",
        loops_in_words(direct),
        direct.winner().timed_design()
    );
    if let (Some(runner_up), Some(gap)) = (direct.runner_up(), &direct.gap) {
        let _ = write!(
            line,
            ", then {} ({})",
            runner_up.timed_design(),
            gap.describe()
        );
    }
    if ranked.leads_apart(direct) {
        let _ = write!(
            line,
            "; differs from the ranking above, where {} leads through the family's trait, \
             whose checks some designs' direct calls skip",
            ranked.leaders().join(" ≈ ")
        );
    }
    line
}

/// Which designs a ranking called directly ranks by their reference loops: `each design's
/// reference loop`, or `2 of 3 designs by their reference loop, the rest through the replay`
/// (ours without a loop, [`results::rank_called_directly`]).
pub(crate) fn loops_in_words(direct: &Ranking<'_>) -> String {
    let (loops, all) = (direct.called_directly(), direct.order.len());
    if loops == all {
        "each design's reference loop".to_string()
    } else {
        format!("{loops} of {all} designs by their reference loop, the rest through the replay")
    }
}

/// Bytes per object: the counting allocator's figure when measured, else the design's own.
fn bytes_per_object(b: &Benchmark) -> Option<f64> {
    b.memory
        .as_ref()
        .and_then(|m| m.allocator_bytes_per_object)
        .or(b.bytes_per_object)
}

/// The winner's time against the runner-up's: faster with the interval of the lead, or that
/// the two cannot be told apart.
fn winner_time(winner: &Benchmark, runner_up: &Benchmark, gap: Option<&Gap>) -> String {
    match gap {
        Some(gap) if gap.decided() == Some(false) => {
            format!("cannot be told apart from {}", runner_up.design)
        }
        Some(gap) => format!("faster than {}: {}", runner_up.design, gap.describe()),
        None => format!(
            "{} faster than {}",
            median_ratio(runner_up, winner),
            runner_up.design
        ),
    }
}

/// A design below the winner against the winner: how many times slower, or that the two
/// cannot be told apart.
fn trailing_time(b: &Benchmark, winner: &Benchmark) -> String {
    match gap_between(winner, b) {
        Some(gap) if gap.decided() == Some(false) => {
            format!("cannot be told apart from {}", winner.design)
        }
        Some(gap) => {
            // The paired median when they shared rounds, as the winner's line states it.
            let ratio = gap.paired.as_ref().map_or(gap.ratio, |p| p.ratio.median);
            format!("{ratio:.2}× slower than {}", winner.design)
        }
        None => format!("{} slower than {}", median_ratio(b, winner), winner.design),
    }
}

/// `a`'s median time over `b`'s, as `1.2×` (`?×` without both).
fn median_ratio(a: &Benchmark, b: &Benchmark) -> String {
    match (ns(a), ns(b)) {
        (Some(x), Some(y)) => format!("{:.1}×", x / y.max(1e-9)),
        _ => "?×".to_string(),
    }
}

/// Why `b` wins or loses against `other`: `time` (how their times compare), then memory, D1
/// misses and allocator calls where they differ by more than 10%.
fn reason(time: &str, b: &Benchmark, other: &Benchmark) -> String {
    let mut parts = vec![time.to_string()];
    if let (Some(x), Some(y)) = (bytes_per_object(b), bytes_per_object(other))
        && y > 0.0
    {
        let change = (x - y) / y;
        if change <= -0.1 {
            parts.push(format!("{:.0}% less memory", -change * 100.0));
        } else if change >= 0.1 {
            parts.push(format!("{:.0}% more memory", change * 100.0));
        }
    }
    if let (Some(x), Some(y)) = (
        b.sim.as_ref().map(|s| s.d1_miss),
        other.sim.as_ref().map(|s| s.d1_miss),
    ) && x.max(y) > 1e-3
    {
        if x * 1.1 < y {
            parts.push(format!("{:.1}× fewer D1 misses per op", y / x.max(1e-6)));
        } else if y * 1.1 < x {
            parts.push(format!("{:.1}× more D1 misses per op", x / y.max(1e-6)));
        }
    }
    if let (Some(x), Some(y)) = (b.alloc_calls_per_op, other.alloc_calls_per_op)
        && (x - y).abs() > 0.1 * x.max(y)
        && x.max(y) > 1e-3
    {
        parts.push(if x < y {
            "fewer allocator calls".to_string()
        } else {
            "more allocator calls".to_string()
        });
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::advise::rank_benchmarks;
    use bench_harness::assemble::bench_results;
    use results::Rounds;
    use results::stats::median_interval;

    /// A verified benchmark timed in rounds (`Rounds::session` 1), one sample per round.
    fn timed(design: &str, samples: &[f64]) -> Benchmark {
        let mut b = Benchmark::new(results::Family::IdTable, "app", design, 200, 1);
        b.verified = true;
        b.status = Status::Verified;
        b.samples_ns_per_op = samples.to_vec();
        b.ns_per_op = median_interval(&mut samples.to_vec());
        b.rounds = Some(Rounds::new(1, 1, Vec::new()));
        b
    }

    fn advice(benchmarks: Vec<Benchmark>) -> Advice {
        let mut results = bench_results("advise", Vec::new(), Vec::new(), Vec::new(), benchmarks);
        let ranking = rank_benchmarks(&mut results);
        Advice {
            family: "id_table".to_string(),
            results,
            ranking,
            report: PathBuf::from("advise/index.html"),
            cache_skipped: Some("--no-cache-sim".to_string()),
        }
    }

    #[test]
    fn a_failed_design_is_followed_by_the_command_that_shrinks_it() {
        let mut failed = Benchmark::new(results::Family::IdTable, "app", "holey", 200, 1);
        failed.status = Status::Failed;
        failed.reason = Some("body digest differs from the model's".to_string());
        let mut advice = advice(vec![timed("first", &ROUNDS), failed]);
        crate::advise::note_shrink_commands(
            &mut advice.results,
            std::path::Path::new("recorded/app.trace"),
        );
        let summary = advice.summary();
        let lines: Vec<&str> = summary.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("  failed holey: body digest differs"))
            .unwrap_or_else(|| panic!("{summary}"));
        assert_eq!(
            lines[at + 1],
            "    shrink it: dodbench shrink recorded/app.trace --design holey --out \
             target/dodbench/shrink/holey-app",
            "{summary}"
        );
    }

    /// Per-round times whose absolute level swings from round to round, as on a busy machine.
    const ROUNDS: [f64; 10] = [10.0, 11.0, 9.0, 30.0, 10.0, 10.5, 9.5, 10.0, 12.0, 10.0];

    #[test]
    fn the_winner_line_states_its_lead_with_the_interval_over_the_rounds() {
        let advice = advice(vec![
            timed("third", &ROUNDS.map(|t| t * 1.5)),
            timed("second", &ROUNDS.map(|t| t * 1.2)),
            timed("first", &ROUNDS),
        ]);
        assert_eq!(advice.gap().unwrap().decided(), Some(true));
        let summary = advice.summary();
        let lines: Vec<&str> = summary.lines().collect();
        assert!(lines[1].starts_with("  1. first "), "{summary}");
        assert!(
            lines[1].ends_with(
                "faster than second: 1.200× [1.200, 1.200], winner faster in 100% of 10 rounds"
            ),
            "{summary}"
        );
        assert!(lines[2].ends_with("1.20× slower than first"), "{summary}");
        assert!(lines[3].ends_with("1.50× slower than first"), "{summary}");
        assert!(!summary.contains("cannot be told apart"), "{summary}");
    }

    #[test]
    fn a_top_two_that_trade_wins_are_not_told_apart() {
        // `close` wins every other round: the interval of the ratio holds 1.
        let close: Vec<f64> = ROUNDS
            .iter()
            .enumerate()
            .map(|(i, t)| if i % 2 == 0 { t * 0.97 } else { t * 1.04 })
            .collect();
        let advice = advice(vec![
            timed("close", &close),
            timed("steady", &ROUNDS),
            timed("slow", &ROUNDS.map(|t| t * 2.0)),
        ]);
        assert_eq!(advice.gap().unwrap().decided(), Some(false));
        let summary = advice.summary();
        let lines: Vec<&str> = summary.lines().collect();
        // Which of the two has the lower median does not matter: neither is named the winner.
        let top: Vec<&str> = advice.ranked().map(|b| b.design.as_str()).collect();
        let (first, second) = (top[0], top[1]);
        assert_eq!(top[2], "slow", "{summary}");
        assert!(
            lines[1].starts_with(&format!(
                "  {first} and {second} cannot be told apart on this trace: "
            )) && lines[1].ends_with("over 10 rounds"),
            "{summary}"
        );
        assert!(
            lines[2].ends_with(&format!("cannot be told apart from {second}")),
            "{summary}"
        );
        assert!(
            lines[3].ends_with(&format!("cannot be told apart from {first}")),
            "{summary}"
        );
        assert!(!lines[2].contains("faster than"), "{summary}");
        assert!(lines[4].starts_with("  3. slow "), "{summary}");
        assert!(
            lines[4].contains(&format!("× slower than {first}")),
            "{summary}"
        );
    }

    /// A reference loop of `design` timed in the same rounds.
    fn looped(design: &str, samples: &[f64]) -> Benchmark {
        let mut b = timed(&format!("ref-direct-{design}"), samples);
        b.family = results::Family::Reference;
        b.mirrors = Some(design.to_string());
        b
    }

    #[test]
    fn designs_that_all_have_loops_are_ranked_called_directly_too() {
        let slower = ROUNDS.map(|t| t * 1.2);
        // Through the trait `a` wins; its loop is the slower one.
        let advice = advice(vec![
            timed("a", &ROUNDS),
            timed("b", &slower),
            looped("a", &slower),
            looped("b", &ROUNDS),
        ]);
        let top: Vec<&str> = advice.ranked().map(|b| b.design.as_str()).collect();
        assert_eq!(top, ["a", "b"], "the loops are not ranked");
        let summary = advice.summary();
        assert!(
            summary.starts_with("advise: id_table trace \"\": 2 designs,"),
            "{summary}"
        );
        assert!(
            summary.contains(
                "  called directly (each design's reference loop): b fastest, then a (1.200× ["
            ),
            "{summary}"
        );
        assert!(
            summary.contains(
                "; differs from the ranking above, where a leads through the family's trait"
            ),
            "{summary}"
        );
        assert!(!summary.contains("failed ref-direct"), "{summary}");

        // The same order both ways: no "differs".
        let agreed = advice_of(
            &[("a", &ROUNDS), ("b", &slower)],
            &[("a", &ROUNDS), ("b", &slower)],
        );
        assert!(agreed.contains("called directly (each design's reference loop): a fastest"));
        assert!(!agreed.contains("differs"), "{agreed}");
        // A design without a loop: no such line.
        let partial = advice_of(&[("a", &ROUNDS), ("b", &slower)], &[("a", &ROUNDS)]);
        assert!(!partial.contains("called directly"), "{partial}");
    }

    /// The summary of `designs` and `loops` (design mirrored, samples).
    fn advice_of(designs: &[(&str, &[f64])], loops: &[(&str, &[f64])]) -> String {
        let benchmarks = designs
            .iter()
            .map(|(d, s)| timed(d, s))
            .chain(loops.iter().map(|(d, s)| looped(d, s)))
            .collect();
        advice(benchmarks).summary()
    }
}
