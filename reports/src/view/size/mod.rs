//! One (workload, N) block of a family page: the timing table with its throughput chart, and
//! every generic chart (sample spread, latency percentiles, memory, allocator calls, simulated
//! misses) whose field some design of the block carries, whatever its family; then the
//! family-metrics section (`family_metrics`), built from the specs the run records for the
//! family, the same code for every family.
//!
//! The block's verdict (the "which design" row: winner, runner-up and how sure their order is)
//! comes from `results::rank` on each machine's designs; every ratio to the best or to the
//! reference design follows `ratio` (paired over interleaved rounds when the run has them, else
//! medians).

use results::{Benchmark, Family, Gap, Ranking, Results};
use serde::Serialize;

use super::SummaryView;
use super::details::{DetailsView, details};
use super::family_metrics::{self, Block, FamilyMetricsView};
use super::machines::Machines;
use super::names::Names;
use super::ratio::{self, TIED};
use super::reference::{is_reference, reference_style};
use super::status::{median, note, status_name};
use super::style::{kind_of, style_of};
use super::text::shorten;
use crate::charts::{Bar, Chart, ChartError, ReferenceLine, SeriesStyle, throughput};
use crate::format;

mod charts;
mod kinds;
mod limits;

pub use charts::GenericCharts;
use charts::generic_charts;
use kinds::{best_by_kind, weaker_than};
use results::standing::best_of_ours;

/// One (workload, N) block: chart, table and summary.
#[derive(Debug, Serialize)]
pub struct SizeView {
    /// Live size.
    pub n: u64,
    /// Work units per replay.
    pub ops: u64,
    /// What the body touches (the working set the times measure), e.g. "touches 1,000 distinct
    /// objects of N = 1,000 (100%)"; empty when the run did not record it.
    pub working_set: String,
    /// HTML id.
    pub anchor: String,
    /// Winner and runner-up, one per machine that timed a design here.
    pub summaries: Vec<SummaryView>,
    /// Rows: timed designs fastest first, then untimed designs, then reference loops.
    pub rows: Vec<RowView>,
    /// What the `≈` of a row's ratio means, when some row has it; empty otherwise.
    pub tied_note: String,
    /// The fastest design against the machine's memory limit its body is bound by, one
    /// sentence per machine whose run measured the limits; empty for other bodies.
    pub limits: Vec<String>,
    /// Throughput chart.
    pub throughput: Chart,
    /// The charts beyond throughput, each where some design carries its numbers.
    #[serde(flatten)]
    pub charts: GenericCharts,
    /// The numbers beyond time, per design.
    pub details: DetailsView,
    /// With several machines: which numbers are shown once (deterministic) and which per
    /// machine; empty with one.
    pub machines_note: String,
    /// The section of the family's own metrics (memory per item, fragmentation, garbage...),
    /// when some design of the block carries them.
    pub family_metrics: Option<FamilyMetricsView>,
}

/// One table row.
#[derive(Debug, Serialize)]
pub struct RowView {
    /// Design or reference name.
    pub design: String,
    /// The machine it was measured on; empty in a one-machine report.
    pub machine: String,
    /// `article`, `tuned`, `peer` or `reference`.
    pub kind: String,
    /// `#rrggbb`.
    pub colour: String,
    /// `verified`, `failed`, `unsupported`.
    pub status: String,
    /// Why it was not timed.
    pub reason: String,
    /// For a failed verification: the command that shrinks it (`Benchmark::shrink`).
    pub shrink: String,
    /// Whether it has a time.
    pub timed: bool,
    /// Median ns per work unit.
    pub ns: String,
    /// Confidence interval `[lower, upper]`.
    pub ci: String,
    /// Work units per second.
    pub ops_per_s: String,
    /// Time over the best design's on the same machine, `1.00×` for the winner: the median of
    /// their per-round ratios when they were timed in the same rounds (`1.02× ≈` when it cannot
    /// be told apart from the best), else the ratio of their medians.
    pub ratio: String,
    /// Whether the design cannot be told apart from the best (the `≈` of [`Self::ratio`]).
    pub tied: bool,
    /// Time over the family's reference design's on the same machine, paired as
    /// [`Self::ratio`] (without its `≈`).
    pub ratio_ref: String,
    /// Bytes per live object.
    pub bytes_per_object: String,
    /// For a reference loop that writes one design's replay by hand: "holey's replay = 1.03×
    /// this loop" (the replay driver's overhead); empty otherwise.
    pub overhead: String,
    /// Number of samples: one per round when timed in interleaved rounds, else criterion's.
    pub samples: usize,
}

/// What a block says about its numbers when it shows several machines.
const MACHINES_NOTE: &str = "Times, throughput, ratios, latency percentiles and hardware \
    counters are per machine, each ratio against the best design and the family's reference \
    design on the same machine. Simulated counts, bytes, allocator calls and the family's own \
    metrics are deterministic (the same on every machine for the same traces and simulated \
    caches), so they are shown once: ″ marks a later machine's value equal to the one above; a \
    value shown again (labelled with its machine in charts) means the machines disagree, a \
    finding rather than noise.";

#[allow(clippy::too_many_arguments)]
pub(super) fn build_size(
    machines: &Machines<'_>,
    family: Family,
    page: &str,
    workload: &str,
    n: u64,
    here: &[&Benchmark],
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<SizeView, ChartError> {
    let results = machines.primary();
    let designs: Vec<&Benchmark> = machines.by_design(
        &here
            .iter()
            .copied()
            .filter(|b| b.family == family)
            .collect::<Vec<_>>(),
    );
    let references: Vec<&Benchmark> = machines.by_design(
        &here
            .iter()
            .copied()
            .filter(|b| is_reference(b))
            .collect::<Vec<_>>(),
    );
    // Machine by machine, fastest first on each.
    let mut timed: Vec<(&Benchmark, f64)> = designs
        .iter()
        .filter_map(|b| median(b).map(|m| (*b, m)))
        .collect();
    timed.sort_by(|a, b| {
        machines
            .index_of(a.0)
            .cmp(&machines.index_of(b.0))
            .then(a.1.total_cmp(&b.1))
    });
    let anchor = names
        .unique(&[workload, &format!("n{n}")], "x")
        .trim_end_matches(".x")
        .to_string();
    let title = format!("{workload}, N = {n}");
    let cell = Cell {
        machines,
        family,
        workload,
        n,
        title: &title,
        here,
        designs: &designs,
    };
    let summaries = summaries(&cell, page, &anchor, &timed);
    // Designs in table order: timed fastest first (on the first machine that timed them),
    // then untimed; each design's machines together.
    let ordered: Vec<&Benchmark> = machines.by_design(
        &timed
            .iter()
            .map(|t| t.0)
            .chain(designs.iter().copied().filter(|b| median(b).is_none()))
            .collect::<Vec<_>>(),
    );
    let mut rows: Vec<RowView> = ordered.iter().map(|b| row(&cell, b)).collect();
    rows.extend(references.iter().map(|b| row(&cell, b)));
    let tied_note = if rows.iter().any(|r| r.tied) {
        ratio::tied_note()
    } else {
        String::new()
    };

    let limits = limits::limits(&cell, &timed);
    let limit_lines: Vec<ReferenceLine> = limits.iter().map(|l| l.line.clone()).collect();
    let throughput = throughput_chart(&cell, &references, &limit_lines, names, charts)?;
    let generic = generic_charts(&cell, names, charts)?;
    let block = Block {
        machines,
        family,
        file_stem: [family.as_str(), workload, &format!("n{n}")],
        title: &title,
        ordered: &ordered,
        references: &references,
    };
    let family_metrics = family_metrics::build(&block, names, charts)?;
    Ok(SizeView {
        n,
        ops: designs.first().map_or(0, |b| b.ops),
        working_set: working_set_text(results, family, workload, n),
        anchor,
        summaries,
        rows,
        tied_note,
        limits: limits.into_iter().map(|l| l.sentence).collect(),
        throughput,
        charts: generic,
        details: details(machines, family, &ordered),
        machines_note: if machines.many() {
            MACHINES_NOTE.to_string()
        } else {
            String::new()
        },
        family_metrics,
    })
}

/// What the summaries, rows and generic charts of one (workload, N) block are built from.
struct Cell<'a> {
    /// The runs, one per machine (the first one's designs fix colours and kinds).
    machines: &'a Machines<'a>,
    /// The page's family.
    family: Family,
    /// The block's workload.
    workload: &'a str,
    /// Live size.
    n: u64,
    /// `<workload>, N = <n>`: the start of every chart title.
    title: &'a str,
    /// Every benchmark of the block, whatever its family (reference loops included).
    here: &'a [&'a Benchmark],
    /// The family's designs of the block, each design's machines together.
    designs: &'a [&'a Benchmark],
}

impl Cell<'_> {
    /// The file name of the block's `chart` SVG (family, workload, `n<N>`, `chart`), unique
    /// in `names`.
    fn file(&self, names: &mut Names, chart: &str) -> String {
        names.unique(
            &[
                self.family.as_str(),
                self.workload,
                &format!("n{}", self.n),
                chart,
            ],
            "svg",
        )
    }

    /// A deterministic series' style: `b`'s design colours, named as `Machines::once` says.
    fn once_style(&self, b: &Benchmark, name: String) -> SeriesStyle {
        SeriesStyle {
            name,
            ..style_of(self.machines.primary(), self.family, &b.design)
        }
    }
}

/// The block's verdicts, one per machine that timed a design here: the winner (with every
/// design that cannot be told apart from it), the runner-up, how sure their order is and the
/// fastest of each kind. `timed` holds the timed designs, machine by machine, fastest first on
/// each; `page` and `anchor` locate the block.
fn summaries(
    cell: &Cell<'_>,
    page: &str,
    anchor: &str,
    timed: &[(&Benchmark, f64)],
) -> Vec<SummaryView> {
    let machines = cell.machines;
    (0..machines.runs().len())
        .filter_map(|machine| {
            let on: Vec<&Benchmark> = timed
                .iter()
                .map(|t| t.0)
                .filter(|b| machines.index_of(b) == machine)
                .collect();
            let ranking = results::rank(&on)?;
            let (winner, runner_up) = (ranking.winner(), ranking.runner_up());
            let gap = ranking.gap.as_ref();
            let loops: Vec<&Benchmark> = cell
                .here
                .iter()
                .copied()
                .filter(|b| is_reference(b) && machines.index_of(b) == machine)
                .collect();
            let run = &machines.runs()[machine];
            let direct = results::rank_called_directly(&on, &loops, |b| run.is_peer(b))
                .map(|direct| called_directly(&ranking, &direct));
            let peers_without_loop = match direct {
                Some(_) => String::new(),
                None => results::peers_without_loop(&on, &loops, |b| run.is_peer(b)).join(", "),
            };
            let no_loops = (!peers_without_loop.is_empty())
                .then(|| run.family_record(winner.family)?.no_loops)
                .flatten()
                .unwrap_or_default();
            let standing = results::standing::standing_in(run, &ranking);
            Some(SummaryView {
                family: cell.family.to_string(),
                workload: cell.workload.to_string(),
                n: cell.n,
                machine: machines.column(winner),
                page: page.to_string(),
                anchor: anchor.to_string(),
                winner: ranking.leaders().join(&format!(" {TIED} ")),
                winner_ns: median(winner).map(format::ns).unwrap_or_default(),
                runner_up: runner_up.map(|r| r.design.clone()).unwrap_or_default(),
                // The paired median when paired (the number the confidence describes), else
                // the ratio of medians.
                ratio: gap
                    .map(|g| format::ratio(g.paired.as_ref().map_or(g.ratio, |p| p.ratio.median)))
                    .unwrap_or_default(),
                confidence: gap
                    .filter(|g| g.paired.is_some())
                    .map(Gap::describe)
                    .unwrap_or_default(),
                tied: gap.and_then(Gap::decided) == Some(false),
                untimed: cell
                    .designs
                    .iter()
                    .filter(|b| machines.index_of(b) == machine)
                    .count()
                    - on.len(),
                best_by_kind: best_by_kind(machines.primary(), &ranking),
                winner_weaker: weaker_than(
                    machines.primary(),
                    winner,
                    best_of_ours(machines.primary(), &ranking),
                )
                .join("; "),
                standing: standing.as_ref().map(|s| s.describe()).unwrap_or_default(),
                standing_side: standing
                    .map(|s| s.side.as_str().to_string())
                    .unwrap_or_default(),
                called_directly: direct.clone().map(|d| d.0).unwrap_or_default(),
                called_directly_differs: direct.is_some_and(|d| d.1),
                peers_without_loop,
                no_loops,
            })
        })
        .collect()
}

/// The table row of `b`, a design or a reference loop of the block: its time, throughput and
/// ratios to the best and to the reference design on its machine, its bytes per live object
/// (shown once across machines) and, for a loop that mirrors a design's replay, that replay's
/// overhead.
fn row(cell: &Cell<'_>, b: &Benchmark) -> RowView {
    let (machines, family) = (cell.machines, cell.family);
    let results = machines.primary();
    let m = median(b);
    let style = if is_reference(b) {
        reference_style(&b.design)
    } else {
        style_of(results, family, &b.design)
    };
    let to_best = machines
        .best_on_machine_of(b, cell.designs)
        .and_then(|best| ratio::to_best(b, best));
    let to_reference = machines
        .reference_on_machine_of(family, b, cell.designs)
        .and_then(|reference| ratio::to_reference(b, reference));
    RowView {
        design: b.design.clone(),
        machine: machines.column(b),
        kind: kind_of(results, b),
        colour: style.colour.hex(),
        status: status_name(b.status),
        reason: b.reason.clone().unwrap_or_default(),
        shrink: b.shrink.clone().unwrap_or_default(),
        timed: m.is_some(),
        ns: m.map(format::ns).unwrap_or_default(),
        ci: b
            .ns_per_op
            .filter(|_| m.is_some())
            .map(|e| format!("[{}, {}]", format::ns(e.lower), format::ns(e.upper)))
            .unwrap_or_default(),
        ops_per_s: m.map(|m| format::si(1e9 / m)).unwrap_or_default(),
        ratio: to_best.map(|r| r.cell()).unwrap_or_default(),
        tied: to_best.is_some_and(|r| r.tied()),
        // No ≈ here: the mark is about the best.
        ratio_ref: to_reference
            .map(|r| format::ratio(r.value()))
            .unwrap_or_default(),
        bytes_per_object: machines.deterministic_cell(
            b,
            cell.here,
            |b| b.bytes_per_object.filter(|v| v.is_finite()),
            |v| format::significant(v, 3),
        ),
        overhead: match (&b.mirrors, b.overhead) {
            (Some(design), Some(o)) => {
                format!("{design}'s replay = {} this loop", format::ratio(o))
            }
            _ => mirrored_by(results, b),
        },
        samples: b.samples_ns_per_op.len(),
    }
}

/// For a design row: its replay ÷ the loop that mirrors it in the same cell (for a peer, the
/// crate called directly), e.g. "replay = 1.05× ref-direct-hecs"; empty where none does.
fn mirrored_by(results: &Results, b: &Benchmark) -> String {
    if is_reference(b) {
        return String::new();
    }
    super::reference::loops_mirroring(results, &b.design)
        .find(|(l, _)| l.workload == b.workload && l.n == b.n)
        .map(|(l, o)| format!("replay = {} {}", format::ratio(o), l.design))
        .unwrap_or_default()
}

/// The block's throughput chart: work units per second, a bar per design and machine, a line
/// per timed reference loop of `references` and per machine's memory limit of `limits`; also
/// pushed onto `charts`.
fn throughput_chart(
    cell: &Cell<'_>,
    references: &[&Benchmark],
    limits: &[ReferenceLine],
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Chart, ChartError> {
    let (machines, title) = (cell.machines, cell.title);
    let bars: Vec<Bar> = cell
        .designs
        .iter()
        .map(|b| Bar {
            style: machines.style(cell.family, b),
            value: median(b).map(|m| 1e9 / m),
            note: Some(shorten(&note(b), 64)),
        })
        .collect();
    let reference_lines: Vec<ReferenceLine> = references
        .iter()
        .filter_map(|b| {
            median(b).map(|m| ReferenceLine {
                name: machines.label(b),
                value: 1e9 / m,
            })
        })
        .chain(limits.iter().cloned())
        .collect();
    let file = cell.file(names, "throughput");
    let throughput = throughput::build(
        &file,
        &format!("{title}: throughput"),
        &bars,
        &reference_lines,
    )?;
    charts.push(throughput.clone());
    Ok(throughput)
}

/// What the body of (`family`, `workload`, `n`) touches, from its workload record: the distinct
/// objects (or keys) its ops name against `n`, and whether it visits the whole store.
fn working_set_text(results: &results::Results, family: Family, workload: &str, n: u64) -> String {
    let Some(record) = results
        .workloads
        .iter()
        .find(|w| w.family == family && w.workload == workload && w.n == n)
    else {
        return String::new();
    };
    let named = record.working_set.map(|d| {
        let share = if n > 0 {
            format!(" ({:.0}% of N)", 100.0 * d as f64 / n as f64)
        } else {
            String::new()
        };
        format!(
            "ops name {} distinct objects or keys{share}",
            format::count(d)
        )
    });
    match (named, record.visits_store) {
        (Some(named), true) => format!("working set: the whole store (visited), {named}"),
        (Some(named), false) => format!("working set: {named}"),
        (None, true) => "working set: the whole store (visited)".to_string(),
        (None, false) => String::new(),
    }
}

/// The verdict of `direct` (the cell ranked by its designs called directly,
/// `results::rank_called_directly`) in words, e.g. `rlsf; runner-up buddy_alloc 1.04× (…)`,
/// and whether it and `ranking` (through the family's trait) have no leading design in
/// common ([`Ranking::leads_apart`]): the two rankings name different winners.
fn called_directly(ranking: &Ranking<'_>, direct: &Ranking<'_>) -> (String, bool) {
    let mut text = direct.leaders().join(&format!(" {TIED} "));
    if let (Some(gap), Some(runner_up)) = (&direct.gap, direct.runner_up()) {
        if gap.decided() != Some(false) {
            text += &format!(
                "; runner-up {} {}",
                runner_up.timed_design(),
                format::ratio(gap.paired.as_ref().map_or(gap.ratio, |p| p.ratio.median))
            );
        }
        if gap.paired.is_some() {
            text += &format!(" ({})", gap.describe());
        }
    }
    let (loops, all) = (direct.called_directly(), direct.order.len());
    if loops < all {
        text += &format!("; {loops} of {all} by their loops, ours without one through the replay");
    }
    (text, ranking.leads_apart(direct))
}

#[cfg(test)]
mod tests {
    use results::{Benchmark, Results};

    use crate::view::test_runs::{ROUNDS, SLOWER, TIE, criterion_timed, interleaved};
    use crate::view::{ReportView, SizeView, SummaryView};

    fn view(run: Results) -> ReportView {
        crate::view::build(&[run], "t", None, None).unwrap().0
    }

    /// The summary and the block of the runs' one cell.
    fn cell(view: &ReportView) -> (&SummaryView, &SizeView) {
        (&view.summary[0], &view.families[0].workloads[0].sizes[0])
    }

    /// `design`'s "× best" cell in `block`.
    fn ratio<'a>(block: &'a SizeView, design: &str) -> &'a str {
        &block
            .rows
            .iter()
            .find(|r| r.design == design)
            .unwrap()
            .ratio
    }

    /// What `results::rank` says of the order of `run`'s winner and runner-up (the summary
    /// shows it as is).
    fn described(run: &Results) -> String {
        let cell: Vec<&Benchmark> = run.benchmarks.iter().collect();
        results::rank(&cell).unwrap().gap.unwrap().describe()
    }

    /// `index.html` and the family page of `run`, rendered.
    fn pages(run: &Results) -> (String, String) {
        let dir = tempfile::tempdir().unwrap();
        let s = crate::render(run, dir.path(), &Default::default()).unwrap();
        let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
        (read(&s.index), read(&s.family_pages[0]))
    }

    #[test]
    fn designs_that_cannot_be_told_apart_are_both_named_with_the_confidence() {
        let run = interleaved(&[("a", &ROUNDS), ("b", &TIE), ("c", &SLOWER)], 1);
        let v = view(run.clone());
        let (s, block) = cell(&v);
        assert_eq!((s.winner.as_str(), s.runner_up.as_str()), ("a ≈ b", "b"));
        assert!(s.tied);
        assert_eq!(s.confidence, described(&run));
        assert!(s.confidence.starts_with("cannot be told apart: "));
        assert!(s.confidence.ends_with(" over 10 rounds"));
        assert_eq!(s.ratio, "1.00×");
        assert_eq!(
            (ratio(block, "a"), ratio(block, "b"), ratio(block, "c")),
            ("1.00×", "1.00× ≈", "1.20×")
        );
        assert!(
            block
                .tied_note
                .starts_with("≈: within the 95% interval of the best")
        );
        let (index, page) = pages(&run);
        assert!(index.contains("<td><strong>a ≈ b</strong></td>"), "{index}");
        assert!(index.contains(&format!("<td class=\"confidence\">{}</td>", s.confidence)));
        assert!(page.contains(&format!(
            "Fastest: <strong>a ≈ b</strong> at 10.00 ns per work unit;\n  {}.",
            s.confidence
        )));
    }

    /// `run` with a reference loop per `(design, time in each round)`, timed in its rounds.
    fn with_loops(mut run: Results, loops: &[(&str, &[f64])]) -> Results {
        let names: Vec<String> = loops
            .iter()
            .map(|l| format!("ref-direct-{}", l.0))
            .collect();
        let timed: Vec<(&str, &[f64])> = names
            .iter()
            .zip(loops)
            .map(|(name, l)| (name.as_str(), l.1))
            .collect();
        for (mut b, l) in interleaved(&timed, 1).benchmarks.into_iter().zip(loops) {
            b.family = results::Family::Reference;
            b.mirrors = Some(l.0.to_string());
            run.benchmarks.push(b);
        }
        run.fill_paired_ratios();
        run.fill_overheads();
        run
    }

    #[test]
    fn a_cell_whose_designs_all_have_loops_is_ranked_called_directly_too() {
        let run = interleaved(&[("a", &ROUNDS), ("b", &SLOWER)], 1);
        // Through the trait `a` wins; called directly `b` does.
        let flipped = with_loops(run.clone(), &[("a", &SLOWER), ("b", &ROUNDS)]);
        let v = view(flipped.clone());
        let (s, _) = cell(&v);
        assert_eq!(s.winner, "a");
        assert!(
            s.called_directly
                .starts_with("b; runner-up a 1.20× (1.200× ["),
            "{}",
            s.called_directly
        );
        assert!(s.called_directly_differs);
        let (index, page) = pages(&flipped);
        // One in the table's caption, one on the row.
        let differs = |index: &str| {
            index
                .matches("<span class=\"differs\">differs</span>")
                .count()
        };
        assert_eq!(differs(&index), 2, "{index}");
        assert!(
            page.contains("called directly (the reference loops below"),
            "{page}"
        );

        // The same winner both ways: shown, not marked.
        let agreed = with_loops(run.clone(), &[("a", &ROUNDS), ("b", &SLOWER)]);
        let v = view(agreed);
        let (s, _) = cell(&v);
        assert!(s.called_directly.starts_with("a; runner-up b"));
        assert!(!s.called_directly_differs);

        // A design without a loop: no such ranking.
        let v = view(with_loops(run.clone(), &[("a", &SLOWER)]));
        let (s, _) = cell(&v);
        assert_eq!(s.called_directly, "");
        assert!(!s.called_directly_differs);
        assert_eq!(s.peers_without_loop, "", "no peer in this cell");
        // A peer without a loop is named as the reason, on the row and the family page.
        let mut with_peer = with_loops(run.clone(), &[("a", &SLOWER)]);
        with_peer.designs = vec![results::DesignRecord::new(
            with_peer.benchmarks[0].family,
            "b",
            "peer",
        )];
        let v = view(with_peer.clone());
        let (s, _) = cell(&v);
        assert_eq!(
            (s.called_directly.as_str(), s.peers_without_loop.as_str()),
            ("", "b")
        );
        let (index, page) = pages(&with_peer);
        assert!(index.contains("<small>– no loop for b</small>"), "{index}");
        assert!(page.contains("no reference loop calls b without the family's adapter"));
        assert!(
            page.contains("docs/reference-loops.md says which bodies"),
            "{page}"
        );
        // A family that says why its peers have no loop: the reason on the row and the page.
        let family = with_peer.benchmarks[0].family;
        let mut record = with_peer.family_record(family).unwrap_or_else(|| {
            results::FamilyRecord::builtin(results::Family::IdTable).expect("built in")
        });
        record.family = family;
        record.no_loops = Some("the crate is the design".into());
        with_peer.families = vec![record];
        let v = view(with_peer.clone());
        let (s, _) = cell(&v);
        assert_eq!(s.no_loops, "the crate is the design");
        let (index, page) = pages(&with_peer);
        assert!(
            index.contains("<small title=\"the crate is the design\">– no loop for b</small>"),
            "{index}"
        );
        assert!(
            page.contains("without the family's adapter here: the crate is the design."),
            "{page}"
        );
        let (index, page) = pages(&with_loops(run, &[("a", &SLOWER)]));
        assert_eq!(differs(&index), 1);
        assert!(!page.contains("called directly (the reference loops below"));
    }

    #[test]
    fn a_decided_cell_names_one_winner_and_how_sure_the_order_is() {
        let run = interleaved(&[("a", &ROUNDS), ("b", &SLOWER)], 1);
        let v = view(run.clone());
        let (s, block) = cell(&v);
        assert_eq!((s.winner.as_str(), s.runner_up.as_str()), ("a", "b"));
        assert!(!s.tied);
        assert_eq!(s.confidence, described(&run));
        assert!(
            s.confidence
                .ends_with(", winner faster in 100% of 10 rounds"),
            "{}",
            s.confidence
        );
        assert_eq!((s.ratio.as_str(), ratio(block, "b")), ("1.20×", "1.20×"));
        assert!(block.tied_note.is_empty());
        let (index, page) = pages(&run);
        assert!(index.contains("<td><strong>a</strong></td>"));
        assert!(page.contains(&format!(
            "runner-up <strong>b</strong> is 1.20× slower ({}).",
            s.confidence
        )));
    }

    #[test]
    fn a_criterion_timed_run_ranks_by_medians_as_before() {
        let run = criterion_timed(&[("a", 2.0), ("b", 2.5)]);
        let v = view(run.clone());
        let (s, block) = cell(&v);
        assert_eq!((s.winner.as_str(), s.ratio.as_str()), ("a", "1.25×"));
        assert!(!s.tied && s.confidence.is_empty());
        assert_eq!((ratio(block, "a"), ratio(block, "b")), ("1.00×", "1.25×"));
        let (index, page) = pages(&run);
        assert!(
            index.contains("<td>b</td><td class=\"num\">1.25×</td><td class=\"confidence\">–</td>")
        );
        assert!(page.contains(
            "Fastest: <strong>a</strong> at 2.000 ns per work unit;\n  runner-up <strong>b</strong> \
             is 1.25× slower."
        ));
    }
}
