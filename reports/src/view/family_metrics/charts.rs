//! The declared charts of a family-metrics section: [`MetricChart::Bars`] (one bar per design,
//! the best at the top), [`MetricChart::Lines`] (one line per design over a series),
//! [`MetricChart::Curve`] (one line per design of a series against another of its series) and
//! [`MetricChart::Grouped`] (every metric of the same group title as a panel of bars per
//! design). Titles, axes and text alternatives come from the specs' labels, descriptions and
//! better directions; file names end in the spec's name or the group's title.

use results::{Benchmark, Direction, MetricChart, MetricSection, MetricSpec, Scope, Unit};

use super::{Block, number};
use crate::charts::grouped_bars::{self, Panel};
use crate::charts::per_unit::{self, PerUnit};
use crate::charts::series::{self, SeriesChart};
use crate::charts::{Bar, Chart, ChartError, Line};
use crate::format;
use crate::view::names::Names;

/// The charts `section` declares for the metrics some shown design of `block` has, each with
/// the names of the metrics it draws, in declaration order (a group where its first metric
/// is declared).
///
/// # Errors
/// A chart could not be drawn.
pub(super) fn build(
    block: &Block<'_>,
    section: &MetricSection,
    names: &mut Names,
) -> Result<Vec<(Vec<String>, Chart)>, ChartError> {
    let mut drawn = Vec::new();
    let mut groups_done: Vec<&str> = Vec::new();
    for spec in section.specs.iter().filter(|s| s.scope == Scope::Design) {
        let chart = match &spec.chart {
            None => None,
            Some(MetricChart::Bars) => {
                bars(block, spec, names)?.map(|chart| (vec![spec.name.to_string()], chart))
            }
            Some(MetricChart::Lines) => {
                lines(block, spec, None, names)?.map(|chart| (vec![spec.name.to_string()], chart))
            }
            Some(MetricChart::Curve { x }) => {
                let x_spec = section.spec(x);
                lines(block, spec, Some((x.as_ref(), x_spec)), names)?
                    .map(|chart| (vec![spec.name.to_string(), x.to_string()], chart))
            }
            Some(MetricChart::Grouped { title }) if !groups_done.contains(&title.as_ref()) => {
                groups_done.push(title);
                let members: Vec<&MetricSpec> = section
                    .specs
                    .iter()
                    .filter(|s| {
                        s.scope == Scope::Design
                            && matches!(&s.chart, Some(MetricChart::Grouped { title: t }) if t == title)
                    })
                    .collect();
                grouped(block, title, &members, names)?
            }
            Some(MetricChart::Grouped { .. }) => None,
        };
        drawn.extend(chart);
    }
    Ok(drawn)
}

/// `label (lower is better)`, or the label alone for a metric with no better direction.
fn axis(spec: &MetricSpec) -> String {
    match spec.better {
        Some(Direction::Lower) => format!("{} (lower is better)", spec.label),
        Some(Direction::Higher) => format!("{} (higher is better)", spec.label),
        None => spec.label.to_string(),
    }
}

/// Where the bars' best end is: the better direction, smallest first without one.
fn better(spec: &MetricSpec) -> Direction {
    spec.better.unwrap_or(Direction::Lower)
}

/// `smallest at the top` or `largest at the top`.
fn top(spec: &MetricSpec) -> &'static str {
    match better(spec) {
        Direction::Lower => "smallest at the top",
        Direction::Higher => "largest at the top",
    }
}

/// A value label in the metric's unit.
fn value_label(unit: Unit) -> fn(f64) -> String {
    match unit {
        Unit::Bytes => format::bytes,
        Unit::Count => |v| format!("{}", v.round()),
        Unit::Number => per_unit::plain_label,
    }
}

/// The bar chart of one metric over the shown designs that have it; `None` when none has a
/// value other than zero (a chart of nothing).
fn bars(
    block: &Block<'_>,
    spec: &MetricSpec,
    names: &mut Names,
) -> Result<Option<Chart>, ChartError> {
    let bars: Vec<Bar> = block
        .shown()
        .iter()
        .filter_map(|b| {
            number(b, &spec.name).map(|v| Bar {
                style: block.style(b),
                value: Some(v),
                note: None,
            })
        })
        .collect();
    if bars.iter().all(|b| b.value == Some(0.0)) {
        return Ok(None);
    }
    let title = format!("{}: {}", block.title, spec.label);
    let x_desc = axis(spec);
    let description = format!(
        "{title}: {} One bar per design that has the figure, {}.",
        spec.description,
        top(spec)
    );
    let file = block.chart_file(names, &spec.name);
    per_unit::build(
        &file,
        PerUnit {
            title: &title,
            x_desc: &x_desc,
            better: better(spec),
            value_label: value_label(spec.unit),
        },
        description,
        &bars,
    )
    .map(Some)
}

/// The line chart of one series metric: a line per shown design whose series has a value
/// other than zero (the others named in the text), over the series' positions or, `against`
/// another series (its name and spec), over that series' values; `None` when no shown design
/// has a non-empty series.
fn lines(
    block: &Block<'_>,
    spec: &MetricSpec,
    against: Option<(&str, Option<&MetricSpec>)>,
    names: &mut Names,
) -> Result<Option<Chart>, ChartError> {
    let series_of = |b: &Benchmark, name: &str| {
        b.metrics
            .as_ref()
            .and_then(|m| m.series(name))
            .filter(|s| !s.is_empty())
            .map(<[f64]>::to_vec)
    };
    // Each design's points: (position or x value, value).
    let points = |b: &Benchmark| -> Option<Vec<(f64, f64)>> {
        let ys = series_of(b, &spec.name)?;
        Some(match against {
            None => (1..).zip(ys).map(|(i, v)| (f64::from(i), v)).collect(),
            Some((x, _)) => series_of(b, x)?.into_iter().zip(ys).collect(),
        })
    };
    let with: Vec<(&Benchmark, Vec<(f64, f64)>)> = block
        .shown()
        .into_iter()
        .filter_map(|b| Some((b, points(b)?)))
        .collect();
    if with.is_empty() {
        return Ok(None);
    }
    let (drawn, flat): (Vec<_>, Vec<_>) = with
        .into_iter()
        .partition(|(_, s)| s.iter().any(|&(_, v)| v != 0.0));
    let lines: Vec<Line> = drawn
        .iter()
        .map(|(b, s)| Line {
            style: block.style(b),
            points: s.clone(),
        })
        .collect();
    let title = format!("{}: {}", block.title, spec.label);
    let y_desc = axis(spec);
    let x_desc = match against {
        None => series::X_DESC.to_string(),
        Some((x, x_spec)) => x_spec.map_or_else(|| x.to_string(), |s| s.label.to_string()),
    };
    let flat_names: Vec<String> = flat.iter().map(|(b, _)| block.style(b).name).collect();
    let description = format!(
        "{title}: {} One line per design over {}{}.",
        spec.description,
        match against {
            None => "the series' positions".to_string(),
            Some(_) => format!("its {x_desc}"),
        },
        if flat_names.is_empty() {
            String::new()
        } else {
            format!("; all zero, not drawn: {}", flat_names.join(", "))
        }
    );
    let file = block.chart_file(names, &spec.name);
    series::build(
        &file,
        SeriesChart {
            title: &title,
            x_desc: &x_desc,
            y_desc: &y_desc,
            empty: "no design has a value other than zero",
        },
        description,
        &lines,
    )
    .map(Some)
}

/// The grouped chart `title` of `members`: a panel per member some shown design has, a bar
/// per shown design that has any of them (`not measured` in a panel it lacks); `None` when no
/// shown design has any.
fn grouped(
    block: &Block<'_>,
    title: &str,
    members: &[&MetricSpec],
    names: &mut Names,
) -> Result<Option<(Vec<String>, Chart)>, ChartError> {
    let shown = block.shown();
    let has = |b: &Benchmark, s: &MetricSpec| number(b, &s.name).is_some();
    let members: Vec<&MetricSpec> = members
        .iter()
        .copied()
        .filter(|s| shown.iter().any(|b| has(b, s)))
        .collect();
    let designs: Vec<&Benchmark> = shown
        .into_iter()
        .filter(|b| members.iter().any(|s| has(b, s)))
        .collect();
    if members.is_empty() {
        return Ok(None);
    }
    let panels: Vec<Panel> = members
        .iter()
        .map(|s| Panel {
            caption: format!("{}: {}", block.title, s.label),
            x_desc: axis(s),
            better: better(s),
            value_label: value_label(s.unit),
            bars: designs
                .iter()
                .map(|b| Bar {
                    style: block.style(b),
                    value: number(b, &s.name),
                    note: Some("not measured".to_string()),
                })
                .collect(),
        })
        .collect();
    let chart_title = format!("{}: {title}", block.title);
    let each: Vec<String> = members
        .iter()
        .map(|s| format!("{} ({}): {}", s.label, top(s), s.description))
        .collect();
    let description = format!(
        "{chart_title}: one panel per figure, one bar per design in each. {}",
        each.join(" ")
    );
    let file = block.chart_file(names, title);
    let chart = grouped_bars::build(&file, &chart_title, description, &panels)?;
    Ok(Some((
        members.iter().map(|s| s.name.to_string()).collect(),
        chart,
    )))
}
