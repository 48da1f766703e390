//! A results file on disk: [`Results::load`] refuses a baseline, an unreadable version or
//! implausible numbers ([`ResultsError`], [`Results::check_plausible`]) and upgrades an older
//! version in memory ([`Results::from_value`]); [`Results::save`] writes one atomically.

use std::path::{Path, PathBuf};

use crate::family::FamilyRecord;
use crate::files::write_atomically;
use crate::stats::Estimate;

use super::{READABLE_VERSIONS, Results, SCHEMA_VERSION};

/// Why results could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    /// File could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not valid JSON of this schema.
    #[error("{path}: not a dodbench results file: {source}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// Another schema version (a newer one, none, or not a number).
    #[error("{path}: schema version {found}, this dodbench reads versions 1 to {SCHEMA_VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// What the file has as `schema_version`, as JSON (`"4"`, `null`), or `none`.
        found: String,
    },
    /// A baseline of the CI gate (`compare::baseline`), not a results file: it keeps a quick
    /// run's deterministic counts only, without the times, records and fields the claims and
    /// the report read.
    #[error(
        "{path}: a baseline of the CI gate (a run's deterministic counts only, no times), which \
         `dodbench compare` reads; claims and the report read a results file, such as the \
         committed reference run {REFERENCE_RUN}"
    )]
    Baseline {
        /// The file.
        path: PathBuf,
    },
    /// Well-formed JSON of this schema whose numbers cannot be a measurement (a time that is
    /// not a positive finite number below [`MAX_NS_PER_OP`], two entries for one benchmark).
    #[error("{path}: not a usable results file: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the benchmark.
        reason: String,
    },
}

/// The largest plausible time per work unit, in ns (1,000 s): a results file with more is
/// corrupt or hand-edited, and would break every chart's axis.
pub const MAX_NS_PER_OP: f64 = 1e12;

/// The `format` field that marks a baseline file (`compare::baseline`): told apart here so that
/// [`Results::load`] names a baseline given where a results file belongs.
pub const BASELINE_FORMAT: &str = "dodbench-baseline";

/// The committed reference run, relative to the workspace root: one whole run of the suite,
/// readable by every command that takes a results file (`docs/reference/README.md`).
pub const REFERENCE_RUN: &str = "docs/reference/results.json";

/// Why `ns` cannot be a measured time per work unit: not finite, not positive, or above
/// [`MAX_NS_PER_OP`]; `None` when it can.
///
/// ```
/// use results::schema::implausible_time;
/// assert_eq!(implausible_time(3.5), None);
/// assert!(implausible_time(0.0).unwrap().contains("not positive"));
/// assert!(implausible_time(1e308).unwrap().contains("above"));
/// assert!(implausible_time(f64::NAN).unwrap().contains("not finite"));
/// ```
pub fn implausible_time(ns: f64) -> Option<String> {
    if !ns.is_finite() {
        Some(format!("{ns} ns is not finite"))
    } else if ns <= 0.0 {
        Some(format!("{ns} ns is not positive"))
    } else if ns > MAX_NS_PER_OP {
        // Scientific notation: 1e308 printed in full is 309 digits.
        Some(format!(
            "{ns:e} ns is above the plausible maximum {MAX_NS_PER_OP:e} ns"
        ))
    } else {
        None
    }
}

impl Estimate {
    /// Why this estimate cannot be a measured time: a bound or the median is implausible
    /// ([`implausible_time`]), or `lower <= median <= upper` does not hold.
    pub fn implausible(&self) -> Option<String> {
        for (name, v) in [
            ("median", self.median),
            ("lower", self.lower),
            ("upper", self.upper),
        ] {
            if let Some(why) = implausible_time(v) {
                return Some(format!("ns_per_op.{name}: {why}"));
            }
        }
        (!(self.lower <= self.median && self.median <= self.upper)).then(|| {
            format!(
                "ns_per_op: lower {} <= median {} <= upper {} does not hold",
                self.lower, self.median, self.upper
            )
        })
    }
}

impl Results {
    /// Reads and checks a results file.
    ///
    /// # Errors
    /// Missing file, corrupt JSON or another schema version.
    pub fn load(path: &Path) -> Result<Self, ResultsError> {
        let text = std::fs::read_to_string(path).map_err(|source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|source| ResultsError::Corrupt {
                path: path.to_path_buf(),
                source,
            })?;
        if value.get("format").and_then(|f| f.as_str()) == Some(BASELINE_FORMAT) {
            return Err(ResultsError::Baseline {
                path: path.to_path_buf(),
            });
        }
        let version = value.get("schema_version");
        if !version
            .and_then(|v| v.as_u64())
            .is_some_and(|found| READABLE_VERSIONS.iter().any(|&v| u64::from(v) == found))
        {
            return Err(ResultsError::Version {
                path: path.to_path_buf(),
                found: version.map_or("none".to_string(), |v| v.to_string()),
            });
        }
        let results = Self::from_value(value).map_err(|source| ResultsError::Corrupt {
            path: path.to_path_buf(),
            source,
        })?;
        results
            .check_plausible()
            .map_err(|reason| ResultsError::Invalid {
                path: path.to_path_buf(),
                reason,
            })?;
        Ok(results)
    }

    /// Checks what serde cannot: one entry per (family, workload, design, n), and every time
    /// a plausible measurement ([`Estimate::implausible`], [`implausible_time`] for each
    /// sample and sweep point).
    ///
    /// # Errors
    /// The first problem, naming the benchmark.
    pub fn check_plausible(&self) -> Result<(), String> {
        let mut seen = std::collections::HashSet::new();
        for b in &self.benchmarks {
            let id = b.id();
            if !seen.insert((b.family, &b.workload, &b.design, b.n)) {
                return Err(format!("{id}: two entries for one benchmark"));
            }
            if let Some(why) = b.ns_per_op.as_ref().and_then(Estimate::implausible) {
                return Err(format!("{id}: {why}"));
            }
            if let Some(why) = b
                .samples_ns_per_op
                .iter()
                .find_map(|&ns| implausible_time(ns))
            {
                return Err(format!("{id}: a sample: {why}"));
            }
        }
        let points = self.sweeps.iter().flat_map(|s| &s.points);
        for p in points {
            if let Some(why) = p.ns_per_op.and_then(implausible_time) {
                return Err(format!(
                    "sweep point {}/{}/{}/{}: {why}",
                    p.family, p.workload, p.design, p.n
                ));
            }
        }
        Ok(())
    }

    /// Reads a results file's JSON of any readable version (the version is not checked
    /// here; [`Results::load`] checks it first), upgraded to this schema.
    ///
    /// # Errors
    /// The JSON does not have this schema's shape.
    pub fn from_value(mut value: serde_json::Value) -> Result<Self, serde_json::Error> {
        let has_families = value.get("families").is_some();
        if let Some(benchmarks) = value.get_mut("benchmarks").and_then(|b| b.as_array_mut()) {
            for b in benchmarks.iter_mut().filter_map(|b| b.as_object_mut()) {
                if b.contains_key("metrics") {
                    continue;
                }
                if let Some(m) = crate::family::take_v3_metrics(b)? {
                    b.insert("metrics".to_string(), serde_json::to_value(m)?);
                }
            }
        }
        let mut results: Self = serde_json::from_value(value)?;
        if !has_families {
            results.families = FamilyRecord::builtin_all();
        }
        results.schema_version = SCHEMA_VERSION;
        Ok(results)
    }

    /// Loads `path` if it exists, else returns `new()` (an empty run), so a measurement pass
    /// can merge its fields into whatever `cargo bench` wrote.
    ///
    /// # Errors
    /// The file exists but cannot be read or is of an unreadable version.
    pub fn load_or(path: &Path, new: impl FnOnce() -> Self) -> Result<Self, ResultsError> {
        if path.exists() {
            return Self::load(path);
        }
        Ok(new())
    }

    /// Writes the file by [`write_atomically`]'s rule: a temporary file beside the file (a
    /// symbolic link's target), flushed to disk, then renamed over it, so readers see the old
    /// or the new file, never a torn one.
    ///
    /// # Errors
    /// The directory or file could not be written.
    pub fn save(&self, path: &Path) -> Result<(), ResultsError> {
        let json = serde_json::to_vec_pretty(self).expect("results serialise");
        write_atomically(path, &json).map_err(|source| ResultsError::Io {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;
    use crate::machine::Machine;
    use crate::schema::{Benchmark, Status};

    fn empty() -> Results {
        let machine = Machine::test_box("test-box");
        Results::empty(machine, "c".into(), "rustc".into(), 1, "quick")
    }

    #[test]
    fn refuses_other_versions_and_corrupt_files_with_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        std::fs::write(&p, r#"{"schema_version": 99}"#).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version 99"), "{e}");
        assert!(e.contains("versions 1 to 7"), "{e}");
        std::fs::write(&p, "{not json").unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("not a dodbench results file"), "{e}");
        let e = Results::load(&dir.path().join("missing.json")).unwrap_err();
        assert!(matches!(e, ResultsError::Io { .. }));
    }

    #[test]
    fn a_schema_version_of_the_wrong_type_is_named_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        let mut v = serde_json::to_value(empty()).unwrap();
        v["schema_version"] = "4".into();
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version \"4\","), "{e}");
        v.as_object_mut().unwrap().remove("schema_version");
        std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("schema version none"), "{e}");
    }

    #[test]
    fn a_baseline_is_named_with_the_file_to_read_instead() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("baseline.json");
        let baseline = serde_json::json!({
            "format": BASELINE_FORMAT,
            "format_version": 1,
            "commit": "abc",
            "benchmarks": [],
        });
        std::fs::write(&p, serde_json::to_vec(&baseline).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("a baseline of the CI gate"), "{e}");
        assert!(e.contains(REFERENCE_RUN), "{e}");
        assert_eq!(e.matches(&*p.display().to_string()).count(), 1, "{e}");
    }

    #[test]
    fn implausible_times_and_duplicate_benchmarks_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        let timed = |median: f64| {
            let mut b = Benchmark::new(Family::IdTable, "churn", "holey", 10, 20);
            b.ns_per_op = Some(Estimate {
                median,
                lower: median * 0.9,
                upper: median * 1.1,
            });
            b
        };
        let cases = [
            (vec![timed(1e308)], "above the plausible maximum"),
            (vec![timed(0.0)], "not positive"),
            (vec![timed(-3.0)], "not positive"),
            (
                vec![timed(5.0), timed(6.0)],
                "two entries for one benchmark",
            ),
        ];
        for (benchmarks, expected) in cases {
            let mut r = empty();
            r.benchmarks = benchmarks;
            std::fs::write(&p, serde_json::to_vec(&r).unwrap()).unwrap();
            let e = Results::load(&p).unwrap_err().to_string();
            assert!(e.contains("id_table/churn/holey/10"), "{e}");
            assert!(e.contains(expected), "{e}");
            // compare reads the same file and refuses it as clearly.
            let e = crate::compare::Run::load(&p).unwrap_err().to_string();
            assert!(e.contains(expected), "{e}");
        }
        let mut r = empty();
        r.benchmarks = vec![timed(5.0)];
        r.benchmarks[0].ns_per_op.as_mut().unwrap().lower = 7.0;
        std::fs::write(&p, serde_json::to_vec(&r).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("does not hold"), "{e}");
    }

    #[test]
    fn unknown_family_or_status_names_are_clear_errors() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        for (field, bad) in [("family", "idtable"), ("status", "ok")] {
            let mut v = serde_json::to_value(empty()).unwrap();
            let mut b =
                serde_json::to_value(Benchmark::new(Family::IdTable, "churn", "holey", 10, 20))
                    .unwrap();
            b[field] = bad.into();
            v["benchmarks"] = serde_json::json!([b]);
            std::fs::write(&p, serde_json::to_vec(&v).unwrap()).unwrap();
            let e = Results::load(&p).unwrap_err().to_string();
            assert!(e.contains("not a dodbench results file"), "{e}");
            assert!(e.contains(&format!("unknown variant `{bad}`")), "{e}");
        }
    }

    #[test]
    fn reads_version_1_files_and_merges_entries() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v1.json");
        let mut v1 = serde_json::to_value(empty()).unwrap();
        v1["schema_version"] = 1.into();
        let obj = v1.as_object_mut().unwrap();
        obj.remove("sweeps");
        obj.remove("families");
        let mut b = serde_json::to_value(Benchmark::new(Family::IdTable, "churn", "holey", 10, 20))
            .unwrap();
        let b_obj = b.as_object_mut().unwrap();
        for new in [
            "sim",
            "hw",
            "hw_reason",
            "alloc_calls_per_op",
            "memory",
            "latency",
            "metrics",
        ] {
            b_obj.remove(new);
        }
        b_obj.remove("bytes_per_object");
        b_obj.insert("bytes_per_live_object".into(), 40.0.into());
        v1["benchmarks"] = serde_json::json!([b]);
        std::fs::write(&p, serde_json::to_vec(&v1).unwrap()).unwrap();
        let mut r = Results::load(&p).unwrap();
        assert_eq!(r.schema_version, SCHEMA_VERSION);
        assert_eq!(r.benchmarks[0].bytes_per_object, Some(40.0));
        assert_eq!(r.benchmarks[0].sim, None);
        assert_eq!(r.families, FamilyRecord::builtin_all());
        r.entry(Family::IdTable, "churn", "holey", 10, 20).verified = true;
        r.entry(Family::IdTable, "churn", "packed", 10, 20);
        assert_eq!(r.benchmarks.len(), 2);
        assert!(r.benchmarks[0].verified);
        assert_eq!(r.benchmarks[1].status, Status::Unmeasured);
    }

    #[test]
    fn reads_version_3_tags_and_alloc_fields_into_metrics() {
        let tags = serde_json::json!({
            "tags_after_setup": 10, "bytes_per_tag": 12.5, "memory_bytes_after_body": 100,
            "setup_alloc_calls_per_tag": 0.1, "alloc_calls_per_op": 0.0,
        });
        let alloc = serde_json::json!({
            "arena_bytes": 4096, "utilization_at_peak": 0.5, "utilization_mean": 0.4,
            "internal_fragmentation_at_peak": 0.5, "external_fragmentation_at_peak": null,
            "largest_free_over_arena_at_peak": 0.25, "metadata_bits_per_block": 2.0,
            "live_fraction_at_first_failure": null,
        });
        let mut v3 = serde_json::to_value(empty()).unwrap();
        v3["schema_version"] = 3.into();
        v3.as_object_mut().unwrap().remove("families");
        let mut benchmarks = Vec::new();
        for (family, field, value) in [
            (Family::Tags, "tags", tags),
            (Family::Alloc, "alloc", alloc),
            (Family::IdTable, "tags", serde_json::Value::Null),
        ] {
            let mut b = serde_json::to_value(Benchmark::new(family, "w", "d", 1, 1)).unwrap();
            let obj = b.as_object_mut().unwrap();
            obj.remove("metrics");
            obj.insert(field.into(), value);
            if field == "tags" {
                obj.insert("alloc".into(), serde_json::Value::Null);
            }
            benchmarks.push(b);
        }
        v3["benchmarks"] = benchmarks.into();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v3.json");
        std::fs::write(&p, serde_json::to_vec(&v3).unwrap()).unwrap();
        let r = Results::load(&p).unwrap();
        let tags = r.benchmarks[0].metrics.as_ref().unwrap();
        assert_eq!(tags.family, Family::Tags);
        assert_eq!(tags.number("bytes_per_tag"), Some(12.5));
        assert_eq!(tags.number("tags_after_setup"), Some(10.0));
        let alloc = r.benchmarks[1].metrics.as_ref().unwrap();
        assert_eq!(alloc.family, Family::Alloc);
        assert_eq!(alloc.number("largest_free_over_arena_at_peak"), Some(0.25));
        assert!(alloc.get("external_fragmentation_at_peak").is_none());
        assert_eq!(r.benchmarks[2].metrics, None);
        assert_eq!(r.families, FamilyRecord::builtin_all());
        // Saved as version 4 and read back unchanged.
        r.save(&p).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(r#""kind": "alloc""#), "{text}");
        assert!(!text.contains(r#""tags": {"#), "{text}");
        assert_eq!(Results::load(&p).unwrap(), r);
        // A v3 `tags` block of the wrong shape is a clear error, not a panic.
        v3["benchmarks"][0]["tags"] = serde_json::json!({"tags_after_setup": "many"});
        v3["benchmarks"][0]
            .as_object_mut()
            .unwrap()
            .remove("metrics");
        std::fs::write(&p, serde_json::to_vec(&v3).unwrap()).unwrap();
        let e = Results::load(&p).unwrap_err().to_string();
        assert!(e.contains("not a dodbench results file"), "{e}");
    }

    #[test]
    fn version_4_keeps_the_runs_own_families() {
        let mut r = empty();
        r.families[0].reference_design = "packed".into();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v4.json");
        r.save(&p).unwrap();
        let back = Results::load(&p).unwrap();
        assert_eq!(back.families[0].reference_design, "packed");
        assert_eq!(
            back.family_record(Family::IdTable)
                .unwrap()
                .reference_design,
            "packed"
        );
        assert!(back.family_record(Family::Reference).is_none());
    }
}
