//! How far two runs of the same commit agree (an A/A check): what the measurement can resolve
//! on this machine, computed from the two results files, never typed.
//!
//! * **Resolution**: per benchmark timed in both runs, the ratio to its family's reference
//!   design on the same (workload, N) — the paired ratio of the rounds when the run has it,
//!   else the ratio of medians — and the distance `|ln(a / b)|` between the two runs' ratios.
//!   The 95th percentile of that distance, as a ratio difference (`exp(d) − 1`), is the
//!   smallest difference between two designs that two runs of the same code reproduce 19 times
//!   in 20: a change below it is noise.
//! * **Same winner**: per cell (family, workload, N) whose top two designs differ by more than
//!   [`DECISIVE_GAP`] in run A, whether run B names the same winner.
//! * **Overheads**: in each run, the range of the reference loops' `overhead` (the replay over
//!   its hand-written loop), apart for the loops of our own designs (the replay driver's and
//!   the trait's share, 1.0 where the loop calls the replay's own function) with how many lie
//!   within [`OVERHEAD_BAND`], and for the peers' loops (the crate called directly: the
//!   adapter's cost).

use std::fmt::Write;

use crate::ranking::{cells, paired, rank};
use crate::schema::{Benchmark, Results};

/// A cell's top two designs differ by more than this (runner-up ÷ winner) for its winner to
/// count in the same-winner rate.
pub const DECISIVE_GAP: f64 = 1.10;

/// The band a replay driver's overhead is held to: its loop and its replay within 5%.
pub const OVERHEAD_BAND: (f64, f64) = (0.95, 1.05);

/// The reference loops' overheads of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overheads {
    /// Range over the loops of our own designs (their design has no crate idiom).
    pub own: Option<(f64, f64)>,
    /// Of those loops, how many lie within [`OVERHEAD_BAND`], and how many there are.
    pub own_within: (usize, usize),
    /// Range over the loops of peers (the crate called directly).
    pub peers: Option<(f64, f64)>,
}

/// What two runs agree on.
#[derive(Debug, Clone, PartialEq)]
pub struct Agreement {
    /// Benchmarks with a ratio to their reference in both runs.
    pub compared: usize,
    /// Median of `|ln(ratio_a / ratio_b)|` as a ratio difference (`0.03` = 3%).
    pub median_difference: f64,
    /// 95th percentile of the same: the smallest difference the runs resolve.
    pub resolution: f64,
    /// Of them, how many ratios came from paired rounds in both runs.
    pub paired: usize,
    /// Cells whose top two differ by more than [`DECISIVE_GAP`] in run A and are ranked in B.
    pub decisive_cells: usize,
    /// Of those, cells where run B names the same winner.
    pub same_winner: usize,
    /// The decisive cells where the winners differ: `family/workload/N: a vs b`.
    pub disagreements: Vec<String>,
    /// The reference loops' overheads in run A and run B.
    pub overheads: [Overheads; 2],
}

/// `b`'s time over its family's reference design in the same cell of `run`, and whether it
/// is a paired ratio.
fn to_reference(run: &Results, cell: &[&Benchmark], b: &Benchmark) -> Option<(f64, bool)> {
    let reference = run.family_record(b.family)?.reference_design;
    if b.design == reference {
        return None;
    }
    let r = cell.iter().find(|o| o.design == reference && o.verified)?;
    if let Some(p) = paired(b, r) {
        return Some((p.ratio.median, true));
    }
    let (tb, tr) = (b.ns_per_op?.median, r.ns_per_op?.median);
    (b.verified && tb > 0.0 && tr > 0.0).then_some((tb / tr, false))
}

/// The 95th percentile of `values` (nearest rank; sorts in place); 0 for none.
fn p95(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    values[((values.len() as f64 * 0.95).ceil() as usize).clamp(1, values.len()) - 1]
}

fn range(values: &[f64]) -> Option<(f64, f64)> {
    let lo = values.iter().copied().reduce(f64::min)?;
    let hi = values.iter().copied().reduce(f64::max)?;
    Some((lo, hi))
}

/// `run`'s loop overheads, split by whether the mirrored design is a peer (its record names a
/// crate idiom) or ours (a loop whose design is not in the run counts as ours).
fn overheads(run: &Results) -> Overheads {
    let is_peer = |l: &Benchmark| {
        let mirrored = l.mirrors.as_deref();
        run.benchmarks
            .iter()
            .find(|b| {
                !b.family.is_reference()
                    && Some(b.design.as_str()) == mirrored
                    && b.workload == l.workload
                    && b.n == l.n
            })
            .and_then(|b| {
                run.designs
                    .iter()
                    .find(|d| d.family == b.family && d.name == b.design)
            })
            .is_some_and(|d| d.idiom.is_some())
    };
    let (mut own, mut peers) = (Vec::new(), Vec::new());
    for l in &run.benchmarks {
        if let Some(o) = l.overhead {
            if is_peer(l) { &mut peers } else { &mut own }.push(o);
        }
    }
    let (lo, hi) = OVERHEAD_BAND;
    Overheads {
        own: range(&own),
        own_within: (
            own.iter().filter(|&&o| (lo..=hi).contains(&o)).count(),
            own.len(),
        ),
        peers: range(&peers),
    }
}

/// How far runs `a` and `b` (of the same commit) agree.
pub fn agreement(a: &Results, b: &Results) -> Agreement {
    let (cells_a, cells_b) = (cells(a), cells(b));
    let mut distances = Vec::new();
    let mut paired_count = 0;
    let mut decisive_cells = 0;
    let mut same_winner = 0;
    let mut disagreements = Vec::new();
    for (key, cell_a) in &cells_a {
        let Some(cell_b) = cells_b.get(key) else {
            continue;
        };
        for da in cell_a {
            let Some(db) = cell_b.iter().find(|o| o.design == da.design) else {
                continue;
            };
            if let (Some((ra, pa)), Some((rb, pb))) =
                (to_reference(a, cell_a, da), to_reference(b, cell_b, db))
            {
                distances.push((ra / rb).ln().abs());
                paired_count += usize::from(pa && pb);
            }
        }
        let (Some(rank_a), Some(rank_b)) = (rank(cell_a), rank(cell_b)) else {
            continue;
        };
        if rank_a.gap.as_ref().is_some_and(|g| g.ratio > DECISIVE_GAP) {
            decisive_cells += 1;
            let (wa, wb) = (&rank_a.winner().design, &rank_b.winner().design);
            if wa == wb {
                same_winner += 1;
            } else {
                disagreements.push(format!("{}/{}/{}: {wa} vs {wb}", key.0, key.1, key.2));
            }
        }
    }
    let mut median_of = distances.clone();
    median_of.sort_by(f64::total_cmp);
    let median = median_of.get(median_of.len() / 2).copied().unwrap_or(0.0);
    Agreement {
        compared: distances.len(),
        median_difference: median.exp() - 1.0,
        resolution: p95(&mut distances).exp() - 1.0,
        paired: paired_count,
        decisive_cells,
        same_winner,
        disagreements,
        overheads: [overheads(a), overheads(b)],
    }
}

impl Agreement {
    /// The agreement as text, one finding per line.
    pub fn render(&self, label_a: &str, label_b: &str) -> String {
        let mut out = format!("A = {label_a}, B = {label_b}\n");
        let _ = writeln!(
            out,
            "ratios to the family's reference design: {} benchmarks in both runs ({} paired \
             in both); they differ by {:.1}% at the median and by at most {:.1}% in 95% of \
             them: the smallest difference these runs resolve",
            self.compared,
            self.paired,
            self.median_difference * 100.0,
            self.resolution * 100.0
        );
        let share = if self.decisive_cells == 0 {
            0.0
        } else {
            self.same_winner as f64 / self.decisive_cells as f64 * 100.0
        };
        let _ = writeln!(
            out,
            "same winner in {} of {} cells whose top two differ by more than {:.0}% in A \
             ({share:.1}%)",
            self.same_winner,
            self.decisive_cells,
            (DECISIVE_GAP - 1.0) * 100.0
        );
        for d in &self.disagreements {
            let _ = writeln!(out, "  winner differs: {d}");
        }
        let (band_lo, band_hi) = OVERHEAD_BAND;
        for (label, o) in [label_a, label_b].iter().zip(&self.overheads) {
            let _ = match o.own {
                Some((lo, hi)) => writeln!(
                    out,
                    "replay overheads in {label}, loops of our own designs: {lo:.3} to {hi:.3}, \
                     {} of {} within {band_lo:.2}-{band_hi:.2}",
                    o.own_within.0, o.own_within.1
                ),
                None => writeln!(
                    out,
                    "replay overheads in {label}, loops of our own designs: none measured"
                ),
            };
            if let Some((lo, hi)) = o.peers {
                let _ = writeln!(
                    out,
                    "replay overheads in {label}, peers' loops (the adapter's cost): {lo:.3} to \
                     {hi:.3}"
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;
    use crate::machine::{CacheSizes, Machine};
    use crate::schema::Status;
    use crate::stats::{Rounds, median_interval};

    fn run(times: &[(&str, &[f64])]) -> Results {
        let machine = Machine {
            name: "box".into(),
            cpu_model: "cpu".into(),
            cores: 2,
            caches: CacheSizes::default(),
            os: "linux".into(),
            arch: "x86_64".into(),
            hw_counters_available: false,
            hw_counters_reason: None,
        };
        let mut r = Results::empty(machine, "c".into(), "t".into(), 1, "quick");
        for (design, samples) in times {
            let mut b = Benchmark::new(Family::IdTable, "churn", design, 1000, 1);
            b.verified = true;
            b.status = Status::Verified;
            b.ns_per_op = median_interval(&mut samples.to_vec());
            b.samples_ns_per_op = samples.to_vec();
            b.rounds = Some(Rounds {
                session: 1,
                iters: 1,
                to_reference: None,
                to_best: None,
            });
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
            .map(|name| crate::schema::DesignRecord {
                family: Family::IdTable,
                name: name.into(),
                description: String::new(),
                kind: "tuned".into(),
                crate_version: None,
                id_bytes: 8,
                detects_stale: true,
                capacity: None,
                limits: None,
                idiom: (name == "slab").then(|| "Slab::get".to_string()),
                docs: None,
                adapter: None,
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
}
