//! A benchmark's family metrics ([`FamilyMetrics`]): named values tagged by the family, named
//! by the specs its family declares ([`MetricSection`](crate::MetricSection)).
//!
//! In results.json a benchmark's `metrics` is one flat object tagged by its family:
//! `{"kind": "<family>", "bytes_per_tag": 8.5, "garbage_per_frame": [3, 1], ...}`: the shape
//! schema 4 to 6 wrote with one struct per family, so every older file reads unchanged.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::family::Family;

/// One value of a family metric.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum MetricValue {
    /// A number (counts are numbers too).
    Number(f64),
    /// A series, e.g. garbage after each frame.
    Series(Vec<f64>),
}

/// Whole numbers are written without a fraction (`2000`, not `2000.0`), as the typed structs
/// of schema 4 to 6 wrote their counts.
impl Serialize for MetricValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        fn whole(v: f64) -> Option<i64> {
            // Exactly representable integers only (|v| < 2^53).
            (v.fract() == 0.0 && v.abs() < 9_007_199_254_740_992.0).then_some(v as i64)
        }
        fn one<S: serde::Serializer>(v: f64, s: S) -> Result<S::Ok, S::Error> {
            match whole(v) {
                Some(i) => s.serialize_i64(i),
                None => s.serialize_f64(v),
            }
        }
        struct Element(f64);
        impl Serialize for Element {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                one(self.0, s)
            }
        }
        match self {
            MetricValue::Number(v) => one(*v, serializer),
            MetricValue::Series(values) => {
                let mut seq = serializer.serialize_seq(Some(values.len()))?;
                for &v in values {
                    seq.serialize_element(&Element(v))?;
                }
                seq.end()
            }
        }
    }
}

impl MetricValue {
    /// The number, if this is one and finite.
    pub fn number(&self) -> Option<f64> {
        match self {
            MetricValue::Number(v) if v.is_finite() => Some(*v),
            _ => None,
        }
    }

    /// The series, if this is one.
    pub fn series(&self) -> Option<&[f64]> {
        match self {
            MetricValue::Series(s) => Some(s),
            MetricValue::Number(_) => None,
        }
    }
}

/// A benchmark's family metrics: named values tagged by the family, `{"kind": "<family>", ...}` in
/// results.json. A metric the design could not measure is absent (written before schema 7 as
/// `null`, which reads as absent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyMetrics {
    /// The family whose specs name the values.
    #[serde(rename = "kind")]
    pub family: Family,
    /// Metric name → value.
    #[serde(flatten, deserialize_with = "present_values")]
    pub values: BTreeMap<String, MetricValue>,
}

impl FamilyMetrics {
    /// The metrics of `family` from a struct of named fields (a family's typed metrics):
    /// numbers and sequences of numbers become values, `None` fields are left out.
    ///
    /// # Errors
    /// `fields` does not serialize to an object of numbers, nulls and arrays of numbers.
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Mine { bytes_per_tag: Option<f64>, frames: u64 }
    /// let m = results::FamilyMetrics::from_fields(
    ///     results::Family::Tags,
    ///     &Mine { bytes_per_tag: None, frames: 3 },
    /// ).unwrap();
    /// assert_eq!(m.number("frames"), Some(3.0));
    /// assert!(m.get("bytes_per_tag").is_none());
    /// ```
    pub fn from_fields<T: Serialize>(family: Family, fields: &T) -> Result<Self, String> {
        let value = serde_json::to_value(fields).map_err(|e| e.to_string())?;
        let serde_json::Value::Object(map) = value else {
            return Err(format!(
                "{family} metrics are not an object of named values"
            ));
        };
        let mut values = BTreeMap::new();
        for (name, v) in map {
            if v.is_null() {
                continue;
            }
            let v: MetricValue = serde_json::from_value(v)
                .map_err(|_| format!("{family} metric {name:?} is not a number or a series"))?;
            values.insert(name, v);
        }
        Ok(Self { family, values })
    }

    /// The value called `name`.
    pub fn get(&self, name: &str) -> Option<&MetricValue> {
        self.values.get(name)
    }

    /// The number called `name`, if present and finite.
    pub fn number(&self, name: &str) -> Option<f64> {
        self.get(name).and_then(MetricValue::number)
    }

    /// The series called `name`, if present.
    pub fn series(&self, name: &str) -> Option<&[f64]> {
        self.get(name).and_then(MetricValue::series)
    }
}

/// Deserializes the flattened values, dropping `null`s (how schema 4 to 6 wrote an unmeasured
/// metric).
fn present_values<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, MetricValue>, D::Error> {
    let all = BTreeMap::<String, Option<MetricValue>>::deserialize(deserializer)?;
    Ok(all
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_tagged_by_kind_and_nulls_read_as_absent() {
        let json = serde_json::json!({
            "kind": "components", "frames": 3, "garbage_after_10_frames": null,
            "garbage_per_frame": [4, 2, 0], "bytes_per_entity": 40.5
        });
        let m: FamilyMetrics = serde_json::from_value(json).unwrap();
        assert_eq!(m.family, Family::Components);
        assert_eq!(m.number("frames"), Some(3.0));
        assert_eq!(m.series("garbage_per_frame"), Some(&[4.0, 2.0, 0.0][..]));
        assert!(m.get("garbage_after_10_frames").is_none());
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back["kind"], "components");
        assert_eq!(back["bytes_per_entity"], 40.5);
        let text = serde_json::to_string(&m).unwrap();
        assert!(text.contains(r#""frames":3,"#), "{text}");
        assert!(text.contains(r#""garbage_per_frame":[4,2,0]"#), "{text}");
        assert_eq!(serde_json::from_value::<FamilyMetrics>(back).unwrap(), m);
    }

    #[test]
    fn a_value_that_is_neither_number_nor_series_is_refused() {
        let bad = serde_json::json!({"kind": "tags", "bytes_per_tag": "eight"});
        assert!(serde_json::from_value::<FamilyMetrics>(bad).is_err());
        #[derive(Serialize)]
        struct Bad {
            name: &'static str,
        }
        let e = FamilyMetrics::from_fields(Family::Tags, &Bad { name: "x" }).unwrap_err();
        assert!(e.contains("\"name\""), "{e}");
    }
}
