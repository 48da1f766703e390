//! `dodbench shrink`: a failed verification reduced to the smallest trace found that still fails
//! the same way (`bench_harness::shrink`), written into a directory of its own: the trace
//! (`shrunk.trace`, which `dodbench replay` reads), a one-page account of the failure
//! (`failure.txt`), and, for a peer whose calls its family can write out, a standalone program
//! that shows the failure with the crate alone (`repro/`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bench_harness::families::{TraceVisitor, with_family};
use bench_harness::replay::{Design, Family, OpOf, ReplayerVisitor, Role, replayer_names};
use bench_harness::shrink::{Progress, Shrunk, shrink};
use indicatif::{ProgressBar, ProgressStyle};
use workloads::{AnyTrace, Trace};

use crate::Gate;

/// The time limit of a shrink unless `--time-limit` says otherwise.
pub const DEFAULT_TIME_LIMIT_SECS: u64 = 120;

/// The longest `--time-limit` accepted: a day.
pub const MAX_TIME_LIMIT_SECS: u64 = 24 * 60 * 60;

/// Ops of the shrunk trace `failure.txt` lists (all of them when there are no more).
const LISTED_OPS: usize = 200;

/// Where the failing trace comes from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// A trace file (`dodbench gen`, a recording, `convert-wee-alloc`).
    File(&'a Path),
    /// A workload generated as `cargo bench` generates it (default parameters).
    Workload {
        /// Workload name.
        name: &'a str,
        /// Live size.
        n: usize,
        /// Seed.
        seed: u64,
    },
}

impl Source<'_> {
    /// The arguments of `dodbench shrink` that name this trace.
    fn arguments(&self) -> String {
        match self {
            Source::File(path) => shell_word(&path.display().to_string()),
            Source::Workload { name, n, seed } => {
                format!("--workload {name} --n {n} --seed {seed}")
            }
        }
    }
}

/// The one command that shrinks `design`'s failure on the trace of `source` into
/// `target/dodbench/shrink/<design>-<what>`, as `program` (the path the user runs dodbench by)
/// would run it: what `cargo bench`, `replay` and `advise` print for every failed verification.
pub fn command(program: &str, source: Source<'_>, design: &str) -> String {
    let what = match source {
        Source::File(path) => path
            .file_stem()
            .map_or_else(|| "trace".to_string(), |s| s.to_string_lossy().into_owned()),
        Source::Workload { name, n, .. } => format!("{name}-{n}"),
    };
    let out = format!("target/dodbench/shrink/{design}-{what}");
    format!(
        "{program} shrink {} --design {design} --out {}",
        source.arguments(),
        shell_word(&out)
    )
}

/// `s` quoted for a POSIX shell when it holds anything but plain path characters.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Shrinks `design`'s failure on the trace of `source` within `time_limit` and writes the
/// result into the directory `out` (created if missing, once there is something to write).
///
/// # Errors
/// The trace cannot be read or generated, the design is unknown or does not fail on it, the
/// time limit is out of range, or `out` is not a directory that can be written.
pub fn run(source: Source<'_>, design: &str, out: &Path, time_limit: Duration) -> Result<Gate> {
    let job = ShrinkFamily {
        source,
        design,
        out,
        time_limit,
    };
    with_family(job.prepare()?, job)
}

/// Checks `out` before any work: missing (created when the files are written) or a directory
/// (a symbolic link to one is written through).
fn check_directory(out: &Path) -> Result<()> {
    match std::fs::metadata(out) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!("--out {} exists and is not a directory", out.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", out.display())),
    }
}

/// One shrink: the trace's source, the design's name, the directory and the time limit.
pub(crate) struct ShrinkFamily<'a> {
    pub(crate) source: Source<'a>,
    pub(crate) design: &'a str,
    pub(crate) out: &'a Path,
    pub(crate) time_limit: Duration,
}

impl ShrinkFamily<'_> {
    /// Checks the time limit and the directory, and reads or generates the trace.
    pub(crate) fn prepare(&self) -> Result<AnyTrace> {
        let limit = self.time_limit;
        if limit.is_zero() || limit > Duration::from_secs(MAX_TIME_LIMIT_SECS) {
            bail!(
                "--time-limit must be between 1 and {MAX_TIME_LIMIT_SECS} seconds, not {}",
                limit.as_secs()
            );
        }
        let trace = match self.source {
            Source::File(path) => workloads::format::load_any_from_path(path)
                .with_context(|| format!("cannot load trace {}", path.display()))?,
            Source::Workload { name, n, seed } => {
                workloads::registry::generate_any(name, n, seed, None)?
            }
        };
        check_directory(self.out)?;
        Ok(trace)
    }
}

impl TraceVisitor for ShrinkFamily<'_> {
    type Output = Result<Gate>;

    fn visit<F: Family>(self, trace: Trace<OpOf<F>>) -> Result<Gate> {
        let design = find_design::<F>(self.design)?;
        shrink_into(&self, design, trace)
    }
}

/// Shrinks `design`'s failure on `trace` and writes the files of `job.out`, printing what it
/// found: the shared part of `dodbench shrink` and [`crate::external::shrink`].
pub(crate) fn shrink_into<F: Family>(
    job: &ShrinkFamily<'_>,
    design: &'static dyn Design<F>,
    trace: Trace<OpOf<F>>,
) -> Result<Gate> {
    let original = (trace.setup.len(), trace.body.len());
    let header = trace.header.clone();
    let bar = ProgressBar::new_spinner()
        .with_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut on_progress = |p: Progress| {
        bar.set_message(format!(
            "{}: {} ops left of {} after {} candidates ({:.0?})",
            design.name(),
            p.ops,
            original.0 + original.1,
            p.tests,
            p.elapsed
        ));
    };
    let shrunk = shrink(design, trace, job.time_limit, &mut on_progress);
    bar.finish_and_clear();
    let shrunk = shrunk.with_context(|| {
        format!(
            "cannot shrink {} on {} n={} seed={}",
            design.name(),
            header.generator,
            header.n,
            header.seed
        )
    })?;
    let written = write_files::<F>(job, &shrunk)?;
    let (setup, body) = shrunk.ops();
    println!(
        "dodbench: {} fails on {} ops ({setup} setup, {body} body) of the {} it failed on, \
         {:.1}%, after {} candidates in {:.1?}{}",
        design.name(),
        setup + body,
        original.0 + original.1,
        100.0 * (setup + body) as f64 / (original.0 + original.1).max(1) as f64,
        shrunk.tests,
        shrunk.elapsed,
        if shrunk.finished {
            ""
        } else {
            " (stopped by the time limit: a smaller trace may exist)"
        }
    );
    println!("dodbench: {}", shrunk.reason);
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(Gate::Pass)
}

/// The design (or reference replayer) of family `F` named `name`.
fn find_design<F: Family>(name: &str) -> Result<&'static dyn Design<F>> {
    struct Find<'a, F: Family>(&'a str, Option<&'static dyn Design<F>>);
    impl<F: Family> ReplayerVisitor<F> for Find<'_, F> {
        fn visit_design(&mut self, design: &'static dyn Design<F>, _role: Role) {
            if design.name() == self.0 {
                self.1 = Some(design);
            }
        }
    }
    let mut find = Find::<F>(name, None);
    F::for_each_replayer(&mut find);
    find.1.with_context(|| {
        format!(
            "unknown {} design {name:?}; valid designs: {}",
            F::NAME,
            replayer_names::<F>(None).join(", ")
        )
    })
}

/// Writes the shrunk trace, the account and (when the family can write it) the standalone
/// program; returns the paths written.
fn write_files<F: Family>(job: &ShrinkFamily<'_>, shrunk: &Shrunk<F>) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    let mut write = |name: &str, bytes: &[u8]| -> Result<()> {
        let path = job.out.join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the directory {}", dir.display()))?;
        }
        results::write_atomically(&path, bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
        Ok(())
    };
    let trace_bytes =
        workloads::format::to_bytes(&shrunk.trace).context("the shrunk trace cannot be saved")?;
    write("shrunk.trace", &trace_bytes)?;
    let repro = F::standalone_repro(job.design, &shrunk.trace);
    write(
        "failure.txt",
        account(job, shrunk, repro.is_some()).as_bytes(),
    )?;
    if let Some(repro) = repro {
        write("repro/Cargo.toml", repro.cargo_toml.as_bytes())?;
        write("repro/src/main.rs", repro.main_rs.as_bytes())?;
    }
    Ok(written)
}

/// `failure.txt`: the design, the trace it came from, the failure before and after, how to
/// replay it, and the shrunk trace's ops.
fn account<F: Family>(job: &ShrinkFamily<'_>, shrunk: &Shrunk<F>, repro: bool) -> String {
    let h = &shrunk.trace.header;
    let (setup, body) = shrunk.ops();
    let (was_setup, was_body) = shrunk.original_ops;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} ({} family) fails verification on a trace of {} ops, shrunk from {} ops of {} at \
         n={} seed={} by dodbench shrink.\n",
        job.design,
        F::NAME,
        setup + body,
        was_setup + was_body,
        h.generator,
        h.n,
        h.seed
    );
    let _ = writeln!(s, "What differs: {}.", shrunk.kind.describe());
    let _ = writeln!(s, "On the shrunk trace: {}", shrunk.reason);
    let _ = writeln!(s, "On the original trace: {}\n", shrunk.original_reason);
    let _ = writeln!(
        s,
        "Shrunk: {setup} setup ops (of {was_setup}) and {body} body ops (of {was_body}), after \
         {} candidate traces in {:.1?}; {}.",
        shrunk.tests,
        shrunk.elapsed,
        if shrunk.finished {
            "no single op or run of ops can be removed and keep the failure".to_string()
        } else {
            format!(
                "stopped by the time limit of {:.0?}: a smaller trace may exist",
                job.time_limit
            )
        }
    );
    if shrunk.panics > 0 {
        let _ = writeln!(
            s,
            "The design panicked on {} of the candidates (they were not kept).",
            shrunk.panics
        );
    }
    let _ = writeln!(s, "\nReplay it on the design and the model:");
    let _ = writeln!(
        s,
        "  dodbench replay {} --design {}",
        shell_word(&job.out.join("shrunk.trace").display().to_string()),
        job.design
    );
    let _ = writeln!(s, "Shrink it again (from the original trace):");
    let _ = writeln!(s, "  {}", command("dodbench", job.source, job.design));
    if repro {
        let _ = writeln!(
            s,
            "\nWith the crate alone, without dodbench: repro/ is a Cargo package that replays \
             these ops with the peer's calls and compares every answer with a brute-force \
             model (cd repro && cargo run --release)."
        );
    }
    let _ = writeln!(s, "\nThe shrunk trace, op by op:");
    let ops = shrunk
        .trace
        .setup
        .iter()
        .map(|op| ("setup", op))
        .chain(shrunk.trace.body.iter().map(|op| ("body", op)));
    let mut index = [0usize; 2];
    for (listed, (part, op)) in ops.enumerate() {
        if listed == LISTED_OPS {
            let _ = writeln!(
                s,
                "  ... {} more (dodbench replay reads them all from shrunk.trace)",
                setup + body - LISTED_OPS
            );
            break;
        }
        let i = &mut index[usize::from(part == "body")];
        let _ = writeln!(s, "  {part} {i:>5}: {op:?}");
        *i += 1;
    }
    s
}
