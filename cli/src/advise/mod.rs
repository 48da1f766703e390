//! `dodbench advise TRACE`: which design for this recorded workload? Replays the trace (any
//! family, the format `dodbench replay` reads) on every design of its family, verified;
//! measures each verified design's memory (bytes per object, allocator calls per op, with the
//! counting allocator the `dodbench` binary installs); times the verified designs together in
//! interleaved rounds (`bench_harness::rounds`, as `cargo bench` times a cell), so a burst of
//! other work on the machine slows them alike; writes the results and the HTML report of that
//! one trace (the `reports` crate's pages, nothing built here); and ranks the designs by median
//! time with the reason each of the top three wins or loses, saying how sure the winner is
//! (`results::rank`: the interval of runner-up ÷ winner over the rounds) or that the top two
//! cannot be told apart.
//!
//! The family's reference loops that have the trace's shape are verified and timed in the same
//! rounds, each back to back with the design it mirrors: their `overhead` is in the results,
//! and where every ranked peer has one (each crate called directly, with no adapter; our
//! designs by their loops where they have one) the summary ranks the designs called directly
//! too and says when that names another winner (`results::rank_called_directly`).
//!
//! Designs that cannot run the trace are listed `unsupported` with their reason; wrong ones
//! `failed`. [`advise_with`] takes any [`DesignList`], so a user's crate ranks its own design
//! too ([`crate::external::advise`]).
//!
//! With valgrind installed, `dodbench advise` also simulates each verified design's cache
//! misses per op on the trace (the cache pass's child process, `dodbench sim-server`, on this
//! trace); without it, or from a user's crate (whose binary has no `sim-server`), it says why it
//! skipped them.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bench_harness::families::{AllFamilies, DesignList, ListVisitor};
use bench_harness::replay::{ExtraDesigns, Family};
use results::{Benchmark, Gap, Ranking, Results};
use workloads::AnyTrace;

mod measure;
mod summary;

use measure::advise_family;

/// How `advise` runs.
#[derive(Debug, Clone)]
pub struct AdviseOptions {
    /// Where the report goes (`index.html` and one family page); `results.json` is written
    /// beside them.
    pub out: PathBuf,
    /// Rounds of interleaved samples: every verified design is timed once per round, in an
    /// order shuffled per round, so each has this many samples (its median is ranked, and the
    /// runner-up ÷ winner ratios of the rounds say how sure the winner is). A sample is at
    /// least 1 ms of replays. Below 6 rounds the interval of a ratio is the range of its
    /// per-round values, short of 95% confidence.
    pub samples: usize,
    /// Simulate cache misses per op under valgrind (the running binary must be `dodbench`,
    /// whose `sim-server` replays built-in designs): `Err(reason)` skips it with that reason.
    pub cache: Result<(), String>,
    /// How many of the fastest verified designs the cache simulation runs on (`None`: all).
    /// Each design is one valgrind child of a few seconds to minutes; the default bounds the
    /// whole command to a couple of minutes on a 2-core machine.
    pub cache_top: Option<usize>,
    /// Print a line per design as it is verified, around the rounds, and as each simulation
    /// ends (to stderr).
    pub progress: bool,
}

/// The default of [`AdviseOptions::cache_top`].
pub const DEFAULT_CACHE_TOP: usize = 6;

impl Default for AdviseOptions {
    fn default() -> Self {
        Self {
            out: results::target_dir().join("dodbench").join("advise"),
            samples: 11,
            cache: Ok(()),
            cache_top: Some(DEFAULT_CACHE_TOP),
            progress: true,
        }
    }
}

/// What `advise` found: the results of the trace (one benchmark per design) and the ranking.
#[derive(Debug, Clone)]
pub struct Advice {
    /// The trace's family.
    pub family: String,
    /// One entry per design, ranked: verified designs by median ns per op, then the others;
    /// then one per reference loop the trace has the shape of (family `reference`, each
    /// mirroring a design, timed in the same rounds). Every verified one carries its
    /// [`results::Rounds`] and one sample per round.
    pub results: Results,
    /// Verified designs, fastest first by median (indices into `results.benchmarks`).
    pub ranking: Vec<usize>,
    /// The `index.html` written.
    pub report: PathBuf,
    /// Why simulated cache misses were not measured, if they were not.
    pub cache_skipped: Option<String>,
}

impl Advice {
    /// The benchmarks of the ranked (verified) designs, fastest first.
    pub fn ranked(&self) -> impl Iterator<Item = &Benchmark> {
        self.ranking.iter().map(|&i| &self.results.benchmarks[i])
    }

    /// The designs that could not run the trace or failed, with the reason.
    pub fn not_ranked(&self) -> impl Iterator<Item = &Benchmark> {
        self.designs().filter(|b| !b.verified)
    }

    /// Every design's entry, reference loops left out.
    fn designs(&self) -> impl Iterator<Item = &Benchmark> {
        self.results
            .benchmarks
            .iter()
            .filter(|b| !b.family.is_reference())
    }

    /// The ranked designs ranked again by the reference loops that call each one directly
    /// (a peer's crate with no adapter, our designs with no replay driver), when every
    /// ranked peer has one ([`results::rank_called_directly`]): the loops (and ours without
    /// one), fastest first.
    pub fn called_directly(&self) -> Option<Ranking<'_>> {
        let ranked: Vec<&Benchmark> = self.ranked().collect();
        let loops: Vec<&Benchmark> = self
            .results
            .benchmarks
            .iter()
            .filter(|b| b.family.is_reference())
            .collect();
        results::rank_called_directly(&ranked, &loops, |b| self.results.is_peer(b))
    }

    /// How far the runner-up trails the winner, and whether the two can be told apart
    /// ([`Gap::decided`]); `None` with fewer than two ranked designs.
    pub fn gap(&self) -> Option<Gap> {
        let mut ranked = self.ranked();
        let winner = ranked.next()?;
        gap_between(winner, ranked.next()?)
    }
}

/// Median ns per op of a verified benchmark.
fn ns(b: &Benchmark) -> Option<f64> {
    b.ns_per_op.as_ref().map(|e| e.median)
}

/// `slower` over `faster` (ranked in that order): paired round by round when they shared
/// rounds, else the ratio of their medians; `None` without two positive medians.
fn gap_between(faster: &Benchmark, slower: &Benchmark) -> Option<Gap> {
    results::rank(&[faster, slower])?.gap
}

/// `dodbench advise TRACE`: every built-in design of the trace's family.
///
/// # Errors
/// As [`advise_with`].
pub fn run(trace: &Path, options: &AdviseOptions) -> Result<Advice> {
    advise_with::<AllFamilies>(trace, options)
}

/// Gives every failed design of `results` the command that shrinks its failure on the trace
/// at `path` (`Benchmark::shrink`): `dodbench shrink` for a registered design, the library
/// call for one from another crate, which `dodbench` does not know by name.
pub(crate) fn note_shrink_commands(results: &mut Results, path: &Path) {
    let external: Vec<String> = results
        .designs
        .iter()
        .filter(|d| d.kind == "external")
        .map(|d| d.name.clone())
        .collect();
    for b in &mut results.benchmarks {
        if b.status != results::Status::Failed || b.family.is_reference() {
            continue;
        }
        b.shrink = Some(if external.contains(&b.design) {
            format!(
                "dodbench::external::shrink::<Family, YourDesign>(ShrinkSource::File({:?}), \
                 out_dir, time_limit) from a test or example of your crate",
                path
            )
        } else {
            crate::shrink::command("dodbench", crate::shrink::Source::File(path), &b.design)
        });
    }
}

/// Ranks the designs of `L` for the trace's family on the trace at `path`, writes
/// `results.json` and the report under `options.out`.
///
/// # Errors
/// The file is missing or not a valid trace, its family is not in `L`, `samples` is zero, or
/// the report cannot be written.
pub fn advise_with<L: DesignList>(path: &Path, options: &AdviseOptions) -> Result<Advice> {
    if options.samples == 0 {
        bail!("--samples must be at least 1");
    }
    let trace = workloads::format::load_any_from_path(path)
        .with_context(|| format!("cannot load trace {}", path.display()))?;
    let family = trace.family().to_string();
    let mut dispatch = Dispatch {
        trace: Some(trace),
        options,
        results: None,
    };
    L::for_each(&mut dispatch);
    let Some(results) = dispatch.results else {
        bail!("the trace's family {family} is not among the families run here");
    };
    let (mut results, cache_skipped) = results.map_err(anyhow::Error::msg)?;
    note_shrink_commands(&mut results, path);
    let ranking = rank_benchmarks(&mut results);
    results::create_output_dir(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let source = options.out.join("results.json");
    results.save(&source)?;
    let summary = reports::render(
        &results,
        &options.out,
        &reports::RenderOptions {
            title: Some(format!("dodbench advise: {}", path.display())),
            source: Some(source),
            ..Default::default()
        },
    )
    .context("cannot write the report")?;
    Ok(Advice {
        family,
        results,
        ranking,
        report: summary.index,
        cache_skipped,
    })
}

/// Sorts `results.benchmarks`: verified designs first, fastest first by median; then the
/// others in registry order; the reference loops last. Returns the indices of the verified
/// designs ([`Advice::ranking`]).
fn rank_benchmarks(results: &mut Results) -> Vec<usize> {
    let order = |b: &Benchmark| {
        (
            b.family.is_reference(),
            !b.verified,
            ns(b).unwrap_or(f64::INFINITY),
        )
    };
    results
        .benchmarks
        .sort_by(|a, b| order(a).partial_cmp(&order(b)).expect("no NaN"));
    (0..results.benchmarks.len())
        .filter(|&i| results.benchmarks[i].verified && !results.benchmarks[i].family.is_reference())
        .collect()
}

/// Runs the trace on the family of the list that it belongs to.
struct Dispatch<'a> {
    trace: Option<AnyTrace>,
    options: &'a AdviseOptions,
    results: Option<Result<(Results, Option<String>), String>>,
}

impl ListVisitor for Dispatch<'_> {
    fn visit<F: Family, X: ExtraDesigns<F>>(&mut self) {
        if self.trace.as_ref().is_none_or(|t| t.family() != F::NAME) {
            return;
        }
        let trace = self.trace.take().expect("checked above");
        self.results = Some(advise_family::<F, X>(trace, self.options));
    }
}
