//! A family's metrics beyond time as one table ([`MetricFields`], [`metric_fields!`]): each
//! metric declared once, as a field of the family's typed metrics and the spec the report and
//! `compare` read it by, so a field and its spec cannot disagree. Every family's
//! `replay/<family>/metrics.rs` declares its table with the macro; a family without metrics
//! has [`NoMetrics`].

use serde::Serialize;

/// A family's metrics type ([`Family::Metrics`](super::Family::Metrics)): a struct whose fields
/// are the metrics, and the section of the report that describes them.
pub trait MetricFields: Serialize + Default {
    /// How the report shows the fields and `compare` gates them: a title, the metric that
    /// ranks the table, and one spec per field, in field order (see
    /// [`Family::metric_section`](super::Family::metric_section)); `None` for [`NoMetrics`].
    fn section() -> Option<results::MetricSection>;
}

/// The metrics of a family that measures nothing beyond time: no fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct NoMetrics {}

impl MetricFields for NoMetrics {
    fn section() -> Option<results::MetricSection> {
        None
    }
}

/// `numerator / denominator`, the form of a metric per unit (bytes per tag, calls per op);
/// `None` for a zero denominator (no unit to divide by).
pub fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

/// A claim's quantity over a family metric ([`results::claim_spec::family`]): `metric` (its
/// results.json name) of design `numerator` ÷ the same metric of design `denominator`, both on
/// `workload`, the form of most claims that compare two designs by a family's own metric.
pub const fn family_ratio(
    metric: &'static str,
    numerator: &'static str,
    denominator: &'static str,
    workload: &'static str,
) -> results::QuantitySpec {
    results::QuantitySpec::ratio(
        results::claim_spec::family(metric, numerator, workload),
        results::claim_spec::family(metric, denominator, workload),
    )
}

/// Declares a family's metrics as one table: the struct (a public field per row, in row
/// order) and its [`MetricFields`] section, whose specs are named after the fields. The
/// section line names its title and the field that ranks the table; each row is a field, its
/// type, and `=>` the spec's kind (`trace`: fixed by the trace, or `per_design`), label and
/// unit (a [`results::Unit`] variant), then the spec's builder calls
/// ([`results::MetricSpec::describe`], `chart`, ...):
///
/// ```text
/// metric_fields! {
///     /// A tag store's metrics on one trace.
///     pub struct TagMetrics;
///     /// The tag-store section, ranked by bytes per tag.
///     section("Tag-store memory and allocator traffic", ranked by bytes_per_tag);
///
///     /// Tags held after the setup.
///     tags_after_setup: u64 => trace("tags after the setup", Count)
///         .describe("tags held after the setup (the trace fixes it).");
/// }
/// ```
macro_rules! metric_fields {
    (
        $(#[$attr:meta])*
        pub struct $name:ident;
        $(#[$section_attr:meta])*
        section($title:literal, ranked by $rank:ident);
        $(
            $(#[$field_attr:meta])*
            $field:ident: $ty:ty => $kind:ident($label:literal, $unit:ident)
                $(.$method:ident($($arg:expr),* $(,)?))*;
        )+
    ) => {
        $(#[$attr])*
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
        pub struct $name {
            $(
                $(#[$field_attr])*
                pub $field: $ty,
            )+
        }

        impl $crate::replay::metric_fields::MetricFields for $name {
            $(#[$section_attr])*
            fn section() -> Option<results::MetricSection> {
                Some(results::MetricSection {
                    title: $title.into(),
                    rank_by: stringify!($rank).into(),
                    specs: vec![$(
                        results::MetricSpec::$kind(
                            stringify!($field),
                            $label,
                            results::Unit::$unit,
                        )
                        $(.$method($($arg),*))*
                    ),+],
                })
            }
        }
    };
}
pub(crate) use metric_fields;
