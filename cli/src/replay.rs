//! `dodbench replay`: verifies and times a trace file (any family) on its family's designs and
//! prints a table.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bench_harness::families::{TraceVisitor, with_family};
use bench_harness::replay::{Design, Family, OpOf, ReplayerVisitor, Role, replayer_names};
use bench_harness::suite::PreparedTrace;
use bench_harness::timing::{TimedReplay, median_and_range};
use bench_harness::verify::{Outcome, check_design};
use indicatif::{ProgressBar, ProgressStyle};
use workloads::{Trace, TraceStats};

use crate::Gate;

/// The most timed replays per design `replay` runs: enough for any percentile a table shows,
/// and a bound on how long one command can run.
pub const MAX_SAMPLES: usize = 10_000;

/// Replays the trace at `path` on the `selected` designs (all when empty), `samples` timed
/// replays each.
///
/// # Errors
/// The file is not a valid trace, a design name is unknown, or `samples` is zero or above [`MAX_SAMPLES`].
pub fn run(path: &Path, selected: &[String], samples: usize) -> Result<Gate> {
    if samples == 0 {
        bail!("--samples must be at least 1");
    }
    if samples > MAX_SAMPLES {
        bail!(
            "--samples {samples} is above the limit {MAX_SAMPLES} (each sample is a full timed replay)"
        );
    }
    let trace = workloads::format::load_any_from_path(path)
        .with_context(|| format!("cannot load trace {}", path.display()))?;
    with_family(
        trace,
        ReplayFamily {
            path,
            selected,
            samples,
        },
    )
}

/// The replay of one trace on its family `F`'s designs.
struct ReplayFamily<'a> {
    path: &'a Path,
    selected: &'a [String],
    samples: usize,
}

impl TraceVisitor for ReplayFamily<'_> {
    type Output = Result<Gate>;

    fn visit<F: Family>(self, trace: Trace<OpOf<F>>) -> Result<Gate> {
        let known = replayer_names::<F>(None);
        for s in self.selected {
            if !known.contains(&s.as_str()) {
                bail!(
                    "unknown {} design {s:?}; valid designs: {}",
                    F::NAME,
                    known.join(", ")
                );
            }
        }
        let prepared = PreparedTrace::<F>::from_trace(trace).map_err(anyhow::Error::msg)?;
        let count = if self.selected.is_empty() {
            known.len()
        } else {
            self.selected.len()
        };
        let progress = ProgressBar::new(count as u64).with_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}").expect("valid template"),
        );
        let started = Instant::now();
        let mut visitor = ReplayDesign {
            prepared: &prepared,
            selected: self.selected,
            samples: self.samples,
            progress: &progress,
            rows: Vec::new(),
        };
        F::for_each_replayer(&mut visitor);
        progress.finish_and_clear();
        print_table(&prepared, self.samples, started.elapsed(), &visitor.rows);
        for row in visitor
            .rows
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
        {
            println!(
                "shrink {}'s failure: {}",
                row.design,
                crate::shrink::command(
                    "dodbench",
                    crate::shrink::Source::File(self.path),
                    row.design
                )
            );
        }
        Ok(Gate::Pass)
    }
}

/// One row of the replay table.
struct Row {
    design: &'static str,
    outcome: Outcome,
    ns_per_op: Option<(f64, f64, f64)>,
}

/// Verifies and times one design of family `F`.
struct ReplayDesign<'a, F: Family> {
    prepared: &'a PreparedTrace<F>,
    selected: &'a [String],
    samples: usize,
    progress: &'a ProgressBar,
    rows: Vec<Row>,
}

impl<F: Family> ReplayerVisitor<F> for ReplayDesign<'_, F> {
    fn visit_design(&mut self, design: &'static dyn Design<F>, _role: Role) {
        let name = design.name();
        if !self.selected.is_empty() && !self.selected.iter().any(|s| s == name) {
            return;
        }
        self.progress.set_message(name);
        let p = self.prepared;
        let mut outcome = check_design(design, &p.trace, &p.expected).outcome;
        let mut ns_per_op = None;
        if outcome.is_verified() {
            let ops = p.expected.stats.work_units().max(1) as f64;
            let mut timed = TimedReplay::new(design, &p.trace, &p.expected);
            let mut per_op = Vec::with_capacity(self.samples);
            for _ in 0..self.samples {
                match timed.run(1) {
                    Ok(d) => per_op.push(d.as_nanos() as f64 / ops),
                    Err(e) => {
                        outcome = Outcome::Failed(e);
                        break;
                    }
                }
            }
            if outcome.is_verified() && !per_op.is_empty() {
                ns_per_op = Some(median_and_range(&mut per_op));
            }
        }
        self.rows.push(Row {
            design: name,
            outcome,
            ns_per_op,
        });
        self.progress.inc(1);
    }
}

fn print_table<F: Family>(
    prepared: &PreparedTrace<F>,
    samples: usize,
    elapsed: Duration,
    rows: &[Row],
) {
    let stats = prepared.expected.stats;
    println!(
        "{} n={} seed={}: {} body work units, {} live at start ({} samples per design, {:.1?})",
        prepared.workload,
        prepared.n,
        prepared.seed,
        stats.work_units(),
        stats.live_at_start(),
        samples,
        Duration::from_secs_f64(elapsed.as_secs_f64())
    );
    let best = rows
        .iter()
        .filter_map(|r| r.ns_per_op.map(|t| t.0))
        .fold(f64::INFINITY, f64::min);
    let width = rows
        .iter()
        .map(|r| r.design.len())
        .max()
        .unwrap_or(0)
        .max(24);
    println!(
        "{:<width$} {:>12} {:>24} {:>8}  status",
        "design", "ns/op", "95% range", "vs best"
    );
    for r in rows {
        match r.ns_per_op {
            Some((median, lo, hi)) => println!(
                "{:<width$} {:>12.2} {:>11.2} .. {:<10.2} {:>7.2}x  verified",
                r.design,
                median,
                lo,
                hi,
                median / best
            ),
            None => println!(
                "{:<width$} {:>12} {:>24} {:>8}  {}: {}",
                r.design,
                "-",
                "",
                "",
                r.outcome.label(),
                r.outcome.reason().unwrap_or("")
            ),
        }
    }
}
