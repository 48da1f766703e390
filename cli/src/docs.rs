//! The generated blocks of `README.md` and `docs/`: every measured figure those pages show sits
//! between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`, and is what [`blocks`]
//! computes from the committed reference run ([`REFERENCE_RUN`]), never typed by hand.
//!
//! `cli/tests/integration/docs_blocks.rs` fails when a block differs from what [`blocks`]
//! writes now; `DODBENCH_BLESS=1 cargo test -p dodbench --test integration docs_blocks`
//! rewrites them. `docs/reference/README.md` says how the reference run itself is made.

use std::collections::BTreeMap;

use results::ranking::{cells, rank};
use results::standing::{Side, Standing};
use results::{Results, Status};

pub use results::schema::REFERENCE_RUN;

/// A second default bench of the reference run's commit on the same machine, relative to the
/// workspace root, made right after it by `scripts/reference-run.sh`: what the pages' A/A
/// figures compare the reference run with (`results::agreement`).
pub const REFERENCE_RUN_AGAIN: &str = "docs/reference/results-again.json";

/// The step times of `.ci/run` on a clean clone of the reference machine, relative to the
/// workspace root: a copy of the `target/ci-step-times.tsv` that run writes (seconds, tab,
/// step; the last line `total`, its exit status and the commit).
pub const CI_STEP_TIMES: &str = "docs/reference/ci-step-times.tsv";

/// What a newcomer's first commands take on a fresh clone of the reference machine, relative
/// to the workspace root: the table `scripts/fresh-clone-times.sh` writes, in the format of
/// [`CI_STEP_TIMES`].
pub const FRESH_CLONE_TIMES: &str = "docs/reference/fresh-clone-times.tsv";

/// The two tables of step times the pages show, as text: [`CI_STEP_TIMES`] and
/// [`FRESH_CLONE_TIMES`].
#[derive(Debug, Clone, Copy)]
pub struct StepTables<'a> {
    /// The text of [`CI_STEP_TIMES`].
    pub ci: &'a str,
    /// The text of [`FRESH_CLONE_TIMES`].
    pub fresh_clone: &'a str,
}

/// One generated block: the page (relative to the workspace root), the block's name and its
/// text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The page holding the block, e.g. `README.md`.
    pub page: &'static str,
    /// The name in its markers, e.g. `reference-run`.
    pub name: &'static str,
    /// What goes between the markers (whole lines, ending in a newline).
    pub text: String,
}

/// Every generated block of the pages, computed from `run`, from `again` (a second run of its
/// commit, [`REFERENCE_RUN_AGAIN`]) and from the tables of step times.
///
/// # Errors
/// A table is not a table of step times, or records a failed run; `again` is not a run of
/// `run`'s commit.
pub fn blocks(
    run: &Results,
    again: &Results,
    tables: StepTables<'_>,
) -> Result<Vec<Block>, String> {
    let agreement = agreement(run, again)?;
    // The claims this build declares, judged on the reference run's numbers: a claim added or
    // reread shows in the pages without a new run.
    let mut run = run.clone();
    crate::claims::redeclare(&mut run);
    let run = &run;
    Ok(vec![
        Block {
            page: "README.md",
            name: "fresh-clone",
            text: fresh_clone(tables.fresh_clone)?,
        },
        Block {
            page: "README.md",
            name: "ci-times",
            text: ci_times(tables.ci)?,
        },
        Block {
            page: "README.md",
            name: "reference-run",
            text: reference_run(run),
        },
        Block {
            page: "README.md",
            name: "agreement",
            text: agreement.summary,
        },
        Block {
            page: "docs/methodology.md",
            name: "agreement",
            text: agreement.table,
        },
        Block {
            page: "docs/reference-loops.md",
            name: "called-directly",
            text: called_directly(run),
        },
        Block {
            page: "docs/report.md",
            name: "behind",
            text: behind(run),
        },
        Block {
            page: "docs/claims.md",
            name: "claims-table",
            text: format!(
                "{}{}",
                results::verdict::render_markdown(&results::verdict::judge_run(run)),
                results::verdict::render_untested_markdown(&results::verdict::untested(run))
            ),
        },
    ])
}

/// A table of step times as its scripts write it: each step's seconds and name, in order, and
/// the whole run's seconds and commit.
struct StepTimes {
    steps: Vec<(u64, String)>,
    seconds: u64,
    commit: String,
}

/// Reads `table`, the text of the file `path` (seconds, tab, step; the last line `total`, its
/// exit status and the commit).
///
/// # Errors
/// A line is not a step's, the `total` line is missing, or the run failed.
fn step_times(table: &str, path: &str) -> Result<StepTimes, String> {
    let mut steps = Vec::new();
    let mut total = None;
    for line in table.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let seconds: u64 = fields[0]
            .parse()
            .map_err(|_| format!("{path}: `{line}` does not start with seconds"))?;
        match fields.as_slice() {
            [_, "total", status, commit] => total = Some((seconds, *status, *commit)),
            [_, step] => steps.push((seconds, step.to_string())),
            _ => return Err(format!("{path}: `{line}` is not a step's line")),
        }
    }
    let (seconds, status, commit) = total.ok_or_else(|| format!("{path}: no `total` line"))?;
    if status != "0" {
        return Err(format!("{path}: that run failed (exit status {status})"));
    }
    Ok(StepTimes {
        steps,
        seconds,
        commit: commit.to_string(),
    })
}

/// The README's line of `.ci/run`'s step times, from the table `.ci/run` writes.
fn ci_times(table: &str) -> Result<String, String> {
    let times = step_times(table, CI_STEP_TIMES)?;
    // Steps of seconds (the disk, the toolchain, the format) are summed.
    let short: u64 = times
        .steps
        .iter()
        .map(|(s, _)| s)
        .filter(|&&s| s < 10)
        .sum();
    let mut steps: Vec<String> = times
        .steps
        .iter()
        .filter(|(seconds, _)| *seconds >= 10)
        .map(|(seconds, step)| format!("{step} {}", duration(*seconds)))
        .collect();
    steps.push(format!("the other steps {}", duration(short)));
    Ok(format!(
        "`.ci/run` on a clean clone of commit `{}`, on the reference run's machine: {} in \
         all ({}).\n",
        times.commit,
        duration(times.seconds),
        steps.join(", ")
    ))
}

/// The README's list of a fresh clone's first commands and their times, every step shown.
fn fresh_clone(table: &str) -> Result<String, String> {
    let times = step_times(table, FRESH_CLONE_TIMES)?;
    let mut out = format!(
        "A fresh clone of commit `{}` on the reference run's machine, the crates already \
         downloaded, one command after the other ({} in all):\n\n",
        times.commit,
        duration(times.seconds)
    );
    for (seconds, step) in &times.steps {
        out.push_str(&format!("- {step}: {}\n", duration(*seconds)));
    }
    Ok(out)
}

/// `page` with the text between the markers of block `name` replaced by `text`.
///
/// # Errors
/// The page lacks either marker, or has them in the wrong order.
pub fn fill(page: &str, name: &str, text: &str) -> Result<String, String> {
    let open = format!("<!-- generated:{name} -->\n");
    let close = format!("<!-- /generated:{name} -->");
    let start = page
        .find(&open)
        .ok_or_else(|| format!("no line `{}`", open.trim_end()))?
        + open.len();
    let end = page[start..]
        .find(&close)
        .ok_or_else(|| format!("no line `{close}` after `{}`", open.trim_end()))?
        + start;
    Ok(format!("{}{text}{}", &page[..start], &page[end..]))
}

/// The README's summary of the reference run: what ran where, the benchmarks by outcome, the
/// winners per family by kind of design, and the claims' tally.
fn reference_run(run: &Results) -> String {
    let count = |status: Status| run.benchmarks.iter().filter(|b| b.status == status).count();
    let timed = run
        .benchmarks
        .iter()
        .filter(|b| b.verified && b.ns_per_op.is_some())
        .count();
    let judgements = results::verdict::judge_run(run);
    let mut out = format!(
        "The committed reference run, [`{REFERENCE_RUN}`](docs/reference/): `{}` scale, commit \
         `{}`, {} ({} cores), {}. {} benchmarks: {timed} verified and timed, {} unsupported, {} \
         failed. The articles' {}.\n\n",
        run.mode,
        run.commit,
        run.machine.cpu_model,
        run.machine.cores,
        // `rustc 1.95.0`: the version, without the commit and build date rustc appends.
        run.toolchain.split(" (").next().unwrap_or(&run.toolchain),
        run.benchmarks.len(),
        count(Status::Unsupported),
        count(Status::Failed),
        results::verdict::tally_line(&judgements)
    );
    // A step named again (`cache --behind` after `cache --quick`) is told apart by its
    // selection.
    let took: Vec<String> = run
        .steps
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let name = if run.steps[..i].iter().any(|earlier| earlier.step == s.step) {
                format!("{} {}", s.step, s.selection)
            } else {
                s.step.clone()
            };
            Some(format!("`{name}` {}", duration(s.seconds?)))
        })
        .collect();
    if !took.is_empty() {
        out.push_str(&format!(
            "Its steps took, on that machine: {}.\n\n",
            took.join(", ")
        ));
    }
    out.push_str(
        "Who wins each cell (a workload at one size), by kind of design; a tie is a cell whose \
         two fastest cannot be told apart:\n\n\
         | family | cells | article | tuned | peer | tie |\n| --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (family, wins) in winners(run) {
        out.push_str(&format!(
            "| `{family}` | {} | {} | {} | {} | {} |\n",
            wins.values().sum::<usize>(),
            wins.get("article").copied().unwrap_or(0),
            wins.get("tuned").copied().unwrap_or(0),
            wins.get("peer").copied().unwrap_or(0),
            wins.get("tie").copied().unwrap_or(0),
        ));
    }
    out.push_str(
        "\nOur fastest design (article or tuned) against the fastest crate that guarantees as \
         much, in the cells that time both: at most the crate's time, slower but not told apart \
         from it, or decidedly slower ([docs/report.md](docs/report.md#where-ours-is-behind) \
         lists those cells with what the counts say):\n\n\
         | family | cells | ours ahead | level | behind |\n| --- | ---: | ---: | ---: | ---: |\n",
    );
    let standings = standings(run);
    for family in &run.families {
        let sides: Vec<Side> = standings
            .iter()
            .filter(|s| s.ours.family == family.family)
            .map(|s| s.side)
            .collect();
        let of = |side: Side| sides.iter().filter(|&&s| s == side).count();
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            family.family,
            sides.len(),
            of(Side::Ahead),
            of(Side::Level),
            of(Side::Behind)
        ));
    }
    out
}

/// Every cell's [`Standing`] in `run` (cells without ours or without a peer of our contract
/// left out), in cell order.
fn standings(run: &Results) -> Vec<Standing<'_>> {
    cells(run)
        .values()
        .filter_map(|cell| results::standing::standing(run, cell))
        .collect()
}

/// The cells of `run` where our fastest design is decidedly behind the fastest crate with its
/// contract, each with the ratio and what the counts say ([`Standing::describe`]).
fn behind(run: &Results) -> String {
    let behind: Vec<String> = standings(run)
        .iter()
        .filter(|s| s.side == Side::Behind)
        .map(|s| {
            format!(
                "- `{}/{}/{}`: {}\n",
                s.ours.family,
                s.ours.workload,
                s.ours.n,
                s.describe()
            )
        })
        .collect();
    format!(
        "In the reference run ([`{REFERENCE_RUN}`](reference/)), {} cells where our fastest \
         design is decidedly slower than the fastest crate with its contract:\n\n{}",
        behind.len(),
        behind.concat()
    )
}

/// The A/A figures of the pages: the README's sentence and the methodology's table.
struct AgreementBlocks {
    summary: String,
    table: String,
}

/// How far the reference run and `again`, a second run of its commit, agree
/// ([`results::agreement`]).
///
/// # Errors
/// The two are not runs of one commit at one scale on one machine.
fn agreement(run: &Results, again: &Results) -> Result<AgreementBlocks, String> {
    if run.commit != again.commit || run.mode != again.mode || run.machine != again.machine {
        return Err(format!(
            "{REFERENCE_RUN_AGAIN} is a run of {} ({}, {}), not of the reference run's {} ({}, \
             {}): make both with scripts/reference-run.sh",
            again.commit,
            again.mode,
            again.machine.cpu_model,
            run.commit,
            run.mode,
            run.machine.cpu_model
        ));
    }
    let a = results::agreement::agreement(run, again);
    let total = a.total();
    let share = |part: usize, whole: usize| part as f64 / whole.max(1) as f64 * 100.0;
    let (i, r, c) = (total.intervals, total.rankings, total.claims);
    let worst = a
        .families
        .iter()
        .map(|(family, counts)| {
            let i = counts.intervals;
            (share(i.disjoint, i.both), family)
        })
        .max_by(|x, y| x.0.total_cmp(&y.0));
    let mut summary = format!(
        "Two default runs of the reference commit on its machine, one after the other \
         ([`{REFERENCE_RUN}`](docs/reference/) and [`{REFERENCE_RUN_AGAIN}`](docs/reference/)): \
         {} of {} intervals of a ratio to the family's reference design do not overlap ({:.1}%",
        i.disjoint,
        i.both,
        share(i.disjoint, i.both)
    );
    if let Some((worst, family)) = worst {
        summary += &format!("; at most {worst:.1}% in one family, `{family}`");
    }
    summary += &format!(
        "; {} of them flagged unstable on the machine by either run",
        i.disjoint_unstable
    );
    summary += &format!(
        "); of the {} cells whose winner either run decides, {} name the same winner in both \
         and {} are decided both ways; {} of the {} claims decided in both runs flip.\n",
        r.decided_either, r.consistent, r.flips, c.flips, c.decided_both
    );
    let table = format!(
        "The reference run (A, [`{REFERENCE_RUN}`](reference/)) against a second default run \
         of commit `{}` made after it on the same machine (B, \
         [`{REFERENCE_RUN_AGAIN}`](reference/)), as `dodbench agreement` counts them. Ratios \
         to the family's reference design differ by {:.1}% at the median and by at most \
         {:.1}% in 95% of the {} benchmarks in both.\n\n{}",
        run.commit,
        a.median_difference * 100.0,
        a.resolution * 100.0,
        a.compared,
        a.render_markdown()
    );
    Ok(AgreementBlocks { summary, table })
}

/// `seconds` as `3 min 05 s`, or `42 s` under a minute.
fn duration(seconds: u64) -> String {
    match seconds {
        0..60 => format!("{seconds} s"),
        _ => format!("{} min {:02} s", seconds / 60, seconds % 60),
    }
}

/// Per family, in the run's order: how many cells each kind of design won (`tie` when the two
/// fastest cannot be told apart), from the run's own ranking ([`rank`]).
fn winners(run: &Results) -> Vec<(String, BTreeMap<String, usize>)> {
    let kind_of: BTreeMap<(String, &str), &str> = run
        .designs
        .iter()
        .map(|d| ((d.family.to_string(), d.name.as_str()), d.kind.as_str()))
        .collect();
    let cells = cells(run);
    let mut out = Vec::new();
    for family in &run.families {
        let name = family.family.to_string();
        let mut wins: BTreeMap<String, usize> = BTreeMap::new();
        for (_, cell) in cells.iter().filter(|((f, _, _), _)| *f == family.family) {
            let Some(ranking) = rank(cell) else { continue };
            let key = if ranking.leaders().len() > 1 {
                "tie"
            } else {
                kind_of
                    .get(&(name.clone(), ranking.winner().design.as_str()))
                    .copied()
                    .unwrap_or("other")
            };
            *wins.entry(key.to_string()).or_default() += 1;
        }
        out.push((name, wins));
    }
    out
}

/// Per family, the reference run's cells ranked called directly
/// ([`results::rank_called_directly`]: every peer by its reference loop, ours by theirs where
/// they have one) and those whose leaders differ from the ranking through the family's
/// trait, then those cells by name.
fn called_directly(run: &Results) -> String {
    let loops: Vec<&results::Benchmark> = run
        .benchmarks
        .iter()
        .filter(|b| b.family.is_reference())
        .collect();
    let cells = cells(run);
    let mut rows = String::new();
    let mut differing = Vec::new();
    for family in &run.families {
        let (mut ranked, mut direct, mut differ) = (0, 0, 0);
        for ((f, workload, n), cell) in cells.iter().filter(|(k, _)| k.0 == family.family) {
            let Some(ranking) = rank(cell) else { continue };
            ranked += 1;
            let here: Vec<&results::Benchmark> = loops
                .iter()
                .copied()
                .filter(|l| l.workload == *workload && l.n == *n)
                .collect();
            let Some(called) = results::rank_called_directly(cell, &here, |b| run.is_peer(b))
            else {
                continue;
            };
            direct += 1;
            if ranking.leads_apart(&called) {
                differ += 1;
                differing.push(format!(
                    "`{f}/{workload}/{n}`: {} through the trait, {} called directly",
                    ranking.leaders().join(" ≈ "),
                    called.leaders().join(" ≈ ")
                ));
            }
        }
        rows.push_str(&format!(
            "| `{}` | {ranked} | {direct} | {differ} |\n",
            family.family
        ));
    }
    let mut out = format!(
        "In the reference run ([`{REFERENCE_RUN}`](reference/)), the cells ranked called \
         directly (every peer by its loop) and those whose winners differ from the ranking \
         through the family's trait:\n\n| family | cells ranked | ranked called directly | \
         another winner |\n| --- | ---: | ---: | ---: |\n{rows}"
    );
    if !differing.is_empty() {
        out.push('\n');
        for d in differing {
            out.push_str(&format!("- {d}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ci_line_reads_the_table_and_refuses_a_failed_run() {
        let table = "2\tformat\n400\tclippy and the test build\n3\tdone\n1000\ttotal\t0\tabc1234\n";
        let line = ci_times(table).unwrap();
        assert!(line.contains("commit `abc1234`"), "{line}");
        assert!(line.contains("16 min 40 s in all"), "{line}");
        assert!(
            line.contains("(clippy and the test build 6 min 40 s, the other steps 5 s)"),
            "{line}"
        );
        assert!(
            ci_times("9\ttotal\t1\tabc\n")
                .unwrap_err()
                .contains("failed")
        );
        assert!(ci_times("2\tformat\n").unwrap_err().contains("no `total`"));
        assert!(ci_times("x\tformat\n").unwrap_err().contains("seconds"));
        assert!(ci_times("2\ta\tb\n").unwrap_err().contains("not a step"));
    }

    #[test]
    fn the_fresh_clone_list_shows_every_step() {
        let table = "250\ttest build (cargo test --no-run)\n2\tthe CLI (--help)\n\
                     252\ttotal\t0\tabc1234\n";
        let list = fresh_clone(table).unwrap();
        assert!(list.contains("commit `abc1234`"), "{list}");
        assert!(list.contains("(4 min 12 s in all)"), "{list}");
        assert!(
            list.contains(
                "- test build (cargo test --no-run): 4 min 10 s\n- the CLI (--help): 2 s\n"
            ),
            "{list}"
        );
        assert!(
            fresh_clone("9\ttotal\t101\tabc\n")
                .unwrap_err()
                .contains(FRESH_CLONE_TIMES)
        );
    }

    #[test]
    fn a_block_is_replaced_between_its_markers_only() {
        let page = "a\n<!-- generated:x -->\nold\n<!-- /generated:x -->\nb\n";
        assert_eq!(
            fill(page, "x", "new\n").unwrap(),
            "a\n<!-- generated:x -->\nnew\n<!-- /generated:x -->\nb\n"
        );
        assert!(
            fill(page, "y", "new\n")
                .unwrap_err()
                .contains("generated:y")
        );
        let unclosed = "<!-- generated:x -->\nold\n";
        assert!(
            fill(unclosed, "x", "")
                .unwrap_err()
                .contains("/generated:x")
        );
    }
}
