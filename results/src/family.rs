//! The families of designs a run measures, and what each measures beyond time.
//!
//! This is the one file of the crate that names a specific family: [`Family`] has a variant per
//! entry of the family list (`family_list::families!`), whose module name is the string
//! results.json stores, and names three of them for results of schema 1 to 3. Its title, reference
//! design, claims and metric specs come from the run ([`FamilyRecord`]); everything else
//! (compare, history, the report) works from these types.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::claim::{Claim, Untested};
use crate::metric_spec::MetricSection;

/// Writes [`Family`] from the family list (`family_list::families!`): a variant per family,
/// then the reference loops' pseudo-family.
macro_rules! family_enum {
    ($($(#[$doc:meta])* $variant:ident $module:ident,)*) => {
        /// A family of designs sharing one trait and one op vocabulary, or the reference loops
        /// timed beside a family's designs.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Family {
            $($(#[$doc])* $variant,)*
            /// Reference loops (a plain `Vec`, a hand-written loop, the system allocator)
            /// timed beside a family's designs on the same traces, never ranked.
            Reference,
        }

        /// How many families the list has (the reference loops' pseudo-family not counted).
        const LISTED: usize = [$(stringify!($module)),*].len();

        impl Family {
            /// Every family, in the order pages and tables list them (the family list's), then
            /// the reference loops.
            pub const ALL: [Family; LISTED + 1] = [$(Family::$variant,)* Family::Reference];

            /// The name results.json stores, the family's module name in every layer
            /// (`id_table`, `tags`, ...), or `reference`.
            ///
            /// ```
            /// assert_eq!(results::Family::IdTable.as_str(), "id_table");
            /// assert_eq!(results::Family::DataComponent.as_str(), "data_component");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Family::$variant => stringify!($module),)*
                    Family::Reference => "reference",
                }
            }
        }
    };
}

family_list::families!(family_enum);

impl Family {
    /// Whether this is the pseudo-family of reference loops (no designs of its own, no
    /// [`FamilyRecord`]).
    pub const fn is_reference(self) -> bool {
        matches!(self, Family::Reference)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A family name that is not one of [`Family::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown family {name:?}; valid families: {}", valid_names())]
pub struct UnknownFamily {
    /// The name given.
    pub name: String,
}

fn valid_names() -> String {
    Family::ALL.map(Family::as_str).join(", ")
}

impl FromStr for Family {
    type Err = UnknownFamily;

    /// Parses the stored name.
    ///
    /// # Errors
    /// [`UnknownFamily`], whose message lists the valid names.
    ///
    /// ```
    /// use results::Family;
    /// assert_eq!("tags".parse::<Family>().unwrap(), Family::Tags);
    /// let e = "tag".parse::<Family>().unwrap_err().to_string();
    /// assert!(e.contains("id_table, tags, alloc, "), "{e}");
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| UnknownFamily {
                name: s.to_string(),
            })
    }
}

/// A family as a run describes it: its title, the design its times are normalised by, and the
/// articles' claims it measures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyRecord {
    /// The family.
    pub family: Family,
    /// Human title, e.g. `ID lookup tables`.
    pub title: String,
    /// The design whose `ns_per_op` normalises the others' on the same workload and n
    /// (`compare`, the history's `time_vs_reference`), so machine-wide drift cancels.
    pub reference_design: String,
    /// The articles' quantitative claims this family's results answer ([`crate::verdict`]
    /// judges them); empty in files written before claims were recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    /// The catalogue's quantitative statements of this family's articles that no claim tests,
    /// each with the reason; empty in files written before runs recorded them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untested: Vec<Untested>,
    /// The family's own metrics (memory per tag, fragmentation, garbage...) as the report
    /// shows them and `compare` gates them; `None` for a family without any and in files
    /// written before schema 7.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<MetricSection>,
    /// Why the family's peers have no reference loop (`ref-direct-<peer>`) where they have
    /// none, so its cells are not ranked called directly ([`crate::rank_called_directly`]):
    /// the report says it beside each such cell. `None` for a family whose peers have a loop
    /// wherever their replay runs, and in files written before runs recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_loops: Option<String>,
}

impl FamilyRecord {
    /// The built-in record of `family`, used for files written before runs recorded their
    /// families (results schema 1 to 3, baselines without `families`); `None` for
    /// [`Family::Reference`], which has no designs of its own, and for families added after
    /// schema 4, which no such file can hold.
    ///
    /// ```
    /// use results::{Family, FamilyRecord};
    /// assert_eq!(FamilyRecord::builtin(Family::IdTable).unwrap().reference_design, "holey");
    /// assert!(FamilyRecord::builtin(Family::Reference).is_none());
    /// ```
    pub fn builtin(family: Family) -> Option<Self> {
        let (title, reference_design) = match family {
            Family::IdTable => ("ID lookup tables", "holey"),
            Family::Tags => ("Tag stores", "vec_of_vecs"),
            Family::Alloc => ("Block allocators", "buddy"),
            // The other families were added after results recorded their families (schema 4):
            // every file holding them records its own titles and reference designs.
            _ => return None,
        };
        Some(Self {
            family,
            title: title.to_string(),
            reference_design: reference_design.to_string(),
            claims: Vec::new(),
            untested: Vec::new(),
            metrics: None,
            no_loops: None,
        })
    }

    /// The built-in records of every family that has designs, in [`Family::ALL`] order.
    pub fn builtin_all() -> Vec<Self> {
        Family::ALL.into_iter().filter_map(Self::builtin).collect()
    }
}

/// Takes the per-family fields of a results file of schema 1 to 3 (`tags`, `alloc` beside the
/// other benchmark fields) out of `benchmark`, as the JSON of a `metrics` field (tagged by
/// `kind`); `None` when it has neither.
///
/// # Errors
/// The family cannot be written as JSON (never).
pub(crate) fn take_v3_metrics(
    benchmark: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<Option<serde_json::Value>, serde_json::Error> {
    let tags = benchmark.remove("tags").filter(|v| !v.is_null());
    let alloc = benchmark.remove("alloc").filter(|v| !v.is_null());
    let (family, mut fields) = match (tags, alloc) {
        (Some(t), _) => (Family::Tags, t),
        (None, Some(a)) => (Family::Alloc, a),
        (None, None) => return Ok(None),
    };
    if let Some(object) = fields.as_object_mut() {
        object.insert("kind".into(), serde_json::to_value(family)?);
    }
    Ok(Some(fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_display_and_from_str() {
        for f in Family::ALL {
            let json = serde_json::to_value(f).unwrap();
            assert_eq!(json, serde_json::Value::from(f.as_str()));
            assert_eq!(serde_json::from_value::<Family>(json).unwrap(), f);
            assert_eq!(f.to_string().parse::<Family>().unwrap(), f);
        }
        let e = "idtable".parse::<Family>().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "unknown family \"idtable\"; valid families: {}",
                Family::ALL.map(Family::as_str).join(", ")
            )
        );
    }

    #[test]
    fn the_families_of_schema_1_to_3_have_a_builtin_record_and_later_ones_none() {
        let all = FamilyRecord::builtin_all();
        assert_eq!(
            all.iter().map(|r| r.family).collect::<Vec<_>>(),
            [Family::IdTable, Family::Tags, Family::Alloc]
        );
        assert_eq!(all[1].reference_design, "vec_of_vecs");
        assert_eq!(all[2].title, "Block allocators");
    }
}
