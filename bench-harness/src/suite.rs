//! The benchmark matrix shared by `cargo bench` and the CLI: which sizes and seed, which
//! traces, and the run metadata (designs, commit, toolchain) written to results.json.

use workloads::Trace;

use std::time::Duration;

use crate::replay::{Family, OpOf, Scale};
use crate::rounds::{LEAVE_SPENT_AFTER, RoundsBudget, SETTLED_PRECISION};
use crate::verify::Expected;
use results::DesignRecord;

/// Seed of every generated trace unless `DODBENCH_SEED` says otherwise.
pub const DEFAULT_SEED: u64 = 0xD0D_BE4C;

/// How a run is configured, from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteConfig {
    /// `DODBENCH_QUICK=1` (short measurement, small matrix) or `DODBENCH_FULL=1` (the
    /// exhaustive matrix); the default matrix otherwise.
    pub scale: Scale,
    /// `DODBENCH_SIZES=1000,65536`: the sizes of every family, overriding the families' own.
    pub sizes: Option<Vec<usize>>,
    /// Trace seed (`DODBENCH_SEED` overrides).
    pub seed: u64,
    /// `DODBENCH_FRESH=1`: the bench starts a new results file instead of merging into the
    /// one of the same commit, machine, mode and seed (`results::merge`).
    pub fresh: bool,
    /// `DODBENCH_TIMER`: how the bench times its benchmarks.
    pub timer: TimerKind,
    /// `DODBENCH_INSTANCES`: the instances each cell's rounds are split over
    /// ([`crate::instance`]); `None`: the scale's ([`SuiteConfig::instances`]).
    pub instances: Option<usize>,
    /// `DODBENCH_SHARD=k/n`: run only the cells of the `k`-th of `n` shards
    /// ([`results::shards::assign`]), for a run split over machines and merged with
    /// `dodbench merge`; `None`: every selected cell.
    pub shard: Option<results::shards::Shard>,
    /// `DODBENCH_SHARD_TIMES=FILE`: a results file whose bench step's cell times the shards'
    /// cells are dealt by (cells it lacks by the rounds budget, scaled to its times); every
    /// shard of a split must name the same file.
    pub shard_times: Option<std::path::PathBuf>,
}

/// The most instances `DODBENCH_INSTANCES` may ask for per cell.
pub const MAX_INSTANCES: usize = 16;

/// How `cargo bench` times a cell's designs (`DODBENCH_TIMER=rounds|criterion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimerKind {
    /// Interleaved rounds of every design of a cell (`crate::rounds`), the default at every
    /// scale: rankings and overheads as paired ratios with intervals.
    #[default]
    Rounds,
    /// Criterion, one benchmark after another: its statistics, its report under
    /// `target/criterion` and its `--save-baseline` / `--baseline` workflows.
    Criterion,
}

impl SuiteConfig {
    /// Reads `DODBENCH_QUICK`, `DODBENCH_FULL`, `DODBENCH_SIZES`, `DODBENCH_SEED`,
    /// `DODBENCH_FRESH`, `DODBENCH_TIMER` and `DODBENCH_INSTANCES`.
    ///
    /// # Errors
    /// A variable is set but unparsable, or both `DODBENCH_QUICK` and `DODBENCH_FULL` are set.
    pub fn from_env() -> Result<Self, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let flag = |name: &str| match var(name).as_deref().map(str::trim) {
            None | Some("0") | Some("false") => Ok(false),
            Some("1") | Some("true") => Ok(true),
            Some(other) => Err(format!("{name}={other}: use 1 or 0")),
        };
        let scale = match (flag("DODBENCH_QUICK")?, flag("DODBENCH_FULL")?) {
            (true, true) => {
                return Err("DODBENCH_QUICK and DODBENCH_FULL are both set: choose one".into());
            }
            (true, false) => Scale::Quick,
            (false, true) => Scale::Full,
            (false, false) => Scale::Default,
        };
        let sizes = match var("DODBENCH_SIZES") {
            None => None,
            Some(list) => Some(
                list.split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<usize>()
                            .ok()
                            .filter(|&n| n > 0 && n <= workloads::registry::MAX_N)
                            .ok_or_else(|| {
                                format!(
                                    "DODBENCH_SIZES: {s:?} is not an integer in 1..={}",
                                    workloads::registry::MAX_N
                                )
                            })
                    })
                    .collect::<Result<_, _>>()?,
            ),
        };
        let seed = match var("DODBENCH_SEED") {
            None => DEFAULT_SEED,
            Some(s) => s
                .trim()
                .parse()
                .map_err(|_| format!("DODBENCH_SEED={s}: not an unsigned integer"))?,
        };
        let fresh = flag("DODBENCH_FRESH")?;
        let timer = match var("DODBENCH_TIMER").as_deref().map(str::trim) {
            None | Some("rounds") => TimerKind::Rounds,
            Some("criterion") => TimerKind::Criterion,
            Some(other) => {
                return Err(format!(
                    "DODBENCH_TIMER={other}: use rounds (the default) or criterion"
                ));
            }
        };
        let instances = match var("DODBENCH_INSTANCES") {
            None => None,
            Some(s) => Some(
                s.trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|k| (1..=MAX_INSTANCES).contains(k))
                    .ok_or_else(|| {
                        format!("DODBENCH_INSTANCES={s}: not an integer in 1..={MAX_INSTANCES}")
                    })?,
            ),
        };
        let shard = var("DODBENCH_SHARD")
            .map(|s| s.parse().map_err(|e| format!("DODBENCH_SHARD: {e}")))
            .transpose()?;
        let shard_times = var("DODBENCH_SHARD_TIMES").map(std::path::PathBuf::from);
        Ok(Self {
            scale,
            sizes,
            seed,
            fresh,
            timer,
            instances,
            shard,
            shard_times,
        })
    }

    /// The instances each cell's rounds are split over ([`crate::instance`]): what
    /// `DODBENCH_INSTANCES` asks, else 3 at the default and full scales and 1 in a quick run.
    /// One build of a design's state is one draw of its layout, which the rounds of one process
    /// never vary, so the intervals of a single instance miss the variation between runs (the
    /// reference run's A/A block, `docs/methodology.md`). Three is the fewest whose spread says
    /// anything (with two, the interval over instances is twelve times their standard error).
    /// A quick run's budget has no room for the builds of three (each instance builds every
    /// design's state again; `id_table/lookup-uniform` at 1M objects shows the cost), and the
    /// CI gate reads no time of it. Every cell's designs run in processes of their own whatever
    /// this says.
    pub fn instances(&self) -> usize {
        self.instances.unwrap_or(match self.scale {
            Scale::Quick => 1,
            Scale::Default | Scale::Full => 3,
        })
    }

    /// Whether this is a quick run.
    pub fn quick(&self) -> bool {
        self.scale == Scale::Quick
    }

    /// The sizes family `F` runs at: `DODBENCH_SIZES` if set, else the family's matrix at this
    /// scale ([`Family::bench_sizes`]).
    pub fn sizes_for<F: Family>(&self) -> Vec<usize> {
        self.sizes
            .clone()
            .unwrap_or_else(|| F::bench_sizes(self.scale))
    }

    /// The sizes `workload` of family `F` runs at: `DODBENCH_SIZES` if set, else
    /// [`Family::workload_bench_sizes`] at this scale.
    pub fn sizes_for_workload<F: Family>(&self, workload: &str) -> Vec<usize> {
        self.sizes
            .clone()
            .unwrap_or_else(|| F::workload_bench_sizes(workload, self.scale))
    }

    /// The time the rounds of a cell may take at this scale (`crate::rounds`).
    pub fn rounds_budget(&self) -> RoundsBudget {
        match self.scale {
            Scale::Quick => RoundsBudget {
                per_contestant: Duration::from_millis(30),
                min_sample: Duration::from_micros(500),
                min_rounds: 10,
                max_rounds: 60,
                extra_per_contestant: Duration::from_millis(30),
                precision: SETTLED_PRECISION,
                leave_spent_after: Some(LEAVE_SPENT_AFTER),
            },
            Scale::Default => RoundsBudget {
                per_contestant: Duration::from_millis(200),
                min_sample: Duration::from_millis(1),
                min_rounds: 15,
                max_rounds: 150,
                extra_per_contestant: Duration::from_millis(200),
                precision: SETTLED_PRECISION,
                leave_spent_after: Some(LEAVE_SPENT_AFTER),
            },
            Scale::Full => RoundsBudget {
                per_contestant: Duration::from_millis(800),
                min_sample: Duration::from_millis(2),
                min_rounds: 20,
                max_rounds: 400,
                extra_per_contestant: Duration::from_millis(800),
                precision: SETTLED_PRECISION,
                leave_spent_after: Some(LEAVE_SPENT_AFTER),
            },
        }
    }

    /// `quick`, `default` or `full`, as stored in results.
    pub fn mode(&self) -> &'static str {
        match self.scale {
            Scale::Quick => "quick",
            Scale::Default => "default",
            Scale::Full => "full",
        }
    }
}

/// A generated, validated trace of family `F` with the model's answers.
pub struct PreparedTrace<F: Family> {
    /// Generator name.
    pub workload: String,
    /// Live size.
    pub n: usize,
    /// Seed.
    pub seed: u64,
    /// The trace.
    pub trace: Trace<OpOf<F>>,
    /// What a correct replay observes.
    pub expected: Expected<F>,
}

impl<F: Family> PreparedTrace<F> {
    /// Generates `workload` at size `n` with default parameters and computes its answers.
    ///
    /// # Errors
    /// Unknown workload, or a generator produced an invalid trace (a bug, reported clearly).
    pub fn generate(workload: &str, n: usize, seed: u64) -> Result<Self, String> {
        let trace = workloads::registry::generate_for::<OpOf<F>>(workload, n, seed, None)
            .map_err(|e| e.to_string())?;
        Self::from_trace(trace)
    }

    /// Wraps `trace` with the answers `expected` a model replay of it gave before (in another
    /// process that generated the same trace): no replay here.
    ///
    /// # Errors
    /// `expected` cannot be the answers of `trace`: its counts differ from the trace's.
    pub fn with_expected(trace: Trace<OpOf<F>>, expected: Expected<F>) -> Result<Self, String> {
        let stats = trace
            .validate()
            .map_err(|e| format!("trace of {} is invalid: {e}", trace.header.generator))?;
        if stats != expected.stats {
            return Err(format!(
                "the answers sent with {} are of another trace (its counts differ)",
                trace.header.generator
            ));
        }
        Ok(Self::of(trace, expected))
    }

    /// `trace` with its answers, named by its header.
    fn of(trace: Trace<OpOf<F>>, expected: Expected<F>) -> Self {
        Self {
            workload: trace.header.generator.clone(),
            n: trace.header.n as usize,
            seed: trace.header.seed,
            trace,
            expected,
        }
    }

    /// Wraps a trace loaded from a file or recorded.
    ///
    /// # Errors
    /// The trace is invalid.
    pub fn from_trace(trace: Trace<OpOf<F>>) -> Result<Self, String> {
        let expected = Expected::of(&trace)
            .map_err(|e| format!("trace of {} is invalid: {e}", trace.header.generator))?;
        Ok(Self::of(trace, expected))
    }
}

/// `git rev-parse HEAD` of the working tree of the current directory (`-dirty` if it has
/// uncommitted changes: the user's project, where `cargo bench` runs its binaries, not the
/// folder dodbench was compiled in), from `DODBENCH_COMMIT` if set, else `unknown` outside a
/// git checkout.
pub fn current_commit() -> String {
    if let Ok(c) = std::env::var("DODBENCH_COMMIT") {
        return c;
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{head}-dirty") } else { head }
        }
        None => "unknown".to_string(),
    }
}

/// The compiler that built this crate.
pub fn toolchain() -> &'static str {
    env!("DODBENCH_RUSTC_VERSION")
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The table of family `F`'s designs in `docs/families.md`, generated from its registry (a test
/// keeps the page equal to it). Families whose designs state their limits in their own terms
/// get a limits column; the others the ID columns (ID bytes, stale detection, capacity).
pub fn designs_markdown<F: Family>() -> String {
    let records = F::design_records();
    let with_limits = records.iter().any(|r| r.limits.is_some());
    let mut out = String::from(if with_limits {
        "| design | kind | limits | description |\n| --- | --- | --- | --- |\n"
    } else {
        "| design | kind | ID bytes | detects stale IDs | capacity | description |\n\
         | --- | --- | --- | --- | --- | --- |\n"
    });
    for r in &records {
        let limits = if with_limits {
            r.limits.clone().unwrap_or_default()
        } else {
            format!(
                "{} | {} | {}",
                r.id_bytes,
                if r.detects_stale { "yes" } else { "**no**" },
                r.capacity.map_or("growable".to_string(), |c| c.to_string()),
            )
        };
        let usage = match (&r.idiom, &r.docs) {
            (Some(idiom), Some(docs)) => format!(" Used as: {idiom} ([docs]({docs}))."),
            _ => String::new(),
        };
        let usage = match &r.adapter {
            Some(adapter) => format!("{usage} Adapter adds: {adapter}"),
            None => usage,
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {}{usage} |\n",
            r.name,
            kind_cell(r),
            limits,
            r.description
        ));
    }
    out
}

/// The table of the workloads of `family` and their parameters in `docs/workloads.md`,
/// generated from the registry.
pub fn workloads_markdown<F: Family>() -> String {
    let mut out = String::from(
        "| workload | what the timed body does | parameters (default) |\n| --- | --- | --- |\n",
    );
    for w in workloads::registry::workloads_of(F::NAME) {
        let params = w
            .params
            .iter()
            .map(|p| format!("`{}` ({})", p.name, p.default))
            .collect::<Vec<_>>()
            .join(", ");
        let remark = match (w.needs_stale_detection, w.variant_of) {
            (true, _) => " (needs stale-ID detection)".to_string(),
            (false, Some(base)) => {
                format!(" (a point of `{base}`'s parameter sweep: default and full runs only)")
            }
            (false, None) => String::new(),
        };
        out.push_str(&format!(
            "| `{}` | {}{} | {} |\n",
            w.name,
            w.description,
            remark,
            if params.is_empty() {
                "-".to_string()
            } else {
                params
            }
        ));
    }
    out
}

/// The row of family `F` in the families table of `docs/families.md` (sizes, pass workloads,
/// time reference), generated from its [`Family`] impl.
pub fn family_row_markdown<F: Family>() -> String {
    let sizes = |v: Vec<usize>| {
        v.iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let names = |v: &[&str]| {
        v.iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "| `{}` ({}) | `{}` | {} / {} / {} | {} / {} | {} | {} | {} | {} |\n",
        F::NAME,
        F::TITLE,
        F::REFERENCE_DESIGN,
        sizes(F::bench_sizes(Scale::Quick)),
        sizes(F::bench_sizes(Scale::Default)),
        sizes(F::bench_sizes(Scale::Full)),
        sizes(F::pass_sizes(true)),
        sizes(F::pass_sizes(false)),
        if F::SCALING_WORKLOADS.is_empty() {
            names(F::MEMORY_BOUND_WORKLOADS)
        } else {
            format!(
                "{}; sweep also {}",
                names(F::MEMORY_BOUND_WORKLOADS),
                names(F::SCALING_WORKLOADS)
            )
        },
        names(F::MEMORY_WORKLOADS),
        names(F::LATENCY_WORKLOADS),
        F::SWEEP_MAX_N,
    )
}

/// The header of the families table of `docs/families.md`.
pub const FAMILIES_TABLE_HEADER: &str = "| family | time reference | bench sizes (quick / default / \
     full) | pass sizes (quick / full) | cache and sweep workloads | memory workloads | latency \
     workloads | sweep up to |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";

/// `peer (`crate` version)` or the kind label.
fn kind_cell(r: &DesignRecord) -> String {
    match &r.crate_version {
        Some(cv) => {
            let (name, version) = cv.split_once(' ').unwrap_or((cv, ""));
            format!("peer (`{name}` {version})")
        }
        None => r.kind.clone(),
    }
}
