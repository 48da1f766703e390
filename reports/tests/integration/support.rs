//! What the report's integration tests share: reading the pages they render and checking a
//! fixture against the schema.

use std::path::{Path, PathBuf};

use results::Results;

/// The text of the file at `p`.
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Values of `attr` (e.g. `src="`) in `html`, HTML entities for `/` decoded.
pub fn attribute_values(html: &str, attr: &str) -> Vec<PathBuf> {
    html.match_indices(attr)
        .map(|(i, _)| {
            let rest = &html[i + attr.len()..];
            PathBuf::from(rest[..rest.find('"').unwrap()].replace("&#x2f;", "/"))
        })
        .collect()
}

/// Checks that every key of the results fixture at `path` is a field of the schema: serde
/// ignores unknown fields, so a misspelt fixture key would silently be dropped; here every key
/// must come back when the loaded results are serialised again.
pub fn assert_only_schema_fields(path: &Path) {
    fn check(fixture: &serde_json::Value, typed: &serde_json::Value, at: &str) {
        match (fixture, typed) {
            (serde_json::Value::Object(f), serde_json::Value::Object(t)) => {
                for (k, v) in f {
                    // A `null` metric reads as absent (schema 7 leaves it out).
                    if v.is_null() && !t.contains_key(k) {
                        continue;
                    }
                    // The field's name before schema 2 (read as an alias).
                    let k2 = if k == "bytes_per_live_object" {
                        "bytes_per_object"
                    } else {
                        k
                    };
                    let tv = t
                        .get(k2)
                        .unwrap_or_else(|| panic!("{at}.{k} not in the schema"));
                    check(v, tv, &format!("{at}.{k}"));
                }
            }
            (serde_json::Value::Array(f), serde_json::Value::Array(t)) => {
                assert_eq!(f.len(), t.len(), "{at}");
                for (i, (a, b)) in f.iter().zip(t).enumerate() {
                    check(a, b, &format!("{at}[{i}]"));
                }
            }
            _ => {}
        }
    }
    let raw: serde_json::Value = serde_json::from_str(&read(path)).unwrap();
    let typed = serde_json::to_value(Results::load(path).unwrap()).unwrap();
    check(&raw, &typed, "results");
}
