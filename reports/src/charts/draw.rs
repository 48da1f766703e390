//! Drawing helpers the charts share: horizontal bars per design, lines on (log) axes with
//! optional vertical markers, markers and legends. Errors become strings; [`super::render_svg`]
//! names the chart.

use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, SegmentValue, SegmentedCoord, ValueFormatter};
use plotters::coord::types::RangedCoordi32;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Bar, Line, ReferenceLine, SeriesStyle};
use crate::palette::{Marker, REFERENCE};

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

pub(crate) const FONT: &str = "sans-serif";
const NOTE_COLOUR: RGBColor = RGBColor(0xa0, 0x10, 0x10);
pub(crate) const MESH: RGBColor = RGBColor(0xe4, 0xe4, 0xe4);

pub(crate) fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

pub(crate) fn caption_style() -> TextStyle<'static> {
    (FONT, 15).into_font().style(FontStyle::Bold).into()
}

pub(crate) fn label_style() -> TextStyle<'static> {
    (FONT, 12).into_font().into()
}

fn left_centre(style: TextStyle<'static>) -> TextStyle<'static> {
    style.pos(Pos::new(HPos::Left, VPos::Center))
}

/// Which way bars are sorted: the best value at the top.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Best {
    Highest,
    Lowest,
}

impl From<results::Direction> for Best {
    /// The better end of a metric at the top.
    fn from(better: results::Direction) -> Self {
        match better {
            results::Direction::Lower => Best::Lowest,
            results::Direction::Higher => Best::Highest,
        }
    }
}

/// A horizontal bar chart: one row per design, best at the top, unmeasured rows last with
/// their note instead of a bar, reference values as dashed vertical lines.
pub(crate) struct HBars<'a> {
    pub caption: &'a str,
    pub x_desc: &'a str,
    pub bars: &'a [Bar],
    pub references: &'a [ReferenceLine],
    pub best: Best,
    pub value_label: fn(f64) -> String,
    /// A fixed end of the value axis (e.g. `1.0` for fractions), marked by a line, with room
    /// to its right for value labels; `None` scales the axis to the largest value.
    pub fixed_max: Option<f64>,
}

/// Rows in display order: measured ones best first, then the unmeasured in input order.
pub(crate) fn sorted_bars(bars: &[Bar], best: Best) -> Vec<&Bar> {
    let mut measured: Vec<&Bar> = bars
        .iter()
        .filter(|b| b.value.is_some_and(f64::is_finite))
        .collect();
    measured.sort_by(|a, b| {
        let (a, b) = (a.value.unwrap_or(0.0), b.value.unwrap_or(0.0));
        match best {
            Best::Highest => b.total_cmp(&a),
            Best::Lowest => a.total_cmp(&b),
        }
    });
    measured.extend(bars.iter().filter(|b| !b.value.is_some_and(f64::is_finite)));
    measured
}

/// The width of the label area left of rows named `names`: room for the longest name, counted
/// as 6 to 24 characters.
pub(crate) fn row_label_width<'a>(names: impl Iterator<Item = &'a str>) -> u32 {
    names
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(6, 24) as u32
        * 7
        + 12
}

/// The y-axis labels of a chart of `k` rows, row i (0 = top) in segment k-1-i: `name(i)` at a
/// segment's centre, nothing elsewhere.
pub(crate) fn row_names(
    k: i32,
    name: impl Fn(usize) -> Option<String>,
) -> impl Fn(&SegmentValue<i32>) -> String {
    move |v| match v {
        SegmentValue::CenterOf(j) => name((k - 1 - j) as usize).unwrap_or_default(),
        _ => String::new(),
    }
}

/// A chart of `k` rows on `x`, one per design, each a segment of the y axis, with the charts'
/// caption, margins and a label area `label_width` wide for the rows' names.
pub(crate) fn rows_chart<'a, 'b, XR: AsRangedCoord<Value = f64>>(
    area: &'a Area<'b>,
    caption: &str,
    label_width: u32,
    x: XR,
    k: i32,
) -> Result<RowsChart<'a, 'b, XR::CoordDescType>, String> {
    ChartBuilder::on(area)
        .caption(caption, caption_style())
        .margin(8)
        .margin_right(18)
        .x_label_area_size(40)
        .y_label_area_size(label_width)
        .build_cartesian_2d(x, (0..k).into_segmented())
        .map_err(err)
}

/// The mesh of a [`rows_chart`] of `k` rows: no lines between the rows, `names` as their
/// labels, the charts' label styles; the caller sets the x axis and draws it.
pub(crate) fn rows_mesh<'a, 'm, 'svg, X: Ranged<ValueType = f64> + ValueFormatter<f64>>(
    chart: &'m mut RowsChart<'a, 'svg, X>,
    k: i32,
    names: &'m dyn Fn(&SegmentValue<i32>) -> String,
) -> MeshStyle<'a, 'm, X, SegmentedCoord<RangedCoordi32>, SVGBackend<'svg>> {
    let mut mesh = chart.configure_mesh();
    mesh.disable_y_mesh()
        .light_line_style(MESH)
        .y_labels(k as usize * 2 + 2)
        .y_label_formatter(names)
        .label_style(label_style())
        .axis_desc_style(label_style());
    mesh
}

/// What [`rows_chart`] builds: `X` across, the rows' segments down.
pub(crate) type RowsChart<'a, 'b, X> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<X, SegmentedCoord<RangedCoordi32>>>;

pub(crate) fn draw_hbars(area: &Area<'_>, spec: &HBars<'_>) -> Result<(), String> {
    let rows = sorted_bars(spec.bars, spec.best);
    // One spare row at the top holds the reference lines' labels.
    let spare = usize::from(!spec.references.is_empty());
    let k = (rows.len() + spare).max(1) as i32;
    let x_max = value_axis_end(&rows, spec);
    // Past a fixed end the axis only holds labels: no tick values there.
    let tick_end = spec
        .fixed_max
        .map_or(f64::INFINITY, |end| end * (1.0 + 1e-9));
    let label_width = row_label_width(rows.iter().map(|b| b.style.name.as_str()));
    let name_at = row_names(k, |i| rows.get(i).map(|b| b.style.name.clone()));
    let mut chart = rows_chart(area, spec.caption, label_width, 0f64..x_max, k)?;
    rows_mesh(&mut chart, k, &name_at)
        .bold_line_style(MESH)
        // Light lines in the bold lines' colour only thicken the grid: a log axis drew 887
        // of them in one memory-over-time chart, most of its SVG's elements.
        .max_light_lines(1)
        .x_labels(6)
        .x_label_formatter(&|x| {
            if *x <= tick_end {
                (spec.value_label)(*x)
            } else {
                String::new()
            }
        })
        .x_desc(spec.x_desc)
        .draw()
        .map_err(err)?;
    let (bars_drawn, texts) = bar_elements(&rows, k, x_max, spec.value_label);
    chart.draw_series(bars_drawn).map_err(err)?;
    chart.draw_series(texts).map_err(err)?;
    if let Some(end) = spec.fixed_max {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(end, SegmentValue::Exact(0)), (end, SegmentValue::Exact(k))],
                REFERENCE.rgb().mix(0.5).stroke_width(1),
            )))
            .map_err(err)?;
    }
    for r in spec.references.iter().filter(|r| r.value.is_finite()) {
        chart
            .draw_series(DashedLineSeries::new(
                vec![
                    (r.value, SegmentValue::Exact(0)),
                    (r.value, SegmentValue::Exact(k)),
                ],
                6,
                4,
                REFERENCE.rgb().stroke_width(2),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("{} {}", r.name, (spec.value_label)(r.value)),
                (r.value + x_max * 0.01, SegmentValue::CenterOf(k - 1)),
                left_centre(label_style()),
            )))
            .map_err(err)?;
    }
    Ok(())
}

/// The end of the value axis: past the fixed end or the largest value, with room for labels.
fn value_axis_end(rows: &[&Bar], spec: &HBars<'_>) -> f64 {
    let max = rows
        .iter()
        .filter_map(|b| b.value)
        .chain(spec.references.iter().map(|r| r.value))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    match spec.fixed_max {
        Some(end) => end * 1.22,
        None if max > 0.0 => max * 1.22,
        None => 1.0,
    }
}

/// A point of a bar chart: a value, and a row's segment.
type BarCoord = (f64, SegmentValue<i32>);

/// Each measured row's bar and value label, and each unmeasured row's note, in segment
/// coordinates of a chart with `k` rows.
fn bar_elements(
    rows: &[&Bar],
    k: i32,
    x_max: f64,
    value_label: fn(f64) -> String,
) -> (
    Vec<Rectangle<BarCoord>>,
    Vec<Text<'static, BarCoord, String>>,
) {
    let mut bars_drawn = Vec::new();
    let mut texts = Vec::new();
    for (i, bar) in rows.iter().enumerate() {
        let j = k - 1 - i as i32;
        match bar.value.filter(|v| v.is_finite()) {
            Some(v) => {
                let mut rect = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(j)),
                        (v, SegmentValue::Exact(j + 1)),
                    ],
                    bar.style.colour.rgb().filled(),
                );
                rect.set_margin(3, 3, 0, 0);
                bars_drawn.push(rect);
                texts.push(Text::new(
                    value_label(v),
                    (v + x_max * 0.01, SegmentValue::CenterOf(j)),
                    left_centre(label_style()),
                ));
            }
            None => texts.push(Text::new(
                bar.note
                    .clone()
                    .unwrap_or_else(|| "not measured".to_string()),
                (x_max * 0.01, SegmentValue::CenterOf(j)),
                left_centre(label_style().color(&NOTE_COLOUR)),
            )),
        }
    }
    (bars_drawn, texts)
}

/// A line chart with one polyline per design and optional labelled vertical lines (cache
/// sizes). Axes are whatever coordinate specs the caller passes (linear or log).
pub(crate) struct Lines<'a> {
    pub caption: &'a str,
    pub x_desc: &'a str,
    pub y_desc: &'a str,
    pub lines: &'a [Line],
    pub verticals: &'a [(f64, String)],
    pub x_label: fn(f64) -> String,
    pub y_label: fn(f64) -> String,
}

pub(crate) fn draw_lines<XR, YR>(
    area: &Area<'_>,
    spec: &Lines<'_>,
    x: XR,
    y: YR,
    (y_lo, y_hi): (f64, f64),
) -> Result<(), String>
where
    XR: AsRangedCoord<Value = f64>,
    YR: AsRangedCoord<Value = f64>,
    XR::CoordDescType: ValueFormatter<f64>,
    YR::CoordDescType: ValueFormatter<f64>,
{
    let (plot, legend) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(170));
    let mut chart = ChartBuilder::on(&plot)
        .caption(spec.caption, caption_style())
        .margin(8)
        .margin_right(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(x, y)
        .map_err(err)?;
    chart
        .configure_mesh()
        .light_line_style(MESH)
        .bold_line_style(MESH)
        // Light lines in the bold lines' colour only thicken the grid: a log axis drew 887
        // of them in one memory-over-time chart, most of its SVG's elements.
        .max_light_lines(1)
        .x_labels(8)
        .y_labels(8)
        .x_label_formatter(&|v| (spec.x_label)(*v))
        .y_label_formatter(&|v| (spec.y_label)(*v))
        .x_desc(spec.x_desc)
        .y_desc(spec.y_desc)
        .label_style(label_style())
        .axis_desc_style(label_style())
        .draw()
        .map_err(err)?;
    for (x, label) in spec.verticals {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(*x, y_lo), (*x, y_hi)],
                5,
                4,
                REFERENCE.rgb().mix(0.6).stroke_width(1),
            ))
            .map_err(err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                label.clone(),
                (*x, y_hi),
                label_style().pos(Pos::new(HPos::Left, VPos::Top)),
            )))
            .map_err(err)?;
    }
    for line in spec.lines {
        let colour = line.style.colour.rgb();
        if line.style.reference {
            chart
                .draw_series(DashedLineSeries::new(
                    line.points.clone(),
                    6,
                    4,
                    colour.stroke_width(2),
                ))
                .map_err(err)?;
        } else {
            chart
                .draw_series(LineSeries::new(line.points.clone(), colour.stroke_width(2)))
                .map_err(err)?;
        }
        draw_markers(&mut chart, &line.points, &line.style)?;
    }
    let entries: Vec<&SeriesStyle> = spec.lines.iter().map(|l| &l.style).collect();
    draw_legend(&legend, &entries, true)
}

/// Markers per line at most: they tell the series apart, the line carries the data (a
/// memory-over-time line of 40 points drew 40 markers; a chart of 30 designs, 1,200).
const MAX_MARKERS: usize = 12;

/// Draws `style`'s marker at up to [`MAX_MARKERS`] points, evenly spaced, the first and the
/// last included.
pub(crate) fn draw_markers<CT>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, CT>,
    points: &[CT::From],
    style: &SeriesStyle,
) -> Result<(), String>
where
    CT: CoordTranslate,
    CT::From: Clone + 'static,
{
    let fill = style.colour.rgb().filled();
    let stroke = style.colour.rgb().stroke_width(2);
    let step = points.len().div_ceil(MAX_MARKERS).max(1);
    let last = points.len().saturating_sub(1);
    let p = points
        .iter()
        .enumerate()
        .filter(move |&(i, _)| i % step == 0 || i == last)
        .map(|(_, c)| c.clone());
    match style.marker {
        Marker::Circle => chart
            .draw_series(p.map(|c| Circle::new(c, 4, fill)))
            .map(|_| ()),
        Marker::Triangle => chart
            .draw_series(p.map(|c| TriangleMarker::new(c, 5, fill)))
            .map(|_| ()),
        Marker::Square => chart
            .draw_series(p.map(|c| EmptyElement::at(c) + Rectangle::new([(-4, -4), (4, 4)], fill)))
            .map(|_| ()),
        Marker::Cross => chart
            .draw_series(p.map(|c| Cross::new(c, 4, stroke)))
            .map(|_| ()),
    }
    .map_err(err)
}

/// A legend in its own area: a marker (and a line sample) and the name per entry.
pub(crate) fn draw_legend(
    area: &Area<'_>,
    entries: &[&SeriesStyle],
    with_line: bool,
) -> Result<(), String> {
    let top = 40;
    for (i, s) in entries.iter().enumerate() {
        let y = top + i as i32 * 18;
        let colour = s.colour.rgb();
        if with_line {
            area.draw(&PathElement::new(
                vec![(6, y), (30, y)],
                colour.stroke_width(2),
            ))
            .map_err(err)?;
        }
        let c = (18, y);
        let fill = colour.filled();
        match s.marker {
            Marker::Circle => area.draw(&Circle::new(c, 4, fill)),
            Marker::Triangle => area.draw(&TriangleMarker::new(c, 5, fill)),
            Marker::Square => area.draw(&Rectangle::new([(14, y - 4), (22, y + 4)], fill)),
            Marker::Cross => area.draw(&Cross::new(c, 4, colour.stroke_width(2))),
        }
        .map_err(err)?;
        area.draw(&Text::new(
            s.name.clone(),
            (36, y),
            left_centre(label_style()),
        ))
        .map_err(err)?;
    }
    Ok(())
}

/// The range `[lo, hi]` of positive finite values, widened by `pad` (a factor) on log axes;
/// `None` when there is none, or when the widened range leaves `(0, AXIS_MAX]` (values near
/// `f64::MAX` would make the axis's tick search run forever).
pub(crate) fn log_bounds(values: impl Iterator<Item = f64>, pad: f64) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if hi <= 0.0 {
        return None;
    }
    let (lo, hi) = if hi / lo < 1.5 {
        (lo / 1.5, hi * 1.5)
    } else {
        (lo, hi)
    };
    let (lo, hi) = (lo / pad, hi * pad);
    (lo > 0.0 && hi <= AXIS_MAX).then_some((lo, hi))
}

/// The largest value any axis is drawn to: far above every quantity the suite measures (ns,
/// bytes, counts), far below where axis arithmetic overflows.
pub(crate) const AXIS_MAX: f64 = 1e30;

/// A plotting area that only says there is nothing to draw.
pub(crate) fn draw_empty(area: &Area<'_>, caption: &str, why: &str) -> Result<(), String> {
    area.draw(&Text::new(caption.to_string(), (10, 10), caption_style()))
        .map_err(err)?;
    area.draw(&Text::new(why.to_string(), (10, 40), label_style()))
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_bounds_refuse_ranges_that_overflow() {
        assert_eq!(
            log_bounds([1.0, 100.0].into_iter(), 1.0),
            Some((1.0, 100.0))
        );
        assert_eq!(log_bounds([1.0, 1e308].into_iter(), 1.3), None);
        assert_eq!(log_bounds([f64::NAN, -1.0].into_iter(), 1.3), None);
    }
}
