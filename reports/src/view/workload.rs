//! One workload's section of a family page: a block per N, the ns/op-vs-N and
//! ns/op-vs-working-set charts, the trend across commits and the reproduction commands.

use results::Family;
use results::{Benchmark, Results, SweepPoint};
use serde::Serialize;

use super::Filters;
use super::machines::Machines;
use super::names::{Names, push_unique, slug};
use super::reference::{REFERENCE_KIND, is_reference, reference_style};
use super::size::{SizeView, build_size};
use super::status::{is_verified, median};
use super::sweep::{limit_lines, sweep_lines};
use super::trend::{HistoryInput, TrendView, build_trend};
use crate::charts::working_set::CacheLevel;
use crate::charts::{Chart, ChartError, Line, SeriesStyle, scaling, working_set};

/// A workload section of a family page.
#[derive(Debug, Serialize)]
pub struct WorkloadView {
    /// Generator name.
    pub name: String,
    /// HTML id.
    pub anchor: String,
    /// One block per N.
    pub sizes: Vec<SizeView>,
    /// ns/op vs N, when more than one N was run.
    pub scaling: Option<Chart>,
    /// ns/op vs working-set bytes with cache sizes.
    pub working_set: Option<Chart>,
    /// How each design's time grows with N, fitted on log-log over the sweep's and the bench's
    /// sizes (`≈ N^k` per design, steepest first), for designs timed at three sizes or more;
    /// empty otherwise.
    pub growth: Vec<GrowthView>,
    /// Trend across commits, when a history with at least one entry was given.
    pub trend: Option<TrendView>,
    /// How to regenerate and replay each trace.
    pub reproduce: Vec<ReproView>,
}

/// One design's fitted growth on one workload.
#[derive(Debug, Serialize)]
pub struct GrowthView {
    /// The design.
    pub design: String,
    /// `k` of the body's total time ≈ c·N^k (the time per work unit times the body's work
    /// units), two decimals.
    pub exponent: String,
    /// The sizes it was fitted over, e.g. `1000 to 262144 (4 sizes)`.
    pub over: String,
}

/// The growth of every design of `family` on `workload` timed at three sizes or more, in the
/// first run: the body's total time (ns per work unit × work units) at each N of its bench
/// entries and sweep points, fitted on log-log ([`results::verdict::fit_exponent`]).
fn growth(
    results: &Results,
    in_workload: &[&Benchmark],
    swept: &[&SweepPoint],
    family: Family,
) -> Vec<GrowthView> {
    let mut designs: Vec<&str> = Vec::new();
    for b in in_workload.iter().filter(|b| b.family == family) {
        push_unique_str(&mut designs, &b.design);
    }
    let in_primary = |p: &&&SweepPoint| {
        results.sweeps.as_ref().is_some_and(|s| {
            s.points
                .as_ptr_range()
                .contains(&(**p as *const SweepPoint))
        })
    };
    let mut out: Vec<(f64, GrowthView)> = Vec::new();
    for design in designs {
        let mut xy: Vec<(f64, f64)> = Vec::new();
        let own = in_workload.iter().filter(|b| {
            b.family == family
                && b.design == design
                && results
                    .benchmarks
                    .as_ptr_range()
                    .contains(&(**b as *const Benchmark))
        });
        for b in own {
            if let Some(t) = median(b) {
                xy.push((b.n as f64, t * b.ops as f64));
            }
        }
        for p in swept
            .iter()
            .filter(in_primary)
            .filter(|p| p.design == design)
        {
            if xy.iter().any(|&(n, _)| n == p.n as f64) {
                continue;
            }
            if let (true, Some(t), Some(ops)) = (is_verified(p.status), p.ns_per_op, p.ops) {
                xy.push((p.n as f64, t * ops as f64));
            }
        }
        xy.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(k) = results::verdict::fit_exponent(&xy) {
            out.push((
                k,
                GrowthView {
                    design: design.to_string(),
                    exponent: format!("{k:.2}"),
                    over: format!("{} to {} ({} sizes)", xy[0].0, xy[xy.len() - 1].0, xy.len()),
                },
            ));
        }
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out.into_iter().map(|(_, g)| g).collect()
}

fn push_unique_str<'a>(v: &mut Vec<&'a str>, s: &'a str) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Reproduction commands for one trace.
#[derive(Debug, Serialize)]
pub struct ReproView {
    /// Workload.
    pub workload: String,
    /// Live size.
    pub n: u64,
    /// Seed.
    pub seed: u64,
    /// Parameters as JSON.
    pub params: String,
    /// `dodbench gen ...`.
    pub gen_cmd: String,
    /// `dodbench replay ...`.
    pub replay_cmd: String,
}

/// A design's points across sizes: `(N, ns/op)` and `(working-set bytes, ns/op)`.
type DesignSeries = (SeriesStyle, Vec<(f64, f64)>, Vec<(f64, f64)>);

/// What every workload section of one family page is built from.
pub(super) struct FamilyScope<'a> {
    /// The runs, one per machine.
    pub(super) machines: &'a Machines<'a>,
    /// The page's family.
    pub(super) family: Family,
    /// The page's file name.
    pub(super) page: &'a str,
    /// The family's points of `dodbench sweep`, every workload and machine.
    pub(super) sweep_points: &'a [&'a SweepPoint],
    /// Every machine's cache sizes, marked on the working-set charts.
    pub(super) caches: &'a [CacheLevel],
    /// The history, when it has at least one entry.
    pub(super) history: Option<&'a HistoryInput>,
}

/// The section of `workload` on the family page of `scope`, or `None` when neither a
/// benchmark of the family nor a sweep point has this workload. Adds its sizes (and, with
/// reference loops, the `reference` kind) to `filters`.
pub(super) fn build_workload(
    scope: &FamilyScope<'_>,
    workload: &str,
    filters: &mut Filters,
    names: &mut Names,
    charts: &mut Vec<Chart>,
) -> Result<Option<WorkloadView>, ChartError> {
    let FamilyScope {
        machines,
        family,
        page,
        sweep_points,
        caches,
        history,
    } = *scope;
    let results = machines.primary();
    let in_workload: Vec<&Benchmark> = machines
        .benchmarks()
        .filter(|b| (b.family == family || is_reference(b)) && b.workload == workload)
        .collect();
    let swept: Vec<&SweepPoint> = sweep_points
        .iter()
        .copied()
        .filter(|p| p.workload == workload)
        .collect();
    if !in_workload.iter().any(|b| b.family == family) && swept.is_empty() {
        return Ok(None);
    }
    let mut sizes_n: Vec<u64> = in_workload
        .iter()
        .filter(|b| b.family == family)
        .map(|b| b.n)
        .collect();
    sizes_n.sort_unstable();
    sizes_n.dedup();
    let anchor = names
        .unique(&[family.as_str(), workload], "x")
        .trim_end_matches(".x")
        .to_string();
    let mut sizes = Vec::new();
    for &n in &sizes_n {
        push_unique(&mut filters.n, &n.to_string());
        let here: Vec<&Benchmark> = in_workload.iter().copied().filter(|b| b.n == n).collect();
        sizes.push(build_size(
            machines, family, page, workload, n, &here, names, charts,
        )?);
    }
    if in_workload.iter().any(|b| is_reference(b)) {
        push_unique(&mut filters.kind, REFERENCE_KIND);
    }
    let series = design_series(machines, family, &in_workload);
    let scaling = if sizes_n.len() > 1 {
        let file = names.unique(&[family.as_str(), workload, "scaling"], "svg");
        let chart = scaling::build(
            &file,
            &format!("{workload}: ns per work unit vs N"),
            &series_lines(&series, |s| &s.1),
        )?;
        charts.push(chart.clone());
        Some(chart)
    } else {
        None
    };
    let (ws_title, ws_lines, ws_source) =
        working_set_lines(machines, family, workload, &swept, &series);
    let working_set = if ws_lines.iter().any(|l| !l.points.is_empty()) {
        let file = names.unique(&[family.as_str(), workload, "working-set"], "svg");
        let chart = working_set::build(&file, &ws_title, &ws_lines, caches, &ws_source)?;
        charts.push(chart.clone());
        Some(chart)
    } else {
        None
    };
    let reproduce = results
        .workloads
        .iter()
        .filter(|w| w.family == family && w.workload == workload)
        .map(|w| reproduce(&w.workload, w.n, w.seed, &w.params))
        .collect();
    let trend = match history {
        Some(h) => Some(build_trend(results, family, workload, h, names, charts)?),
        None => None,
    };
    let growth = growth(results, &in_workload, &swept, family);
    Ok(Some(WorkloadView {
        name: workload.to_string(),
        anchor,
        sizes,
        scaling,
        working_set,
        growth,
        trend,
        reproduce,
    }))
}

/// One series per design (and reference) and machine: its `(N, ns/op)` and
/// `(working-set bytes, ns/op)` points, references last.
fn design_series(
    machines: &Machines<'_>,
    family: Family,
    in_workload: &[&Benchmark],
) -> Vec<DesignSeries> {
    // One line per design (and reference) and machine through its N points.
    let mut series: Vec<DesignSeries> = Vec::new();
    for b in in_workload {
        let Some(m) = median(b) else { continue };
        let style = if is_reference(b) {
            SeriesStyle {
                name: machines.label(b),
                ..reference_style(&b.design)
            }
        } else {
            machines.style(family, b)
        };
        let entry = match series.iter().position(|s| s.0 == style) {
            Some(i) => &mut series[i],
            None => {
                series.push((style, Vec::new(), Vec::new()));
                series.last_mut().expect("just pushed")
            }
        };
        entry.1.push((b.n as f64, m));
        if let Some(bytes) = b.memory_bytes.filter(|&x| x > 0) {
            entry.2.push((bytes as f64, m));
        }
    }
    series.sort_by_key(|s| s.0.reference);
    series
}

/// One line per series with points picked by `pick`, sorted by x.
fn series_lines(series: &[DesignSeries], pick: fn(&DesignSeries) -> &Vec<(f64, f64)>) -> Vec<Line> {
    series
        .iter()
        .filter(|s| !pick(s).is_empty())
        .map(|s| {
            let mut points = pick(s).clone();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Line {
                style: s.0.clone(),
                points,
            }
        })
        .collect()
}

/// The working-set chart's title, lines and source note: the sweep's points when `swept`
/// has any, else each benchmark's heap bytes from `series`.
fn working_set_lines(
    machines: &Machines<'_>,
    family: Family,
    workload: &str,
    swept: &[&SweepPoint],
    series: &[DesignSeries],
) -> (String, Vec<Line>, String) {
    let results = machines.primary();
    if swept.is_empty() {
        (
            format!("{workload}: ns per work unit vs working set"),
            series_lines(series, |s| &s.2),
            "Each point is one benchmark: x is the design's heap bytes after the setup \
             (dodbench sweep was not run on this workload)."
                .to_string(),
        )
    } else {
        // Each machine's sweep: its lines named after it when there are several.
        let mut lines = Vec::new();
        let mut sources = Vec::new();
        for (i, run) in machines.runs().iter().enumerate() {
            let Some(sweeps) = &run.sweeps else { continue };
            let points: Vec<&SweepPoint> = swept
                .iter()
                .copied()
                .filter(|p| {
                    sweeps
                        .points
                        .as_ptr_range()
                        .contains(&(*p as *const SweepPoint))
                })
                .collect();
            if points.is_empty() {
                continue;
            }
            let (mut run_lines, mut source) = sweep_lines(results, family, sweeps, &points);
            let suffix = if machines.many() {
                format!(" @ {}", machines.name(i))
            } else {
                String::new()
            };
            if let Some(limits) = &sweeps.memory_limits {
                let bound = run
                    .workloads
                    .iter()
                    .find(|w| w.family == family && w.workload == workload)
                    .and_then(|w| w.memory_bound);
                let limit = limit_lines(limits, bound, &run_lines, &suffix);
                if !limit.is_empty() {
                    source.push_str(
                        " Dashed grey lines: this machine's memory limits from the same sweep, \
                         at a buffer of each size (the cost of one load whose address comes \
                         from the previous load, of one load whose address does not, and of \
                         reading one work unit's bytes sequentially where the body streams).",
                    );
                }
                run_lines.extend(limit);
            }
            if machines.many() {
                for line in run_lines.iter_mut().filter(|l| !l.style.reference) {
                    line.style.name = format!("{}{suffix}", line.style.name);
                }
                sources.push(format!("{}: {source}", machines.name(i)));
            } else {
                sources.push(source);
            }
            lines.extend(run_lines);
        }
        let top = swept.iter().map(|p| p.n).max().unwrap_or(0);
        (
            format!("{workload}: ns per work unit vs working set (sweep, N up to {top})"),
            lines,
            sources.join(" "),
        )
    }
}

/// `dodbench gen` + `dodbench replay` for one trace.
pub fn reproduce(workload: &str, n: u64, seed: u64, params: &serde_json::Value) -> ReproView {
    let params_json = serde_json::to_string(params).unwrap_or_else(|_| "{}".to_string());
    let file = format!("{}-{n}.trace", slug(workload));
    let has_params = params.as_object().is_some_and(|o| !o.is_empty());
    let gen_cmd = format!(
        "dodbench gen {} --n {n} --seed {seed}{} -o {file}",
        shell_quote(workload),
        if has_params {
            format!(" --params {}", shell_quote(&params_json))
        } else {
            String::new()
        }
    );
    ReproView {
        workload: workload.to_string(),
        n,
        seed,
        params: params_json,
        gen_cmd,
        replay_cmd: format!("dodbench replay {file}"),
    }
}

/// Single-quotes `s` for a POSIX shell when it is not a plain word.
fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/:=".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A design whose time per work unit grows as N over bodies of N work units grows as N²
    /// in all; one timed at two sizes only is left out.
    #[test]
    fn growth_is_the_fitted_exponent_of_the_whole_body() {
        let mut results = crate::view::test_runs::interleaved(&[], 1);
        for (design, sizes) in [("quad", &[10u64, 100, 1000][..]), ("two", &[10, 100][..])] {
            for &n in sizes {
                let mut b = Benchmark::new(Family::IdTable, "w", design, n, n);
                b.verified = true;
                b.status = results::Status::Verified;
                b.ns_per_op = Some(results::Estimate {
                    median: 3.0 * n as f64,
                    lower: 1.0,
                    upper: 1.0,
                });
                results.benchmarks.push(b);
            }
        }
        let in_workload: Vec<&Benchmark> = results.benchmarks.iter().collect();
        let g = growth(&results, &in_workload, &[], Family::IdTable);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].design, "quad");
        assert_eq!(g[0].exponent, "2.00");
        assert_eq!(g[0].over, "10 to 1000 (3 sizes)");
    }

    #[test]
    fn reproduction_commands_quote_json() {
        let r = reproduce("lookup-zipf", 1000, 7, &serde_json::json!({"skew": 1.2}));
        assert_eq!(
            r.gen_cmd,
            r#"dodbench gen lookup-zipf --n 1000 --seed 7 --params '{"skew":1.2}' -o lookup-zipf-1000.trace"#
        );
        assert_eq!(r.replay_cmd, "dodbench replay lookup-zipf-1000.trace");
        let r = reproduce("fill", 10, 1, &serde_json::json!({}));
        assert_eq!(
            r.gen_cmd,
            "dodbench gen fill --n 10 --seed 1 -o fill-10.trace"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
