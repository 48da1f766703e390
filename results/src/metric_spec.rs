//! A family's own metrics as data, declared: the specs a family declares next to its replayer
//! ([`MetricSection`], [`MetricSpec`]: name, label, unit, description, better direction,
//! deterministic or not, how the report shows it). The run records each family's section in
//! its [`FamilyRecord`](crate::FamilyRecord), so `compare` gates every deterministic metric and
//! the report builds one generic table and its charts from the specs, for any family; the
//! values themselves are [`FamilyMetrics`](crate::FamilyMetrics). Nothing here names a family.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Text that a declaration borrows and a file read owns.
pub type Text = Cow<'static, str>;

/// Which direction of change is an improvement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Smaller is better (bytes, calls, garbage, work per query).
    Lower,
    /// Larger is better (arena use).
    Higher,
}

/// How a value is written in tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A byte count, written with a binary prefix (`1.5 KiB`).
    Bytes,
    /// A whole count (`1000`).
    Count,
    /// Any other number, three significant digits (`0.0312`, `8.50`).
    Number,
}

/// Whether a metric is one figure per design or fixed by the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Each design has its own value: a column of the family table.
    Design,
    /// The trace fixes it (tags after the setup, the arena size): one figure above the table,
    /// or the range when designs disagree.
    Trace,
}

/// A chart the report draws for a metric of a (workload, N) block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MetricChart {
    /// One bar per design (bytes per tag, points tested per query).
    Bars,
    /// One line per design over the values of a series (garbage after each frame).
    Lines,
    /// One line per design of this series against another per-design series `x` of the same
    /// design (the locking family's speed-up against its thread counts): the value at
    /// position `i` is drawn at `x`'s value at position `i`.
    Curve {
        /// The name of the per-design metric holding the x values; its label is the x axis.
        x: Text,
    },
    /// Bars grouped per design with the other metrics of the same `title` (the allocator's
    /// arena use at peak, on average and at the first failure).
    Grouped {
        /// The chart's title, shared by the metrics drawn together.
        title: Text,
    },
}

/// One metric a family measures beyond time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSpec {
    /// The key in results.json (`bytes_per_tag`); `compare` and the history call it
    /// `metrics.<name>`.
    pub name: Text,
    /// A column head (`B / tag`).
    pub label: Text,
    /// What it is, in the article's words where it has them: the report's legend.
    pub description: Text,
    /// How values are written.
    pub unit: Unit,
    /// Which direction is better; `None` for a figure that is neither (a count of frames).
    pub better: Option<Direction>,
    /// Whether it repeats exactly for the same commit and trace (the design's own
    /// accounting): `compare` gates these.
    pub deterministic: bool,
    /// A column per design, or one figure per trace.
    pub scope: Scope,
    /// The chart that shows it, if any.
    pub chart: Option<MetricChart>,
}

impl MetricSpec {
    /// A deterministic per-design number, lower is better, no chart: the common case, which the
    /// builder methods below adjust ([`higher`](Self::higher), [`neutral`](Self::neutral),
    /// [`chart`](Self::chart)).
    pub fn per_design(name: &'static str, label: &'static str, unit: Unit) -> Self {
        Self {
            name: Cow::Borrowed(name),
            label: Cow::Borrowed(label),
            description: Cow::Borrowed(""),
            unit,
            better: Some(Direction::Lower),
            deterministic: true,
            scope: Scope::Design,
            chart: None,
        }
    }

    /// A figure the trace fixes (the same for every design), with no better direction.
    pub fn trace(name: &'static str, label: &'static str, unit: Unit) -> Self {
        Self {
            better: None,
            scope: Scope::Trace,
            ..Self::per_design(name, label, unit)
        }
    }

    /// With `description` as its legend.
    pub fn describe(self, description: &'static str) -> Self {
        Self {
            description: Cow::Borrowed(description),
            ..self
        }
    }

    /// Larger is better.
    pub fn higher(self) -> Self {
        Self {
            better: Some(Direction::Higher),
            ..self
        }
    }

    /// Neither direction is better.
    pub fn neutral(self) -> Self {
        Self {
            better: None,
            ..self
        }
    }

    /// Not repeatable (a time, or a count that depends on the schedule or the machine):
    /// shown, never gated.
    pub fn not_deterministic(self) -> Self {
        Self {
            deterministic: false,
            ..self
        }
    }

    /// Drawn by `chart`.
    pub fn chart(self, chart: MetricChart) -> Self {
        Self {
            chart: Some(chart),
            ..self
        }
    }

    /// The name `compare`, the baseline and the history give it: `metrics.<name>`.
    pub fn compare_name(&self) -> String {
        format!("{COMPARE_PREFIX}{}", self.name)
    }
}

/// The prefix of a family metric's name in `compare`, baselines and the history.
pub const COMPARE_PREFIX: &str = "metrics.";

/// A family's metrics as the report shows them: a titled section whose table is ranked by one
/// of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricSection {
    /// The section's heading (`Tag-store memory and allocator traffic`).
    pub title: Text,
    /// The metric the table's rows are ordered by, best first (by its direction).
    pub rank_by: Text,
    /// Every metric, in the order of the table's columns.
    pub specs: Vec<MetricSpec>,
}

impl MetricSection {
    /// The spec called `name`.
    pub fn spec(&self, name: &str) -> Option<&MetricSpec> {
        self.specs.iter().find(|s| s.name == name)
    }

    /// The metric names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.specs.iter().map(|s| s.name.as_ref()).collect()
    }

    /// Checks the declaration: names unique, `rank_by` one of them and per design, a `Lines`
    /// chart only where the values can be series and a label on every spec.
    ///
    /// # Errors
    /// The first problem, naming the metric.
    pub fn check(&self) -> Result<(), String> {
        for (i, s) in self.specs.iter().enumerate() {
            if self.specs[..i].iter().any(|o| o.name == s.name) {
                return Err(format!("metric {:?} declared twice", s.name));
            }
            if s.label.is_empty() || s.description.is_empty() {
                return Err(format!(
                    "metric {:?} needs a label and a description",
                    s.name
                ));
            }
            if s.scope == Scope::Trace && s.chart.is_some() {
                return Err(format!(
                    "metric {:?} is fixed by the trace: no chart",
                    s.name
                ));
            }
            if let Some(MetricChart::Curve { x }) = &s.chart {
                if !self
                    .specs
                    .iter()
                    .any(|o| o.name == *x && o.scope == Scope::Design)
                {
                    return Err(format!(
                        "metric {:?} is drawn against {x:?}, which is not a per-design metric",
                        s.name
                    ));
                }
            }
        }
        match self.spec(&self.rank_by) {
            Some(s) if s.scope == Scope::Design && s.better.is_some() => Ok(()),
            Some(_) => Err(format!(
                "rank_by {:?} must be a per-design metric with a better direction",
                self.rank_by
            )),
            None => Err(format!(
                "rank_by {:?} is not a declared metric",
                self.rank_by
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_checks_its_declaration() {
        let ok = MetricSection {
            title: "t".into(),
            rank_by: "bytes".into(),
            specs: vec![
                MetricSpec::per_design("bytes", "B", Unit::Bytes).describe("bytes"),
                MetricSpec::trace("tags", "tags", Unit::Count).describe("tags"),
            ],
        };
        assert_eq!(ok.check(), Ok(()));
        assert_eq!(ok.names(), ["bytes", "tags"]);
        let by_trace = MetricSection {
            rank_by: "tags".into(),
            ..ok.clone()
        };
        assert!(by_trace.check().unwrap_err().contains("per-design"));
        let mut twice = ok.clone();
        twice.specs.push(twice.specs[0].clone());
        assert!(twice.check().unwrap_err().contains("twice"));
        let mut bare = ok.clone();
        bare.specs[0].description = "".into();
        assert!(bare.check().unwrap_err().contains("description"));
        let mut curve = ok;
        curve.specs[0].chart = Some(MetricChart::Curve { x: "tags".into() });
        assert!(curve.check().unwrap_err().contains("not a per-design"));
    }

    #[test]
    fn a_spec_serializes_with_its_chart_kind() {
        let s = MetricSpec::per_design("u", "use", Unit::Number)
            .describe("d")
            .higher()
            .chart(MetricChart::Grouped {
                title: "arena use".into(),
            });
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["chart"]["kind"], "grouped");
        assert_eq!(json["better"], "higher");
        assert_eq!(serde_json::from_value::<MetricSpec>(json).unwrap(), s);
        assert_eq!(s.compare_name(), "metrics.u");
    }
}
