//! The measurement subcommands (`cache`, `memory`, `latency`, `sweep`), for every family: each
//! is a [`Pass`] (its default workloads and sizes per family, the measurement it runs per
//! trace, where its output goes), run by one generic driver over the selected families with a
//! progress bar, and merged into the results file by `bench_harness::assemble::merge_row`.

pub mod cache;
pub mod latency;
pub mod memory;
pub mod sweep;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bench_harness::assemble::{load_or_new, merge_row};
use bench_harness::families::{FamilyVisitor, check_family, family_names, for_each_family};
use bench_harness::measure::{
    DesignMeasure, DesignRow, Selection, design_names, for_each_verified,
};
use bench_harness::replay::{Family, reference_loop_names};
use bench_harness::suite::{DEFAULT_SEED, PreparedTrace};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use results::shards::{Shard, ShardRecord, assign, plan_digest};
use results::{Benchmark, Results, StepRecord, default_results_path};

/// The matrix options shared by the measurement subcommands.
#[derive(Debug, Clone, Args)]
pub struct MatrixArgs {
    /// The smaller default matrix (for CI).
    #[arg(long)]
    pub quick: bool,
    /// Results file to merge into (created if missing); default target/dodbench/results.json.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Family (repeatable); every family when omitted.
    #[arg(long = "family")]
    pub families: Vec<String>,
    /// Workload (repeatable); the command's default set of each family when omitted.
    #[arg(long = "workload")]
    pub workloads: Vec<String>,
    /// Design (repeatable); every design when omitted.
    #[arg(long = "design")]
    pub designs: Vec<String>,
    /// Live size N (repeatable); the command's default sizes of each family when omitted.
    #[arg(long = "n")]
    pub sizes: Vec<usize>,
    /// Trace seed.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Only shard K of N of the selection (`2/3`), into the results file of the bench's same
    /// shard (`DODBENCH_SHARD=K/N cargo bench`): whole cells (a family, workload and N) dealt
    /// longest first, as the bench deals its own, so every shard of a CI matrix measures its
    /// part and `dodbench merge` checks the parts make the whole pass.
    #[arg(long)]
    pub shard: Option<Shard>,
}

impl MatrixArgs {
    /// The results file to merge into.
    pub fn out(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(default_results_path)
    }

    /// `quick` or `full`.
    pub fn mode(&self) -> &'static str {
        if self.quick { "quick" } else { "full" }
    }

    /// The selection in words, as the command line gave it (e.g. `--quick --family tags`);
    /// empty for the full default matrix.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.quick {
            parts.push("--quick".to_string());
        }
        let named = [
            ("family", &self.families),
            ("workload", &self.workloads),
            ("design", &self.designs),
        ];
        for (flag, values) in named {
            parts.extend(values.iter().map(|v| format!("--{flag} {v}")));
        }
        parts.extend(self.sizes.iter().map(|n| format!("--n {n}")));
        if self.seed != DEFAULT_SEED {
            parts.push(format!("--seed {}", self.seed));
        }
        parts.join(" ")
    }

    /// Whether family `name` is selected.
    fn selects_family(&self, name: &str) -> bool {
        self.families.is_empty() || self.families.iter().any(|f| f == name)
    }

    /// Checks the named families, and that every named workload and design belongs to a
    /// selected family.
    ///
    /// # Errors
    /// The first unknown name, with the valid ones.
    pub fn validate(&self) -> Result<()> {
        for f in &self.families {
            check_family(f).map_err(anyhow::Error::msg)?;
        }
        struct Known<'a> {
            args: &'a MatrixArgs,
            workloads: Vec<&'static str>,
            designs: Vec<&'static str>,
        }
        impl FamilyVisitor for Known<'_> {
            fn visit<F: Family>(&mut self) {
                if self.args.selects_family(F::NAME) {
                    self.workloads.extend(
                        workloads::registry::workloads_of(F::NAME)
                            .iter()
                            .map(|w| w.name),
                    );
                    self.designs.extend(design_names::<F>());
                }
            }
        }
        let mut known = Known {
            args: self,
            workloads: Vec::new(),
            designs: Vec::new(),
        };
        for_each_family(&mut known);
        let families = if self.families.is_empty() {
            family_names().join(", ")
        } else {
            self.families.join(", ")
        };
        for w in &self.workloads {
            if !known.workloads.contains(&w.as_str()) {
                bail!(
                    "unknown workload {w:?} in families {families}; valid workloads: {}",
                    known.workloads.join(", ")
                );
            }
        }
        for d in &self.designs {
            if !known.designs.contains(&d.as_str()) {
                bail!(
                    "unknown design {d:?} in families {families}; valid designs: {}",
                    known.designs.join(", ")
                );
            }
        }
        if self.sizes.contains(&0) {
            bail!("--n must be positive");
        }
        if let Some(&n) = self.sizes.iter().find(|&&n| n > workloads::registry::MAX_N) {
            bail!(
                "--n {n} is above the largest size {}",
                workloads::registry::MAX_N
            );
        }
        Ok(())
    }

    /// Family `F`'s selection with `default_workloads` and `default_sizes` where the command
    /// line names none; `None` when the family is not selected or none of the named workloads
    /// or designs is its.
    fn selection<F: Family>(
        &self,
        default_workloads: &[&str],
        default_sizes: Vec<usize>,
    ) -> Option<Selection> {
        if !self.selects_family(F::NAME) {
            return None;
        }
        let all: Vec<&str> = workloads::registry::workloads_of(F::NAME)
            .iter()
            .map(|w| w.name)
            .collect();
        let workloads: Vec<String> = if self.workloads.is_empty() {
            default_workloads.iter().map(|w| w.to_string()).collect()
        } else {
            self.workloads
                .iter()
                .filter(|w| all.contains(&w.as_str()))
                .cloned()
                .collect()
        };
        let known = design_names::<F>();
        let designs: Vec<String> = self
            .designs
            .iter()
            .filter(|d| known.contains(&d.as_str()))
            .cloned()
            .collect();
        if workloads.is_empty() || (!self.designs.is_empty() && designs.is_empty()) {
            return None;
        }
        Some(Selection {
            workloads,
            designs,
            sizes: if self.sizes.is_empty() {
                default_sizes
            } else {
                self.sizes.clone()
            },
        })
    }
}

/// A cell's ID, `family/workload/n`, as the pass's shards deal them.
fn cell_id<F: Family>(workload: &str, n: usize) -> String {
    format!("{}/{workload}/{n}", F::NAME)
}

/// The cells (`family/workload/n`) of `args`'s selection of `pass` in `args.shard`'s part, and
/// the record of that part for the pass's step; `None` without `--shard`.
fn shard_part<P: Pass>(args: &MatrixArgs, pass: &P) -> Option<(HashSet<String>, ShardRecord)> {
    struct Cells<'a, P> {
        args: &'a MatrixArgs,
        pass: &'a P,
        cells: Vec<(String, f64)>,
    }
    impl<P: Pass> FamilyVisitor for Cells<'_, P> {
        fn visit<F: Family>(&mut self) {
            let defaults = self.pass.workloads::<F>();
            let sizes = self.pass.sizes::<F>(self.args.quick);
            let Some(selection) = self.args.selection::<F>(&defaults, sizes) else {
                return;
            };
            // The pass's time grows with the designs it measures and with N.
            let designs = selection.design_count::<F>() as f64;
            for workload in &selection.workloads {
                for &n in &selection.sizes {
                    self.cells
                        .push((cell_id::<F>(workload, n), designs * n as f64));
                }
            }
        }
    }
    let shard = args.shard?;
    let mut cells = Cells {
        args,
        pass,
        cells: Vec::new(),
    };
    for_each_family(&mut cells);
    let shard_of = assign(&cells.cells, shard.count);
    let ids: Vec<&str> = cells.cells.iter().map(|(id, _)| id.as_str()).collect();
    let mine: HashSet<String> = ids
        .iter()
        .zip(&shard_of)
        .filter(|&(_, &k)| k + 1 == shard.index as usize)
        .map(|(id, _)| id.to_string())
        .collect();
    let record = ShardRecord {
        shard,
        selected: ids.len(),
        ran: mine.len(),
        plan: plan_digest(&ids, &shard_of),
    };
    Some((mine, record))
}

/// A measurement subcommand: what it measures on each family and where the result goes.
pub trait Pass {
    /// The measurement run on each design.
    type Measure: DesignMeasure;

    /// The step name the pass records in the results file (see [`StepRecord`]).
    const NAME: &'static str;

    /// Whether the pass writes benchmark entries (and so records what its selection
    /// excluded); a pass that writes elsewhere (the sweep) records no step.
    const MERGES_BENCHMARKS: bool = true;

    /// The pass's default workloads of family `F`.
    fn workloads<F: Family>(&self) -> Vec<&'static str>;

    /// The pass's default sizes of family `F`: by default the family's sizes for the passes
    /// ([`Family::pass_sizes`]).
    fn sizes<F: Family>(&self, quick: bool) -> Vec<usize> {
        F::pass_sizes(quick)
    }

    /// The measurement for one prepared trace (e.g. with the trace written to a file).
    ///
    /// # Errors
    /// It cannot be prepared (a file cannot be written).
    fn for_trace<F: Family>(&mut self, prepared: &PreparedTrace<F>) -> Result<Self::Measure>;

    /// Stores one design's measurement (or why it failed) in its results entry.
    fn store(
        &mut self,
        entry: &mut Benchmark,
        measured: Result<<Self::Measure as DesignMeasure>::Output, String>,
    );

    /// Merges one design's row into `results`: by default its verdict and memory into its
    /// benchmark entry ([`merge_row`]) and the measurement through [`store`](Pass::store).
    fn merge<F: Family>(
        &mut self,
        results: &mut Results,
        prepared: &PreparedTrace<F>,
        seed: u64,
        row: DesignRow<<Self::Measure as DesignMeasure>::Output>,
    ) {
        merge_row(results, prepared, seed, row, &mut |entry, m| {
            self.store(entry, m)
        });
    }
}

/// A progress bar with elapsed time.
pub fn progress(total: usize) -> ProgressBar {
    ProgressBar::new(total as u64).with_style(
        ProgressStyle::with_template("{elapsed_precise} {bar:30} {pos}/{len} {msg}")
            .expect("valid template"),
    )
}

/// Runs `pass` over every selected family, workload and size, calling `on_row` with each
/// design's row (after it is measured) and its prepared trace's family name, workload and n.
struct Driver<'a, P: Pass> {
    args: &'a MatrixArgs,
    pass: &'a mut P,
    results: &'a mut Results,
    error: Option<anyhow::Error>,
    /// Families with something selected.
    selected: usize,
    /// Every benchmark ID the pass would measure with no selection (its default workloads of
    /// every family, at its quick and full sizes, every design).
    universe: Vec<String>,
    /// The benchmark IDs it measured.
    measured: Vec<String>,
    /// With `--shard`: the cells (`family/workload/n`) of this shard's part.
    part: Option<&'a HashSet<String>>,
}

impl<P: Pass> FamilyVisitor for Driver<'_, P> {
    fn visit<F: Family>(&mut self) {
        if self.error.is_some() {
            return;
        }
        let mut sizes = self.pass.sizes::<F>(true);
        sizes.extend(self.pass.sizes::<F>(false));
        sizes.sort_unstable();
        sizes.dedup();
        let designs = design_names::<F>();
        let loops = reference_loop_names::<F>();
        for workload in self.pass.workloads::<F>() {
            for n in &sizes {
                for design in &designs {
                    let family = F::RESULTS_FAMILY;
                    self.universe
                        .push(format!("{family}/{workload}/{design}/{n}"));
                }
                for name in &loops {
                    let family = results::Family::Reference;
                    self.universe
                        .push(format!("{family}/{workload}/{name}/{n}"));
                }
            }
        }
        let Some(selection) = self.args.selection::<F>(
            &self.pass.workloads::<F>(),
            self.pass.sizes::<F>(self.args.quick),
        ) else {
            return;
        };
        self.selected += 1;
        match run_family::<F, P>(self.args, &selection, self.part, self.pass, self.results) {
            Ok(measured) => self.measured.extend(measured),
            Err(e) => self.error = Some(e),
        }
    }
}

fn run_family<F: Family, P: Pass>(
    args: &MatrixArgs,
    selection: &Selection,
    part: Option<&HashSet<String>>,
    pass: &mut P,
    results: &mut Results,
) -> Result<Vec<String>> {
    let mut measured = Vec::new();
    let mine = |workload: &str, n: usize| {
        part.is_none_or(|cells| cells.contains(&cell_id::<F>(workload, n)))
    };
    let cells = selection
        .workloads
        .iter()
        .flat_map(|w| selection.sizes.iter().map(move |&n| (w, n)))
        .filter(|&(w, n)| mine(w, n))
        .count();
    let bar = progress(cells * selection.design_count::<F>());
    for workload in &selection.workloads {
        for &n in &selection.sizes {
            if !mine(workload, n) {
                continue;
            }
            bar.set_message(format!("{}/{workload} n={n}: generating", F::NAME));
            let prepared = PreparedTrace::<F>::generate(workload, n, args.seed)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("cannot prepare {workload} at n={n}"))?;
            let mut measure = pass.for_trace(&prepared)?;
            let rows: Vec<DesignRow<_>> =
                for_each_verified(&prepared, selection, &mut measure, &mut |d| {
                    bar.set_message(format!("{}/{workload} n={n}: {d} done", F::NAME));
                    bar.inc(1);
                });
            for row in rows {
                if let Some(Err(e)) = &row.measured {
                    bar.suspend(|| {
                        eprintln!("dodbench: {}/{workload}/{}/{n}: {e}", F::NAME, row.design)
                    });
                }
                let family = if row.reference {
                    results::Family::Reference
                } else {
                    F::RESULTS_FAMILY
                };
                measured.push(format!("{family}/{workload}/{}/{n}", row.design));
                pass.merge(results, &prepared, args.seed, row);
            }
        }
    }
    bar.finish_and_clear();
    Ok(measured)
}

/// Runs `pass` over the matrix `args` selects and merges it into the results file.
///
/// # Errors
/// Bad arguments, a trace that cannot be prepared, or the results file cannot be read or
/// written.
pub fn run<P: Pass>(args: &MatrixArgs, pass: &mut P) -> Result<()> {
    args.validate()?;
    let path = args.out();
    let mut results = load_or_new(&path, args.mode())?;
    run_into(args, pass, &mut results)?;
    save(&results, &path)
}

/// Runs `pass` over the matrix `args` selects, merging into `results` (not saved).
///
/// # Errors
/// A trace cannot be prepared.
pub fn run_into<P: Pass>(args: &MatrixArgs, pass: &mut P, results: &mut Results) -> Result<()> {
    let started = std::time::Instant::now();
    let part = shard_part(args, pass);
    if let Some((_, record)) = &part {
        let shard = record.shard;
        match results.shard.as_ref().map(|r| r.shard) {
            Some(theirs) if theirs == shard => {}
            Some(theirs) => bail!(
                "--shard {shard}: the results file is shard {theirs} of its run; give this \
                 pass the file of shard {shard} with --out"
            ),
            None => bail!(
                "--shard {shard}: the results file is not a shard's; run \
                 `DODBENCH_SHARD={shard} cargo bench` first, or give its file with --out"
            ),
        }
    }
    let mut driver = Driver {
        args,
        pass,
        results,
        error: None,
        selected: 0,
        universe: Vec::new(),
        measured: Vec::new(),
        part: part.as_ref().map(|(cells, _)| cells),
    };
    for_each_family(&mut driver);
    if let Some(e) = driver.error {
        return Err(e);
    }
    if driver.selected == 0 {
        bail!(
            "no family has both the named workloads and designs (see `dodbench list`); nothing \
             to measure"
        );
    }
    if P::MERGES_BENCHMARKS {
        let mut step = StepRecord::new(P::NAME, &args.describe(), driver.universe, driver.measured);
        step.seconds = Some(started.elapsed().as_secs());
        step.shard = part.map(|(_, record)| record);
        results.steps.push(step);
    }
    Ok(())
}

/// Saves the merged results.
///
/// # Errors
/// The file cannot be written.
pub fn save(results: &Results, path: &Path) -> Result<()> {
    results.save(path)?;
    println!("dodbench: merged into {}", path.display());
    Ok(())
}
